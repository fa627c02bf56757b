#include "planning/word_final.hpp"

#include <algorithm>
#include <cstdint>
#include <iterator>

#include "common/utf8.hpp"
#include "planning/cjk_dictionary.hpp"

namespace qaplan::internal {
namespace {

// Generated from ICU's dictionary by tests/unit/planning/word_final_test.cpp (reading it at run
// time takes ~35 ms: a table, not a first question, pays for it).
// A plain array: class template deduction over ~600 initialisers exceeds clang's fold depth.
constexpr char16_t kWordFinal[] = {
#include "planning/word_final_table.inc"
};

constexpr std::uint32_t kMinWords = 20;
constexpr double kMinEndShare = 0.70;

}  // namespace

bool word_final(std::string_view c) {
  std::size_t i = 0;
  const std::int32_t cp = c.empty() ? -1 : next_code_point(c, i);
  if (i != c.size() || cp < 0x3400 || cp > 0x9FFF) return false;
  return std::binary_search(std::begin(kWordFinal), std::end(kWordFinal),
                            static_cast<char16_t>(cp));
}

std::vector<char16_t> word_final_from_dictionary() {
  std::vector<std::uint32_t> first(0x10000), last(0x10000);
  for_each_dictionary_word([&](std::u16string_view w) {
    if (w.size() < 2) return;
    ++first[w.front()];
    ++last[w.back()];
  });
  std::vector<char16_t> out;
  for (char16_t u = 0x3400; u <= 0x9FFF; ++u) {
    const std::uint32_t n = first[u] + last[u];
    if (n >= kMinWords && (last[u] + 1.0) / (n + 2.0) >= kMinEndShare) out.push_back(u);
  }
  return out;
}

}  // namespace qaplan::internal
