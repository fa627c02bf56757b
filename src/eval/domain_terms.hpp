#pragma once
// Candidate terms of one text, shared by the lexicon build and the background build so both count
// exactly the same strings. A text is normalized like a question (normalize_question), so a term
// found here matches a normalized question byte for byte; words come from ICU's dictionary word
// break (segment_words, the rewriter's segmenter).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "qaplan/status.hpp"

namespace qaplan::internal {

/// Longest Han term or pair, in code points: longer strings are phrases, not vocabulary.
inline constexpr int kMaxTermChars = 8;
/// Longest ASCII term: product names (salesforce, quickbooks) are longer than 8 letters.
inline constexpr int kMaxAsciiChars = 24;

/// What a candidate is. A word is one ICU token; a pair is two adjacent Han tokens (a name ICU
/// does not know, split as 招财|宝), kept only when the pair sticks together (domain_build.cpp).
enum class CandidateKind : std::uint8_t { kHanWord, kAsciiWord, kPair };

struct Candidate {
  std::string_view text;  ///< bytes of the normalized text
  CandidateKind kind;
  std::uint32_t split = 0;  ///< pairs: byte length of the first part
  int chars = 0;            ///< code points
};

/// normalize_question() without its length limit, then folded (fold_long); an empty or blank
/// text gives "" (not an error).
/// Errors: invalid UTF-8 (kInvalidInput, `what` as the field), ICU failure (kInternal).
Result<std::string> normalize_for_terms(std::string_view raw, std::string_view what);

/// `text` folded like the router model's input (model/fold.hpp), in pieces of any length.
std::string fold_long(std::string_view text);

/// Every candidate of a NORMALIZED text, in text order, duplicates included: each Han word (single
/// characters too — they are pair parts), each ASCII word of 2..kMaxAsciiChars characters holding a
/// letter (numbers are not vocabulary), each adjacent Han-Han pair of ≤ kMaxTermChars code points.
/// Han words longer than kMaxTermChars are left out. Thread-safe.
void candidates(std::string_view normalized, std::vector<Candidate>& out);

}  // namespace qaplan::internal
