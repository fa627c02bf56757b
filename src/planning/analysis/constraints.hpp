#pragma once
// What a query variant must keep (docs/guide.md#query-analysis-planneranalyze): the numbers,
// IDs and entities of a question, found without a model in one linear pass, and the fail-closed
// checks applied to a hook's output. Also the ID shapes that make routing pick BM25.
#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "qaplan/status.hpp"

namespace qaplan::internal {

/// An ASCII token of normalized text (lower case): letters and digits with inner - _ . / : #.
struct AsciiToken {
  std::uint32_t begin = 0, end = 0;
  bool letters = false, digits = false;
};
std::vector<AsciiToken> ascii_tokens(std::string_view text);

/// The ID-like shapes of a normalized text: letters with digits (e1001, po-2024-001,
/// 0x80070005, win11), versions (v8.16, 2.3.1), long digit runs (order numbers, ≥ 6 digits, not
/// an amount such as 100000元). Short letter+digit words (p4, q3, m1) are grades and quarters,
/// not IDs; dates (2024-03-05) are not IDs either.
std::vector<std::string> id_shapes(std::string_view text);

/// A fixed word list for lookups without allocation: built once per Analyzer, because building a
/// hash set per request cost more than the rest of the analysis.
class WordSet {
 public:
  WordSet() = default;
  explicit WordSet(std::vector<std::string> words);
  bool contains(std::string_view word) const;
  /// The entries of several words (what about, how about).
  const std::vector<std::string>& phrases() const noexcept { return phrases_; }
  /// Whether an entry of two or more code points begins with code point `cp`.
  bool opens_longer(std::int32_t cp) const {
    return std::binary_search(openers_.begin(), openers_.end(), cp);
  }
  /// Whether an entry of two or more code points ends with code point `cp`.
  bool closes_longer(std::int32_t cp) const {
    return std::binary_search(closers_.begin(), closers_.end(), cp);
  }

 private:
  std::vector<std::string> words_;  // sorted, unique
  std::vector<std::string> phrases_;
  std::vector<std::int32_t> openers_;  // sorted: first code points of the longer entries
  std::vector<std::int32_t> closers_;  // sorted: last code points of the longer entries
  // Open addressing over words_: (hash, index + 1) per slot, 0 = empty. The rewriter asks
  // several hundred times per follow-up; a binary search spent most of it in memcmp.
  struct Slot {
    std::uint32_t hash = 0, index = 0;
  };
  std::vector<Slot> slots_;
};

/// The constraints of a question: every one must survive in a variant.
struct Constraints {
  std::vector<std::string> numbers;   ///< digit runs, leading zeros dropped ("2024", "5000", "3.5")
  std::vector<std::string> ids;       ///< id_shapes()
  std::vector<std::string> entities;  ///< quoted titles, ASCII names inside Chinese, unknown names
};

/// `text` is normalized (NFKC casefold, Simplified). `function_words` are never entities.
Constraints extract_constraints(std::string_view text, const WordSet& function_words);
/// The same with `ids` = id_shapes(text) already read (the routing reads them first).
Constraints extract_constraints(std::string_view text, const WordSet& function_words,
                                std::vector<std::string> ids);

/// A hook's raw text as a list of strings: a JSON array of strings and nothing else (fail
/// closed). Errors: a message ("invalid JSON: …", "not an array", "element 2 is not a string",
/// "empty array", "output larger than 65536 bytes").
Result<std::vector<std::string>> parse_hook_output(std::string_view raw);

/// Why a normalized variant breaks the question's constraints ("" when it keeps them):
/// "drops the number 5000", "drops the entity vpn", "adds the ID po-77" (a variant may not
/// invent a number or ID; HyDE passages may, `allow_additions`).
std::string check_variant(const Constraints& question, std::string_view variant, bool allow_additions);

/// The same for a decomposition: each piece adds nothing, and together they keep everything.
std::string check_decomposition(const Constraints& question, const std::vector<std::string>& pieces);

}  // namespace qaplan::internal
