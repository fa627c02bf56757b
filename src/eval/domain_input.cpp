// The inputs of the domain lexicon build (domain_build.hpp): a JSONL corpus, a KB directory in
// eval_sets/kb's schema, and the refusal of a saved index (which keeps no text).
#include <unordered_map>

#include "common/json_reader.hpp"
#include "common/sha256.hpp"
#include "qaplan/eval/domain_build.hpp"
#include "qaplan/io.hpp"
#include "qaplan/ranking/index_dir.hpp"
#include "ranking/internal/jsonl.hpp"

namespace qaplan {
namespace {

namespace js = internal::json;

// A source name ends up as a TSV column of the lexicon.
std::string source_name(const js::Json& o) {
  const auto it = o.find("source");
  if (it == o.end() || it->is_null()) return {};
  if (!it->is_string()) js::fail("source", "must be a string or null");
  std::string s = it->get<std::string>();
  if (s.empty() || s == "-" || s.find_first_of("\t\r\n") != std::string::npos)
    js::fail("source", "must be a non-empty name without tab or line break, not \"-\"");
  return s;
}

// The corpus reader (ranking's parse_jsonl_record) ignores fields other than id and text; the
// source is read here, and only from lines that can hold one, so a plain {"id","text"} corpus
// keeps the reader's fast path.
Result<std::string> corpus_source(std::string_view line, std::string_view name, int line_no) {
  if (line.find("\"source\"") == std::string_view::npos) return std::string();
  return js::read_json(name, line_no, [&] { return source_name(js::parse_strict(line)); });
}

Status locate(Status st, std::string_view name, int line) {
  if (st.ok()) return st;
  Error e = std::move(st).error();
  e.file = std::string(name);
  e.line = line;
  return e;
}

// A required non-blank string; a missing key is named (req_string alone reports only "key").
std::string required(const js::Json& o, std::string_view key) {
  if (!o.contains(std::string(key))) js::fail(std::string(key), "missing field");
  return js::req_string(o, "", key);
}

// An optional array of strings (tags, paraphrases).
std::vector<std::string> opt_strings(const js::Json& o, std::string_view key) {
  const auto it = o.find(std::string(key));
  if (it == o.end() || it->is_null()) return {};
  return internal::string_array(o, "", key, false);
}

std::string opt_text(const js::Json& o, std::string_view key) {
  const auto it = o.find(std::string(key));
  if (it == o.end() || it->is_null()) return {};
  if (!it->is_string()) js::fail(std::string(key), "must be a string or null");
  return it->get<std::string>();
}

struct KbRecord {
  std::string source;
  std::vector<std::string> texts;
};

// FAQ: the question, its paraphrases, the answer and the tags are one document.
KbRecord faq_record(const js::Json& o) {
  if (!o.is_object()) js::fail("", "expected one JSON object per line");
  required(o, "id");
  KbRecord r{source_name(o), {required(o, "question")}};
  for (std::string& p : opt_strings(o, "paraphrases")) r.texts.push_back(std::move(p));
  r.texts.push_back(opt_text(o, "answer"));
  for (std::string& t : opt_strings(o, "tags")) r.texts.push_back(std::move(t));
  return r;
}

// A document chunk: title, section, text and tags are one document (the retrieval unit).
KbRecord doc_record(const js::Json& o) {
  if (!o.is_object()) js::fail("", "expected one JSON object per line");
  required(o, "id");
  if (!o.contains("text") || !o.at("text").is_string()) js::fail("text", "must be a string");
  KbRecord r{source_name(o),
             {opt_text(o, "title"), opt_text(o, "section"), o.at("text").get<std::string>()}};
  for (std::string& t : opt_strings(o, "tags")) r.texts.push_back(std::move(t));
  return r;
}

template <class Read>
Status add_kb_file(const std::string& content, const std::string& name, Read read,
                   DomainLexiconBuilder& b) {
  std::unordered_map<std::string, int> ids;
  Status added;
  QAPLAN_TRY(internal::for_each_jsonl_line(content, name, [&](const js::Json& o, int line) {
    if (!added.ok()) return;
    const KbRecord r = read(o);
    const std::string id = o.at("id").get<std::string>();
    if (auto [it, fresh] = ids.emplace(id, line); !fresh)
      js::fail("id",
               "duplicate id \"" + id + "\" (first on line " + std::to_string(it->second) + ")");
    std::vector<std::string_view> texts(r.texts.begin(), r.texts.end());
    added = locate(b.add(r.source, texts), name, line);
  }));
  return added;
}

}  // namespace

Result<DomainProvenance> add_domain_corpus(const std::filesystem::path& file,
                                           DomainLexiconBuilder& b) {
  QAPLAN_ASSIGN_OR_RETURN(const std::string content, read_file(file, "corpus"));
  const std::string name = file.string();
  std::string_view rest = content;
  if (rest.substr(0, 3) == "\xEF\xBB\xBF") rest.remove_prefix(3);
  std::unordered_map<std::string, int> ids;
  int line_no = 0;
  while (!rest.empty()) {
    const std::size_t nl = rest.find('\n');
    const std::string_view line = rest.substr(0, nl);
    rest.remove_prefix(nl == std::string_view::npos ? rest.size() : nl + 1);
    ++line_no;
    if (internal::blank_line(line)) continue;
    QAPLAN_ASSIGN_OR_RETURN(TextRecord rec,
                            internal::parse_jsonl_record(line, "text", name, line_no));
    if (auto [it, fresh] = ids.emplace(std::move(rec.id), line_no); !fresh)
      return make_file_error(
          ErrorCode::kInvalidInput,
          "duplicate id \"" + it->first + "\" (first on line " + std::to_string(it->second) + ")",
          name, line_no, "id");
    QAPLAN_ASSIGN_OR_RETURN(const std::string source, corpus_source(line, name, line_no));
    QAPLAN_TRY(locate(b.add(source, {rec.text}), name, line_no));
  }
  return DomainProvenance{"corpus", name, internal::sha256_hex(content)};
}

Result<DomainProvenance> add_domain_kb(const std::filesystem::path& dir, DomainLexiconBuilder& b) {
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec))
    return make_file_error(ErrorCode::kIo, "not a directory", dir.string(), 0, "--kb");
  // The fingerprint covers the bytes of the files read, each named, so adding or removing one
  // collection changes it.
  std::string listing;
  bool any = false;
  for (const char* file : {"faq.jsonl", "docs.jsonl"}) {
    const std::filesystem::path p = dir / file;
    if (!std::filesystem::exists(p, ec)) continue;
    any = true;
    QAPLAN_ASSIGN_OR_RETURN(const std::string content, read_file(p, "knowledge base file"));
    listing += std::string(file) + "\t" + internal::sha256_hex(content) + "\n";
    const bool faq = file[0] == 'f';
    QAPLAN_TRY(faq ? add_kb_file(content, p.string(), faq_record, b)
                   : add_kb_file(content, p.string(), doc_record, b));
  }
  if (!any)
    return make_file_error(ErrorCode::kIo, "holds neither faq.jsonl nor docs.jsonl", dir.string(),
                           0, "--kb");
  return DomainProvenance{"kb", dir.string(), internal::sha256_hex(listing)};
}

Status check_domain_index(const std::filesystem::path& dir) {
  std::error_code ec;
  const auto gen = current_generation(dir);
  if (!gen.ok() || !std::filesystem::exists(*gen / kBm25IndexFile, ec))
    return make_file_error(ErrorCode::kIo,
                           "not an index directory (no " + std::string(kBm25IndexFile) + ")",
                           dir.string(), 0, "--index");
  return make_file_error(
      ErrorCode::kInvalidInput,
      "a saved index keeps postings and document ids but neither the document text nor the path "
      "of its corpus, so no lexicon can be built from it; pass the corpus it was built from "
      "(--corpus FILE.jsonl) or the KB directory (--kb DIR)",
      dir.string(), 0, "--index");
}

}  // namespace qaplan
