#pragma once
/// Loading JSONL collections for ranking: a corpus is one JSON object per line
/// `{"id": "...", "text": "...", …}`, a query file one per line `{"id": "...", "query": "..."}`.
/// Other fields are ignored. Rules (every violation is an error naming `file:line` and the field):
///  - each non-blank line is one JSON object; blank lines (only spaces/tabs/CR) are skipped; a
///    UTF-8 byte-order mark at the start of the file is skipped;
///  - the whole line must be valid UTF-8;
///  - `id` is a non-empty string without tab, CR or LF (ids end up in TSV output), unique in the
///    file;
///  - `text` (corpus) or `query` (queries) is a string (may be empty).
/// Records keep file order: record i is document i, which is the ranking tie-breaker.
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "qaplan/export.hpp"
#include "qaplan/status.hpp"

namespace qaplan {

/// One record: its id and its text (the corpus `text` or the query's `query` field).
struct TextRecord {
  std::string id;
  std::string text;
  friend bool operator==(const TextRecord&, const TextRecord&) = default;
};

/// Which field holds the text.
enum class JsonlKind {
  kCorpus,   ///< `{"id","text"}`
  kQueries,  ///< `{"id","query"}`
  kAuto,     ///< decided by the first record: `text` if present, else `query`
};

/// Parses JSONL `content`; `source` names it in errors ("corpus.jsonl:12 id: …").
/// Errors: kInvalidInput as listed above.
QAPLAN_API Result<std::vector<TextRecord>> parse_jsonl(std::string_view content, JsonlKind kind,
                                                       std::string_view source = "<input>");

/// Reads and parses a JSONL file. Errors: kIo when it cannot be read; kInvalidInput as above.
QAPLAN_API Result<std::vector<TextRecord>> load_jsonl(const std::filesystem::path& path,
                                                      JsonlKind kind);

}  // namespace qaplan
