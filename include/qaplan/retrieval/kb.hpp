#pragma once
/// The shipped knowledge base (eval_sets/kb/): an FAQ collection (`faq.jsonl`)
/// and a document collection (`docs.jsonl`, text chunks and table rows), loaded strictly and
/// pinned by SHA-256 fingerprints (`eval_sets/kb/fingerprints.json`).
///
/// Fingerprints: each collection is parsed into the structs below and re-serialised as canonical
/// JSON (nlohmann's `json`: object keys in byte order, no whitespace, only `"`, `\` and control
/// characters escaped — RFC 8785 for a schema without numbers), one array of records in file
/// order; its SHA-256 is `faq_sha256` / `docs_sha256`. So re-indenting a file or reordering the
/// keys of a line keeps the fingerprint, and any change of content, order or record count breaks
/// it. The registry maps versions to both hashes:
///
///     {"format": "qaplan-kb-fingerprints-1",
///      "versions": {"kb-1": {"faq_sha256": "…", "docs_sha256": "…"}}}
///
/// Loading computes both hashes and looks for the version that registers exactly this pair;
/// none → kFingerprintMismatch. A version bump is therefore explicit: changed data needs a new
/// entry in the registry (reviewed like code), and every report records the version and hashes.
///
/// Plain data and pure functions; thread-safe.
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "qaplan/export.hpp"
#include "qaplan/io.hpp"  // NamedText
#include "qaplan/status.hpp"

namespace qaplan {

/// One FAQ entry: a standard question, its paraphrases and the answer given when the FAQ is
/// answered directly.
struct FaqEntry {
  std::string id;      ///< unique, e.g. "faq-hr-001"
  std::string source;  ///< a [[sources]] name of the rules file (`kb build` checks it)
  std::string question;
  std::vector<std::string> paraphrases;  ///< ≥ 1 other wordings of the same question
  std::string answer;
  std::vector<std::string> tags;
  friend bool operator==(const FaqEntry&, const FaqEntry&) = default;
};

/// What a document chunk is. JSON spellings: "text", "table_row".
enum class KbChunkKind { kText, kTableRow };
QAPLAN_API std::string_view to_string(KbChunkKind kind) noexcept;

/// One document chunk. A section longer than one chunk shares its `parent_id` with its sibling
/// chunks; a table row is its own parent (`doc_id#rNN`).
struct DocChunk {
  std::string id;         ///< unique, e.g. "doc-fin-travel-v2-03"
  std::string doc_id;     ///< the document (one version of one policy, one table)
  std::string parent_id;  ///< the section the chunk belongs to
  std::string title;
  std::string section;
  std::string source;  ///< a [[sources]] name of the rules file (`kb build` checks it)
  std::string department;
  std::vector<std::string> tags;
  std::string path;        ///< "/finance/policies/"
  bool is_signed = true;   ///< false: a draft (征求意见稿)
  std::string version;
  std::optional<std::string> effective_from;  ///< YYYY-MM-DD, null = always
  std::optional<std::string> effective_to;    ///< YYYY-MM-DD inclusive last day, null = open
  KbChunkKind kind = KbChunkKind::kText;
  std::string text;
  friend bool operator==(const DocChunk&, const DocChunk&) = default;
};

/// Both collections with the version that registers them.
struct KnowledgeBase {
  std::string version;      ///< registry version, e.g. "kb-1" ("" when not verified)
  std::string faq_name;     ///< file names as given (reports)
  std::string docs_name;
  std::string faq_sha256;   ///< canonical fingerprints (see above)
  std::string docs_sha256;
  std::vector<FaqEntry> faqs;
  std::vector<DocChunk> docs;
};

/// Parses faq.jsonl. Every non-blank line is one object with exactly the fields id, source,
/// question, paraphrases (non-empty array), answer, tags; strings non-blank and valid UTF-8; ids
/// unique; source a name without control characters. Errors: kInvalidInput naming `name`, the
/// line and the field.
QAPLAN_API Result<std::vector<FaqEntry>> parse_faq_jsonl(std::string_view text,
                                                         std::string_view name);

/// Parses docs.jsonl (fields as DocChunk; effective_from / effective_to ISO dates or null, from ≤
/// to; kind "text" | "table_row"; ids unique). Errors: kInvalidInput naming the line and field.
QAPLAN_API Result<std::vector<DocChunk>> parse_docs_jsonl(std::string_view text,
                                                          std::string_view name);

/// The canonical JSON of a collection (the bytes that are hashed).
QAPLAN_API std::string canonical_faq_json(const std::vector<FaqEntry>& faqs);
QAPLAN_API std::string canonical_docs_json(const std::vector<DocChunk>& docs);

/// Parses both files and verifies them against the registry (format above). Errors:
/// kInvalidInput (malformed file or registry), kFingerprintMismatch (no registered version has
/// both hashes; the message names the actual hashes and which file differs from the closest
/// version).
QAPLAN_API Result<KnowledgeBase> load_knowledge_base(const NamedText& faq, const NamedText& docs,
                                                     const NamedText& registry);

/// Reads `dir`/faq.jsonl, `dir`/docs.jsonl and `dir`/fingerprints.json and calls
/// load_knowledge_base (files are named by their file names, as reports show them). Errors: kIo, and as above.
QAPLAN_API Result<KnowledgeBase> read_knowledge_base(const std::filesystem::path& dir);

/// `qaplan kb build`'s inputs: a host's own FAQ and document JSONL (this file's schema) and,
/// optionally, its labelled questions in the chain-set schema (chain_eval.hpp, ChainQuestion).
struct KbBuildInput {
  NamedText faq, docs;
  std::optional<NamedText> questions;
  std::string version = "kb-1";                 ///< the KB registry's one version
  std::string questions_version = "questions-1";  ///< the questions registry's version
  std::vector<std::string> sources;  ///< the rules file's [[sources]]; empty = any name
};

/// What build_knowledge_base published.
struct KbBuildSummary {
  std::string version, faq_sha256, docs_sha256;
  std::size_t faqs = 0, chunks = 0;
  std::vector<std::string> sources;  ///< the sources the records use, sorted
  std::size_t questions = 0;         ///< 0 without questions
  std::string questions_sha256;
};

/// A knowledge base from a host's own data. Parses the FAQ and documents exactly like
/// load_knowledge_base, checks every record's source is one of `sources`, and — with questions —
/// checks them like eval-chain does (schema, every expected FAQ / chunk id in this KB). Only then
/// publishes DIR/faq.jsonl, DIR/docs.jsonl (the bytes given) and DIR/fingerprints.json (one
/// version with both canonical hashes) together, all or none, never over one of `inputs`
/// (write_files_atomic); with questions, DIR/questions/questions.jsonl and its chain registry
/// DIR/questions/fingerprints.json the same way. read_knowledge_base(DIR) and
/// read_chain_set(DIR/questions/questions.jsonl) then load them. Errors: kInvalidInput naming the
/// file, line / record and field; kIo naming the path.
QAPLAN_API Result<KbBuildSummary> build_knowledge_base(
    const KbBuildInput& in, const std::filesystem::path& dir,
    const std::vector<std::filesystem::path>& inputs = {});

/// True when the chunk is in force on some day of [from, to) (YYYY-MM-DD strings, `to`
/// exclusive; either may be empty = unbounded): its [effective_from, effective_to] overlaps the
/// range. Dates compare as strings, which is exact for ISO dates.
QAPLAN_API bool effective_in(const DocChunk& chunk, std::string_view from,
                             std::string_view to) noexcept;

}  // namespace qaplan
