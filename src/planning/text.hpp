#pragma once
// Stage 1 — text: validate and normalize a raw question.
//
// Normalization is ICU NFKC_Casefold (NFKC + full case folding: `５０００` → `5000`,
// `ＶＰＮ` → `vpn`), then whitespace is trimmed, every internal whitespace run becomes one ASCII
// space, and a whitespace run between two Han characters is removed (Chinese does not separate
// words with spaces, so `年假 怎么申请` and `年假怎么申请` are the same question). Last, text that holds
// a Traditional character is converted to Simplified (OpenCC tw2sp, simplify.hpp), so every later
// stage sees one script; `Preparation::query` keeps what the user typed.
#include <string_view>

#include "qaplan/planning/config.hpp"
#include "qaplan/planning/types.hpp"

namespace qaplan::internal {

/// Validates and normalizes. Errors (kInvalidInput): invalid UTF-8 (byte offset named), more
/// than `limits.max_question_chars` code points in the RAW input (checked before normalization),
/// empty or whitespace-only. `what` names the field in messages ("question", "history[2]").
/// A space between two Han characters is dropped (年假 怎么申请), or with `space_breaks_clause`
/// (history turns, where chat writes a space for a comma: 火锅吧 好久没吃了) becomes ",".
QAPLAN_API Result<NormalizedQuery> normalize_question(std::string_view raw, const InputConfig& limits,
                                           std::string_view what = "question",
                                           bool space_breaks_clause = false);

/// "Query units" for the short-query rule: each Han character counts 1, each maximal run of
/// other letters and digits (ASCII, accented Latin, Cyrillic, Hangul …) counts 1, everything else
/// 0. `报销费用超过5000需要谁审批` = 12 units.
/// Expects valid UTF-8 (invalid bytes count 0).
int count_query_units(std::string_view utf8) noexcept;

}  // namespace qaplan::internal
