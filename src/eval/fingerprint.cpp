// The canonical form of a dataset (RFC 8785 / JCS for this schema) and its SHA-256 fingerprints.
// nlohmann's `json` keeps object keys in a std::map (byte order) and dumps without whitespace,
// escaping only `"`, `\` and control characters — exactly JCS for a schema without numbers.
#include <algorithm>
#include <nlohmann/json.hpp>

#include "common/json_reader.hpp"
#include "common/sha256.hpp"
#include "qaplan/eval/dataset.hpp"

namespace qaplan {
namespace {

using nlohmann::json;

json policies_json(const Dataset& d) {
  json out = json::array();
  for (const Policy& p : d.policies) {
    json chunks = json::array();
    for (std::size_t k : p.chunks) {
      const Chunk& c = d.chunks[k];
      chunks.push_back({{"id", c.id}, {"kind", to_string(c.kind)}, {"section", c.section},
                        {"text", c.text}});
    }
    out.push_back({{"chunks", std::move(chunks)},
                   {"effective_from", internal::string_or_null(p.effective_from)},
                   {"effective_to", internal::string_or_null(p.effective_to)},
                   {"policy_id", p.policy_id},
                   {"source", p.source},
                   {"status", p.status ? json(to_string(*p.status)) : json(nullptr)},
                   {"title", internal::string_or_null(p.title)},
                   {"version", internal::string_or_null(p.version)}});
  }
  return out;
}

}  // namespace

std::string canonical_corpus_json(const Dataset& d) { return internal::canonical_json(policies_json(d)); }

std::string canonical_dataset_json(const Dataset& d) {
  json queries = json::array();
  for (const Query& q : d.queries) {
    json relevant = json::array();
    for (const SectionRef& r : q.relevant)
      relevant.push_back({{"section", r.section}, {"source", r.source}});
    queries.push_back({{"id", q.id},
                       {"query", q.text},
                       {"reason", q.reason},
                       {"relevant", std::move(relevant)},
                       {"split", to_string(q.split)},
                       {"tags", q.tags}});
  }
  return internal::canonical_json({{"description", d.description},
                    {"policies", policies_json(d)},
                    {"queries", std::move(queries)},
                    {"time_point", d.time_point},
                    {"version", d.version}});
}

Fingerprints fingerprints(const Dataset& d) {
  return {internal::sha256_hex(canonical_dataset_json(d)),
          internal::sha256_hex(canonical_corpus_json(d))};
}

std::string dataset_fingerprint(const Dataset& d) {
  return internal::sha256_hex(canonical_dataset_json(d));
}

std::string corpus_fingerprint(const Dataset& d) {
  return internal::sha256_hex(canonical_corpus_json(d));
}

Result<std::map<std::string, Fingerprints>> parse_fingerprint_registry(
    std::string_view registry_json, std::string_view registry_name) {
  namespace js = internal::json;
  return js::read_json(registry_name, 0, [&] {
    const js::Json root = js::parse_strict(registry_json);
    if (!root.is_object()) js::fail("", "must be an object mapping dataset versions to hashes");
    std::map<std::string, Fingerprints> out;
    for (const auto& [version, entry] : root.items()) {
      js::expect_keys(entry, version, {"dataset_sha256", "corpus_sha256"});
      Fingerprints f;
      for (auto [key, dst] : {std::pair{"dataset_sha256", &f.dataset_sha256},
                              std::pair{"corpus_sha256", &f.corpus_sha256}}) {
        const js::Json& v = entry.at(key);
        if (!v.is_string() || !internal::is_sha256_hex(v.get_ref<const std::string&>()))
          js::fail(js::join(version, key), "must be 64 lower-case hex digits");
        *dst = v.get<std::string>();
      }
      out.emplace(version, std::move(f));
    }
    return out;
  });
}

Result<Fingerprints> verify_fingerprints(const Dataset& d, std::string_view registry_json,
                                         std::string_view registry_name) {
  auto reg = parse_fingerprint_registry(registry_json, registry_name);
  if (!reg) return std::move(reg).error();
  const auto it = reg->find(d.version);
  if (it == reg->end())
    return make_file_error(ErrorCode::kFingerprintMismatch,
                           "dataset version \"" + d.version + "\" is not registered",
                           std::string(registry_name));
  Fingerprints actual = fingerprints(d);
  std::string msg;
  auto check = [&](std::string_view which, const std::string& want, const std::string& got) {
    if (want == got) return;
    msg += msg.empty() ? "" : "; ";
    msg += std::string(which) + " mismatch: registered " + want + ", actual " + got;
  };
  check("dataset_sha256", it->second.dataset_sha256, actual.dataset_sha256);
  check("corpus_sha256", it->second.corpus_sha256, actual.corpus_sha256);
  if (!msg.empty())
    return make_file_error(ErrorCode::kFingerprintMismatch,
                           "dataset version \"" + d.version + "\": " + msg,
                           std::string(registry_name));
  return actual;
}

std::filesystem::path fingerprint_registry_path(const std::filesystem::path& dataset) {
  return dataset.parent_path() / "fingerprints.json";
}

}  // namespace qaplan
