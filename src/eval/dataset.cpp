// The frozen dataset: enums, strict loading and validation (dataset.hpp). Dates live in
// dates.cpp, the canonical form and fingerprints in fingerprint.cpp.
#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

#include "common/enum_table.hpp"
#include "common/icu.hpp"
#include "common/json_reader.hpp"
#include "common/utf8.hpp"
#include "qaplan/eval/dataset.hpp"
#include "qaplan/io.hpp"

namespace qaplan {

namespace {

using internal::EnumTable;

constexpr EnumTable<ChunkKind, 3> kKinds{{{
    {ChunkKind::kRule, "rule"},
    {ChunkKind::kBackground, "background"},
    {ChunkKind::kRevisionNotes, "revision_notes"},
}}};
constexpr EnumTable<PolicyStatus, 2> kStatuses{{{
    {PolicyStatus::kEffective, "effective"},
    {PolicyStatus::kSuperseded, "superseded"},
}}};
constexpr EnumTable<Split, 2> kSplits{{{
    {Split::kDev, "dev"},
    {Split::kTest, "test"},
}}};

// Dataset files spell the choices "a|b" in their messages.
template <class E, std::size_t N>
Result<E> parse_choice(const EnumTable<E, N>& table, std::string_view text) {
  auto r = table.parse(text, "");
  if (!r.ok()) return make_error(ErrorCode::kInvalidInput, "must be " + table.choices("|"));
  return r;
}

}  // namespace

std::string_view to_string(ChunkKind kind) noexcept { return kKinds.name(kind); }
Result<ChunkKind> parse_chunk_kind(std::string_view text) { return parse_choice(kKinds, text); }
std::string_view to_string(PolicyStatus status) noexcept { return kStatuses.name(status); }
Result<PolicyStatus> parse_policy_status(std::string_view text) {
  return parse_choice(kStatuses, text);
}
std::string_view to_string(Split split) noexcept { return kSplits.name(split); }
Result<Split> parse_split(std::string_view text) { return parse_choice(kSplits, text); }

namespace {

using namespace internal::json;

// NFKC casefold with all white space removed: two query texts equal under this key are the
// same question for the purposes of "no query in both splits".
std::string query_key(const std::string& text) {
  std::string norm;
  if (!internal::nfkc_casefold_into(text, norm).ok()) return text;
  std::string out;
  out.reserve(norm.size());
  for (std::size_t i = 0; i < norm.size();) {
    const std::size_t b = i;
    const std::int32_t cp = internal::next_code_point(norm, i);
    if (cp < 0 || !internal::is_unicode_space(cp)) out.append(norm, b, i - b);
  }
  return out;
}

// What the policies section establishes and the rest checks against.
struct PolicyIndex {
  std::map<std::string, std::string> source_of_policy, policy_of_source;
  std::set<std::string> chunk_ids;
  std::set<std::pair<std::string, std::string>> rule_sections;  // (source, section) of rule chunks
};

std::optional<CivilDate> date_field(const std::optional<std::string>& v, const std::string& path) {
  if (!v) return std::nullopt;
  auto r = parse_iso_date(*v);
  if (!r) fail(path, r.error().message);
  return *r;
}

// A policy version's own fields (its chunks come after).
Policy parse_policy_fields(const Json& pj, const std::string& pp) {
  expect_keys(pj, pp,
              {"policy_id", "source", "title", "version", "status", "effective_from",
               "effective_to", "chunks"});
  Policy p;
  p.policy_id = req_string(pj, pp, "policy_id");
  p.source = req_string(pj, pp, "source");
  p.title = opt_string(pj, pp, "title");
  p.version = opt_string(pj, pp, "version");
  if (p.version && !is_valid_policy_version(*p.version)) {
    fail(join(pp, "version"), "must be dotted decimal numbers like \"2.4\"");
  }
  if (auto st = opt_string(pj, pp, "status")) {
    auto s = parse_policy_status(*st);
    if (!s) fail(join(pp, "status"), s.error().message);
    p.status = *s;
  }
  p.effective_from = opt_string(pj, pp, "effective_from");
  p.effective_to = opt_string(pj, pp, "effective_to");
  const auto from = date_field(p.effective_from, join(pp, "effective_from"));
  const auto to = date_field(p.effective_to, join(pp, "effective_to"));
  if (from && to && *to < *from) fail(join(pp, "effective_to"), "is before effective_from");
  return p;
}

// One source per policy id and one policy id per source, so a (source, section) label names the
// same policy whichever version survives scope selection; no version twice.
void check_policy_identity(const Policy& p, const std::string& pp, const Dataset& d,
                           PolicyIndex& ix) {
  if (auto [it, fresh] = ix.source_of_policy.emplace(p.policy_id, p.source);
      !fresh && it->second != p.source) {
    fail(join(pp, "source"),
         "policy \"" + p.policy_id + "\" already has source \"" + it->second + "\"");
  }
  if (auto [it, fresh] = ix.policy_of_source.emplace(p.source, p.policy_id);
      !fresh && it->second != p.policy_id) {
    fail(join(pp, "source"),
         "source \"" + p.source + "\" already belongs to policy \"" + it->second + "\"");
  }
  if (!p.version) return;
  for (std::size_t k = 0; k < d.policies.size(); ++k) {
    const Policy& o = d.policies[k];
    if (o.policy_id == p.policy_id && o.version &&
        compare_policy_versions(*o.version, *p.version) == 0) {
      fail(join(pp, "version"), "duplicate version " + *p.version + " of policy \"" +
                                    p.policy_id + "\" (also " + index_path("policies", k) + ")");
    }
  }
}

// The chunks of policy `pi`, appended to d.chunks in ascending id order.
void parse_chunks(const Json& pj, const std::string& pp, std::size_t pi, Policy& p, Dataset& d,
                  PolicyIndex& ix) {
  const Json& chunks = req_array(pj, pp, "chunks", true);
  std::set<std::string> sections;
  for (std::size_t ci = 0; ci < chunks.size(); ++ci) {
    const std::string cp = index_path(join(pp, "chunks"), ci);
    const Json& cj = chunks[ci];
    expect_keys(cj, cp, {"id", "section", "kind", "text"});
    Chunk c;
    c.id = req_string(cj, cp, "id");
    c.section = req_string(cj, cp, "section");
    const std::string kind = req_string(cj, cp, "kind");
    auto k = parse_chunk_kind(kind);
    if (!k) fail(join(cp, "kind"), k.error().message);
    c.kind = *k;
    c.text = req_string(cj, cp, "text");
    if (!ix.chunk_ids.insert(c.id).second) fail(join(cp, "id"), "duplicate chunk id " + c.id);
    if (!d.chunks.empty() && !(d.chunks.back().id < c.id)) {
      fail(join(cp, "id"), "chunks must be listed in ascending id order (\"" + c.id +
                               "\" after \"" + d.chunks.back().id + "\")");
    }
    if (!sections.insert(c.section).second) {
      fail(join(cp, "section"),
           "duplicate section title \"" + c.section + "\" within this policy version");
    }
    c.policy_index = pi;
    c.policy_id = p.policy_id;
    c.source = p.source;
    if (c.kind == ChunkKind::kRule) ix.rule_sections.emplace(c.source, c.section);
    p.chunks.push_back(d.chunks.size());
    d.chunks.push_back(std::move(c));
  }
}

void parse_policies(const Json& root, Dataset& d, PolicyIndex& ix) {
  const Json& policies = req_array(root, "", "policies", true);
  for (std::size_t pi = 0; pi < policies.size(); ++pi) {
    const std::string pp = index_path("policies", pi);
    Policy p = parse_policy_fields(policies[pi], pp);
    check_policy_identity(p, pp, d, ix);
    parse_chunks(policies[pi], pp, pi, p, d, ix);
    d.policies.push_back(std::move(p));
  }
}

// A query's relevant sections: rule sections of the dataset, no section twice.
void parse_relevant(const Json& qj, const std::string& qp, const PolicyIndex& ix, Query& q) {
  const Json& rel = req_array(qj, qp, "relevant", false);
  for (std::size_t ri = 0; ri < rel.size(); ++ri) {
    const std::string rp = index_path(join(qp, "relevant"), ri);
    expect_keys(rel[ri], rp, {"source", "section"});
    SectionRef r{req_string(rel[ri], rp, "source"), req_string(rel[ri], rp, "section")};
    if (!ix.rule_sections.count({r.source, r.section})) {
      fail(rp, "no rule section \"" + r.section + "\" in source \"" + r.source + "\"");
    }
    if (std::find(q.relevant.begin(), q.relevant.end(), r) != q.relevant.end()) {
      fail(rp, "duplicate relevant section");
    }
    q.relevant.push_back(std::move(r));
  }
}

// Its tags: known, distinct, and multi_section / lexical_negative exactly when they hold.
void parse_tags(const Json& qj, const std::string& qp, Query& q) {
  const Json& tags = req_array(qj, qp, "tags", false);
  for (std::size_t ti = 0; ti < tags.size(); ++ti) {
    const std::string tp_path = index_path(join(qp, "tags"), ti);
    if (!tags[ti].is_string()) fail(tp_path, "must be a string, not " + std::string(tags[ti].type_name()));
    const std::string t = tags[ti].get<std::string>();
    if (std::find(std::begin(kQueryTags), std::end(kQueryTags), t) == std::end(kQueryTags)) {
      std::string all;
      for (std::string_view k : kQueryTags) all += (all.empty() ? "" : "|") + std::string(k);
      fail(tp_path, "unknown tag \"" + t + "\" (must be " + all + ")");
    }
    if (std::find(q.tags.begin(), q.tags.end(), t) != q.tags.end()) {
      fail(tp_path, "duplicate tag \"" + t + "\"");
    }
    q.tags.push_back(t);
  }
  auto has_tag = [&](std::string_view t) {
    return std::find(q.tags.begin(), q.tags.end(), t) != q.tags.end();
  };
  if (has_tag("multi_section") != (q.relevant.size() >= 2)) {
    fail(join(qp, "tags"), "\"multi_section\" must be present exactly when 2+ sections are relevant");
  }
  if (has_tag("lexical_negative") != q.relevant.empty()) {
    fail(join(qp, "tags"), "\"lexical_negative\" must be present exactly when no section is relevant");
  }
}

void parse_queries(const Json& root, const PolicyIndex& ix, Dataset& d) {
  const Json& queries = req_array(root, "", "queries", true);
  std::set<std::string> query_ids;
  std::unordered_map<std::string, std::size_t> seen_text;
  for (std::size_t qi = 0; qi < queries.size(); ++qi) {
    const std::string qp = index_path("queries", qi);
    const Json& qj = queries[qi];
    expect_keys(qj, qp, {"id", "query", "split", "relevant", "tags", "reason"});
    Query q;
    q.id = req_string(qj, qp, "id");
    if (!query_ids.insert(q.id).second) fail(join(qp, "id"), "duplicate query id " + q.id);
    q.text = req_string(qj, qp, "query");
    auto split = parse_split(req_string(qj, qp, "split"));
    if (!split) fail(join(qp, "split"), split.error().message);
    q.split = *split;
    parse_relevant(qj, qp, ix, q);
    parse_tags(qj, qp, q);
    q.reason = req_string(qj, qp, "reason");
    if (auto [it, fresh] = seen_text.emplace(query_key(q.text), qi); !fresh) {
      const Query& other = d.queries[it->second];
      fail(join(qp, "query"),
           other.split != q.split
               ? "query appears in both splits (also " + index_path("queries", it->second) + ")"
               : "duplicate query text (also " + index_path("queries", it->second) + ")");
    }
    d.queries.push_back(std::move(q));
  }
}

Dataset parse_root(const Json& root) {
  Dataset d;
  expect_keys(root, "", {"version", "time_point", "description", "policies", "queries"});
  d.version = req_string(root, "", "version");
  d.time_point = req_string(root, "", "time_point");
  auto tp = parse_iso_time_point(d.time_point);
  if (!tp) fail("time_point", tp.error().message);
  d.at = *tp;
  const Json& v = root.at("description");
  if (!v.is_string()) fail("description", "must be a string, not " + std::string(v.type_name()));
  d.description = v.get<std::string>();
  PolicyIndex ix;
  parse_policies(root, d, ix);
  parse_queries(root, ix, d);
  return d;
}

}  // namespace

Result<Dataset> parse_dataset(std::string_view json_text, std::string_view name) {
  return read_json(name, 0, [&] { return parse_root(parse_strict(json_text)); });
}

Result<Dataset> load_dataset_file(const std::filesystem::path& path) {
  auto text = read_file(path, "dataset file");
  if (!text.ok()) return text.error();
  return parse_dataset(*text, path.string());
}

}  // namespace qaplan
