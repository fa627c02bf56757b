// The rewriter's word break (src/planning/segment.hpp): ICU's dictionary words, with the
// host's vocabulary (domain lexicon, glossary) joining the pieces ICU cut a term into.
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
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

// The decoding is written for speed (ASCII and three-byte characters inline): it must be the
// code-point-at-a-time decoding on every BMP character, beside ASCII and Han, and on ill-formed
// bytes (cut sequences, surrogates, overlong forms, stray continuation bytes).
TEST(Segment, TheFastDecodingIsTheCodePointDecoding) {
  std::size_t differ = 0;
  auto check = [&](const std::string& text) {
    if (!decodes_as_code_points(text) && ++differ <= 20) ADD_FAILURE() << "bytes: " << text;
  };
  for (std::uint32_t c = 1; c < 0x10000; ++c) {
    std::string ch;
    if (c < 0x80) {
      ch = std::string(1, static_cast<char>(c));
    } else if (c < 0x800) {
      ch = {static_cast<char>(0xC0 | (c >> 6)), static_cast<char>(0x80 | (c & 0x3F))};
    } else {  // surrogates too: ill-formed in UTF-8
      ch = {static_cast<char>(0xE0 | (c >> 12)), static_cast<char>(0x80 | ((c >> 6) & 0x3F)),
            static_cast<char>(0x80 | (c & 0x3F))};
    }
    check("年" + ch + "a");
    check(ch.substr(0, ch.size() - 1));
    check("a" + ch.substr(0, ch.size() - 1) + "年");
  }
  for (const char* bytes : {"\xE0\x80\x80", "\xC0\xAF", "\x80\x80年", "\xF0\x9F\x98\x80年",
                            "\xF4\x90\x80\x80", "\xEF\xBF", "\xE4\xB8", "\xE4\xB8\x41"})
    check(bytes);
  EXPECT_EQ(differ, 0u);
}

// segment_words_unjoined() then join_terms_of() is segment_words(), with a vocabulary in scope
// or none, whether or not the per-thread cache holds the text.
TEST(Segment, UnjoinedWordsJoinedAreTheWords) {
  const PatternMatcher g = terms({"差旅费", "门禁卡", "旅费", "怎么报销"});
  const std::vector<std::string> texts = {"差旅费怎么报销", "门禁卡丢了怎么办", "姚笛的差旅费",
                                          "vpn账号", "年假怎么申请", "", "哈哈"};
  auto same = [](const std::vector<Token>& a, const std::vector<Token>& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const Token& x, const Token& y) {
      return x.begin == y.begin && x.end == y.end && x.word == y.word &&
             x.single_han == y.single_han && x.ascii == y.ascii;
    });
  };
  std::vector<Token> reused = segment_words("一段先前的文字，留下的词");
  for (const bool scoped : {true, false}) {
    std::optional<ScopedTerms> scope;
    if (scoped) scope.emplace(WordTerms{nullptr, &g});
    for (const std::string& text : texts)
      for (int pass = 0; pass < 2; ++pass) {  // the second finds the text kept
        WordBreak w = segment_words_unjoined(text);
        join_terms_of(text, w);
        EXPECT_TRUE(w.joined);
        EXPECT_TRUE(same(w.tokens, segment_words(text))) << text << " scoped " << scoped;
        segment_words_into(text, reused);  // over the words of the text before
        EXPECT_TRUE(same(reused, segment_words(text))) << text << " scoped " << scoped;
      }
  }
}

}  // namespace
