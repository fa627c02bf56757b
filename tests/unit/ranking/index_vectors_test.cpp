// Saved HNSW indexes (docs/indexes.md): serialize → deserialize restores the very same graph
// (identical results, identical bytes when serialized again), and damaged or forged images are
// refused before hnswlib ever follows a link.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "qaplan/ranking/vector_index.hpp"
#include "support/rng.hpp"

namespace {

using qaplan::VectorIndex;

std::vector<std::vector<float>> rows(std::size_t n, std::size_t d, std::uint64_t seed) {
  qaplan::test::Rng rng(seed);
  std::vector<std::vector<float>> out(n, std::vector<float>(d));
  for (auto& r : out)
    for (auto& x : r) x = static_cast<float>(rng.normal());
  return out;
}

std::span<const std::uint8_t> as_bytes(const std::string& s) {
  return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()};
}

TEST(IndexVectors, RoundTripIsTheSameGraph) {
  const auto data = rows(2000, 24, 1);
  auto idx = VectorIndex::create(24, data, {8, 60, 32, 7});
  ASSERT_TRUE(idx.ok());
  const std::string img = idx->serialize(1234);
  auto back = VectorIndex::deserialize(as_bytes(img), "mem", 1234u);
  ASSERT_TRUE(back.ok()) << back.error().to_string();
  EXPECT_EQ(back->size(), 2000u);
  EXPECT_EQ(back->dimensions(), 24u);
  EXPECT_EQ(back->options().m, 8u);
  EXPECT_EQ(back->serialize(1234), img);
  const auto qs = rows(100, 24, 2);
  for (const auto& q : qs) {
    for (std::size_t k : {1u, 10u, 0u}) ASSERT_EQ(*back->search(q, k), *idx->search(q, k));
    ASSERT_EQ(*back->search_exact(q, 10), *idx->search_exact(q, 10));
  }
  // Building again gives the same bytes.
  auto again = VectorIndex::create(24, data, {8, 60, 32, 7});
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->serialize(1234), img);
}

TEST(IndexVectors, EmptyIndexRoundTrips) {
  auto idx = VectorIndex::create(3, {});
  ASSERT_TRUE(idx.ok());
  auto back = VectorIndex::deserialize(as_bytes(idx->serialize()), "mem");
  ASSERT_TRUE(back.ok()) << back.error().to_string();
  EXPECT_TRUE(back->search(std::vector<float>{1, 0, 0}, 5)->empty());
}

TEST(IndexVectors, RefusesDamagedForeignOrForgedImages) {
  auto idx = VectorIndex::create(8, rows(300, 8, 3), {4, 40, 16, 100});
  ASSERT_TRUE(idx.ok());
  const std::string img = idx->serialize(77);
  EXPECT_FALSE(VectorIndex::deserialize(as_bytes(img), "mem", 78u).ok());  // another BM25 index
  for (std::size_t len = 0; len < img.size(); len += 1 + len / 16) {
    auto r = VectorIndex::deserialize(as_bytes(img.substr(0, len)), "v.qidx");
    ASSERT_FALSE(r.ok()) << len;
    EXPECT_NE(r.error().to_string().find("v.qidx"), std::string::npos);
  }
  std::mt19937_64 rng(4);
  for (std::size_t pos = 0; pos < img.size(); pos += 1 + pos / 32) {
    std::string bad = img;
    bad[pos] = static_cast<char>(bad[pos] ^ static_cast<char>(1 + rng() % 255));
    ASSERT_FALSE(VectorIndex::deserialize(as_bytes(bad), "mem").ok()) << pos;
  }
  std::string v2 = img;
  v2[8] = 9;
  auto r = VectorIndex::deserialize(as_bytes(v2), "mem");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("version 9"), std::string::npos);
}

// A forged image — valid checksums around a link to a node that does not exist — must be caught
// by the structural checks. (Offsets mirror the version-1 layout: a 160-byte header with the
// payload hash at byte 24 and the header hash at byte 152; element 0's level-0 list follows.)
TEST(IndexVectors, RefusesForgedLinksWithValidChecksums) {
  auto idx = VectorIndex::create(8, rows(300, 8, 5), {4, 40, 16, 100});
  ASSERT_TRUE(idx.ok());
  std::string img = idx->serialize();
  auto reseal = [](std::string& s) {
    const std::uint64_t ph = XXH3_64bits(s.data() + 160, s.size() - 160);
    std::memcpy(s.data() + 24, &ph, 8);
    const std::uint64_t hh = XXH3_64bits(s.data(), 152);
    std::memcpy(s.data() + 152, &hh, 8);
  };
  std::string same = img;
  reseal(same);
  ASSERT_TRUE(VectorIndex::deserialize(as_bytes(same), "mem").ok());  // the offsets are right
  std::uint32_t count;
  std::memcpy(&count, img.data() + 160, 4);
  ASSERT_GT(count, 0u);
  const std::uint32_t bogus = 300 + 5;
  std::memcpy(img.data() + 160 + 4, &bogus, 4);
  reseal(img);
  auto r = VectorIndex::deserialize(as_bytes(img), "mem");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("links"), std::string::npos) << r.error().message;
  std::string big = idx->serialize();
  const std::uint32_t huge = 0xffff;
  std::memcpy(big.data() + 160, &huge, 4);  // more links than the list can hold
  reseal(big);
  EXPECT_FALSE(VectorIndex::deserialize(as_bytes(big), "mem").ok());
}

}  // namespace
