// The domain lexicon's matcher (src/planning/domain_trie.hpp) against a brute-force reference:
// every occurrence of every term, by begin and shorter first, on random texts that mix the
// units it walks differently — three-byte characters (one step through the character table),
// ASCII, two- and four-byte characters and invalid bytes (byte edges).
#include "planning/domain_trie.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <tuple>
#include <vector>

namespace {

using Hit = std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>;  // term, begin, end

// Valid UTF-8 pieces a term is made of, and bytes only texts carry (invalid on their own).
const std::vector<std::string> kPieces = {"信",          "用", "卡", "还", "款", "额",
                                          "度",          "出", "差",  // three-byte Han
                                          "a",           "b",  "v",  "p",  "n",  "1",  // ASCII
                                          "é",           "д",  "ж",                    // two-byte
                                          "😀",           "𠀋",                         // four-byte
                                          "\xE2\x80\x94"};  // a three-byte dash
const std::vector<std::string> kStray = {"\xE4", "\xE4\xBF", "\x80", "\xBF\xA1", "\xF0\x9F"};

std::vector<Hit> brute_force(const std::vector<std::string>& terms, const std::string& text) {
  std::vector<Hit> out;
  for (std::uint32_t b = 0; b < text.size(); ++b)
    for (std::uint32_t e = b + 1; e <= text.size(); ++e) {
      const auto it = std::find(terms.begin(), terms.end(), text.substr(b, e - b));
      if (it != terms.end()) out.emplace_back(static_cast<std::uint32_t>(it - terms.begin()), b, e);
    }
  return out;
}

std::vector<Hit> scanned(const qaplan::internal::DomainTrie& trie, const std::string& text) {
  std::vector<Hit> out;
  trie.scan(text,
            [&](std::uint32_t t, std::uint32_t b, std::uint32_t e) { out.emplace_back(t, b, e); });
  return out;
}

TEST(DomainTrie, EveryOccurrenceLikeBruteForce) {
  std::mt19937 rng(20261202);
  auto pick = [&](const std::vector<std::string>& v) {
    return v[std::uniform_int_distribution<std::size_t>(0, v.size() - 1)(rng)];
  };
  for (int round = 0; round < 100; ++round) {  // 2 000 texts: every unit mix many times
    std::vector<std::string> terms;
    const int n = std::uniform_int_distribution<int>(1, 60)(rng);
    for (int i = 0; i < n; ++i) {
      std::string t;
      const int len = std::uniform_int_distribution<int>(1, 4)(rng);
      for (int k = 0; k < len; ++k) t += pick(kPieces);
      terms.push_back(t);
    }
    std::sort(terms.begin(), terms.end());
    terms.erase(std::unique(terms.begin(), terms.end()), terms.end());
    std::size_t bytes = 0;
    for (const std::string& t : terms) bytes += t.size();
    qaplan::internal::DomainTrie trie;
    trie.build(
        static_cast<std::uint32_t>(terms.size()),
        [&](std::uint32_t i) { return std::string_view(terms[i]); }, bytes);
    for (int q = 0; q < 20; ++q) {
      std::string text;
      const int len = std::uniform_int_distribution<int>(0, 30)(rng);
      for (int k = 0; k < len; ++k) text += rng() % 8 == 0 ? pick(kStray) : pick(kPieces);
      ASSERT_EQ(scanned(trie, text), brute_force(terms, text))
          << "round " << round << " text " << text;
    }
  }
}

TEST(DomainTrie, EmptyTrieAndEmptyText) {
  qaplan::internal::DomainTrie trie;
  trie.build(
      0, [](std::uint32_t) { return std::string_view(); }, 0);
  EXPECT_TRUE(scanned(trie, "信用卡 abc").empty());
  const std::vector<std::string> terms = {"信用", "信用卡"};
  trie.build(
      2, [&](std::uint32_t i) { return std::string_view(terms[i]); }, 15);
  EXPECT_TRUE(scanned(trie, "").empty());
  EXPECT_EQ(scanned(trie, "我的信用卡"), (std::vector<Hit>{{0, 6, 12}, {1, 6, 15}}));
}

}  // namespace
