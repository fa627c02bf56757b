#include "planning/text.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>

#include "common/icu.hpp"
#include "common/utf8.hpp"
#include "qaplan/planning/config.hpp"

namespace {

using qaplan::InputConfig;
using qaplan::internal::count_query_units;
using qaplan::internal::normalize_question;

std::string norm_text(std::string_view s) {
  auto r = normalize_question(s, InputConfig{});
  EXPECT_TRUE(r.ok()) << r.error().to_string();
  return r.ok() ? r->text : std::string();
}

TEST(Text, FullWidthDigitsAndLettersBecomeAscii) {
  EXPECT_EQ(norm_text("报销５０００元"), "报销5000元");
  EXPECT_EQ(norm_text("ＶＰＮ连不上"), "vpn连不上");
}

TEST(Text, CaseFoldIsFull) {
  EXPECT_EQ(norm_text("VPN Wifi"), "vpn wifi");
  EXPECT_EQ(norm_text("Straße"), "strasse");  // full folding, not just lower-casing
}

TEST(Text, TrimsAndCollapsesWhitespace) {
  EXPECT_EQ(norm_text("  vpn \t\n  wifi  "), "vpn wifi");
  EXPECT_EQ(norm_text("\u3000年假\u3000"), "年假");  // ideographic space is whitespace
}

TEST(Text, SpacesBetweenHanCharactersAreRemoved) {
  EXPECT_EQ(norm_text("年假 怎么  申请"), "年假怎么申请");
  EXPECT_EQ(norm_text("超过 5000 需要"), "超过 5000 需要");  // Han–ASCII boundaries keep one space
}

// A history turn is chat: a space between two Han characters is where writing puts a comma.
TEST(Text, AHistoryTurnsSpaceBetweenHanCharactersBreaksAClause) {
  const auto h = normalize_question("火锅吧  好久没吃了", qaplan::InputConfig{}, "history[0]",
                                    /*space_breaks_clause=*/true);
  ASSERT_TRUE(h.ok());
  EXPECT_EQ(h->text, "火锅吧,好久没吃了");
  const auto mixed = normalize_question("超过 5000 需要", qaplan::InputConfig{}, "history[0]", true);
  ASSERT_TRUE(mixed.ok());
  EXPECT_EQ(mixed->text, "超过 5000 需要");
}

TEST(Text, ControlCharactersActAsWhitespace) {
  EXPECT_EQ(norm_text(std::string("a\0b", 3)), "a b");
  EXPECT_EQ(norm_text("年假\x01怎么\x7f申请"), "年假怎么申请");
  EXPECT_EQ(norm_text("\x1b[31mvpn"), "[31mvpn");
  EXPECT_FALSE(normalize_question(std::string("\0\x01\x02", 3), qaplan::InputConfig{}).ok());
}

TEST(Text, PunctuationIsNormalizedNotRemoved) {
  EXPECT_EQ(norm_text("年假怎么申请？"), "年假怎么申请?");
}

TEST(Text, QueryUnitsFollowTheSeedExamples) {
  EXPECT_EQ(count_query_units("报销费用超过5000需要谁审批"), 12);
  EXPECT_EQ(count_query_units("材料清单里的付款金额字段是什么"), 15);
  EXPECT_EQ(count_query_units("vpn怎么连接"), 5);
  EXPECT_EQ(count_query_units("a1b2 c3 ,!"), 2);   // maximal ASCII alphanumeric runs
  EXPECT_EQ(count_query_units("？！…😀"), 0);
  EXPECT_EQ(count_query_units("sku-1234"), 2);      // '-' splits the run
  EXPECT_EQ(count_query_units(""), 0);
}

TEST(Text, InvalidUtf8IsAnErrorNamingTheOffset) {
  for (std::string bad : {std::string("\xff"), std::string("ab\xc3"), std::string("\xc0\xaf"),
                          std::string("\xed\xa0\x80"), std::string("\xf4\x90\x80\x80")}) {
    auto r = normalize_question(bad, InputConfig{});
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.error().code, qaplan::ErrorCode::kInvalidInput);
    EXPECT_NE(r.error().message.find("invalid UTF-8 at byte"), std::string::npos);
    EXPECT_EQ(r.error().field, "question");
  }
  EXPECT_FALSE(qaplan::internal::is_valid_utf8("\xe5\xb9"));
  EXPECT_TRUE(qaplan::internal::is_valid_utf8("年假"));
}

TEST(Text, EmptyAndWhitespaceOnlyAreErrors) {
  for (std::string s : {"", "   ", "\t\n", "\u3000"}) {
    auto r = normalize_question(s, InputConfig{});
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("empty"), std::string::npos);
  }
}

TEST(Text, LengthLimitCountsRawCodePointsBeforeNormalization) {
  InputConfig lim;
  lim.max_question_chars = 4;
  EXPECT_TRUE(normalize_question("年假申请", lim).ok());
  auto r = normalize_question("年假申请吗", lim);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("5 characters, limit 4"), std::string::npos);
  // ㍿ (1 code point) expands to 株式会社 under NFKC: the raw count is what is limited.
  EXPECT_TRUE(normalize_question("㍿㍿㍿㍿", lim).ok());
  lim.max_question_chars = 512;
  EXPECT_TRUE(normalize_question(std::string(512, 'a'), lim).ok());
  EXPECT_FALSE(normalize_question(std::string(513, 'a'), lim).ok());
}

TEST(Text, HugeInputIsRejectedWithoutCrashing) {
  const std::string big(10 * 1024 * 1024, 'x');
  auto r = normalize_question(big, InputConfig{});
  EXPECT_FALSE(r.ok());
}

// count_query_units reads ASCII and the CJK Unified Ideographs without decoding: it must count
// as the code-point-at-a-time reading does, on every BMP character in context and on ill-formed
// bytes.
int units_by_code_points(std::string_view s) {
  using namespace qaplan::internal;
  int units = 0;
  bool in_run = false;
  for (std::size_t i = 0; i < s.size();) {
    const std::int32_t cp = next_code_point(s, i);
    const bool han = cp >= 0 && is_han(cp);
    if (!han && (is_ascii_alnum(cp) || (cp >= 0x80 && is_word_char(cp)))) {
      units += !in_run;
      in_run = true;
      continue;
    }
    in_run = false;
    units += han;
  }
  return units;
}

TEST(Text, QueryUnitsAsCountedByCodePoint) {
  std::vector<std::string> texts;
  for (std::uint32_t c = 0x80; c < 0x10000; ++c) {
    std::string ch;
    if (c < 0x800)
      ch = {static_cast<char>(0xC0 | (c >> 6)), static_cast<char>(0x80 | (c & 0x3F))};
    else
      ch = {static_cast<char>(0xE0 | (c >> 12)), static_cast<char>(0x80 | ((c >> 6) & 0x3F)),
            static_cast<char>(0x80 | (c & 0x3F))};
    texts.push_back("ab" + ch + "c" + ch + ch + "1");
    texts.push_back(ch.substr(0, ch.size() - 1) + "a");
  }
  std::mt19937 rng(3);
  for (int i = 0; i < 20000; ++i) {
    std::string t;
    for (std::size_t n = rng() % 12; n > 0; --n)
      t += static_cast<char>(rng() % 4 == 0 ? rng() % 0x80 : 0x80 + rng() % 0x80);
    texts.push_back(t);
  }
  for (const std::string& t : texts) ASSERT_EQ(count_query_units(t), units_by_code_points(t)) << t;
}

}  // namespace
