#pragma once
/// The benchmark tokenizer `nfkc-cjk-bigrams-ascii-1`.
///
/// Rules, applied in this order:
///  1. The input must be valid UTF-8 (no overlong forms, no surrogates, nothing above U+10FFFF);
///     otherwise `tokenize()` returns kInvalidInput naming the byte offset.
///  2. ICU NFKC_Casefold normalisation (full-width → ASCII, compatibility ideographs → unified,
///     upper → lower case, composed accents).
///  3. The normalised text is split into runs of one class each:
///     - Han: Script=Han (ICU `uscript_getScript`) and Alphabetic (so 々 and 〇 count, CJK radical
///       *symbols* do not). Each maximal run of Han characters gives its adjacent bigrams; a run
///       of one character is kept as it is.
///     - ASCII: maximal `[a-z0-9]` runs, joined by a single inner `.`, `_` or `-` that is followed
///       by `[a-z0-9]` (so SKUs, numbers, versions and identifiers stay whole: `sku-1234`,
///       `v2.3.1`, `order_id`, `1.5`; `a..b` → a · b; a trailing separator is dropped).
///     - Other letters: a maximal run of code points with `u_isalpha` that are neither Han nor
///       ASCII (kana, Hangul, accented Latin, Cyrillic, …) is one token; combining marks
///       (General_Category M*) that follow such a letter stay in the run. ASCII letters and
///       other letters are different classes, so `café` → caf · é.
///     - Everything else separates: spaces, punctuation (including `,`), emoji, symbols, and
///       stray combining marks.
///  Tokens come out in text order; a token may repeat.
///
/// Examples: `退货SKU-1234怎么办` → 退货 · sku-1234 · 怎么 · 么办; `５０００元` → 5000 · 元;
/// `5,000元` → 5 · 000 · 元; `😀好的` → 好的. More in tests/data/tokenizer_vectors.jsonl.
#include <string>
#include <string_view>
#include <vector>

#include "qaplan/export.hpp"
#include "qaplan/status.hpp"

namespace qaplan {

/// Version string of the rules above; every report that ranks text records it.
inline constexpr std::string_view kTokenizerVersion = "nfkc-cjk-bigrams-ascii-1";

/// The benchmark tokenizer. Immutable after `create()`; `tokenize()` is const and thread-safe
/// (the ICU normaliser it uses is a process-wide immutable singleton). Cheap to copy.
class QAPLAN_API Tokenizer {
 public:
  /// Checks that ICU's NFKC_Casefold data is available. Errors: kInternal when it is not.
  static Result<Tokenizer> create();

  /// `kTokenizerVersion`.
  std::string_view version() const noexcept { return kTokenizerVersion; }

  /// Tokens of `utf8` by the rules above. Empty text (or text of separators only) gives no
  /// tokens. Errors: kInvalidInput for invalid UTF-8 (never a crash); kInternal if ICU fails.
  Result<std::vector<std::string>> tokenize(std::string_view utf8) const;

  /// Same as `tokenize()` but appends to `out` (reusing its capacity). On error `out` is left
  /// as it was.
  Status tokenize_into(std::string_view utf8, std::vector<std::string>& out) const;

 private:
  Tokenizer() = default;
};

}  // namespace qaplan
