#include "qaplan/ranking/bm25.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace {

using qaplan::Bm25Index;
using qaplan::Bm25Norms;
using qaplan::Bm25Options;
using qaplan::RankedList;
using Docs = std::vector<std::vector<std::string>>;
using Q = std::vector<std::string>;

Bm25Index build(const Docs& docs, Bm25Options o = {}) {
  auto r = Bm25Index::create(docs, o);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().to_string());
  return std::move(r).value();
}

// Tiny corpus. N = 4 documents with tokens (d3 is empty and does not count), total tokens
// 3 + 3 + 1 + 4 = 11, avgdl = 11 / 4 = 2.75.
//   df: a 2, b 2, c 2, d 2, e 1  →  idf(df 2) = ln(1 + 2.5/2.5) = ln 2 = 0.693147;
//                                    idf(df 1) = ln(1 + 3.5/1.5) = ln(10/3) = 1.203973.
//   K(dl) = 1.2 · (0.25 + 0.75 · dl / 2.75):  K(1) = 0.627273, K(3) = 1.281818, K(4) = 1.609091.
const Docs kDocs = {
    {"a", "b", "c"},       // d0 (dl 3)
    {"a", "a", "d"},       // d1 (dl 3)
    {"b"},                 // d2 (dl 1)
    {},                    // d3 (empty)
    {"c", "d", "e", "e"},  // d4 (dl 4)
};
double K(double dl) { return 1.2 * (0.25 + 0.75 * dl / 2.75); }
const double kLn2 = std::log(2.0);

// Ids were checked for control characters but not for valid UTF-8: invalid bytes (a lone
// surrogate from Python arrives as ED A0 80) went into the index and out to JSON and TSV.
TEST(Bm25, IdsMustBeValidTextWithoutControlCharacters) {
  for (const std::string bad :
       {std::string("\xff"), std::string("a\xed\xa0\x80"), std::string("\xc0\xaf"),
        std::string("a\x1b"), std::string("a\0b", 3), std::string("a\xc2\x85")}) {
    auto b = qaplan::Bm25Builder::create();
    ASSERT_TRUE(b.ok());
    ASSERT_TRUE(b->add(Q{"x"}, "ok").ok());
    const qaplan::Status s = b->add(Q{"y"}, bad);
    ASSERT_FALSE(s.ok()) << bad;
    EXPECT_EQ(s.error().code, qaplan::ErrorCode::kInvalidInput);
    EXPECT_EQ(s.error().field, "id");
  }
  EXPECT_FALSE(qaplan::check_document_id("\xed\xa0\x80", "ids[3]").ok());
  EXPECT_EQ(qaplan::check_document_id("\xed\xa0\x80", "ids[3]").error().field, "ids[3]");
  EXPECT_TRUE(qaplan::check_document_id("文档-1 café").ok());
}

TEST(Bm25, Statistics) {
  const Bm25Index idx = build(kDocs);
  EXPECT_EQ(idx.size(), 5u);
  EXPECT_DOUBLE_EQ(idx.avgdl(), 2.75);
  EXPECT_EQ(idx.num_terms(), 5u);
  EXPECT_EQ(idx.doc_freq("a"), 2u);
  EXPECT_EQ(idx.doc_freq("e"), 1u);
  EXPECT_EQ(idx.doc_freq("zzz"), 0u);
}

TEST(Bm25, SingleTermHandComputed) {
  const Bm25Index idx = build(kDocs);
  // "a": d1 (tf 2) = ln2 · 2 / (2 + 1.281818) = 0.422417 ; d0 (tf 1) = ln2 / 2.281818 = 0.303769
  const RankedList r = idx.search({"a"}, 10);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].doc, 1u);
  EXPECT_NEAR(r[0].score, kLn2 * 2 / (2 + K(3)), 1e-12);
  EXPECT_NEAR(r[0].score, 0.422417, 1e-6);
  EXPECT_EQ(r[1].doc, 0u);
  EXPECT_NEAR(r[1].score, 0.303769, 1e-6);
  // "b": the short d2 wins: ln2 / (1 + 0.627273) = 0.425956 > d0's 0.303769.
  const RankedList rb = idx.search({"b"}, 10);
  ASSERT_EQ(rb.size(), 2u);
  EXPECT_EQ(rb[0].doc, 2u);
  EXPECT_NEAR(rb[0].score, kLn2 / (1 + K(1)), 1e-12);
  EXPECT_NEAR(rb[0].score, 0.425956, 1e-6);
  EXPECT_EQ(rb[1].doc, 0u);
}

TEST(Bm25, TiesByLowerDocAndTruncation) {
  const Bm25Index idx = build(kDocs);
  // "c d": d4 = 2 · ln2 / (1 + 1.609091) = 0.531332; d0 (c) and d1 (d) both ln2 / (1 + K(3)):
  // an exact tie, broken by the lower index, so d0 before d1.
  const RankedList r = idx.search({"c", "d"}, 10);
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[0].doc, 4u);
  EXPECT_NEAR(r[0].score, 0.531332, 1e-6);
  EXPECT_EQ(r[1].doc, 0u);
  EXPECT_EQ(r[2].doc, 1u);
  EXPECT_EQ(r[1].score, r[2].score);
  const RankedList r2 = idx.search({"c", "d"}, 2);
  ASSERT_EQ(r2.size(), 2u);
  EXPECT_EQ(r2[0].doc, 4u);
  EXPECT_EQ(r2[1].doc, 0u);  // the tie's lower doc survives the cut
  const RankedList r1 = idx.search({"d", "c"}, 1);
  ASSERT_EQ(r1.size(), 1u);
  EXPECT_EQ(r1[0].doc, 4u);
}

TEST(Bm25, RepeatedQueryTermsCountOnceUnknownIgnored) {
  const Bm25Index idx = build(kDocs);
  // "e e a zzz" = "e a": d4 = ln(10/3) · 2 / (2 + 1.609091) = 0.667189; d1 0.422417; d0 0.303769.
  const RankedList r = idx.search({"e", "e", "a", "zzz"}, 10);
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[0].doc, 4u);
  EXPECT_NEAR(r[0].score, std::log(10.0 / 3.0) * 2 / (2 + K(4)), 1e-12);
  EXPECT_NEAR(r[0].score, 0.667189, 1e-6);
  EXPECT_EQ(r[1].doc, 1u);
  EXPECT_EQ(r[2].doc, 0u);
  EXPECT_EQ(r, idx.search({"e", "a"}, 10));
  EXPECT_TRUE(idx.search({"zzz"}, 10).empty());
  EXPECT_TRUE(idx.search({}, 10).empty());
}

TEST(Bm25, KZeroIsTheUntruncatedList) {
  const Bm25Index idx = build(kDocs);
  const RankedList all = idx.search({"a", "b", "c", "d", "e"}, 0);
  // Every non-empty document matches; the empty d3 never does.
  ASSERT_EQ(all.size(), 4u);
  for (const auto& h : all) EXPECT_NE(h.doc, 3u);
  for (std::size_t i = 1; i < all.size(); ++i) EXPECT_GE(all[i - 1].score, all[i].score);
  EXPECT_EQ(all, idx.search({"a", "b", "c", "d", "e"}, 100));
  EXPECT_EQ(all, idx.search({"a", "b", "c", "d", "e"}, std::numeric_limits<std::size_t>::max()));
  EXPECT_EQ(all, idx.search_exhaustive({"a", "b", "c", "d", "e"}, 0));
}

TEST(Bm25, EmptyCollections) {
  const Bm25Index none = build({});
  EXPECT_EQ(none.size(), 0u);
  EXPECT_EQ(none.avgdl(), 0.0);
  EXPECT_TRUE(none.search({"a"}, 10).empty());
  const Bm25Index blank = build({{}, {}});
  EXPECT_EQ(blank.size(), 2u);
  EXPECT_TRUE(blank.search({"a"}, 0).empty());
}

TEST(Bm25, InvalidOptions) {
  for (Bm25Options o : {Bm25Options{-0.1, 0.75}, Bm25Options{1.2, 1.5}, Bm25Options{1.2, -0.01},
                        Bm25Options{std::nan(""), 0.75},
                        Bm25Options{std::numeric_limits<double>::infinity(), 0.75},
                        Bm25Options{1.2, std::nan("")}}) {
    EXPECT_FALSE(o.validate().ok());
    auto r = Bm25Index::create(kDocs, o);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, qaplan::ErrorCode::kInvalidConfig);
  }
  EXPECT_TRUE((Bm25Options{0.0, 0.0}.validate().ok()));
  EXPECT_TRUE((Bm25Options{1.2, 1.0}.validate().ok()));
}

TEST(Bm25, NormsSpelling) {
  EXPECT_EQ(qaplan::to_string(Bm25Norms::kExact), "exact");
  EXPECT_EQ(qaplan::to_string(Bm25Norms::kLucene), "lucene");
  EXPECT_EQ(*qaplan::parse_bm25_norms("lucene"), Bm25Norms::kLucene);
  EXPECT_EQ(*qaplan::parse_bm25_norms("exact"), Bm25Norms::kExact);
  EXPECT_FALSE(qaplan::parse_bm25_norms("Lucene").ok());
  EXPECT_FALSE(qaplan::parse_bm25_norms("").ok());
}

// SmallFloat: byte = len below 24 (NUM_FREE_VALUES = 255 − int4(INT_MAX) = 255 − 231 = 24);
// above, 24 + int4(len − 24) where int4 keeps 4 significant bits: 3 mantissa bits | (shift+1)<<3.
//   len 0..39: len − 24 ≤ 15 needs ≤ 4 bits, so nothing is lost: byte = len, decodes to len.
//   len 40: 16 = 0b10000, shift 1 → mantissa (16>>1)&7 = 0, exp 2<<3 = 16 → byte 40 → 24+16 = 40.
//   len 41: 17 >> 1 = 8 → same byte 40 → 40 (rounded down).  len 42: 18>>1 = 9 → byte 41 → 42.
//   len 100: 76 = 0b1001100, shift 3 → 9&7 = 1 | 4<<3 → 33 → byte 57 → 24 + (9<<3) = 96.
//   len 1000: 976, 10 bits, shift 6 → 15&7 = 7 | 7<<3 → 63 → byte 87 → 24 + (15<<6) = 984.
//   len 12345: 12321, 14 bits, shift 10 → 12&7 = 4 | 11<<3 → 92 → byte 116 → 24 + (12<<10) = 12312.
//   INT_MAX: 31 bits, shift 27 → 15&7 = 7 | 28<<3 = 231 → byte 255 → 24 + (15<<27) = 2013265944.
TEST(Bm25, LuceneSmallFloatNorms) {
  for (int len = 0; len <= 39; ++len) {
    EXPECT_EQ(qaplan::lucene_int_to_byte4(len), len);
    EXPECT_EQ(qaplan::lucene_byte4_to_int(static_cast<unsigned char>(len)), len);
  }
  EXPECT_EQ(qaplan::lucene_int_to_byte4(40), 40);
  EXPECT_EQ(qaplan::lucene_int_to_byte4(41), 40);
  EXPECT_EQ(qaplan::lucene_int_to_byte4(42), 41);
  EXPECT_EQ(qaplan::lucene_byte4_to_int(41), 42);
  EXPECT_EQ(qaplan::lucene_int_to_byte4(100), 57);
  EXPECT_EQ(qaplan::lucene_byte4_to_int(57), 96);
  EXPECT_EQ(qaplan::lucene_int_to_byte4(1000), 87);
  EXPECT_EQ(qaplan::lucene_byte4_to_int(87), 984);
  EXPECT_EQ(qaplan::lucene_int_to_byte4(12345), 116);
  EXPECT_EQ(qaplan::lucene_byte4_to_int(116), 12312);
  EXPECT_EQ(qaplan::lucene_int_to_byte4(std::numeric_limits<int>::max()), 255);
  EXPECT_EQ(qaplan::lucene_byte4_to_int(255), 2013265944);
  // Round trip never increases a length and is monotone.
  int prev = 0;
  for (int len = 0; len < 5000; ++len) {
    const int q = qaplan::lucene_byte4_to_int(qaplan::lucene_int_to_byte4(len));
    EXPECT_LE(q, len);
    EXPECT_GE(q, prev);
    prev = q;
  }
}

std::vector<std::string> doc_of(const std::string& head, int fillers) {
  std::vector<std::string> d = {head};
  for (int i = 0; i < fillers; ++i) d.push_back("f");
  return d;
}

TEST(Bm25, LuceneNormsQuantiseLength) {
  // d0: "q" + 99 fillers (dl 100, Lucene dl 96); d1: 4 × "g". N = 2, avgdl = 104 / 2 = 52,
  // idf(q) = ln(1 + 1.5/1.5) = ln 2.
  //   exact : ln2 / (1 + 1.2 · (0.25 + 0.75 · 100 / 52)) = 0.693147 / 3.030769 = 0.228703
  //   lucene: ln2 / (1 + 1.2 · (0.25 + 0.75 ·  96 / 52)) = 0.693147 / 2.961538 = 0.234050
  const Docs docs = {doc_of("q", 99), {"g", "g", "g", "g"}};
  const Bm25Index exact = build(docs);
  const Bm25Index luc = build(docs, {1.2, 0.75, Bm25Norms::kLucene});
  EXPECT_DOUBLE_EQ(luc.avgdl(), 52.0);  // avgdl itself is never quantised
  const auto e = exact.search({"q"}, 10), l = luc.search({"q"}, 10);
  ASSERT_EQ(e.size(), 1u);
  ASSERT_EQ(l.size(), 1u);
  EXPECT_NEAR(e[0].score, kLn2 / (1 + 1.2 * (0.25 + 0.75 * 100 / 52.0)), 1e-12);
  EXPECT_NEAR(e[0].score, 0.228703, 1e-6);
  EXPECT_NEAR(l[0].score, 0.234050, 1e-6);
  EXPECT_NEAR(l[0].score / (kLn2 / (1 + 1.2 * (0.25 + 0.75 * 96 / 52.0))), 1.0, 1e-6);
  // Lucene returns float scores.
  EXPECT_EQ(static_cast<double>(static_cast<float>(l[0].score)), l[0].score);
}

TEST(Bm25, LuceneNormsMakeLength40And41Tie) {
  // Lengths 40 and 41 share one norm byte, so in lucene mode the two documents tie (lower doc
  // first); with exact lengths the shorter one wins.
  const Docs docs = {doc_of("x", 40), doc_of("x", 39), {"y"}};  // d0 len 41, d1 len 40
  const auto l = build(docs, {1.2, 0.75, Bm25Norms::kLucene}).search({"x"}, 10);
  ASSERT_EQ(l.size(), 2u);
  EXPECT_EQ(l[0].score, l[1].score);
  EXPECT_EQ(l[0].doc, 0u);
  const auto e = build(docs).search({"x"}, 10);
  ASSERT_EQ(e.size(), 2u);
  EXPECT_EQ(e[0].doc, 1u);
  EXPECT_GT(e[0].score, e[1].score);
}

TEST(Bm25, LuceneModeAgreesWithExactOnShortDocs) {
  // All lengths < 40 → identical norms; only float rounding differs.
  const Bm25Index e = build(kDocs);
  const Bm25Index l = build(kDocs, {1.2, 0.75, Bm25Norms::kLucene});
  const auto re = e.search({"a", "c", "e"}, 0), rl = l.search({"a", "c", "e"}, 0);
  ASSERT_EQ(re.size(), rl.size());
  for (std::size_t i = 0; i < re.size(); ++i) {
    EXPECT_EQ(re[i].doc, rl[i].doc);
    EXPECT_NEAR(rl[i].score / re[i].score, 1.0, 1e-6);
  }
}

TEST(Bm25, ParametersChangeScores) {
  // b = 0: no length normalisation, so d0 and d2 score the same for "b": ln2 / (1 + 1.2).
  const auto r = build(kDocs, {1.2, 0.0}).search({"b"}, 10);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].doc, 0u);
  EXPECT_EQ(r[0].score, r[1].score);
  EXPECT_NEAR(r[0].score, kLn2 / 2.2, 1e-12);
  // k1 = 0: every match scores its idf regardless of tf.
  const auto r0 = build(kDocs, {0.0, 0.75}).search({"a"}, 10);
  ASSERT_EQ(r0.size(), 2u);
  EXPECT_NEAR(r0[0].score, kLn2, 1e-12);
  EXPECT_EQ(r0[0].doc, 0u);  // tie with d1 → lower doc
  const auto r0l = build(kDocs, {0.0, 0.75, Bm25Norms::kLucene}).search({"a"}, 10);
  ASSERT_EQ(r0l.size(), 2u);
  EXPECT_NEAR(r0l[0].score, kLn2, 1e-6);
}

// A Zipf corpus where MaxScore really prunes; the pruned path must equal exhaustive scoring
// bit for bit (same docs, same order, same doubles), for both norms and many k.
TEST(Bm25, PrunedEqualsExhaustiveOnRandomCorpus) {
  std::mt19937_64 rng(12345);
  const int V = 3000;
  std::vector<double> w(V);
  for (int r = 0; r < V; ++r) w[r] = 1.0 / (r + 1);
  std::discrete_distribution<int> zipf(w.begin(), w.end());
  std::uniform_int_distribution<int> len(0, 120);
  Docs docs(6000);
  for (auto& d : docs) {
    const int n = len(rng);
    for (int i = 0; i < n; ++i) d.push_back("w" + std::to_string(zipf(rng)));
  }
  std::uniform_int_distribution<int> qlen(1, 14), anyterm(0, V + 50);
  for (Bm25Norms norms : {Bm25Norms::kExact, Bm25Norms::kLucene}) {
    const Bm25Index idx = build(docs, {1.2, 0.75, norms});
    int compared = 0;
    for (int qi = 0; qi < 300; ++qi) {
      Q q;
      const int n = qlen(rng);
      for (int i = 0; i < n; ++i)
        q.push_back(i % 3 == 0 ? "w" + std::to_string(anyterm(rng))  // some unknown terms
                               : "w" + std::to_string(zipf(rng)));
      for (std::size_t k : {1u, 3u, 10u, 100u}) {
        const auto a = idx.search(q, k), b = idx.search_exhaustive(q, k);
        ASSERT_EQ(a, b) << "query " << qi << " k " << k << " norms " << qaplan::to_string(norms);
        ++compared;
      }
      // the top-k is the prefix of the full list
      const auto full = idx.search(q, 0);
      const auto top10 = idx.search(q, 10);
      ASSERT_EQ(top10.size(), std::min<std::size_t>(10, full.size()));
      for (std::size_t i = 0; i < top10.size(); ++i) ASSERT_EQ(top10[i], full[i]);
    }
    EXPECT_EQ(compared, 1200);
  }
}

TEST(Bm25, ConcurrentSearchesAgree) {
  Docs docs;
  for (int d = 0; d < 3000; ++d) {
    docs.emplace_back();
    for (int i = 0; i < 1 + d % 37; ++i) docs.back().push_back("t" + std::to_string((d * 7 + i * 13) % 101));
  }
  const Bm25Index idx = build(docs);
  std::vector<Q> qs;
  for (int i = 0; i < 50; ++i) qs.push_back({"t" + std::to_string(i), "t" + std::to_string(i * 3 % 101), "t1"});
  std::vector<RankedList> want;
  for (const auto& q : qs) want.push_back(idx.search(q, 10));
  std::vector<int> bad(4, 0);
  std::vector<std::thread> th;
  for (int t = 0; t < 4; ++t)
    th.emplace_back([&, t] {
      for (int rep = 0; rep < 20; ++rep)
        for (std::size_t i = 0; i < qs.size(); ++i) {
          if (idx.search(qs[i], 10) != want[i]) ++bad[t];
          if (idx.search(qs[i], 0).size() < want[i].size()) ++bad[t];
        }
    });
  for (auto& x : th) x.join();
  for (int b : bad) EXPECT_EQ(b, 0);
}

TEST(Bm25, DeterministicAcrossBuilds) {
  const Bm25Index a = build(kDocs), b = build(kDocs);
  EXPECT_EQ(a.search({"a", "b", "c", "d", "e"}, 0), b.search({"a", "b", "c", "d", "e"}, 0));
}

}  // namespace
