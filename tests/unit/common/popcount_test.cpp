#include "common/popcount.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <random>

namespace {

using qaplan::internal::popcount64;

TEST(Popcount, EdgesAndEveryBit) {
  EXPECT_EQ(popcount64(0), 0);
  EXPECT_EQ(popcount64(~std::uint64_t{0}), 64);
  for (int b = 0; b < 64; ++b) {
    EXPECT_EQ(popcount64(std::uint64_t{1} << b), 1) << b;
    EXPECT_EQ(popcount64((std::uint64_t{1} << b) - 1), b) << b;  // the rank below bit b
  }
}

TEST(Popcount, AgreesWithTheStandardOnRandomWords) {
  std::mt19937_64 rng(11);
  for (int i = 0; i < 10000; ++i) {
    const std::uint64_t x = rng() & rng();  // sparse and dense words both
    EXPECT_EQ(popcount64(x), std::popcount(x)) << x;
  }
}

}  // namespace
