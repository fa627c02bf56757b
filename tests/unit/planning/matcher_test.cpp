#include "planning/matcher.hpp"

#include <gtest/gtest.h>

#include <random>
#include <set>
#include <string>
#include <vector>
#include <tuple>

namespace {

using qaplan::internal::PatternMatcher;
using MatchHit = std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>;

std::set<MatchHit> scan(const PatternMatcher& m, std::string_view text) {
  std::set<MatchHit> out;
  m.scan(text, [&](std::uint32_t l, std::uint32_t b, std::uint32_t e) { out.insert({l, b, e}); });
  return out;
}

TEST(Matcher, ClassicAhoCorasickOverlaps) {
  PatternMatcher m;
  m.add("he", 0);
  m.add("she", 1);
  m.add("his", 2);
  m.add("hers", 3);
  m.build();
  // "ushers": she@1-4, he@2-4, hers@2-6.
  EXPECT_EQ(scan(m, "ushers"), (std::set<MatchHit>{{1, 1, 4}, {0, 2, 4}, {3, 2, 6}}));
}

TEST(Matcher, SamePatternInSeveralListsAndUtf8) {
  PatternMatcher m;
  m.add("金额", 4);
  m.add("金额", 7);
  m.add("付款金额", 9);
  m.build();
  const std::string text = "付款金额字段";  // 3 bytes per character
  EXPECT_EQ(scan(m, text), (std::set<MatchHit>{{9, 0, 12}, {4, 6, 12}, {7, 6, 12}}));
}

TEST(Matcher, NoPatternsAndEmptyText) {
  PatternMatcher m;
  m.add("", 0);  // ignored
  m.build();
  EXPECT_TRUE(scan(m, "anything").empty());
  PatternMatcher m2;
  m2.add("x", 0);
  m2.build();
  EXPECT_TRUE(scan(m2, "").empty());
}

// Cross-check against a naive search on random texts over `alpha`: `patterns` patterns of 1 to
// `max_len` bytes per round.
void agrees_with_naive(const std::string& alpha, std::uint32_t patterns, std::size_t max_len) {
  std::mt19937 rng(7);
  auto rand_str = [&](std::size_t len) {
    std::string s;
    for (std::size_t i = 0; i < len; ++i) s += alpha[rng() % alpha.size()];
    return s;
  };
  for (int round = 0; round < 50; ++round) {
    std::vector<std::string> pats;
    PatternMatcher m;
    for (std::uint32_t i = 0; i < patterns; ++i) {
      pats.push_back(rand_str(1 + rng() % max_len));
      m.add(pats.back(), i);
    }
    m.build();
    const std::string text = rand_str(60);
    std::set<MatchHit> want;
    for (std::uint32_t i = 0; i < pats.size(); ++i)
      for (std::size_t p = text.find(pats[i]); p != std::string::npos; p = text.find(pats[i], p + 1))
        want.insert({i, static_cast<std::uint32_t>(p), static_cast<std::uint32_t>(p + pats[i].size())});
    EXPECT_EQ(scan(m, text), want) << "alphabet " << alpha.size() << " round " << round;
  }
}

// A tiny alphabet: many overlaps and long fail chains.
TEST(Matcher, AgreesWithNaiveSearch) { agrees_with_naive("ab", 8, 4); }

// Wide nodes: a node's child bytes are searched 16 at a time, so alphabets just below, at and
// above 16, 32 and 64 letters (a node under a UTF-8 lead byte has up to 64 children).
TEST(Matcher, AgreesWithNaiveSearchOnWideNodes) {
  for (std::size_t n : {15u, 16u, 17u, 31u, 32u, 33u, 64u, 65u, 200u}) {
    std::string alpha;
    for (std::size_t i = 0; i < n; ++i) alpha += static_cast<char>(0x20 + i);
    agrees_with_naive(alpha, 400, 3);
  }
}

// The patterns read back from the trie are the distinct patterns added, whatever their lists,
// prefixes of one another included.
TEST(Matcher, ReadsBackEveryPatternOnce) {
  PatternMatcher m;
  const std::vector<std::string> added = {"年假", "年", "年假期", "ab", "a", "年假", "b", "差旅费"};
  for (std::uint32_t i = 0; i < added.size(); ++i) m.add(added[i], i % 3);
  m.build();
  std::multiset<std::string> got;
  m.for_each_pattern([&](std::string_view p) { got.emplace(p); });
  EXPECT_EQ(got, (std::multiset<std::string>{"年假", "年", "年假期", "ab", "a", "b", "差旅费"}));
}

// Every child of a 64-wide node is found, whichever slot it sits in, and the bytes around it are
// not mistaken for it (the last node of the automaton too: its reads run past its bytes).
TEST(Matcher, FindsEveryChildOfAWideNode) {
  PatternMatcher m;
  for (std::uint32_t i = 0; i < 64; ++i) m.add(std::string{"\xE4"} + static_cast<char>(0x80 + i), i);
  m.build();
  for (std::uint32_t i = 0; i < 64; ++i) {
    const std::string text = std::string{"\xE4"} + static_cast<char>(0x80 + i);
    EXPECT_EQ(scan(m, text), (std::set<MatchHit>{{i, 0, 2}})) << i;
  }
  EXPECT_TRUE(scan(m, "\xE4\xC0").empty());
  EXPECT_TRUE(scan(m, "\xE4").empty());
}

}  // namespace
