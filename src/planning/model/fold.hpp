#pragma once
// The router model's script fold: one spelling per group of Simplified words that OpenCC's
// round trip (Simplified → s2t or s2twp → qaplan's Traditional-to-Simplified) cannot keep apart.
// 文档 and 文件 are one such group: s2twp writes 文档 as 文件, and 文件 stays 文件, so a Taiwan
// user's 文件 and a mainland user's 文件 are the same text and need not be the same word. The
// model reads every text folded (training and inference alike, spec router-features-2), so a
// question and its Traditional conversions give the model one and the same text; the rules and
// the `normalized_query` the host sees are not folded.
//
// The table (fold_table.inc) is generated from OpenCC's dictionaries by
// tests/unit/planning/fold_table_test.cpp, which fails when the installed dictionaries would give
// another table (QAPLAN_UPDATE_GOLDEN=1 rewrites it; a new table needs a retrained model).
#include <cstddef>
#include <span>
#include <string_view>
#include <utility>

namespace qaplan::internal {

using FoldEntry = std::pair<std::string_view, std::string_view>;  ///< {spelling, canonical}

/// The fold table, sorted by spelling; every canonical is no longer (in bytes) than its spelling.
std::span<const FoldEntry> fold_table() noexcept;

/// Upper bound on a folded text in bytes: longer input is cut at a code point boundary first.
inline constexpr std::size_t kMaxFoldBytes = 4096;

/// Folds `text`: every leftmost-longest occurrence of a table spelling becomes its canonical
/// form (OpenCC's own max-match order). Returns `text` itself when nothing changes, else a view
/// into `buf`. Linear in the text (each position compares at most the few spellings that start
/// with its character); no allocation after the first call, which builds a ~15 KB index.
std::string_view fold_for_model(std::string_view text, char (&buf)[kMaxFoldBytes]) noexcept;

}  // namespace qaplan::internal
