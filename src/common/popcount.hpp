#pragma once
// A 64-bit popcount that stays inline. Without -mpopcnt (the build targets plain x86-64, no
// -march) std::popcount is a call into libgcc; the router model and the fold table count bits
// once per feature and character, where that call was ~1 % of prepare().
#include <bit>
#include <cstdint>

namespace qaplan::internal {

inline int popcount64(std::uint64_t x) noexcept {
#if defined(__POPCNT__)
  return std::popcount(x);
#else
  x = x - ((x >> 1) & 0x5555555555555555ULL);
  x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
  x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
  return static_cast<int>((x * 0x0101010101010101ULL) >> 56);
#endif
}

}  // namespace qaplan::internal
