#include "qaplan/ranking/fusion.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <optional>
#include <vector>

using qaplan::dedupe_by_parent;
using qaplan::ErrorCode;
using qaplan::fuse_rrf;
using qaplan::FusedHit;
using qaplan::RankedList;
using qaplan::RrfOptions;

namespace {

// Two lists as the benchmark fuses them: BM25 then cosine.
const RankedList kBm25 = {{2, 5.0}, {0, 3.0}, {1, 1.0}};
const RankedList kCos = {{0, 0.9}, {3, 0.8}};

std::vector<std::uint32_t> docs(const std::vector<FusedHit>& hits) {
  std::vector<std::uint32_t> out;
  for (const auto& h : hits) out.push_back(h.doc);
  return out;
}

}  // namespace

TEST(Rrf, DefaultKHandComputed) {
  auto r = fuse_rrf({kBm25, kCos});
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  const auto& hits = *r;
  // doc0: rank 2 in BM25 + rank 1 in cosine; doc2: rank 1; doc3: rank 2; doc1: rank 3.
  ASSERT_EQ(docs(hits), (std::vector<std::uint32_t>{0, 2, 3, 1}));
  EXPECT_EQ(hits[0].score, 1.0 / 62 + 1.0 / 61);
  EXPECT_EQ(hits[1].score, 1.0 / 61);
  EXPECT_EQ(hits[2].score, 1.0 / 62);
  EXPECT_EQ(hits[3].score, 1.0 / 63);
  EXPECT_NEAR(hits[0].score, 0.032522474881015336, 1e-17);

  // Ranks and raw scores are kept beside the fused score, per list.
  EXPECT_EQ(hits[0].ranks, (std::vector<std::optional<std::uint32_t>>{2u, 1u}));
  EXPECT_EQ(hits[0].list_scores, (std::vector<std::optional<double>>{3.0, 0.9}));
  // A doc in one list only: nullopt for the other list.
  EXPECT_EQ(hits[1].ranks, (std::vector<std::optional<std::uint32_t>>{1u, std::nullopt}));
  EXPECT_EQ(hits[1].list_scores, (std::vector<std::optional<double>>{5.0, std::nullopt}));
  EXPECT_EQ(hits[2].ranks, (std::vector<std::optional<std::uint32_t>>{std::nullopt, 2u}));
  EXPECT_EQ(hits[2].list_scores, (std::vector<std::optional<double>>{std::nullopt, 0.8}));
}

TEST(Rrf, SmallKExactValues) {
  RrfOptions o;
  o.k = 1.0;
  auto r = fuse_rrf({{{7, 0.1}, {4, 0.05}}}, o);
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(docs(*r), (std::vector<std::uint32_t>{7, 4}));
  EXPECT_EQ((*r)[0].score, 0.5);  // 1 / (1 + 1)
  EXPECT_EQ((*r)[1].score, 1.0 / 3.0);
}

TEST(Rrf, WeightsHandComputed) {
  RrfOptions o;
  o.weights = {2.0, 0.5};
  auto r = fuse_rrf({kBm25, kCos}, o);
  ASSERT_TRUE(r.ok());
  // doc0 = 2/62 + 0.5/61 ≈ 0.04046; doc2 = 2/61 ≈ 0.03279; doc1 = 2/63 ≈ 0.03175;
  // doc3 = 0.5/62 ≈ 0.00806 — the weights reorder doc1 and doc3.
  ASSERT_EQ(docs(*r), (std::vector<std::uint32_t>{0, 2, 1, 3}));
  EXPECT_EQ((*r)[0].score, 2.0 * (1.0 / 62) + 0.5 * (1.0 / 61));
  EXPECT_EQ((*r)[1].score, 2.0 * (1.0 / 61));
  EXPECT_EQ((*r)[2].score, 2.0 * (1.0 / 63));
  EXPECT_EQ((*r)[3].score, 0.5 * (1.0 / 62));
}

TEST(Rrf, ZeroWeightKeepsDocWithZeroScore) {
  RrfOptions o;
  o.weights = {1.0, 0.0};
  auto r = fuse_rrf({kBm25, kCos}, o);
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(docs(*r), (std::vector<std::uint32_t>{2, 0, 1, 3}));
  EXPECT_EQ((*r)[3].score, 0.0);
  EXPECT_EQ((*r)[3].ranks[1], 2u);
}

TEST(Rrf, TiesBrokenByLowerDoc) {
  // Mirror-image lists: docs 5 and 1 get identical sums 1/61 + 1/62 → lower doc first.
  auto r = fuse_rrf({{{5, 1.0}, {1, 0.5}}, {{1, 0.7}, {5, 0.2}}});
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(docs(*r), (std::vector<std::uint32_t>{1, 5}));
  EXPECT_EQ((*r)[0].score, (*r)[1].score);
  // Singletons at rank 1 in different lists tie too.
  auto s = fuse_rrf({{{9, 3.0}}, {{4, 0.1}}});
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(docs(*s), (std::vector<std::uint32_t>{4, 9}));
}

// With three lists, the same ranks in another order are the same terms: an exact tie, whatever
// order the lists come in (summed in list order, a rounding parted such pairs and the lower doc
// could lose). Every order of every rank triple up to 12 is checked.
TEST(Rrf, EqualRanksInAnyListOrderTieExactly) {
  int checked = 0;
  for (std::uint32_t a = 1; a <= 12; ++a)
    for (std::uint32_t b = 1; b <= 12; ++b)
      for (std::uint32_t c = 1; c <= 12; ++c) {
        if (a == c || b == a || c == b) continue;  // the two docs would share a place
        // Doc 0 at ranks (a, b, c), doc 1 at (c, a, b); fillers take the other places.
        std::vector<RankedList> lists(3);
        const std::uint32_t r0[3] = {a, b, c}, r1[3] = {c, a, b};
        for (int l = 0; l < 3; ++l)
          for (std::uint32_t pos = 1, filler = 100; pos <= 12; ++pos)
            lists[l].push_back({pos == r0[l] ? 0u : pos == r1[l] ? 1u : filler++, 1.0});
        auto r = fuse_rrf(lists);
        ASSERT_TRUE(r.ok());
        double s0 = -1, s1 = -2;
        std::size_t at0 = 0, at1 = 0;
        for (std::size_t i = 0; i < r->size(); ++i) {
          if ((*r)[i].doc == 0) s0 = (*r)[i].score, at0 = i;
          if ((*r)[i].doc == 1) s1 = (*r)[i].score, at1 = i;
        }
        ASSERT_EQ(s0, s1) << a << " " << b << " " << c;
        ASSERT_LT(at0, at1) << "the tie goes to the lower doc";
        ++checked;
      }
  EXPECT_GT(checked, 1000);
}

TEST(Rrf, EmptyInputs) {
  auto none = fuse_rrf({});
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->empty());
  auto empties = fuse_rrf({{}, {}});
  ASSERT_TRUE(empties.ok());
  EXPECT_TRUE(empties->empty());
  auto one = fuse_rrf({{}, kCos});
  ASSERT_TRUE(one.ok());
  ASSERT_EQ(docs(*one), (std::vector<std::uint32_t>{0, 3}));
  EXPECT_EQ((*one)[0].ranks, (std::vector<std::optional<std::uint32_t>>{std::nullopt, 1u}));
}

TEST(Rrf, InvalidOptions) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  for (double k : {0.0, -1.0, nan, inf}) {
    RrfOptions o;
    o.k = k;
    EXPECT_FALSE(o.validate().ok()) << k;
    auto r = fuse_rrf({kBm25}, o);
    ASSERT_FALSE(r.ok()) << k;
    EXPECT_EQ(r.error().code, ErrorCode::kInvalidConfig);  // an options error, like Bm25Options'
    EXPECT_EQ(r.error().field, "rrf.k");
  }
  for (double w : {-0.5, nan, inf}) {
    RrfOptions o;
    o.weights = {1.0, w};
    auto r = fuse_rrf({kBm25, kCos}, o);
    ASSERT_FALSE(r.ok()) << w;
    EXPECT_EQ(r.error().field, "rrf.weights[1]");
  }
  RrfOptions mismatch;
  mismatch.weights = {1.0};
  auto r = fuse_rrf({kBm25, kCos}, mismatch);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kInvalidInput);
  EXPECT_EQ(r.error().message, "got 1 weights for 2 lists");
  EXPECT_TRUE(RrfOptions{}.validate().ok());
}

TEST(Rrf, DuplicateDocInOneListIsAnError) {
  auto r = fuse_rrf({kCos, {{3, 0.9}, {3, 0.8}}});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kInvalidInput);
  EXPECT_EQ(r.error().message, "doc 3 occurs twice in list 1 (dedupe before fusing)");
}

TEST(DedupeByParent, KeepsFirstPerParent) {
  const RankedList list = {{0, 0.9}, {1, 0.8}, {2, 0.7}, {3, 0.6}, {4, 0.5}};
  const std::vector<std::uint32_t> parent = {10, 10, 11, 10, 12};
  auto r = dedupe_by_parent(list, parent);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, (RankedList{{0, 0.9}, {2, 0.7}, {4, 0.5}}));
  // Best-ranked wins even when it is not the lowest doc.
  auto s = dedupe_by_parent({{3, 0.6}, {0, 0.5}, {2, 0.4}}, parent);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(*s, (RankedList{{3, 0.6}, {2, 0.4}}));
  auto e = dedupe_by_parent({}, parent);
  ASSERT_TRUE(e.ok());
  EXPECT_TRUE(e->empty());
}

TEST(DedupeByParent, DocOutsideParentTable) {
  auto r = dedupe_by_parent({{0, 1.0}, {5, 0.5}}, {0, 0});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kInvalidInput);
}
