// Feature extraction of the router model (router-features-2): what is emitted, that inflected
// English forms share a stem, that the text features do not depend on `previous`, that Traditional
// and Simplified questions give the same features after normalization, and that nothing
// overflows or crashes on long or malformed input.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "planning/model/features.hpp"
#include "planning/text.hpp"

namespace {

using qaplan::internal::describe_router_features;
using qaplan::internal::extract_router_features;
using qaplan::internal::FeatureBuffer;

std::vector<std::string> features(std::string_view text, std::string_view prev = "") {
  return describe_router_features(text, prev);
}

bool has(const std::vector<std::string>& f, const std::string& x) {
  return std::find(f.begin(), f.end(), x) != f.end();
}

std::string normalized_for_model(std::string_view raw) {
  return qaplan::internal::normalize_question(raw, qaplan::InputConfig{}).value().text;
}

std::vector<std::uint32_t> ids(std::string_view text, std::string_view prev = "",
                               unsigned bits = 20) {
  FeatureBuffer buf;
  extract_router_features(text, prev, bits, buf);
  return {buf.ids.begin(), buf.ids.begin() + buf.size};
}

TEST(ModelFeatures, HanNgramsWithMessageMarkers) {
  const auto f = features("那如果超过了呢");
  EXPECT_TRUE(has(f, "H1 那"));
  EXPECT_TRUE(has(f, "H2 ^ 那"));  // the message opens with 那
  EXPECT_TRUE(has(f, "H3 ^ 那 如"));
  EXPECT_TRUE(has(f, "H2 如 果"));
  EXPECT_TRUE(has(f, "H3 如 果 超"));
  EXPECT_TRUE(has(f, "H2 呢 $"));  // and closes with 呢
  EXPECT_TRUE(has(f, "len 7-9"));
  EXPECT_TRUE(has(f, "script han"));
  // 7 characters: 7 unigrams, 8 bigrams, 7 trigrams, + shape (len, script).
  EXPECT_EQ(f.size(), 7u + 8u + 7u + 2u);

  // A run after a word opens with "<", one before a word closes with ">".
  const auto g = features("vpn连不上 help");
  EXPECT_TRUE(has(g, "H2 < 连"));
  EXPECT_TRUE(has(g, "H2 上 >"));
  EXPECT_TRUE(has(g, "script mixed"));
  // Symbols between Han characters split runs; the message-level markers survive punctuation.
  const auto h = features(normalized_for_model("好的，谢谢！"));
  EXPECT_TRUE(has(h, "H2 ^ 好"));
  EXPECT_TRUE(has(h, "H2 的 >"));
  EXPECT_TRUE(has(h, "H2 < 谢"));
  EXPECT_TRUE(has(h, "H2 谢 $"));
  EXPECT_TRUE(has(h, "P !"));  // NFKC made the full-width ！ ASCII
}

TEST(ModelFeatures, EnglishWordsStemsAndBigrams) {
  const auto f = features(normalized_for_model("My laptop won't connect to the VPN"));
  EXPECT_TRUE(has(f, "W laptop"));
  EXPECT_TRUE(has(f, "W won't"));
  EXPECT_TRUE(has(f, "B ^ my"));
  EXPECT_TRUE(has(f, "B connect to"));
  EXPECT_TRUE(has(f, "B vpn $"));
  EXPECT_TRUE(has(f, "script latin"));

  // Inflected forms share the stem feature (the surface word stays a feature of its own).
  auto stem = [](std::string_view w) {
    for (const std::string& s : describe_router_features(w, ""))
      if (s.rfind("S ", 0) == 0) return s;
    return "S " + std::string(w);  // the word is its own stem
  };
  EXPECT_EQ(stem("reimburse"), "S reimburs");
  EXPECT_EQ(stem("reimbursed"), "S reimburs");
  EXPECT_EQ(stem("reimbursement"), "S reimburs");
  EXPECT_EQ(stem("reimbursements"), "S reimburs");
  EXPECT_EQ(stem("connecting"), "S connect");
  EXPECT_EQ(stem("connects"), stem("connect"));
  EXPECT_EQ(stem("policies"), "S policy");
  EXPECT_EQ(stem("processes"), stem("process"));
  EXPECT_EQ(stem("applied"), stem("applies"));
  EXPECT_EQ(stem("class"), "S class");  // no plural s to strip
  EXPECT_EQ(stem("is"), "S is");        // too short to touch

  // Digits: a length class, and the literal for short numbers ("88", "886" are goodbyes).
  const auto d = features("886");
  EXPECT_TRUE(has(d, "W <num3>"));
  EXPECT_TRUE(has(d, "W 886"));
  EXPECT_TRUE(has(d, "digit"));
  const auto e = features("报销超过5000");
  EXPECT_TRUE(has(e, "W <num4>"));
  EXPECT_FALSE(has(e, "W 5000"));
}

TEST(ModelFeatures, SymbolsAndShapes) {
  EXPECT_TRUE(has(features("???"), "only-punct"));
  EXPECT_TRUE(has(features("???"), "qmark"));
  EXPECT_TRUE(has(features("😂😂"), "only-emoji"));
  EXPECT_TRUE(has(features("😂😂"), "P 😂"));
  EXPECT_FALSE(has(features("好😂"), "only-emoji"));
  EXPECT_TRUE(has(features("..."), "len 0"));
  // Skin tones and variation selectors decorate a symbol; they are not features.
  EXPECT_EQ(ids("👍🏽"), ids("👍"));
  EXPECT_EQ(ids("❤\xEF\xB8\x8F"), ids("❤"));
}

TEST(ModelFeatures, TraditionalAndSimplifiedAgreeAfterNormalization) {
  EXPECT_EQ(ids(normalized_for_model("報銷費用超過5000需要誰審批")),
            ids(normalized_for_model("报销费用超过5000需要谁审批")));
  EXPECT_EQ(ids(normalized_for_model("ＶＰＮ　連不上")), ids(normalized_for_model("vpn连不上")));
}

TEST(ModelFeatures, PairFeaturesFollowTheTextFeatures) {
  FeatureBuffer alone, with_prev;
  extract_router_features("那病假呢", "", 20, alone);
  extract_router_features("那病假呢", "年假有几天", 20, with_prev);
  EXPECT_EQ(alone.text_count, alone.size);
  EXPECT_EQ(with_prev.text_count, alone.text_count);
  EXPECT_GT(with_prev.size, with_prev.text_count);
  EXPECT_TRUE(std::equal(alone.ids.begin(), alone.ids.begin() + alone.size, with_prev.ids.begin()));

  const auto f = features("那病假呢", "年假有几天");
  EXPECT_TRUE(has(f, "D len 3-4 5-9"));
  EXPECT_TRUE(has(f, "D bi 0"));           // 那病 病假 假呢: none occurs in 年假有几天
  EXPECT_TRUE(has(f, "D unishare <1/3"));  // 1 of 4 characters (假) does
  EXPECT_TRUE(has(f, "D first 那 0"));
  EXPECT_TRUE(has(f, "D ratio <1"));
  // A question sharing most bigrams with the previous turn.
  const auto g = features("年假有几天呢", "年假有几天");
  EXPECT_TRUE(has(g, "D bishare >=2/3"));
  const auto h = features("会议室怎么订", "年假有几天?");
  EXPECT_TRUE(has(h, "D bi 0"));
  EXPECT_TRUE(has(h, "D prevq"));
  EXPECT_TRUE(has(features("what about macs", "does the vpn support mac"), "D word 1"));
}

TEST(ModelFeatures, IdsAreDeterministicAndInRange) {
  for (unsigned bits : {12u, 16u, 20u, 26u}) {
    const auto a = ids("出差住酒店一晚最多能报多少 hotel limit?", "差旅标准", bits);
    EXPECT_EQ(a, ids("出差住酒店一晚最多能报多少 hotel limit?", "差旅标准", bits));
    for (std::uint32_t id : a) EXPECT_LT(id, 1u << bits);
  }
  // Pinned ids: a change to hashing or emission must come with a new feature spec id.
  EXPECT_EQ(ids("你好", "", 20), (std::vector<std::uint32_t>{669811, 392440, 904544, 264757, 152027,
                                                             546284, 665756, 500345, 199374}));
  EXPECT_EQ(ids("那病假呢 vpn?", "年假有几天", 20),
            (std::vector<std::uint32_t>{382310, 441240, 208997, 594171, 645260,  92879,  53664,
                                        981738, 382416, 432760, 817061, 681282,  786831, 205514,
                                        493580, 447583, 559520, 498095, 797248,  510050, 1007947,
                                        103513, 985980, 465893, 789130, 1039774, 704678}));
  FeatureBuffer buf;
  extract_router_features("你好", "", 11, buf);  // out of range: nothing
  EXPECT_EQ(buf.size, 0u);
  extract_router_features("你好", "", 27, buf);
  EXPECT_EQ(buf.size, 0u);
}

TEST(ModelFeatures, LongAndMalformedInputNeverOverflows) {
  std::string long_han;
  for (int i = 0; i < 5000; ++i) long_han += "报销";
  FeatureBuffer buf;
  extract_router_features(long_han, long_han, 20, buf);
  EXPECT_EQ(buf.size, qaplan::internal::kMaxRouterFeatures);
  EXPECT_LE(buf.text_count, buf.size);
  // Invalid UTF-8 bytes are skipped, not read past.
  const std::string bad = std::string("年假\xE5\xB9") + "\xFF\xC0\x80" + "怎么" + "\xF0\x9F";
  extract_router_features(bad, bad, 20, buf);
  EXPECT_GT(buf.size, 0u);
  extract_router_features("", "", 20, buf);
  EXPECT_EQ(buf.text_count, 2u);  // "len 0", "script none"
  const auto f = describe_router_features(bad, "");
  EXPECT_TRUE(has(f, "H2 年 假"));
}

}  // namespace
