#pragma once
// The shipped planner's rewrite of one follow-up, for tests of the rewriter's structural rules
// (rewrite_quality_test.cpp, rewrite_carry_test.cpp).
#include <algorithm>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "qaplan/qaplan.hpp"
#include "test_support.hpp"

namespace qaplan::test {

struct Rewritten {
  bool follow_up = false;
  std::vector<std::string> rules;
  std::string query;
  std::vector<std::string> reasons;  // the rewrite's
};

inline Rewritten rewrite(const std::string& question, std::vector<std::string> history) {
  static const Planner planner = Planner::create(load_config(test::shipped_config()).value()).value();
  PrepareRequest r;
  r.question = question;
  r.history = std::move(history);
  auto prep = planner.prepare(r);
  EXPECT_TRUE(prep.ok()) << question;
  Rewritten out;
  if (!prep.ok() || !prep->intent) return out;
  out.follow_up = prep->intent->intent == Intent::kFollowUp;
  out.rules = prep->intent->matched_rules;
  AnalysisContext ctx;
  ctx.now = "2026-03-15T10:00:00+08:00";
  auto a = planner.analyze(*prep, ctx);
  EXPECT_TRUE(a.ok()) << question;
  if (a.ok()) out.query = a->rewrite.query;
  if (a.ok()) out.reasons = a->rewrite.reasons;
  return out;
}

inline bool has(const std::string& s, const char* part) { return s.find(part) != std::string::npos; }
inline bool gave(const Rewritten& r, const char* reason) {
  return std::find(r.reasons.begin(), r.reasons.end(), reason) != r.reasons.end();
}

}  // namespace qaplan::test
