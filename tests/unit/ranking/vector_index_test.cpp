#include "support/rng.hpp"
#include "qaplan/ranking/vector_index.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

using qaplan::ErrorCode;
using qaplan::HnswOptions;
using qaplan::RankedList;
using qaplan::ScoredDoc;
using qaplan::VectorIndex;

namespace {

using qaplan::test::Rng;

std::vector<float> random_unit(Rng& rng, std::size_t d) {
  std::vector<float> v(d);
  double n = 0;
  for (auto& x : v) {
    x = static_cast<float>(rng.normal());
    n += static_cast<double>(x) * x;
  }
  for (auto& x : v) x = static_cast<float>(x / std::sqrt(n));
  return v;
}

// `clusters` random unit centres; each point = centre + N(0, sigma²) per dimension.
std::vector<std::vector<float>> clustered(Rng& rng, std::size_t n, std::size_t d,
                                          const std::vector<std::vector<float>>& centres,
                                          double sigma) {
  std::vector<std::vector<float>> out(n, std::vector<float>(d));
  for (std::size_t i = 0; i < n; ++i) {
    const auto& c = centres[rng.next() % centres.size()];
    for (std::size_t j = 0; j < d; ++j) {
      out[i][j] = static_cast<float>(c[j] + sigma * rng.normal());
    }
  }
  return out;
}

}  // namespace

TEST(HnswOptions, Validate) {
  EXPECT_TRUE(HnswOptions{}.validate().ok());
  HnswOptions o;
  o.m = 1;
  EXPECT_EQ(o.validate().error().field, "hnsw.m");
  o = {};
  o.ef_construction = 0;
  EXPECT_EQ(o.validate().error().field, "hnsw.ef_construction");
  o = {};
  o.ef_search = 0;
  EXPECT_EQ(o.validate().error().field, "hnsw.ef_search");
  o = {};
  o.m = 4097;
  EXPECT_FALSE(o.validate().ok());
  auto r = VectorIndex::create(2, {{1, 0}}, HnswOptions{1, 200, 64, 100});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kInvalidConfig);  // options errors are config errors
}

TEST(VectorIndex, RejectsBadRows) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  struct Case {
    std::size_t dims;
    std::vector<std::vector<float>> rows;
    std::string context;
  };
  const std::vector<Case> cases = {
      {0, {}, "vectors"},
      {2, {{1, 0}, {1, 0, 0}}, "vectors row 1"},
      {2, {{1, 0}, {0, 1}, {nan, 1}}, "vectors row 2"},
      {2, {{inf, 1}}, "vectors row 0"},
      {2, {{1, 1}, {0, 0}}, "vectors row 1"},
      {3, {{1, 1}}, "vectors row 0"},
  };
  for (const auto& c : cases) {
    auto r = VectorIndex::create(c.dims, c.rows);
    ASSERT_FALSE(r.ok()) << c.context;
    EXPECT_EQ(r.error().code, ErrorCode::kInvalidInput);
    EXPECT_EQ(r.error().field, c.context) << r.error().to_string();
  }
}

TEST(VectorIndex, RejectsBadQueries) {
  auto idx = VectorIndex::create(2, {{1, 0}, {0, 1}});
  ASSERT_TRUE(idx.ok());
  const std::vector<float> wrong_dims = {1, 0, 0};
  const std::vector<float> zero = {0, 0};
  const std::vector<float> nan = {std::numeric_limits<float>::quiet_NaN(), 1};
  for (const auto* q : {&wrong_dims, &zero, &nan}) {
    auto a = idx->search(*q, 1);
    ASSERT_FALSE(a.ok());
    EXPECT_EQ(a.error().code, ErrorCode::kInvalidInput);
    auto e = idx->search_exact(*q, 1);
    ASSERT_FALSE(e.ok());
    EXPECT_EQ(e.error().code, ErrorCode::kInvalidInput);
  }
  EXPECT_EQ(idx->search(wrong_dims, 1).error().message, "query has 3 dimensions, index has 2");
}

TEST(VectorIndex, CosineScoresHandComputed) {
  // Rows are normalised inside: (3,4) → (0.6,0.8). Query (1,1) → (1/√2, 1/√2).
  auto idx = VectorIndex::create(2, {{3, 4}, {2, 0}, {0, -5}});
  ASSERT_TRUE(idx.ok());
  EXPECT_EQ(idx->size(), 3u);
  EXPECT_EQ(idx->dimensions(), 2u);
  const std::vector<float> q = {1, 1};
  auto r = idx->search(q, 0);
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->size(), 3u);
  EXPECT_EQ((*r)[0].doc, 0u);
  EXPECT_NEAR((*r)[0].score, 1.4 / std::sqrt(2.0), 1e-7);  // 0.98995
  EXPECT_EQ((*r)[1].doc, 1u);
  EXPECT_NEAR((*r)[1].score, 1.0 / std::sqrt(2.0), 1e-7);
  EXPECT_EQ((*r)[2].doc, 2u);
  EXPECT_NEAR((*r)[2].score, -1.0 / std::sqrt(2.0), 1e-7);
  // The exact score: float(0.6)·float(1/√2) + float(0.8)·float(1/√2), in double.
  const float h = static_cast<float>(1.0 / std::sqrt(2.0));
  const double expect0 = static_cast<double>(static_cast<float>(3.0 / 5.0)) * h +
                         static_cast<double>(static_cast<float>(4.0 / 5.0)) * h;
  EXPECT_EQ((*r)[0].score, expect0);
  EXPECT_EQ(*r, *idx->search_exact(q, 0));
  // Truncation.
  EXPECT_EQ(*idx->search(q, 1), (RankedList{(*r)[0]}));
  EXPECT_EQ(*idx->search(q, 2), (RankedList{(*r)[0], (*r)[1]}));
  EXPECT_EQ(idx->search(q, 99)->size(), 3u);
}

TEST(VectorIndex, TiesBrokenByLowerDoc) {
  // Docs 1, 3 and 4 are the same direction (4 is a scaled copy): identical scores, doc order.
  auto idx = VectorIndex::create(2, {{0, 1}, {1, 0}, {0, 2}, {1, 0}, {7, 0}});
  ASSERT_TRUE(idx.ok());
  const std::vector<float> q = {1, 0};
  using Fn = qaplan::Result<RankedList> (VectorIndex::*)(std::span<const float>, std::size_t) const;
  for (Fn which : {Fn{&VectorIndex::search}, Fn{&VectorIndex::search_exact}}) {
    auto r = ((*idx).*which)(q, 0);
    ASSERT_TRUE(r.ok());
    ASSERT_EQ(r->size(), 5u);
    EXPECT_EQ((*r)[0], (ScoredDoc{1, 1.0}));
    EXPECT_EQ((*r)[1], (ScoredDoc{3, 1.0}));
    EXPECT_EQ((*r)[2], (ScoredDoc{4, 1.0}));
    EXPECT_EQ((*r)[3], (ScoredDoc{0, 0.0}));
    EXPECT_EQ((*r)[4], (ScoredDoc{2, 0.0}));
    auto top2 = ((*idx).*which)(q, 2);
    ASSERT_TRUE(top2.ok());
    EXPECT_EQ(*top2, (RankedList{{1, 1.0}, {3, 1.0}}));
  }
}

TEST(VectorIndex, EmptyIndex) {
  auto idx = VectorIndex::create(4, {});
  ASSERT_TRUE(idx.ok());
  EXPECT_EQ(idx->size(), 0u);
  const std::vector<float> q = {1, 0, 0, 0};
  EXPECT_TRUE(idx->search(q, 0)->empty());
  EXPECT_TRUE(idx->search_exact(q, 3)->empty());
}

// On an 18-row corpus HNSW equals brute force exactly (docs and scores).
TEST(VectorIndex, SmallCorpusEqualsBruteForce) {
  Rng rng(18);
  const std::size_t d = 24;
  std::vector<std::vector<float>> rows;
  for (int i = 0; i < 18; ++i) rows.push_back(random_unit(rng, d));
  auto idx = VectorIndex::create(d, rows);
  ASSERT_TRUE(idx.ok());
  std::vector<std::vector<float>> queries = rows;  // every row as a query, plus random ones
  for (int i = 0; i < 30; ++i) queries.push_back(random_unit(rng, d));
  for (std::size_t qi = 0; qi < queries.size(); ++qi) {
    for (std::size_t k : {0, 1, 3, 5, 10, 18}) {
      auto a = idx->search(queries[qi], k);
      auto e = idx->search_exact(queries[qi], k);
      ASSERT_TRUE(a.ok() && e.ok());
      EXPECT_EQ(a->size(), k == 0 ? 18u : k);
      EXPECT_EQ(*a, *e) << "query " << qi << " k " << k;
    }
    if (qi < rows.size()) {  // a row is its own best match with cosine ≈ 1
      auto e = idx->search_exact(queries[qi], 1);
      EXPECT_EQ((*e)[0].doc, qi);
      EXPECT_NEAR((*e)[0].score, 1.0, 1e-6);
    }
  }
}

TEST(VectorIndex, SameInputSameResults) {
  Rng rng(7);
  std::vector<std::vector<float>> rows;
  for (int i = 0; i < 300; ++i) rows.push_back(random_unit(rng, 16));
  HnswOptions o;
  o.ef_search = 10;
  auto a = VectorIndex::create(16, rows, o);
  auto b = VectorIndex::create(16, rows, o);
  ASSERT_TRUE(a.ok() && b.ok());
  for (int i = 0; i < 20; ++i) {
    const auto q = random_unit(rng, 16);
    EXPECT_EQ(*a->search(q, 10), *b->search(q, 10));
  }
}

// Recall@10 ≥ 0.99 against brute force on ≥ 10 000 clustered vectors at the
// default (configured) ef_search, tie-aware: a returned doc whose score is ≥ the exact 10th
// score counts as correct.
TEST(VectorIndex, RecallAt10OnClusteredVectors) {
  Rng rng(20261019);
#if defined(__OPTIMIZE__)
  const std::size_t n = 10000, d = 64, nq = 200, k = 10;
#else
  // Unoptimised (-O0, e.g. Debug + ASan/UBSan) hnswlib builds take ~40 s CPU at 10 000 rows; the
  // issue's ≥ 10 000 check runs in every optimised build (Release, RelWithDebInfo + sanitizers).
  const std::size_t n = 3000, d = 32, nq = 100, k = 10;
#endif
  std::vector<std::vector<float>> centres;
  for (int i = 0; i < 100; ++i) centres.push_back(random_unit(rng, d));
  const auto rows = clustered(rng, n, d, centres, 0.15);
  const auto queries = clustered(rng, nq, d, centres, 0.15);
  const HnswOptions opts;  // m 16, ef_construction 200, ef_search 64
  auto idx = VectorIndex::create(d, rows, opts);
  ASSERT_TRUE(idx.ok()) << idx.error().to_string();
  std::size_t correct = 0;
  for (const auto& q : queries) {
    auto exact = idx->search_exact(q, k);
    auto approx = idx->search(q, k);
    ASSERT_TRUE(exact.ok() && approx.ok());
    ASSERT_EQ(approx->size(), k);
    const double kth = exact->back().score;
    for (const auto& hit : *approx) correct += hit.score >= kth ? 1 : 0;
  }
  const double recall = static_cast<double>(correct) / static_cast<double>(nq * k);
  RecordProperty("recall_at_10", std::to_string(recall));
  EXPECT_GE(recall, 0.99);
  std::printf("recall@10 = %.4f over %zu queries, %zu rows\n", recall, nq, n);
}
