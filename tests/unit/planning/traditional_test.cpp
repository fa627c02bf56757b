// Traditional Chinese plans exactly like Simplified: every question (and history turn) of
// tests/data converted with OpenCC's own s2t (mainland Traditional) and s2twp (Taiwan, with
// phrases: 软件 → 軟體) must give the same route, reason, intent, category, table signal, plan
// reason chain and source as the Simplified original — with the shipped config (model as
// configured) and with the model off.
#include <gtest/gtest.h>

#include <cstdio>

#include <opencc/Config.hpp>
#include <opencc/Converter.hpp>

#include <algorithm>
#include <fstream>
#include <random>
#include <string>
#include <vector>
#include <nlohmann/json.hpp>

#include "planning/simplify.hpp"
#include "planning/tw2s.hpp"
#include "qaplan/qaplan.hpp"
#include "test_support.hpp"

namespace {

using namespace qaplan;

struct TradCase {
  std::string file;
  PrepareRequest req;
};

std::vector<TradCase> all_cases() {
  std::vector<TradCase> out;
  for (const char* f : test::kQuestionTables) {
    std::ifstream in(test::source_dir() / "tests" / "data" / f);
    std::string line;
    while (std::getline(in, line)) {
      if (line.empty()) continue;
      const auto j = nlohmann::json::parse(line);
      PrepareRequest r;
      r.question = j.at("question").get<std::string>();
      if (j.contains("history")) r.history = j["history"].get<std::vector<std::string>>();
      if (j.contains("scenario")) r.scenario = j["scenario"];
      if (j.contains("source") && j["source"].is_string() && f != std::string("followups.jsonl") &&
          f != std::string("category_source.jsonl"))
        r.source = j["source"].get<std::string>();
      out.push_back({f, std::move(r)});
    }
  }
  return out;
}

std::string trad_signature(const Preparation& p) {
  std::string s = std::string(to_string(p.route.route)) + "/" + std::string(to_string(p.route.reason));
  if (p.intent) s += "/" + std::string(to_string(p.intent->intent));
  if (p.plan)
    s += "/" + std::string(to_string(p.plan->question_category())) + "/" +
         (p.plan->knobs().prefer_table ? "table" : "-") + "/" + p.plan->reason();
  s += "/" + p.effective_source.value_or("-");
  return s;
}

void expect_parity(const Planner& planner, const std::string& which) {
  opencc::Config cfg;
  const auto s2t = cfg.NewFromFile("s2t.json");
  const auto s2twp = cfg.NewFromFile("s2twp.json");
  std::size_t checked = 0, converted = 0, mismatched = 0;
  for (const TradCase& c : all_cases()) {
    auto base = planner.prepare(c.req);
    ASSERT_TRUE(base.ok()) << c.req.question;
    for (const auto& conv : {s2t, s2twp}) {
      PrepareRequest t = c.req;
      t.question = conv->Convert(t.question);
      for (auto& h : t.history) h = conv->Convert(h);
      converted += t.question != c.req.question ? 1 : 0;
      auto trad = planner.prepare(t);
      ASSERT_TRUE(trad.ok()) << t.question;
      if (trad_signature(*trad) != trad_signature(*base)) {
        ++mismatched;
        ADD_FAILURE() << which << " " << c.file << ": " << c.req.question << " → " << t.question
                      << "\n  " << trad_signature(*base) << "\n  " << trad_signature(*trad);
      }
      ++checked;
    }
  }
  std::printf("[%s] %zu of %zu conversions plan differently\n", which.c_str(), mismatched, checked);
  EXPECT_EQ(mismatched, 0u);
  EXPECT_GT(checked, 1000u);
  EXPECT_GT(converted, checked / 2);  // most questions do change script
}

// With the model on too: the model reads folded text (src/planning/model/fold.hpp), in which the
// spellings OpenCC's round trip confuses (s2twp writes 文档 as 文件, which stays 文件) are one, so
// every conversion plans exactly like its Simplified original (before the fold: 11 of 2 410 did
// not).
TEST(Traditional, PlansLikeSimplifiedWithShippedConfig) {
  expect_parity(Planner::create(load_config(test::shipped_config()).value()).value(), "shipped");
}

TEST(Traditional, PlansLikeSimplifiedWithModelOff) {
  Config c = load_config(test::shipped_config()).value();
  c.model.enabled = false;
  expect_parity(Planner::create(c).value(), "model off");
}

TEST(Traditional, OnlyTraditionalTextIsConverted) {
  EXPECT_FALSE(internal::has_traditional("报销费用超过5000需要谁审批"));
  EXPECT_FALSE(internal::has_traditional("怎么申请年假 vpn"));  // 么 stays 么 (no 幺)
  EXPECT_TRUE(internal::has_traditional("報銷費用超過5000需要誰審批"));
  EXPECT_EQ(internal::to_simplified("報銷費用超過5000需要誰審批").value(), "报销费用超过5000需要谁审批");
  EXPECT_EQ(internal::to_simplified("軟體和網路").value(), "软件和网络");  // Taiwan phrases
  EXPECT_EQ(internal::to_simplified("著名的公司怎么样").value(), "著名的公司怎么样");
}

// The table compiled in at build time is exactly what the installed OpenCC's tables change: a
// process start no longer converts the CJK block, and nothing is lost by not doing so.
TEST(Traditional, TheCompiledTableIsOpenCCsOwn) {
  const auto table = internal::traditional_table();
  const auto now = internal::tw2s::changed_code_points(*internal::tw2s::make_converter());
  ASSERT_EQ(table.size(), now.size());
  std::size_t set = 0, differ = 0;
  for (std::size_t i = 0; i < now.size(); ++i) {
    set += static_cast<std::size_t>(__builtin_popcountll(now[i]));
    differ += table[i] != now[i];
  }
  EXPECT_EQ(differ, 0u);
  EXPECT_GT(set, 2000u);  // thousands of Traditional characters, not an empty table
  auto bit = [&](char32_t cp) { return (table[cp / 64] >> (cp % 64) & 1) != 0; };
  EXPECT_TRUE(bit(U'報'));
  EXPECT_TRUE(bit(U'瞭'));  // a round-trip gap opens the gate too
  EXPECT_FALSE(bit(U'报'));
  EXPECT_FALSE(bit(U'么'));
  // The exact tables beside the gate: what changes alone, and the phrases that change although
  // none of their characters does.
  const auto converter = internal::tw2s::make_converter();
  const auto alone = internal::tw2s::changed_alone_code_points(*converter);
  const auto compiled_alone = internal::changed_alone_table();
  ASSERT_EQ(compiled_alone.size(), alone.size());
  EXPECT_TRUE(std::equal(alone.begin(), alone.end(), compiled_alone.begin()));
  const auto hidden = internal::tw2s::hidden_phrases(*converter, alone);
  const auto compiled_hidden = internal::hidden_phrase_table();
  ASSERT_EQ(compiled_hidden.size(), hidden.size());
  EXPECT_TRUE(std::equal(hidden.begin(), hidden.end(), compiled_hidden.begin()));
  EXPECT_TRUE(std::binary_search(hidden.begin(), hidden.end(), "解析度"));  // → 分辨率
  EXPECT_TRUE(std::binary_search(hidden.begin(), hidden.end(), "瞭解"));    // a round-trip gap
}

// conversion_may_change() says "no" only where the conversion returns the text as it is (what
// lets the cues of a rules file be checked without OpenCC), on random texts built from the
// characters of hidden phrases, of the gaps, Traditional and Simplified ones.
TEST(Traditional, ConversionMayChangeIsNeverWrongWhenItSaysNo) {
  const auto converter = internal::tw2s::make_converter();
  const std::vector<std::string> pieces = {"了", "解", "析", "度", "瞭", "滑", "鼠", "年", "假",
                                           "报", "報", "體", "软", "软件", "a", "1", "，",
                                           "解析度", "滑鼠", "瞭解", "记忆体"};
  std::mt19937 rng(20261203);
  std::uniform_int_distribution<std::size_t> pick(0, pieces.size() - 1), len(1, 5);
  int no = 0, yes = 0;
  for (int i = 0; i < 20000; ++i) {
    std::string text;
    for (std::size_t n = len(rng); n > 0; --n) text += pieces[pick(rng)];
    if (internal::conversion_may_change(text)) {
      ++yes;
      continue;
    }
    ++no;
    ASSERT_EQ(converter->Convert(text), text) << text;
    ASSERT_EQ(internal::to_simplified(text).value(), text) << text;
  }
  EXPECT_GT(no, 1000);
  EXPECT_GT(yes, 1000);
  EXPECT_FALSE(internal::conversion_may_change("了解一下解释"));
  EXPECT_TRUE(internal::conversion_may_change("解析度"));
  EXPECT_TRUE(internal::conversion_may_change("我不太瞭解"));
}

}  // namespace
