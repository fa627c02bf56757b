#pragma once
// ICU's Chinese/Japanese word dictionary (cjdict) read directly, and the cost-based split ICU's
// CJK break engine makes over a run of ideographs. Why it is written here: ICU's break iterator
// costs about 1 µs per call before it reads a character (rule tables, caches, a copy and a
// normalization check of each dictionary run, several heap vectors), which was half of a
// follow-up's analysis (docs/benchmarks.md). The dictionary and its trie are ICU's; the split (a
// shortest path over the dictionary's word costs) and the walk down the trie are ours, and tests
// hold them equal to ICU's word break on every text of the repository's data sets and on random
// texts, and the walk to ICU's UCharsTrie on every word of the dictionary.
#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

namespace qaplan::internal {

/// The breaks of a run of `n` BMP ideographs `units` (ideographs ICU's CJK engine handles), as
/// offsets 1..n in ascending order (n is always the last). False when ICU's dictionary is not
/// available. Thread-safe.
bool split_ideographs(const char16_t* units, std::size_t n, std::vector<std::uint32_t>& breaks);

/// True when ICU's dictionary loaded (the caller falls back to ICU's break iterator otherwise).
bool cjk_dictionary_available();

/// Calls `f` with every word of ICU's dictionary, in the trie's order (for tables derived from
/// it: word_final.hpp). Nothing when the dictionary is not available.
void for_each_dictionary_word(const std::function<void(std::u16string_view)>& f);

/// For tests: the dictionary's words that start `units` (at most 20 units long, ascending), read
/// by the split's own walk and by ICU's UCharsTrie; the two must agree. Empty without the
/// dictionary (a test enumerates the words with for_each_dictionary_word).
struct DictionaryWord {
  std::uint32_t length = 0, cost = 0;
  bool operator==(const DictionaryWord&) const = default;
};
std::vector<DictionaryWord> dictionary_words_at(const char16_t* units, std::size_t n);
std::vector<DictionaryWord> dictionary_words_by_icu(const char16_t* units, std::size_t n);

}  // namespace qaplan::internal
