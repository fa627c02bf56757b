// The rewriter's word break (src/planning/analysis/segment.hpp): ICU's dictionary words, with the
// host's vocabulary (domain lexicon, glossary) joining the pieces ICU cut a term into.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "planning/analysis/segment.hpp"
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

}  // namespace
