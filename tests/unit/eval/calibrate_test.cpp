// Dev-only threshold calibration (calibrate.hpp) on hand-computed fixtures.
#include "qaplan/eval/calibrate.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

namespace qaplan {
namespace {

constexpr int kIrrelevant = -1;
const double kInfinity = std::numeric_limits<double>::infinity();
double above(double s) { return std::nextafter(s, kInfinity); }

// Dev: P1 + {A}: 0.8 A | 0.5 | 0.3     P2 + {A}: 0.6 | 0.4 A | 0.2
//      N1 −:     0.5 | 0.1             N2 −:     0.7
// Candidates: 0 and above(s) for s in {0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8} (0.5 seen twice → once).
//   t            supported  rejected-neg  returned  objective = (sp/2 + nr/2) / 2
//   0               2          0            9         0.5
//   above(0.1)      2          0            8         0.5
//   above(0.2)      2          0            7         0.5
//   above(0.3)      2          0            6         0.5
//   above(0.4)      1          0            5         0.25   (P2 loses 0.4 A)
//   above(0.5)      1          1            3         0.5    (N1 now empty)
//   above(0.6)      1          1            2         0.5
//   above(0.7)      1          2            1         0.75   ← best
//   above(0.8)      0          2            0         0.5
std::vector<JudgedQuery> dev_a() {
  return {JudgedQuery{1, {{0.8, 0}, {0.5, kIrrelevant}, {0.3, kIrrelevant}}},
          JudgedQuery{1, {{0.6, kIrrelevant}, {0.4, 0}, {0.2, kIrrelevant}}},
          JudgedQuery{0, {{0.5, kIrrelevant}, {0.1, kIrrelevant}}}, JudgedQuery{0, {{0.7, kIrrelevant}}}};
}

TEST(Calibrate, TableAndChoice) {
  const auto r = calibrate_threshold(dev_a());
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  const Calibration& c = *r;
  EXPECT_EQ(c.positives, 2u);
  EXPECT_EQ(c.negatives, 2u);
  ASSERT_EQ(c.candidates.size(), 9u);
  const double ts[] = {0.0,        above(0.1), above(0.2), above(0.3), above(0.4),
                       above(0.5), above(0.6), above(0.7), above(0.8)};
  const std::size_t sp[] = {2, 2, 2, 2, 1, 1, 1, 1, 0};
  const std::size_t nr[] = {0, 0, 0, 0, 0, 1, 1, 2, 2};
  const std::size_t ret[] = {9, 8, 7, 6, 5, 3, 2, 1, 0};
  const double obj[] = {0.5, 0.5, 0.5, 0.5, 0.25, 0.5, 0.5, 0.75, 0.5};
  for (std::size_t i = 0; i < 9; ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(c.candidates[i].threshold, ts[i]);
    EXPECT_EQ(c.candidates[i].supported_positives, sp[i]);
    EXPECT_EQ(c.candidates[i].rejected_negatives, nr[i]);
    EXPECT_EQ(c.candidates[i].returned_chunks, ret[i]);
    EXPECT_DOUBLE_EQ(c.candidates[i].objective, obj[i]);
  }
  EXPECT_EQ(c.chosen_index, 7u);
  EXPECT_EQ(c.threshold, above(0.7));
  EXPECT_GT(c.threshold, 0.7);  // rejects the observed 0.7 itself
}

TEST(Calibrate, TieOnObjectivePrefersHigherNegativeRejection) {
  // P1 +: 0.8 A   P2 +: 0.6 A   N1 −: 0.7   N2 −: 0.9
  //   0: sp 2 nr 0 → 0.5 | above(.6): 1,0 → .25 | above(.7): 1,1 → .5 | above(.8): 0,1 → .25
  //   above(.9): 0,2 → 0.5.  Three-way tie at 0.5 → most rejected negatives → above(0.9).
  // (Equal objective and equal rejection imply equal support, so the support rule never decides
  // alone; the next deciding rules are tested below.)
  const std::vector<JudgedQuery> dev{JudgedQuery{1, {{0.8, 0}}}, JudgedQuery{1, {{0.6, 0}}},
                                     JudgedQuery{0, {{0.7, kIrrelevant}}}, JudgedQuery{0, {{0.9, kIrrelevant}}}};
  const auto r = calibrate_threshold(dev);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->threshold, above(0.9));
  EXPECT_EQ(r->candidates[r->chosen_index].rejected_negatives, 2u);
}

TEST(Calibrate, TiePrefersFewerReturnedChunks) {
  // P1 +: 0.9 A | 0.5 irr    N1 −: (nothing ranked)
  //   0: sp1 nr1 ret 2 → 1.0 | above(.5): sp1 nr1 ret 1 → 1.0 | above(.9): sp0 nr1 → 0.5
  const std::vector<JudgedQuery> dev{JudgedQuery{1, {{0.9, 0}, {0.5, kIrrelevant}}}, JudgedQuery{0, {}}};
  const auto r = calibrate_threshold(dev);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->threshold, above(0.5));
  EXPECT_EQ(r->candidates[r->chosen_index].returned_chunks, 1u);
}

TEST(Calibrate, FinalTieBreakIsHigherThreshold) {
  // P1 +: 0.9 A | -0.5 irr   N1 −: nothing. above(-0.5) and 0 both accept only 0.9:
  // identical on every count → the higher threshold, 0, wins.
  const std::vector<JudgedQuery> dev{JudgedQuery{1, {{0.9, 0}, {-0.5, kIrrelevant}}}, JudgedQuery{0, {}}};
  const auto r = calibrate_threshold(dev);
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->candidates.size(), 3u);
  EXPECT_EQ(r->candidates[0].threshold, above(-0.5));
  EXPECT_EQ(r->candidates[1].threshold, 0.0);
  EXPECT_EQ(r->threshold, 0.0);
}

TEST(Calibrate, OnlyTop3ScoresBecomeCandidates) {
  // The 4th score 0.05 is not a candidate: 0, above(.4), above(.3), above(.2), above(.9).
  const std::vector<JudgedQuery> dev{
      JudgedQuery{1, {{0.9, 0}, {0.4, kIrrelevant}, {0.3, kIrrelevant}, {0.05, kIrrelevant}}},
      JudgedQuery{0, {{0.2, kIrrelevant}}}};
  const auto r = calibrate_threshold(dev);
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->candidates.size(), 5u);
  for (const auto& c : r->candidates) EXPECT_NE(c.threshold, above(0.05));
}

TEST(Calibrate, RejectsDevWithoutBothClassesOrWithNonFiniteScores) {
  EXPECT_EQ(calibrate_threshold(std::vector<JudgedQuery>{JudgedQuery{1, {{0.9, 0}}}}).error().code,
            ErrorCode::kInvalidInput);
  EXPECT_FALSE(calibrate_threshold(std::vector<JudgedQuery>{JudgedQuery{0, {}}}).ok());
  EXPECT_FALSE(calibrate_threshold(std::vector<JudgedQuery>{}).ok());
  const std::vector<JudgedQuery> nan_dev{JudgedQuery{1, {{std::nan(""), 0}}}, JudgedQuery{0, {}}};
  EXPECT_FALSE(calibrate_threshold(nan_dev).ok());
}

}  // namespace
}  // namespace qaplan
