#pragma once
// One JSONL record by corpus.hpp's rules (everything but the file-wide duplicate-id check), so
// the streaming index build and parse_jsonl() accept and refuse exactly the same lines.
#include <string_view>

#include "qaplan/ranking/corpus.hpp"
#include "qaplan/status.hpp"

namespace qaplan::internal {

/// Parses one non-blank line; `field` is "text" or "query". Errors: kInvalidInput naming
/// `source`, `line_no` and the field.
Result<TextRecord> parse_jsonl_record(std::string_view line, std::string_view field,
                                      std::string_view source, int line_no);

/// Only spaces, tabs and CR.
bool blank_line(std::string_view s);

}  // namespace qaplan::internal
