// Saved BM25 indexes (docs/indexes.md): save → open ranks bit-identically to the in-memory build,
// the bytes do not depend on the build (twice, or with more threads), and a damaged, truncated,
// foreign-version or wrong-tokenizer file is refused with an error naming it — never read out of
// bounds (run under ASan by scripts/test.sh).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "qaplan/io.hpp"
#include "qaplan/ranking/bm25.hpp"
#include "test_support.hpp"

namespace {

namespace fs = std::filesystem;
using qaplan::Bm25Builder;
using qaplan::Bm25Index;
using qaplan::Bm25Norms;
using qaplan::Bm25OpenOptions;
using qaplan::Bm25Options;
using qaplan::RankedList;
using Docs = std::vector<std::vector<std::string>>;
using Q = std::vector<std::string>;

// A Zipf corpus with long posting lists (several 128-blocks) and rare terms.
Docs zipf_docs(std::size_t n, int vocab, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<double> w(vocab);
  for (int r = 0; r < vocab; ++r) w[r] = 1.0 / (r + 1);
  std::discrete_distribution<int> zipf(w.begin(), w.end());
  std::uniform_int_distribution<int> len(0, 90);
  Docs docs(n);
  for (auto& d : docs) {
    const int l = len(rng);
    for (int i = 0; i < l; ++i) d.push_back("w" + std::to_string(zipf(rng)));
  }
  return docs;
}

std::vector<Q> queries(int vocab, int count, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> qlen(1, 14), term(0, vocab + 20);
  std::vector<Q> qs(count);
  for (auto& q : qs) {
    const int l = qlen(rng);
    for (int i = 0; i < l; ++i) q.push_back("w" + std::to_string(term(rng) % (i % 2 ? 40 : vocab + 20)));
  }
  return qs;
}

Bm25Index build_index(const Docs& docs, Bm25Options o = {}, unsigned threads = 1, bool ids = false) {
  auto b = Bm25Builder::create(o, "test-tokenizer");
  EXPECT_TRUE(b.ok());
  for (std::size_t i = 0; i < docs.size(); ++i)
    EXPECT_TRUE(b->add(docs[i], ids ? "doc-" + std::to_string(i) : std::string()).ok());
  auto r = b->finish(threads);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().to_string());
  return std::move(r).value();
}

std::vector<std::uint8_t> bytes_of(const Bm25Index& idx) {
  return {idx.image().begin(), idx.image().end()};
}

class IndexFormat : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("qaplan-index-format-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path file(const std::string& name) const { return dir_ / name; }
  void write_bytes(const fs::path& p, const std::vector<std::uint8_t>& b) {
    std::ofstream(p, std::ios::binary).write(reinterpret_cast<const char*>(b.data()),
                                             static_cast<std::streamsize>(b.size()));
  }
  fs::path dir_;
};

TEST_F(IndexFormat, SavedThenOpenedRanksBitIdentically) {
  const Docs docs = zipf_docs(3000, 800, 7);
  const auto qs = queries(800, 200, 8);
  for (Bm25Norms norms : {Bm25Norms::kExact, Bm25Norms::kLucene}) {
    const Bm25Index mem = build_index(docs, {1.2, 0.75, norms});
    ASSERT_TRUE(mem.save(file("a.qidx")).ok());
    auto disk = Bm25Index::open(file("a.qidx"));
    ASSERT_TRUE(disk.ok()) << disk.error().to_string();
    EXPECT_EQ(disk->size(), mem.size());
    EXPECT_EQ(disk->num_terms(), mem.num_terms());
    EXPECT_EQ(disk->avgdl(), mem.avgdl());
    EXPECT_EQ(disk->options().norms, norms);
    EXPECT_EQ(disk->tokenizer(), "test-tokenizer");
    EXPECT_EQ(disk->doc_freq("w0"), mem.doc_freq("w0"));
    for (const auto& q : qs)
      for (std::size_t k : {1u, 10u, 0u}) {
        const RankedList a = mem.search(q, k), b = disk->search(q, k);
        ASSERT_EQ(a, b);  // same docs, same order, same doubles
        ASSERT_EQ(b, disk->search_exhaustive(q, k));
      }
  }
}

TEST_F(IndexFormat, CreateMatchesBuilderAndLegacyEntryPoint) {
  const Docs docs = zipf_docs(500, 200, 3);
  auto legacy = Bm25Index::create(docs);
  ASSERT_TRUE(legacy.ok());
  auto b = Bm25Builder::create();
  ASSERT_TRUE(b.ok());
  for (const auto& d : docs) ASSERT_TRUE(b->add(d).ok());
  auto built = b->finish();
  ASSERT_TRUE(built.ok());
  EXPECT_EQ(bytes_of(*legacy), bytes_of(*built));
  EXPECT_FALSE(built->has_doc_ids());
  EXPECT_EQ(built->doc_id(0), "");
}

TEST_F(IndexFormat, ByteIdenticalAcrossBuildsAndThreadCounts) {
  const Docs docs = zipf_docs(4000, 1500, 11);
  for (Bm25Norms norms : {Bm25Norms::kExact, Bm25Norms::kLucene}) {
    const auto one = bytes_of(build_index(docs, {1.2, 0.75, norms}, 1, true));
    EXPECT_EQ(one, bytes_of(build_index(docs, {1.2, 0.75, norms}, 1, true)));
    for (unsigned t : {2u, 3u, 8u}) EXPECT_EQ(one, bytes_of(build_index(docs, {1.2, 0.75, norms}, t, true)));
  }
}

TEST_F(IndexFormat, DocIdsAndStats) {
  const Docs docs = {{"a", "b"}, {}, {"b", "b", "c"}};
  const Bm25Index idx = build_index(docs, {}, 1, true);
  EXPECT_TRUE(idx.has_doc_ids());
  EXPECT_EQ(idx.doc_id(0), "doc-0");
  EXPECT_EQ(idx.doc_id(2), "doc-2");
  EXPECT_EQ(idx.doc_id(3), "");
  const auto st = idx.stats();
  EXPECT_EQ(st.docs, 3u);
  EXPECT_EQ(st.terms, 3u);
  EXPECT_EQ(st.postings, 4u);  // a: d0; b: d0, d2; c: d2
}

TEST_F(IndexFormat, IdsMustBeAllOrNothing) {
  auto b = Bm25Builder::create();
  ASSERT_TRUE(b.ok());
  ASSERT_TRUE(b->add(Q{"a"}, "x").ok());
  const auto s = b->add(Q{"b"});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, qaplan::ErrorCode::kInvalidInput);
}

TEST_F(IndexFormat, EmptyIndexRoundTrips) {
  const Bm25Index idx = build_index({});
  ASSERT_TRUE(idx.save(file("e.qidx")).ok());
  auto disk = Bm25Index::open(file("e.qidx"));
  ASSERT_TRUE(disk.ok()) << disk.error().to_string();
  EXPECT_EQ(disk->size(), 0u);
  EXPECT_TRUE(disk->search({"a"}, 10).empty());
}

TEST_F(IndexFormat, RefusesForeignVersionTokenizerAndNonIndexFiles) {
  const Bm25Index idx = build_index(zipf_docs(50, 30, 1));
  auto img = bytes_of(idx);
  // Another format version.
  auto v2 = img;
  v2[8] = 2;
  write_bytes(file("v2.qidx"), v2);
  auto r = Bm25Index::open(file("v2.qidx"));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, qaplan::ErrorCode::kInvalidInput);
  EXPECT_NE(r.error().to_string().find("format version 2"), std::string::npos) << r.error().to_string();
  EXPECT_NE(r.error().to_string().find("v2.qidx"), std::string::npos);
  // Another tokenizer.
  ASSERT_TRUE(idx.save(file("ok.qidx")).ok());
  Bm25OpenOptions o;
  o.expected_tokenizer = "nfkc-cjk-bigrams-ascii-1";
  r = Bm25Index::open(file("ok.qidx"), o);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("tokenizer"), std::string::npos);
  o.expected_tokenizer = "test-tokenizer";
  EXPECT_TRUE(Bm25Index::open(file("ok.qidx"), o).ok());
  // Not an index; empty file; missing file; a directory.
  write_bytes(file("text.qidx"), {'h', 'e', 'l', 'l', 'o'});
  EXPECT_FALSE(Bm25Index::open(file("text.qidx")).ok());
  write_bytes(file("empty.qidx"), {});
  EXPECT_FALSE(Bm25Index::open(file("empty.qidx")).ok());
  r = Bm25Index::open(file("missing.qidx"));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, qaplan::ErrorCode::kIo);
  EXPECT_FALSE(Bm25Index::open(dir_).ok());
}

// Every truncation, and every single-byte change, is refused (the checksum sees it). Without
// checksum verification the structural checks must still keep every read in bounds: whatever
// opens must search without crashing (ASan/UBSan run this too).
TEST_F(IndexFormat, TruncatedOrCorruptedFilesAreRefused) {
  Docs docs = zipf_docs(400, 60, 5);
  docs.push_back(std::vector<std::string>(300, "w1"));  // a long document and a 3-block list
  for (Bm25Norms norms : {Bm25Norms::kExact, Bm25Norms::kLucene}) {
    const Bm25Index idx = build_index(docs, {1.2, 0.75, norms}, 1, true);
    const auto img = bytes_of(idx);
    ASSERT_GT(img.size(), 2000u);
    const fs::path p = file("x.qidx");
    for (std::size_t len = 0; len < img.size(); len += (len < 1024 ? 1 : 97)) {
      write_bytes(p, std::vector<std::uint8_t>(img.begin(), img.begin() + static_cast<long>(len)));
      auto r = Bm25Index::open(p);
      ASSERT_FALSE(r.ok()) << "truncated to " << len;
      EXPECT_NE(r.error().to_string().find("x.qidx"), std::string::npos);
      EXPECT_EQ(r.error().to_string().find('\n'), std::string::npos);
    }
    std::mt19937_64 rng(99);
    Bm25OpenOptions unchecked;
    unchecked.verify_checksum = false;
    int opened_unchecked = 0;
    for (std::size_t pos = 0; pos < img.size(); pos += 1 + pos / 64) {
      auto bad = img;
      bad[pos] ^= static_cast<std::uint8_t>(1 + rng() % 255);
      write_bytes(p, bad);
      ASSERT_FALSE(Bm25Index::open(p).ok()) << "byte " << pos;
      auto r = Bm25Index::open(p, unchecked);
      if (!r.ok()) continue;
      ++opened_unchecked;
      for (const Q& q : {Q{"w0", "w1", "w2"}, Q{"w1"}, Q{"w5", "w17", "w33", "w1"}})
        for (std::size_t k : {3u, 0u}) {
          const auto hits = r->search(q, k);
          for (const auto& h : hits) ASSERT_LT(h.doc, r->size());
        }
      (void)r->doc_id(5);
    }
    EXPECT_GT(opened_unchecked, 0);  // postings bytes are not structural: those still open
  }
}

TEST_F(IndexFormat, ConcurrentSearchesOnOneOpenedIndex) {
  const Docs docs = zipf_docs(5000, 1000, 21);
  const auto qs = queries(1000, 60, 22);
  ASSERT_TRUE(build_index(docs, {1.2, 0.75, Bm25Norms::kLucene}).save(file("c.qidx")).ok());
  auto idx = Bm25Index::open(file("c.qidx"));
  ASSERT_TRUE(idx.ok());
  std::vector<RankedList> want10, want0;
  for (const auto& q : qs) {
    want10.push_back(idx->search(q, 10));
    want0.push_back(idx->search(q, 0));
  }
  std::vector<int> bad(8, 0);
  std::vector<std::thread> th;
  for (int t = 0; t < 8; ++t)
    th.emplace_back([&, t] {
      for (int rep = 0; rep < 5; ++rep)
        for (std::size_t i = 0; i < qs.size(); ++i) {
          const std::size_t j = (i * 7 + static_cast<std::size_t>(t)) % qs.size();
          if (idx->search(qs[j], 10) != want10[j]) ++bad[t];
          if (idx->search(qs[j], 0) != want0[j]) ++bad[t];
        }
    });
  for (auto& x : th) x.join();
  for (int b : bad) EXPECT_EQ(b, 0);
}

}  // namespace
