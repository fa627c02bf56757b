// Eight threads sharing one opened (mapped) BM25 index and one deserialized HNSW index
// (docs/library.md): every answer must equal the one computed on one thread first. Run in the TSan
// build (label tsan) by scripts/test.sh, where a data race fails the run.
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "qaplan/ranking/bm25.hpp"
#include "qaplan/ranking/vector_index.hpp"

namespace {

TEST(IndexConcurrency, EightThreadsShareOneOpenedIndex) {
  namespace fs = std::filesystem;
  std::vector<std::vector<std::string>> docs;
  for (int d = 0; d < 4000; ++d) {
    docs.emplace_back();
    for (int i = 0; i < 3 + d % 40; ++i) docs.back().push_back("t" + std::to_string((d * 31 + i * i * 7) % 701));
  }
  auto b = qaplan::Bm25Builder::create({1.2, 0.75, qaplan::Bm25Norms::kLucene}, "tsan");
  ASSERT_TRUE(b.ok());
  for (const auto& d : docs) ASSERT_TRUE(b->add(d).ok());
  auto built = b->finish(4);
  ASSERT_TRUE(built.ok());
  const fs::path file = fs::temp_directory_path() / ("qaplan-tsan-index-" + std::to_string(::getpid()));
  ASSERT_TRUE(built->save(file).ok());
  auto idx = qaplan::Bm25Index::open(file);
  ASSERT_TRUE(idx.ok()) << idx.error().to_string();
  std::vector<std::vector<float>> rows;
  for (int i = 0; i < 1500; ++i)
    rows.push_back({float(i % 13), float(i % 7) - 3.0f, float((i * 37) % 11) + 0.5f, 1.0f});
  auto vb = qaplan::VectorIndex::create(4, rows, {8, 40, 32, 100});
  ASSERT_TRUE(vb.ok());
  const std::string img = vb->serialize();
  auto vec = qaplan::VectorIndex::deserialize(
      std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(img.data()), img.size()));
  ASSERT_TRUE(vec.ok()) << vec.error().to_string();

  std::vector<std::vector<std::string>> qs;
  std::vector<std::vector<float>> qv;
  for (int i = 0; i < 64; ++i) {
    qs.push_back({"t" + std::to_string(i * 11 % 701), "t" + std::to_string(i * 5 % 701), "t3", "t" + std::to_string(i)});
    qv.push_back({float(i % 5), 1.0f, float(i % 3), 0.25f});
  }
  std::vector<qaplan::RankedList> want10, want0, wantv;
  for (std::size_t i = 0; i < qs.size(); ++i) {
    want10.push_back(idx->search(qs[i], 10));
    want0.push_back(idx->search(qs[i], 0));
    wantv.push_back(*vec->search(qv[i], 10));
  }
  constexpr int kThreads = 8, kPerThread = 2000;
  std::atomic<long> mismatches{0}, searches{0};
  std::vector<std::thread> th;
  for (int t = 0; t < kThreads; ++t)
    th.emplace_back([&, t] {
      for (int r = 0; r < kPerThread; ++r) {
        const std::size_t i = static_cast<std::size_t>(r * 7 + t) % qs.size();
        if (idx->search(qs[i], 10) != want10[i]) ++mismatches;
        if (r % 8 == 0 && idx->search(qs[i], 0) != want0[i]) ++mismatches;
        if (*vec->search(qv[i], 10) != wantv[i]) ++mismatches;
        if (idx->doc_id(i).size() != 0) ++mismatches;  // built without ids
        ++searches;
      }
    });
  for (auto& x : th) x.join();
  fs::remove(file);
  EXPECT_EQ(mismatches.load(), 0);
  EXPECT_EQ(searches.load(), long{kThreads} * kPerThread);
}

}  // namespace
