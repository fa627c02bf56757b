// The rewriter's word break (src/planning/segment.hpp): ICU's dictionary words, with the
// host's vocabulary (domain lexicon, glossary) joining the pieces ICU cut a term into.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "planning/segment.hpp"
#include "planning/matcher.hpp"

namespace {

using namespace qaplan::internal;

std::vector<std::string> words(const std::string& text) {
  std::vector<std::string> out;
  for (const Token& t : segment_words(text)) out.emplace_back(t.text(text));
  return out;
}

PatternMatcher terms(const std::vector<std::string>& list) {
  PatternMatcher m;
  for (const std::string& w : list) m.add(w, 0);
  m.build();
  return m;
}

using Words = std::vector<std::string>;

TEST(Segment, IcuCutsTheseTermsWithALoneCharacter) {
  // The premise of the tests below: ICU's dictionary does not know these words.
  EXPECT_EQ(words("差旅费怎么报销"), (Words{"差", "旅费", "怎么", "报销"}));
  EXPECT_EQ(words("门禁卡丢了"), (Words{"门禁", "卡", "丢", "了"}));
}

TEST(Segment, AGlossaryTermIsOneWordWhileItsScopeLives) {
  const PatternMatcher g = terms({"差旅费", "门禁卡"});
  {
    const ScopedTerms scope(WordTerms{nullptr, &g});
    EXPECT_EQ(words("差旅费怎么报销"), (Words{"差旅费", "怎么", "报销"}));
    EXPECT_EQ(words("门禁卡丢了"), (Words{"门禁卡", "丢", "了"}));
  }
  // The scope ended: ICU's words again (the per-thread cache is keyed by the vocabulary too).
  EXPECT_EQ(words("差旅费怎么报销"), (Words{"差", "旅费", "怎么", "报销"}));
}

// A vocabulary rebuilt at the same address (a host that reloads its planner) is a new
// vocabulary: the per-thread cache must not hand back the old one's words.
TEST(Segment, AVocabularyRebuiltAtTheSameAddressIsNotTheOldOne) {
  PatternMatcher g = terms({"差旅费"});
  const ScopedTerms scope(WordTerms{nullptr, &g});
  EXPECT_EQ(words("差旅费怎么报销"), (Words{"差旅费", "怎么", "报销"}));
  g = terms({"门禁卡"});
  EXPECT_EQ(words("差旅费怎么报销"), (Words{"差", "旅费", "怎么", "报销"}));
}

TEST(Segment, ATermThatCutsAnIcuWordOrHoldsNoLoneCharacterIsNotJoined) {
  // 差旅 ends inside ICU's 旅费; 怎么报销 spans two known words without a lone character.
  const PatternMatcher g = terms({"差旅", "怎么报销", "旅费"});
  const ScopedTerms scope(WordTerms{nullptr, &g});
  EXPECT_EQ(words("差旅费怎么报销"), (Words{"差", "旅费", "怎么", "报销"}));
}

TEST(Segment, TheLongestTermWinsAndAsciiIsNeverJoined) {
  const PatternMatcher g = terms({"门禁", "门禁卡", "vpn账号"});
  const ScopedTerms scope(WordTerms{nullptr, &g});
  EXPECT_EQ(words("门禁卡丢了"), (Words{"门禁卡", "丢", "了"}));
  const Words vpn = words("vpn账号");
  ASSERT_FALSE(vpn.empty());
  EXPECT_EQ(vpn.front(), "vpn");
}

// ICU reads UTF-16; the tokens' offsets are bytes of the UTF-8 text, also after a character
// outside the BMP (two UTF-16 units, four bytes), and they cover the text.
TEST(Segment, OffsetsAreUtf8BytesAcrossSurrogatePairs) {
  const std::string text = "年假😀怎么请𠀀假ab1";
  const auto t = segment_words(text);
  ASSERT_FALSE(t.empty());
  EXPECT_EQ(t.front().begin, 0u);
  EXPECT_EQ(t.back().end, text.size());
  for (std::size_t i = 1; i < t.size(); ++i) EXPECT_EQ(t[i].begin, t[i - 1].end);
  Words w;
  for (const Token& k : t) w.emplace_back(k.text(text));
  EXPECT_EQ(w.front(), "年假");
  EXPECT_EQ(w.back(), "ab1");
  EXPECT_TRUE(t.back().ascii);
  EXPECT_NE(std::find(w.begin(), w.end(), "😀"), w.end());
  for (const Token& k : t)
    if (k.text(text) == "😀") EXPECT_FALSE(k.word);
}

}  // namespace
