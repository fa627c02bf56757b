// The knowledge base loader and its fingerprints (kb.hpp).
#include "qaplan/retrieval/kb.hpp"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "common/dates.hpp"
#include "common/json_reader.hpp"
#include "common/sha256.hpp"
#include "qaplan/io.hpp"

namespace qaplan {
namespace {

namespace js = internal::json;
using nlohmann::json;

// A source is a name, like config's [[sources]] names: a host's KB has its own (`qaplan kb
// build --config` checks them against the rules file). Control bytes would reach reports and logs.
std::string source_field(const js::Json& o) {
  std::string s = js::req_string(o, "", "source");
  for (unsigned char c : s)
    if (c < 0x20 || c == 0x7F) js::fail("source", "control character in source name");
  return s;
}

std::optional<std::string> date_field(const js::Json& o, const char* key) {
  auto d = js::opt_string(o, "", key);
  if (d && !internal::dates::is_iso_date(*d)) js::fail(key, "not an ISO-8601 date YYYY-MM-DD: " + *d);
  return d;
}

bool is_sha256_json(const js::Json& v) {
  return v.is_string() && internal::is_sha256_hex(v.get_ref<const std::string&>());
}

}  // namespace

std::string_view to_string(KbChunkKind kind) noexcept {
  return kind == KbChunkKind::kTableRow ? "table_row" : "text";
}

Result<std::vector<FaqEntry>> parse_faq_jsonl(std::string_view text, std::string_view name) {
  std::vector<FaqEntry> out;
  std::map<std::string, int> ids;
  QAPLAN_TRY(internal::for_each_jsonl_line(text, name, [&](const js::Json& o, int line) {
    js::expect_keys(o, "", {"id", "source", "question", "paraphrases", "answer", "tags"});
    FaqEntry f;
    f.id = js::req_string(o, "", "id");
    if (auto [it, fresh] = ids.emplace(f.id, line); !fresh)
      js::fail("id", "duplicate id \"" + f.id + "\" (first on line " + std::to_string(it->second) +
                         ")");
    f.source = source_field(o);
    f.question = js::req_string(o, "", "question");
    f.paraphrases = internal::string_array(o, "", "paraphrases", true);
    f.answer = js::req_string(o, "", "answer");
    f.tags = internal::string_array(o, "", "tags", false);
    out.push_back(std::move(f));
  }));
  if (out.empty())
    return make_file_error(ErrorCode::kInvalidInput, "no FAQ entry", std::string(name));
  return out;
}

Result<std::vector<DocChunk>> parse_docs_jsonl(std::string_view text, std::string_view name) {
  std::vector<DocChunk> out;
  std::map<std::string, int> ids;
  QAPLAN_TRY(internal::for_each_jsonl_line(text, name, [&](const js::Json& o, int line) {
    js::expect_keys(o, "",
                    {"id", "doc_id", "parent_id", "title", "section", "source", "department",
                     "tags", "path", "is_signed", "version", "effective_from", "effective_to",
                     "kind", "text"});
    DocChunk c;
    c.id = js::req_string(o, "", "id");
    if (auto [it, fresh] = ids.emplace(c.id, line); !fresh)
      js::fail("id", "duplicate id \"" + c.id + "\" (first on line " + std::to_string(it->second) +
                         ")");
    c.doc_id = js::req_string(o, "", "doc_id");
    c.parent_id = js::req_string(o, "", "parent_id");
    c.title = js::req_string(o, "", "title");
    c.section = js::req_string(o, "", "section");
    c.source = source_field(o);
    c.department = js::req_string(o, "", "department");
    c.tags = internal::string_array(o, "", "tags", false);
    c.path = js::req_string(o, "", "path");
    if (!o.at("is_signed").is_boolean()) js::fail("is_signed", "must be a boolean");
    c.is_signed = o.at("is_signed").get<bool>();
    c.version = js::req_string(o, "", "version");
    c.effective_from = date_field(o, "effective_from");
    c.effective_to = date_field(o, "effective_to");
    if (c.effective_from && c.effective_to && *c.effective_to < *c.effective_from)
      js::fail("effective_to", "is before effective_from");
    const std::string kind = js::req_string(o, "", "kind");
    if (kind == "text")
      c.kind = KbChunkKind::kText;
    else if (kind == "table_row")
      c.kind = KbChunkKind::kTableRow;
    else
      js::fail("kind", "must be text|table_row, not \"" + kind + "\"");
    c.text = js::req_string(o, "", "text");
    out.push_back(std::move(c));
  }));
  if (out.empty())
    return make_file_error(ErrorCode::kInvalidInput, "no document chunk", std::string(name));
  return out;
}

std::string canonical_faq_json(const std::vector<FaqEntry>& faqs) {
  json arr = json::array();
  for (const FaqEntry& f : faqs)
    arr.push_back({{"answer", f.answer},
                   {"id", f.id},
                   {"paraphrases", f.paraphrases},
                   {"question", f.question},
                   {"source", f.source},
                   {"tags", f.tags}});
  return internal::canonical_json(arr);
}

std::string canonical_docs_json(const std::vector<DocChunk>& docs) {
  json arr = json::array();
  for (const DocChunk& c : docs)
    arr.push_back({{"department", c.department},
                   {"doc_id", c.doc_id},
                   {"effective_from", internal::string_or_null(c.effective_from)},
                   {"effective_to", internal::string_or_null(c.effective_to)},
                   {"id", c.id},
                   {"is_signed", c.is_signed},
                   {"kind", std::string(to_string(c.kind))},
                   {"parent_id", c.parent_id},
                   {"path", c.path},
                   {"section", c.section},
                   {"source", c.source},
                   {"tags", c.tags},
                   {"text", c.text},
                   {"title", c.title},
                   {"version", c.version}});
  return internal::canonical_json(arr);
}

Result<KnowledgeBase> load_knowledge_base(const NamedText& faq, const NamedText& docs,
                                          const NamedText& registry) {
  KnowledgeBase kb;
  kb.faq_name = faq.name;
  kb.docs_name = docs.name;
  QAPLAN_ASSIGN_OR_RETURN(kb.faqs, parse_faq_jsonl(faq.text, faq.name));
  QAPLAN_ASSIGN_OR_RETURN(kb.docs, parse_docs_jsonl(docs.text, docs.name));
  kb.faq_sha256 = internal::sha256_hex(canonical_faq_json(kb.faqs));
  kb.docs_sha256 = internal::sha256_hex(canonical_docs_json(kb.docs));

  using Entry = std::pair<std::string, std::string>;  // faq, docs
  QAPLAN_ASSIGN_OR_RETURN(
      auto versions, js::read_json(registry.name, 0, [&] {
        const js::Json root = js::parse_strict(registry.text);
        const js::Json& v = js::registry_entries(root, "qaplan-kb-fingerprints-1", "versions");
        std::map<std::string, Entry> out;
        for (const auto& [name, e] : v.items()) {
          const std::string path = js::join("versions", name);
          js::expect_keys(e, path, {"faq_sha256", "docs_sha256"});
          for (const char* k : {"faq_sha256", "docs_sha256"})
            if (!is_sha256_json(e.at(k)))
              js::fail(js::join(path, k), "must be 64 lower-case hex digits");
          out.emplace(name, Entry{e.at("faq_sha256").get<std::string>(),
                                  e.at("docs_sha256").get<std::string>()});
        }
        return out;
      }));
  std::string closest;
  for (const auto& [name, e] : versions) {
    if (e.first == kb.faq_sha256 && e.second == kb.docs_sha256) {
      kb.version = name;
      return kb;
    }
    if (e.first == kb.faq_sha256 || e.second == kb.docs_sha256)
      closest = name + " registers the same " + (e.first == kb.faq_sha256 ? faq.name : docs.name) +
                " but a different " + (e.first == kb.faq_sha256 ? docs.name : faq.name);
  }
  return make_file_error(
      ErrorCode::kFingerprintMismatch,
      "knowledge base matches no registered version (faq_sha256 " + kb.faq_sha256 +
          ", docs_sha256 " + kb.docs_sha256 + ")" + (closest.empty() ? "" : "; " + closest) +
          "; changed data needs a new version in the registry",
      registry.name);
}

Result<KnowledgeBase> read_knowledge_base(const std::filesystem::path& dir) {
  NamedText files[3];
  const char* names[3] = {"faq.jsonl", "docs.jsonl", "fingerprints.json"};
  for (int i = 0; i < 3; ++i) {
    const std::filesystem::path p = dir / names[i];
    QAPLAN_ASSIGN_OR_RETURN(files[i].text, read_file(p, "knowledge base file"));
    files[i].name = p.filename().string();
  }
  return load_knowledge_base(files[0], files[1], files[2]);
}

bool effective_in(const DocChunk& c, std::string_view from, std::string_view to) noexcept {
  // In force on [effective_from, effective_to] (inclusive); the range is [from, to).
  if (!to.empty() && c.effective_from && std::string_view(*c.effective_from) >= to) return false;
  if (!from.empty() && c.effective_to && std::string_view(*c.effective_to) < from) return false;
  return true;
}

}  // namespace qaplan
