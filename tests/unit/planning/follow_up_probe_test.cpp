// Follow-up detection in domains the router was not trained on, on short turns after one question
// that leave their subject out (a verb and its object: 含早餐吗; a preposition first: 跟绩效挂钩吗)
// against short questions that name a subject of their own (车库免费吗) or start a topic of their
// own. Prints precision and recall per shape and holds them to floors a few points under what was
// measured (docs/routing.md), so a regression fails.
//  - tests/data/followups_probe_dev.jsonl: 240 turns in six domains (hospital, university, hotel,
//    telecom, e-commerce, property management), written for this project on 2026-12-07. A dev
//    set: rules were tuned with it in view.
//  - tests/data/followups_probe_test.jsonl: 300 turns in ten other domains (driving school,
//    library, gym, airline, car repair, credit card, kindergarten, social security, rental, online
//    courses), written on 2026-12-07 (twenty-eighth session) by a helper that saw neither the
//    rules nor the code, and read once to measure that session's rules. A test set: no rule is
//    tuned on its rows.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <map>

#include <nlohmann/json.hpp>

#include "qaplan/qaplan.hpp"
#include "test_support.hpp"

namespace {

using namespace qaplan;

struct ProbeScore {
  int tp = 0, fp = 0, fn = 0, tn = 0;
  double precision() const { return tp + fp ? double(tp) / (tp + fp) : 0; }
  double recall() const { return tp + fn ? double(tp) / (tp + fn) : 0; }
  int rows() const { return tp + fp + fn + tn; }
};

// Reads tests/data/`file`, prepares every turn with the shipped config and prints the scores.
ProbeScore score_probe(const char* file, const char* tag) {
  const Planner planner = Planner::create(load_config(test::shipped_config()).value()).value();
  std::ifstream in(test::source_dir() / "tests" / "data" / file);
  EXPECT_TRUE(in) << file;
  ProbeScore s;
  std::map<std::string, std::pair<int, int>> by_shape;  // shape → (right, total)
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    const auto j = nlohmann::json::parse(line);
    PrepareRequest r;
    r.question = j.at("question").get<std::string>();
    r.history = j.at("history").get<std::vector<std::string>>();
    const bool gold = j.at("follow_up").get<bool>();
    auto prep = planner.prepare(r);
    EXPECT_TRUE(prep.ok()) << r.question;
    const bool got = prep.ok() && prep->intent && prep->intent->intent == Intent::kFollowUp;
    (got && gold ? s.tp : got ? s.fp : gold ? s.fn : s.tn) += 1;
    auto& b = by_shape[j.at("shape").get<std::string>()];
    b.first += got == gold;
    b.second += 1;
  }
  std::printf("[%s] tp %d fp %d fn %d tn %d  P %.3f R %.3f\n", tag, s.tp, s.fp, s.fn, s.tn,
              s.precision(), s.recall());
  for (const auto& [shape, v] : by_shape)
    std::printf("       %-20s %3d/%3d\n", shape.c_str(), v.first, v.second);
  return s;
}

TEST(FollowUpProbe, UnseenDomainsDetection) {
  const ProbeScore s = score_probe("followups_probe_dev.jsonl", "probe");
  EXPECT_EQ(s.rows(), 240);
  EXPECT_GE(s.recall(), 0.90);     // 0.933 (0.883 before the twenty-eighth session, 0.750 before
                                   // the twenty-fifth)
  EXPECT_GE(s.precision(), 0.77);  // 0.806
}

TEST(FollowUpProbe, HeldOutDomainsDetection) {
  const ProbeScore s = score_probe("followups_probe_test.jsonl", "probe test");
  EXPECT_EQ(s.rows(), 300);
  EXPECT_GE(s.recall(), 0.85);     // 0.887 (0.820 with the rules before the twenty-eighth session)
  EXPECT_GE(s.precision(), 0.82);  // 0.858 (0.848)
}

}  // namespace
