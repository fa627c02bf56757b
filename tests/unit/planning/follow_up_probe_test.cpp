// Follow-up detection in six domains the router was not trained on (hospital, university, hotel,
// telecom, e-commerce, property management): tests/data/followups_probe_dev.jsonl, 240 short
// turns after one question, written for this project on 2026-12-07 as a probe of turns that leave
// their subject out (a verb and its object: 含早餐吗; a preposition first: 跟绩效挂钩吗) against
// short questions that name a subject of their own (车库免费吗) or start a topic of their own.
// Prints precision and recall per shape and holds them to floors a few points under what was
// measured (docs/routing.md), so a regression fails. A dev set: rules were tuned with it in view.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <map>

#include <nlohmann/json.hpp>

#include "qaplan/qaplan.hpp"
#include "test_support.hpp"

namespace {

using namespace qaplan;

TEST(FollowUpProbe, UnseenDomainsDetection) {
  const Planner planner = Planner::create(load_config(test::shipped_config()).value()).value();
  std::ifstream in(test::source_dir() / "tests" / "data" / "followups_probe_dev.jsonl");
  ASSERT_TRUE(in);
  int tp = 0, fp = 0, fn = 0, tn = 0;
  std::map<std::string, std::pair<int, int>> by_shape;  // shape → (right, total)
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    const auto j = nlohmann::json::parse(line);
    PrepareRequest r;
    r.question = j.at("question").get<std::string>();
    r.history = j.at("history").get<std::vector<std::string>>();
    const bool gold = j.at("follow_up").get<bool>();
    auto prep = planner.prepare(r);
    ASSERT_TRUE(prep.ok()) << r.question;
    const bool got = prep->intent && prep->intent->intent == Intent::kFollowUp;
    (got && gold ? tp : got ? fp : gold ? fn : tn) += 1;
    auto& s = by_shape[j.at("shape").get<std::string>()];
    s.first += got == gold;
    s.second += 1;
  }
  const double p = tp + fp ? double(tp) / (tp + fp) : 0, rec = tp + fn ? double(tp) / (tp + fn) : 0;
  std::printf("[probe] tp %d fp %d fn %d tn %d  P %.3f R %.3f\n", tp, fp, fn, tn, p, rec);
  for (const auto& [shape, v] : by_shape)
    std::printf("       %-20s %3d/%3d\n", shape.c_str(), v.first, v.second);
  EXPECT_EQ(tp + fp + fn + tn, 240);
  EXPECT_GE(rec, 0.85);  // 0.883 when written (0.750 before the session's rules)
  EXPECT_GE(p, 0.77);    // 0.797
}

}  // namespace
