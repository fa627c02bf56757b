#include "internal/io.hpp"
#include "qaplan/dataset.hpp"

#include <unicode/normalizer2.h>
#include <unicode/uchar.h>
#include <unicode/unistr.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <fstream>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <unordered_map>
#include <utility>

#include "internal/sha256.hpp"

namespace qaplan {

// ---------------------------------------------------------------------------------------------
// Dates, time points, versions
// ---------------------------------------------------------------------------------------------
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Reads exactly n ASCII digits at s[pos]; -1 when any is not a digit.
int read_digits(std::string_view s, std::size_t pos, std::size_t n) {
  if (pos + n > s.size()) return -1;
  int v = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (!is_digit(s[pos + i])) return -1;
    v = v * 10 + (s[pos + i] - '0');
  }
  return v;
}

bool is_leap(int y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

int days_in_month(int y, int m) {
  static constexpr std::array<int, 12> kDays = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && is_leap(y) ? 29 : kDays[static_cast<std::size_t>(m - 1)];
}

// Parses YYYY-MM-DD at the start of s (exactly 10 bytes used).
std::optional<CivilDate> date_prefix(std::string_view s) {
  if (s.size() < 10 || s[4] != '-' || s[7] != '-') return std::nullopt;
  const int y = read_digits(s, 0, 4), m = read_digits(s, 5, 2), d = read_digits(s, 8, 2);
  if (y < 1 || m < 1 || m > 12 || d < 1 || d > days_in_month(y, m)) return std::nullopt;
  return CivilDate{y, m, d};
}

// Howard Hinnant's civil_from_days (inverse of days_from_civil).
CivilDate civil_from_days(std::int64_t z) {
  z += 719468;
  const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const auto doe = static_cast<std::int64_t>(z - era * 146097);
  const std::int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const std::int64_t y = yoe + era * 400;
  const std::int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const std::int64_t mp = (5 * doy + 2) / 153;
  const std::int64_t d = doy - (153 * mp + 2) / 5 + 1;
  const std::int64_t m = mp < 10 ? mp + 3 : mp - 9;
  return CivilDate{static_cast<int>(m <= 2 ? y + 1 : y), static_cast<int>(m), static_cast<int>(d)};
}

// Strips leading zeros of one version component (keeps one digit).
std::string_view strip_zeros(std::string_view c) {
  while (c.size() > 1 && c.front() == '0') c.remove_prefix(1);
  return c;
}

}  // namespace

Result<CivilDate> parse_iso_date(std::string_view text) {
  auto d = date_prefix(text);
  if (!d || text.size() != 10) {
    return make_error(ErrorCode::kInvalidInput,
                      "not an ISO-8601 date YYYY-MM-DD: \"" + std::string(text) + "\"");
  }
  return *d;
}

std::int64_t days_from_civil(const CivilDate& cd) noexcept {
  // Howard Hinnant's algorithm: exact for the whole proleptic Gregorian calendar.
  const std::int64_t y = cd.month <= 2 ? cd.year - 1 : cd.year;
  const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
  const std::int64_t yoe = y - era * 400;
  const std::int64_t m = cd.month;
  const std::int64_t doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + cd.day - 1;
  const std::int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

CivilDate TimePoint::local_date() const noexcept {
  const std::int64_t local = unix_seconds + std::int64_t{offset_minutes} * 60;
  const std::int64_t days = (local >= 0 ? local : local - 86399) / 86400;
  return civil_from_days(days);
}

Result<TimePoint> parse_iso_time_point(std::string_view text) {
  auto bad = [&] {
    return make_error(
        ErrorCode::kInvalidInput,
        "not an ISO-8601 time point YYYY-MM-DDThh:mm:ss(Z|+hh:mm): \"" + std::string(text) + "\"");
  };
  const auto date = date_prefix(text);
  if (!date || text.size() < 20 || text[10] != 'T' || text[13] != ':' || text[16] != ':') {
    return bad();
  }
  const int hh = read_digits(text, 11, 2), mm = read_digits(text, 14, 2),
            ss = read_digits(text, 17, 2);
  if (hh < 0 || hh > 23 || mm < 0 || mm > 59 || ss < 0 || ss > 59) return bad();
  std::size_t pos = 19;
  std::int32_t nanos = 0;
  if (text[pos] == '.') {
    ++pos;
    std::size_t n = 0;
    while (pos < text.size() && is_digit(text[pos])) {
      if (n == 9) return bad();
      nanos = nanos * 10 + (text[pos] - '0');
      ++n;
      ++pos;
    }
    if (n == 0) return bad();
    for (std::size_t k = n; k < 9; ++k) nanos *= 10;
  }
  std::int32_t offset = 0;
  if (pos < text.size() && text[pos] == 'Z') {
    ++pos;
  } else if (pos + 6 == text.size() && (text[pos] == '+' || text[pos] == '-') &&
             text[pos + 3] == ':') {
    const int oh = read_digits(text, pos + 1, 2), om = read_digits(text, pos + 4, 2);
    if (oh < 0 || oh > 23 || om < 0 || om > 59) return bad();
    offset = (oh * 60 + om) * (text[pos] == '-' ? -1 : 1);
    pos += 6;
  } else {
    return bad();
  }
  if (pos != text.size()) return bad();
  TimePoint tp;
  tp.unix_seconds =
      days_from_civil(*date) * 86400 + hh * 3600 + mm * 60 + ss - std::int64_t{offset} * 60;
  tp.nanos = nanos;
  tp.offset_minutes = offset;
  return tp;
}

bool is_valid_policy_version(std::string_view text) noexcept {
  if (text.empty()) return false;
  bool need_digit = true;
  for (char c : text) {
    if (is_digit(c)) {
      need_digit = false;
    } else if (c == '.' && !need_digit) {
      need_digit = true;
    } else {
      return false;
    }
  }
  return !need_digit;
}

int compare_policy_versions(std::string_view a, std::string_view b) noexcept {
  // Component-wise numeric comparison on digit strings, so no component can overflow.
  while (!a.empty() || !b.empty()) {
    const std::size_t ea = std::min(a.find('.'), a.size());
    const std::size_t eb = std::min(b.find('.'), b.size());
    const std::string_view ca = strip_zeros(a.empty() ? "0" : a.substr(0, ea));
    const std::string_view cb = strip_zeros(b.empty() ? "0" : b.substr(0, eb));
    if (ca.size() != cb.size()) return ca.size() < cb.size() ? -1 : 1;
    if (const int c = ca.compare(cb); c != 0) return c < 0 ? -1 : 1;
    a = ea < a.size() ? a.substr(ea + 1) : std::string_view{};
    b = eb < b.size() ? b.substr(eb + 1) : std::string_view{};
  }
  return 0;
}

// ---------------------------------------------------------------------------------------------
// Enums: one table each, used by to_string and parse_* alike.
// ---------------------------------------------------------------------------------------------
namespace {
constexpr std::array<std::pair<ChunkKind, std::string_view>, 3> kKinds = {{
    {ChunkKind::kRule, "rule"},
    {ChunkKind::kBackground, "background"},
    {ChunkKind::kRevisionNotes, "revision_notes"},
}};
constexpr std::array<std::pair<PolicyStatus, std::string_view>, 2> kStatuses = {{
    {PolicyStatus::kEffective, "effective"},
    {PolicyStatus::kSuperseded, "superseded"},
}};
constexpr std::array<std::pair<Split, std::string_view>, 2> kSplits = {{
    {Split::kDev, "dev"},
    {Split::kTest, "test"},
}};

template <class E, std::size_t N>
std::string_view name_of(const std::array<std::pair<E, std::string_view>, N>& table, E e) {
  for (const auto& [v, n] : table) {
    if (v == e) return n;
  }
  return "?";
}

template <class E, std::size_t N>
Result<E> parse_enum(const std::array<std::pair<E, std::string_view>, N>& table,
                     std::string_view text) {
  std::string all;
  for (const auto& [v, n] : table) {
    if (n == text) return v;
    all += all.empty() ? "" : "|";
    all += n;
  }
  return make_error(ErrorCode::kInvalidInput, "must be " + all);
}
}  // namespace

std::string_view to_string(ChunkKind kind) noexcept { return name_of(kKinds, kind); }
Result<ChunkKind> parse_chunk_kind(std::string_view text) { return parse_enum(kKinds, text); }
std::string_view to_string(PolicyStatus status) noexcept { return name_of(kStatuses, status); }
Result<PolicyStatus> parse_policy_status(std::string_view text) {
  return parse_enum(kStatuses, text);
}
std::string_view to_string(Split split) noexcept { return name_of(kSplits, split); }
Result<Split> parse_split(std::string_view text) { return parse_enum(kSplits, text); }

// ---------------------------------------------------------------------------------------------
// Loading
// ---------------------------------------------------------------------------------------------
namespace {

using json = nlohmann::json;

// Thrown inside this file only, caught in parse_dataset(): a validation failure at `path`.
struct Invalid {
  std::string path;
  std::string message;
};

[[noreturn]] void fail(std::string path, std::string message) {
  throw Invalid{std::move(path), std::move(message)};
}

std::string type_name(const json& v) { return v.type_name(); }

// `obj` must be an object with exactly `keys`.
void expect_keys(const json& obj, const std::string& path,
                 std::initializer_list<std::string_view> keys) {
  if (!obj.is_object()) fail(path, "must be an object, not " + type_name(obj));
  for (const auto& [k, v] : obj.items()) {
    if (std::find(keys.begin(), keys.end(), k) == keys.end()) {
      fail(path.empty() ? k : path + "." + k, "unknown field");
    }
  }
  for (std::string_view k : keys) {
    if (!obj.contains(std::string(k))) {
      fail(path.empty() ? std::string(k) : path + "." + std::string(k), "missing field");
    }
  }
}

std::string join(const std::string& path, std::string_view key) {
  return path.empty() ? std::string(key) : path + "." + std::string(key);
}

std::string index_path(const std::string& path, std::size_t i) {
  return path + "[" + std::to_string(i) + "]";
}

bool blank(std::string_view s) {
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; });
}

// A required non-blank string.
std::string req_string(const json& obj, const std::string& path, std::string_view key) {
  const json& v = obj.at(std::string(key));
  const std::string p = join(path, key);
  if (!v.is_string()) fail(p, "must be a string, not " + type_name(v));
  std::string s = v.get<std::string>();
  if (blank(s)) fail(p, "must not be empty");
  return s;
}

// A string or null; a string must not be blank (absent metadata is written as null).
std::optional<std::string> opt_string(const json& obj, const std::string& path,
                                      std::string_view key) {
  const json& v = obj.at(std::string(key));
  if (v.is_null()) return std::nullopt;
  const std::string p = join(path, key);
  if (!v.is_string()) fail(p, "must be a string or null, not " + type_name(v));
  std::string s = v.get<std::string>();
  if (blank(s)) fail(p, "must not be empty (write null for missing metadata)");
  return s;
}

const json& req_array(const json& obj, const std::string& path, std::string_view key,
                      bool non_empty) {
  const json& v = obj.at(std::string(key));
  const std::string p = join(path, key);
  if (!v.is_array()) fail(p, "must be an array, not " + type_name(v));
  if (non_empty && v.empty()) fail(p, "must not be empty");
  return v;
}

// NFKC casefold with all white space removed: two query texts equal under this key are the
// same question for the purposes of "no query in both splits".
std::string query_key(const std::string& text) {
  UErrorCode st = U_ZERO_ERROR;
  const icu::Normalizer2* n = icu::Normalizer2::getNFKCCasefoldInstance(st);
  if (U_FAILURE(st)) return text;
  const icu::UnicodeString norm = n->normalize(icu::UnicodeString::fromUTF8(text), st);
  if (U_FAILURE(st)) return text;
  icu::UnicodeString out;
  for (int32_t i = 0; i < norm.length();) {
    const UChar32 c = norm.char32At(i);
    if (!u_isUWhiteSpace(c)) out.append(c);
    i += U16_LENGTH(c);
  }
  std::string utf8;
  out.toUTF8String(utf8);
  return utf8;
}

Dataset parse_root(const json& root) {
  Dataset d;
  expect_keys(root, "", {"version", "time_point", "description", "policies", "queries"});
  d.version = req_string(root, "", "version");
  d.time_point = req_string(root, "", "time_point");
  auto tp = parse_iso_time_point(d.time_point);
  if (!tp) fail("time_point", tp.error().message);
  d.at = *tp;
  {
    const json& v = root.at("description");
    if (!v.is_string()) fail("description", "must be a string, not " + type_name(v));
    d.description = v.get<std::string>();
  }

  // ---- policies and chunks
  const json& policies = req_array(root, "", "policies", true);
  std::map<std::string, std::string> source_of_policy, policy_of_source;
  std::set<std::string> chunk_ids;
  // (source, section) of every rule chunk, for checking labels.
  std::set<std::pair<std::string, std::string>> rule_sections;
  for (std::size_t pi = 0; pi < policies.size(); ++pi) {
    const std::string pp = index_path("policies", pi);
    const json& pj = policies[pi];
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
    std::optional<CivilDate> from, to;
    if (p.effective_from) {
      auto r = parse_iso_date(*p.effective_from);
      if (!r) fail(join(pp, "effective_from"), r.error().message);
      from = *r;
    }
    if (p.effective_to) {
      auto r = parse_iso_date(*p.effective_to);
      if (!r) fail(join(pp, "effective_to"), r.error().message);
      to = *r;
    }
    if (from && to && *to < *from) fail(join(pp, "effective_to"), "is before effective_from");

    // One source per policy id and one policy id per source, so a (source, section) label
    // names the same policy whichever version survives scope selection.
    if (auto [it, fresh] = source_of_policy.emplace(p.policy_id, p.source);
        !fresh && it->second != p.source) {
      fail(join(pp, "source"),
           "policy \"" + p.policy_id + "\" already has source \"" + it->second + "\"");
    }
    if (auto [it, fresh] = policy_of_source.emplace(p.source, p.policy_id);
        !fresh && it->second != p.policy_id) {
      fail(join(pp, "source"),
           "source \"" + p.source + "\" already belongs to policy \"" + it->second + "\"");
    }
    if (p.version) {
      for (std::size_t k = 0; k < d.policies.size(); ++k) {
        const Policy& o = d.policies[k];
        if (o.policy_id == p.policy_id && o.version &&
            compare_policy_versions(*o.version, *p.version) == 0) {
          fail(join(pp, "version"), "duplicate version " + *p.version + " of policy \"" +
                                        p.policy_id + "\" (also " + index_path("policies", k) +
                                        ")");
        }
      }
    }

    const json& chunks = req_array(pj, pp, "chunks", true);
    std::set<std::string> sections;
    for (std::size_t ci = 0; ci < chunks.size(); ++ci) {
      const std::string cp = index_path(join(pp, "chunks"), ci);
      const json& cj = chunks[ci];
      expect_keys(cj, cp, {"id", "section", "kind", "text"});
      Chunk c;
      c.id = req_string(cj, cp, "id");
      c.section = req_string(cj, cp, "section");
      const std::string kind = req_string(cj, cp, "kind");
      auto k = parse_chunk_kind(kind);
      if (!k) fail(join(cp, "kind"), k.error().message);
      c.kind = *k;
      c.text = req_string(cj, cp, "text");
      if (!chunk_ids.insert(c.id).second) fail(join(cp, "id"), "duplicate chunk id " + c.id);
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
      if (c.kind == ChunkKind::kRule) rule_sections.emplace(c.source, c.section);
      p.chunks.push_back(d.chunks.size());
      d.chunks.push_back(std::move(c));
    }
    d.policies.push_back(std::move(p));
  }

  // ---- queries
  const json& queries = req_array(root, "", "queries", true);
  std::set<std::string> query_ids;
  std::unordered_map<std::string, std::size_t> seen_text;
  for (std::size_t qi = 0; qi < queries.size(); ++qi) {
    const std::string qp = index_path("queries", qi);
    const json& qj = queries[qi];
    expect_keys(qj, qp, {"id", "query", "split", "relevant", "tags", "reason"});
    Query q;
    q.id = req_string(qj, qp, "id");
    if (!query_ids.insert(q.id).second) fail(join(qp, "id"), "duplicate query id " + q.id);
    q.text = req_string(qj, qp, "query");
    {
      auto s = parse_split(req_string(qj, qp, "split"));
      if (!s) fail(join(qp, "split"), s.error().message);
      q.split = *s;
    }
    const json& rel = req_array(qj, qp, "relevant", false);
    for (std::size_t ri = 0; ri < rel.size(); ++ri) {
      const std::string rp = index_path(join(qp, "relevant"), ri);
      expect_keys(rel[ri], rp, {"source", "section"});
      SectionRef r{req_string(rel[ri], rp, "source"), req_string(rel[ri], rp, "section")};
      if (!rule_sections.count({r.source, r.section})) {
        fail(rp, "no rule section \"" + r.section + "\" in source \"" + r.source + "\"");
      }
      if (std::find(q.relevant.begin(), q.relevant.end(), r) != q.relevant.end()) {
        fail(rp, "duplicate relevant section");
      }
      q.relevant.push_back(std::move(r));
    }
    const json& tags = req_array(qj, qp, "tags", false);
    for (std::size_t ti = 0; ti < tags.size(); ++ti) {
      const std::string tp_path = index_path(join(qp, "tags"), ti);
      if (!tags[ti].is_string()) fail(tp_path, "must be a string, not " + type_name(tags[ti]));
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
      fail(join(qp, "tags"),
           "\"multi_section\" must be present exactly when 2+ sections are relevant");
    }
    if (has_tag("lexical_negative") != q.relevant.empty()) {
      fail(join(qp, "tags"),
           "\"lexical_negative\" must be present exactly when no section is relevant");
    }
    q.reason = req_string(qj, qp, "reason");
    const std::string key = query_key(q.text);
    if (auto [it, fresh] = seen_text.emplace(key, qi); !fresh) {
      const Query& other = d.queries[it->second];
      fail(join(qp, "query"),
           other.split != q.split
               ? "query appears in both splits (also " + index_path("queries", it->second) + ")"
               : "duplicate query text (also " + index_path("queries", it->second) + ")");
    }
    d.queries.push_back(std::move(q));
  }
  return d;
}

// Parses JSON, refusing duplicate object keys (which would make the canonical form ambiguous).
json parse_json_strict(std::string_view text) {
  std::vector<std::set<std::string>> open;
  std::string duplicate;
  json::parser_callback_t cb = [&](int, json::parse_event_t ev, json& parsed) {
    switch (ev) {
      case json::parse_event_t::object_start:
        open.emplace_back();
        break;
      case json::parse_event_t::object_end:
        if (!open.empty()) open.pop_back();
        break;
      case json::parse_event_t::key:
        if (!open.empty() && !open.back().insert(parsed.get<std::string>()).second &&
            duplicate.empty()) {
          duplicate = parsed.get<std::string>();
        }
        break;
      default:
        break;
    }
    return true;
  };
  json root;
  try {
    root = json::parse(text.begin(), text.end(), cb);
  } catch (const json::exception& e) {
    std::string what = e.what();
    // Drop nlohmann's "[json.exception.parse_error.101] " prefix; keep line/column.
    if (auto p = what.find("] "); p != std::string::npos) what = what.substr(p + 2);
    fail("", "malformed JSON: " + what);
  }
  if (!duplicate.empty()) fail("", "duplicate object key \"" + duplicate + "\"");
  return root;
}

}  // namespace

Result<Dataset> parse_dataset(std::string_view json_text, std::string_view name) {
  const std::string n(name);
  try {
    return parse_root(parse_json_strict(json_text));
  } catch (const Invalid& e) {
    return make_error(ErrorCode::kInvalidInput, e.message, e.path.empty() ? n : n + ": " + e.path);
  } catch (const std::exception& e) {
    return make_error(ErrorCode::kInvalidInput, std::string("cannot read dataset: ") + e.what(), n);
  }
}

Result<Dataset> load_dataset_file(const std::filesystem::path& path) {
  auto text = internal::read_whole_file(path, "dataset file");
  if (!text.ok()) return text.error();
  return parse_dataset(*text, path.string());
}

// ---------------------------------------------------------------------------------------------
// Canonical form (RFC 8785 for this schema) and fingerprints
// ---------------------------------------------------------------------------------------------
namespace {

void put_string(std::string& out, std::string_view s) {
  out += '"';
  for (char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(c));
          out += buf;
        } else {
          out += ch;
        }
    }
  }
  out += '"';
}

void put_opt(std::string& out, const std::optional<std::string>& s) {
  if (s) {
    put_string(out, *s);
  } else {
    out += "null";
  }
}

// Keys are written in byte order by hand; canonical_test cross-checks against a generic
// sorted-key serialisation of the file.
void put_policies(std::string& out, const Dataset& d) {
  out += '[';
  for (std::size_t pi = 0; pi < d.policies.size(); ++pi) {
    const Policy& p = d.policies[pi];
    if (pi) out += ',';
    out += "{\"chunks\":[";
    for (std::size_t k = 0; k < p.chunks.size(); ++k) {
      const Chunk& c = d.chunks[p.chunks[k]];
      if (k) out += ',';
      out += "{\"id\":";
      put_string(out, c.id);
      out += ",\"kind\":";
      put_string(out, to_string(c.kind));
      out += ",\"section\":";
      put_string(out, c.section);
      out += ",\"text\":";
      put_string(out, c.text);
      out += '}';
    }
    out += "],\"effective_from\":";
    put_opt(out, p.effective_from);
    out += ",\"effective_to\":";
    put_opt(out, p.effective_to);
    out += ",\"policy_id\":";
    put_string(out, p.policy_id);
    out += ",\"source\":";
    put_string(out, p.source);
    out += ",\"status\":";
    put_opt(out, p.status ? std::optional<std::string>(std::string(to_string(*p.status)))
                          : std::nullopt);
    out += ",\"title\":";
    put_opt(out, p.title);
    out += ",\"version\":";
    put_opt(out, p.version);
    out += '}';
  }
  out += ']';
}

}  // namespace

std::string canonical_corpus_json(const Dataset& d) {
  std::string out;
  put_policies(out, d);
  return out;
}

std::string canonical_dataset_json(const Dataset& d) {
  std::string out = "{\"description\":";
  put_string(out, d.description);
  out += ",\"policies\":";
  put_policies(out, d);
  out += ",\"queries\":[";
  for (std::size_t qi = 0; qi < d.queries.size(); ++qi) {
    const Query& q = d.queries[qi];
    if (qi) out += ',';
    out += "{\"id\":";
    put_string(out, q.id);
    out += ",\"query\":";
    put_string(out, q.text);
    out += ",\"reason\":";
    put_string(out, q.reason);
    out += ",\"relevant\":[";
    for (std::size_t r = 0; r < q.relevant.size(); ++r) {
      if (r) out += ',';
      out += "{\"section\":";
      put_string(out, q.relevant[r].section);
      out += ",\"source\":";
      put_string(out, q.relevant[r].source);
      out += '}';
    }
    out += "],\"split\":";
    put_string(out, to_string(q.split));
    out += ",\"tags\":[";
    for (std::size_t t = 0; t < q.tags.size(); ++t) {
      if (t) out += ',';
      put_string(out, q.tags[t]);
    }
    out += "]}";
  }
  out += "],\"time_point\":";
  put_string(out, d.time_point);
  out += ",\"version\":";
  put_string(out, d.version);
  out += '}';
  return out;
}

std::string dataset_fingerprint(const Dataset& d) {
  return internal::sha256_hex(canonical_dataset_json(d));
}

std::string corpus_fingerprint(const Dataset& d) {
  return internal::sha256_hex(canonical_corpus_json(d));
}

namespace {
bool is_sha256_hex(std::string_view s) {
  return s.size() == 64 && std::all_of(s.begin(), s.end(), [](char c) {
           return is_digit(c) || (c >= 'a' && c <= 'f');
         });
}
}  // namespace

Result<std::map<std::string, Fingerprints>> parse_fingerprint_registry(
    std::string_view registry_json, std::string_view registry_name) {
  const std::string n(registry_name);
  try {
    const json root = parse_json_strict(registry_json);
    if (!root.is_object()) fail("", "must be an object mapping dataset versions to hashes");
    std::map<std::string, Fingerprints> out;
    for (const auto& [version, entry] : root.items()) {
      expect_keys(entry, version, {"dataset_sha256", "corpus_sha256"});
      Fingerprints f;
      for (auto [key, dst] : {std::pair{"dataset_sha256", &f.dataset_sha256},
                              std::pair{"corpus_sha256", &f.corpus_sha256}}) {
        const json& v = entry.at(key);
        if (!v.is_string() || !is_sha256_hex(v.get<std::string>())) {
          fail(join(version, key), "must be 64 lower-case hex digits");
        }
        *dst = v.get<std::string>();
      }
      out.emplace(version, std::move(f));
    }
    return out;
  } catch (const Invalid& e) {
    return make_error(ErrorCode::kInvalidInput, e.message, e.path.empty() ? n : n + ": " + e.path);
  } catch (const std::exception& e) {
    return make_error(ErrorCode::kInvalidInput, std::string("cannot read registry: ") + e.what(),
                      n);
  }
}

Status verify_fingerprints(const Dataset& d, std::string_view registry_json,
                           std::string_view registry_name) {
  auto reg = parse_fingerprint_registry(registry_json, registry_name);
  if (!reg) return reg.error();
  const auto it = reg->find(d.version);
  if (it == reg->end()) {
    return make_error(ErrorCode::kFingerprintMismatch,
                      "dataset version \"" + d.version + "\" is not registered",
                      std::string(registry_name));
  }
  const Fingerprints actual{dataset_fingerprint(d), corpus_fingerprint(d)};
  std::string msg;
  auto check = [&](std::string_view which, const std::string& want, const std::string& got) {
    if (want == got) return;
    msg += msg.empty() ? "" : "; ";
    msg += std::string(which) + " mismatch: registered " + want + ", actual " + got;
  };
  check("dataset_sha256", it->second.dataset_sha256, actual.dataset_sha256);
  check("corpus_sha256", it->second.corpus_sha256, actual.corpus_sha256);
  if (!msg.empty()) {
    return make_error(ErrorCode::kFingerprintMismatch,
                      "dataset version \"" + d.version + "\": " + msg, std::string(registry_name));
  }
  return {};
}

std::filesystem::path fingerprint_registry_path(const std::filesystem::path& dataset) {
  return dataset.parent_path() / "fingerprints.json";
}

}  // namespace qaplan
