// The chain set: a registered, fingerprinted JSONL of questions with their expected evidence,
// read, verified against its registry entry and checked against the knowledge base it targets.
#include "qaplan/eval/chain_eval.hpp"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "common/json_reader.hpp"
#include "common/sha256.hpp"
#include "eval/labels_check.hpp"
#include "qaplan/io.hpp"
#include "qaplan/version.hpp"

namespace qaplan {
namespace {

namespace js = internal::json;
using nlohmann::json;

bool has_number(const json& j) {
  if (j.is_number()) return true;
  if (j.is_array() || j.is_object())
    for (const auto& v : j) if (has_number(v)) return true;
  return false;
}

std::vector<std::string> string_list(const js::Json& o, const char* key) {
  return internal::string_array(o, "", key, false);
}

}  // namespace

Result<std::string> canonical_jsonl_sha256(std::string_view text, std::string_view name) {
  json all = json::array();
  QAPLAN_TRY(internal::for_each_jsonl_line(text, name, [&](const js::Json& o, int) {
    if (has_number(o)) js::fail("", "numbers are not allowed in a chain set (canonical form)");
    all.push_back(o);
  }));
  return internal::sha256_hex(all.dump(-1, ' ', false, json::error_handler_t::strict));
}

Result<RegisteredFile> verify_chain_file(const NamedText& file, const NamedText& registry) {
  QAPLAN_ASSIGN_OR_RETURN(
      auto entries, js::read_json(registry.name, 0, [&] {
        const js::Json root = js::parse_strict(registry.text);
        const js::Json& files =
            js::registry_entries(root, "qaplan-chain-fingerprints-1", "files");
        std::map<std::string, RegisteredFile> out;
        for (const auto& [n, e] : files.items()) {
          const std::string path = js::join("files", n);
          js::expect_keys(e, path, {"version", "kb", "sha256"});
          RegisteredFile r{js::req_string(e, path, "version"), js::req_string(e, path, "kb"),
                           js::req_string(e, path, "sha256")};
          if (!internal::is_sha256_hex(r.sha256))
            js::fail(js::join(path, "sha256"), "must be 64 lower-case hex digits");
          out.emplace(n, std::move(r));
        }
        return out;
      }));
  const auto it = entries.find(file.name);
  if (it == entries.end())
    return make_file_error(ErrorCode::kFingerprintMismatch,
                           "\"" + file.name + "\" is not registered (a new chain set version needs "
                                              "a new entry)",
                           registry.name);
  QAPLAN_ASSIGN_OR_RETURN(std::string sha, canonical_jsonl_sha256(file.text, file.name));
  if (sha != it->second.sha256)
    return make_file_error(ErrorCode::kFingerprintMismatch,
                           "\"" + file.name + "\" (" + it->second.version + "): registered " +
                               it->second.sha256 + ", actual " + sha +
                               "; changed labels need a new version",
                           registry.name);
  return it->second;
}

Result<ChainSet> load_chain_set(const NamedText& file, const NamedText& registry) {
  QAPLAN_ASSIGN_OR_RETURN(RegisteredFile reg, verify_chain_file(file, registry));
  ChainSet set;
  set.name = file.name;
  set.version = reg.version;
  set.kb_version = reg.kb_version;
  set.sha256 = reg.sha256;
  std::map<std::string, int> ids;
  QAPLAN_TRY(internal::for_each_jsonl_line(file.text, file.name, [&](const js::Json& o, int line) {
    js::expect_keys(o, "",
                    {"id", "question", "history", "scenario", "source_filter", "expected_hit_type",
                     "expected_faq_id", "expected_chunk_ids", "keywords", "category",
                     "prefer_table", "split"});
    ChainQuestion q;
    q.id = js::req_string(o, "", "id");
    if (auto [it, fresh] = ids.emplace(q.id, line); !fresh)
      js::fail("id", "duplicate id \"" + q.id + "\" (first on line " + std::to_string(it->second) +
                         ")");
    q.question = js::req_string(o, "", "question");
    q.history = string_list(o, "history");
    q.scenario = js::opt_string(o, "", "scenario");
    q.source_filter = js::opt_string(o, "", "source_filter");
    auto ht = parse_hit_type(js::req_string(o, "", "expected_hit_type"));
    if (!ht) js::fail("expected_hit_type", ht.error().message);
    q.expected_hit_type = *ht;
    q.expected_faq_id = js::opt_string(o, "", "expected_faq_id");
    q.expected_chunk_ids = string_list(o, "expected_chunk_ids");
    q.keywords = string_list(o, "keywords");
    auto cat = parse_question_category(js::req_string(o, "", "category"));
    if (!cat) js::fail("category", cat.error().message);
    q.category = *cat;
    if (!o.at("prefer_table").is_boolean()) js::fail("prefer_table", "must be a boolean");
    q.prefer_table = o.at("prefer_table").get<bool>();
    auto split = parse_split(js::req_string(o, "", "split"));
    if (!split) js::fail("split", split.error().message);
    q.split = *split;
    if (q.expected_hit_type == HitType::kFaqDirect && !q.expected_faq_id)
      js::fail("expected_faq_id", "a faq_direct question needs expected_faq_id");
    set.questions.push_back(std::move(q));
  }));
  if (set.questions.empty())
    return make_file_error(ErrorCode::kInvalidInput, "no question", file.name);
  return set;
}

Result<ChainSet> read_chain_set(const std::filesystem::path& file) {
  QAPLAN_ASSIGN_OR_RETURN(std::string text, read_file(file, "chain set"));
  const std::filesystem::path reg = file.parent_path() / "fingerprints.json";
  QAPLAN_ASSIGN_OR_RETURN(std::string reg_text, read_file(reg, "chain fingerprint registry"));
  return load_chain_set({file.filename().string(), std::move(text)},
                        {reg.filename().string(), std::move(reg_text)});
}

Status check_chain_against_kb(const ChainSet& set, const KbIndex& kb) {
  return internal::check_labels_against_kb(set, kb);
}

}  // namespace qaplan
