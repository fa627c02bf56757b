#include "qaplan/ranking/embedder.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "qaplan/ranking/vector_index.hpp"

using qaplan::CachedEmbedder;
using qaplan::Embedder;
using qaplan::ErrorCode;
using qaplan::LocalTfidfEmbedder;

namespace {

// Tokens: 退货 · 货退 · 退款 | 退货 · 货地 · 地址 | 优惠 · 惠券.  N = 3, df(退货) = 2, others 1.
const std::vector<std::string> kCorpus = {"退货退款", "退货地址", "优惠券"};

}  // namespace

TEST(LocalTfidf, VocabularySortedByBytesAndSmoothIdf) {
  auto e = LocalTfidfEmbedder::fit(kCorpus);
  ASSERT_TRUE(e.ok()) << e.error().to_string();
  EXPECT_EQ(e->model(), "local-tfidf");
  EXPECT_EQ(e->corpus_size(), 3u);
  // UTF-8 byte order: 优 E4BC98 < 地 E59CB0 < 惠 E683A0 < 货 E8B4A7 < 退 E98080; 地 < 退 in
  // second place too.
  const std::vector<std::string> vocab = {"优惠", "地址", "惠券", "货地", "货退", "退款", "退货"};
  EXPECT_EQ(e->vocabulary(), vocab);
  EXPECT_EQ(e->dimensions(), 7u);
  const double idf1 = std::log(4.0 / 2.0) + 1.0;  // ln((1+3)/(1+1)) + 1
  const double idf2 = std::log(4.0 / 3.0) + 1.0;  // ln((1+3)/(1+2)) + 1
  EXPECT_EQ(e->idf(), (std::vector<double>{idf1, idf1, idf1, idf1, idf1, idf1, idf2}));
}

TEST(LocalTfidf, DocumentVectorHandComputed) {
  auto e = LocalTfidfEmbedder::fit(kCorpus);
  ASSERT_TRUE(e.ok());
  auto v = e->embed("退货退款");
  ASSERT_TRUE(v.ok());
  ASSERT_EQ(v->size(), 7u);
  // weights (退货, 货退, 退款) = (1.2877, 1.6931, 1.6931) / norm
  //   = (0.47362960103, 0.62276600783, 0.62276600783)
  const std::vector<float> expect = {0, 0, 0, 0, 0.62276600783f, 0.62276600783f,
                                     0.47362960103f};
  for (std::size_t j = 0; j < 7; ++j) EXPECT_FLOAT_EQ((*v)[j], expect[j]) << j;
  double norm = 0;
  for (float x : *v) norm += static_cast<double>(x) * x;
  EXPECT_NEAR(norm, 1.0, 1e-7);
}

TEST(LocalTfidf, QueryTfCountsAndUnknownTokensIgnored) {
  auto e = LocalTfidfEmbedder::fit(kCorpus);
  ASSERT_TRUE(e.ok());
  // 退货 twice, sku-1 and 会员 unknown → one-hot on 退货.
  auto v = e->embed("退货，退货 SKU-1 会员");
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(*v, (std::vector<float>{0, 0, 0, 0, 0, 0, 1.0f}));
  // tf 2 for 优惠 vs tf 1 for 地址: (2·idf1, 1·idf1)/norm = (2, 1)/√5.
  auto w = e->embed("优惠 优惠 地址");
  ASSERT_TRUE(w.ok());
  EXPECT_FLOAT_EQ((*w)[0], static_cast<float>(2.0 / std::sqrt(5.0)));
  EXPECT_FLOAT_EQ((*w)[1], static_cast<float>(1.0 / std::sqrt(5.0)));
}

TEST(LocalTfidf, NoKnownTokenIsAnError) {
  auto e = LocalTfidfEmbedder::fit(kCorpus);
  ASSERT_TRUE(e.ok());
  for (const char* q : {"会员折扣", "", "！！", "hello"}) {
    auto v = e->embed(q);
    ASSERT_FALSE(v.ok()) << q;
    EXPECT_EQ(v.error().code, ErrorCode::kInvalidInput);
    EXPECT_EQ(v.error().message, "query has no token in the corpus vocabulary");
  }
  auto bad = e->embed("\xff\xfe");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().code, ErrorCode::kInvalidInput);
}

TEST(LocalTfidf, FitErrors) {
  EXPECT_EQ(LocalTfidfEmbedder::fit({}).error().code, ErrorCode::kInvalidInput);
  auto none = LocalTfidfEmbedder::fit({"", "，。!"});
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.error().message, "corpus has no tokens");
  auto utf = LocalTfidfEmbedder::fit({"退货", "bad \xc3"});
  ASSERT_FALSE(utf.ok());
  EXPECT_EQ(utf.error().code, ErrorCode::kInvalidInput);
  EXPECT_EQ(utf.error().field.rfind("local-tfidf corpus text 1", 0), 0u) << utf.error().field;
}

TEST(LocalTfidf, DeterministicAndRanksByCosine) {
  auto a = LocalTfidfEmbedder::fit(kCorpus);
  auto b = LocalTfidfEmbedder::fit(kCorpus);
  ASSERT_TRUE(a.ok() && b.ok());
  std::vector<std::vector<float>> rows;
  for (const auto& t : kCorpus) {
    auto v = a->embed(t);
    ASSERT_TRUE(v.ok());
    EXPECT_EQ(*v, *b->embed(t));
    rows.push_back(*v);
  }
  auto idx = qaplan::VectorIndex::create(a->dimensions(), rows);
  ASSERT_TRUE(idx.ok());
  auto q = a->embed("退货的地址在哪");  // 退货 · 的地 · 地址 · 址在 · 在哪 → doc 1 best, doc 0 next
  ASSERT_TRUE(q.ok());
  auto r = idx->search(*q, 0);
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->size(), 3u);
  EXPECT_EQ((*r)[0].doc, 1u);
  EXPECT_EQ((*r)[1].doc, 0u);
  EXPECT_GT((*r)[1].score, 0.0);
  EXPECT_EQ((*r)[2].doc, 2u);
  EXPECT_EQ((*r)[2].score, 0.0);
}

TEST(CachedEmbedder, LooksUpExactText) {
  auto c = CachedEmbedder::create("qwen3.7-text-embedding-flash", 2,
                                  {{"退货怎么办", {0.6f, 0.8f}}, {"退款多久", {1.0f, 0.0f}}});
  ASSERT_TRUE(c.ok()) << c.error().to_string();
  const Embedder& e = *c;
  EXPECT_EQ(e.model(), "qwen3.7-text-embedding-flash");
  EXPECT_EQ(e.dimensions(), 2u);
  EXPECT_EQ(*e.embed("退货怎么办"), (std::vector<float>{0.6f, 0.8f}));
  auto miss = e.embed("退货怎么办 ");  // not normalised: a different text
  ASSERT_FALSE(miss.ok());
  EXPECT_EQ(miss.error().message, "no cached vector for query");
}

TEST(CachedEmbedder, RejectsBadVectors) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_FALSE(CachedEmbedder::create("", 2, {}).ok());
  EXPECT_FALSE(CachedEmbedder::create("m", 0, {}).ok());
  EXPECT_EQ(CachedEmbedder::create("m", 2, {{"a", {1.0f}}}).error().message,
            "vector has 1 dimensions, expected 2");
  EXPECT_EQ(CachedEmbedder::create("m", 2, {{"a", {nan, 1.0f}}}).error().message,
            "non-finite value");
  EXPECT_EQ(CachedEmbedder::create("m", 2, {{"a", {0.0f, -0.0f}}}).error().message,
            "vector is all zero");
  EXPECT_EQ(CachedEmbedder::create("m", 2, {{"a", {1, 0}}, {"a", {0, 1}}}).error().message,
            "duplicate text");
}
