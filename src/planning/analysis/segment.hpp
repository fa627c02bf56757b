#pragma once
// Word segmentation for the rewriter: ICU's dictionary-based word break iterator (its CJK
// dictionary; no extra dependency). Words ICU does not know — most names — come out one
// character per token, which the rewriter uses as a hint that a run of them is a name.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace qaplan::internal {

struct Token {
  std::uint32_t begin = 0;  ///< byte offsets into the text
  std::uint32_t end = 0;
  bool word = false;         ///< letters, digits or ideographs (not punctuation/space)
  bool single_han = false;   ///< exactly one Han character
  bool ascii = false;        ///< ASCII letters/digits
  std::string_view text(std::string_view s) const { return s.substr(begin, end - begin); }
};

/// Tokens of valid UTF-8 `text`, in order, covering it. Thread-safe (one iterator per thread).
std::vector<Token> segment_words(std::string_view text);

}  // namespace qaplan::internal
