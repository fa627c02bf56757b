#pragma once
// The one place that reaches ICU's normalizer and script data. Everything here is thread-safe:
// ICU's normalizer instances are process-wide immutable singletons.
#include <cstdint>
#include <string>
#include <string_view>

#include "qaplan/status.hpp"

namespace qaplan::internal {

/// NFKC_Casefold of valid UTF-8 `text` appended to `out` (NFKC + full case folding:
/// `５０００` → `5000`, `ＶＰＮ` → `vpn`). Errors: kInternal when ICU's data is unavailable or
/// normalization fails. The caller validates UTF-8 first (ICU would replace bad bytes).
Status nfkc_casefold_into(std::string_view text, std::string& out);

/// Script=Han outside the two ranges `is_han` answers inline.
bool is_han_slow(std::int32_t cp) noexcept;

/// Script=Han (CJK ideographs, including compatibility and extension blocks). The two fast paths
/// are inline because the normalizer, unit counter and model features ask once per code point:
/// an out-of-line call here cost the planner 3 % (measured with callgrind; docs/planner_perf.md).
inline bool is_han(std::int32_t cp) noexcept {
  if (cp < 0x2E80) return false;                    // nothing below the CJK radicals block is Han
  if (cp >= 0x4E00 && cp <= 0x9FFF) return true;    // CJK Unified Ideographs: all Han
  return is_han_slow(cp);
}

/// Unicode White_Space (ICU u_isUWhiteSpace).
bool is_unicode_space(std::int32_t cp) noexcept;

bool is_word_char_slow(std::int32_t cp) noexcept;

/// Letters, digits or ideographs: the code points that carry words. ASCII and the CJK Unified
/// Ideographs answer inline: the word break asks once per code point of every text it splits.
inline bool is_word_char(std::int32_t cp) noexcept {
  if (cp < 0x80)
    return (cp >= '0' && cp <= '9') || (cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z');
  if (cp >= 0x4E00 && cp <= 0x9FFF) return true;
  return is_word_char_slow(cp);
}

/// ICU's short name of the script of a letter outside Han and Latin ("Cyrl", "Arab", "Hang",
/// "Kana"); "" for Han, Latin, digits and anything that is not a letter. Used to tell a message
/// in a script no word list knows.
std::string_view foreign_script_of(std::int32_t cp) noexcept;

}  // namespace qaplan::internal
