#pragma once
// Frame-of-reference bit packing for BM25 posting blocks (hand-written: no Debian package ships a
// C++ integer-compression library — FastPFor, simdcomp and streamvbyte are not packaged — and the
// code is ~60 lines). `n` values of `width` bits (0..32) are stored LSB-first in a little-endian
// bit stream of ceil(n · width / 8) bytes. Unpacking reads 8-byte words, so a reader must have 7
// readable bytes past the end of the stream (the BM25 postings section carries 8 zero bytes of
// padding for that).
//
// Why bit packing rather than varints: measured on the 200 k × 60 Zipf corpus (tools/bench
// bm25_bench BM_Decode*), see docs/benchmarks.md.
#include <cstddef>
#include <cstdint>
#include <array>
#include <cstring>
#include <utility>

namespace qaplan::internal {

inline constexpr std::size_t packed_bytes(std::size_t n, unsigned width) {
  return (n * width + 7) / 8;
}

/// Bits needed for `v` (0 for 0).
inline unsigned bits_for(std::uint32_t v) { return v == 0 ? 0u : 32u - static_cast<unsigned>(__builtin_clz(v)); }

/// ORs `n` values into `out` (which must be zeroed and hold packed_bytes(n, width) + 8 bytes).
inline void pack(const std::uint32_t* in, std::size_t n, unsigned width, std::uint8_t* out) {
  if (width == 0) return;
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t bit = i * width;
    std::uint64_t w;
    std::memcpy(&w, out + (bit >> 3), 8);
    w |= static_cast<std::uint64_t>(in[i]) << (bit & 7);
    std::memcpy(out + (bit >> 3), &w, 8);
  }
}

namespace detail {
// Groups of 8 values start on a byte boundary (8 · W bits = W bytes), so every shift inside a
// group is a compile-time constant and the loop unrolls into straight-line loads and masks.
template <unsigned W>
inline void unpack_w(const std::uint8_t* in, std::size_t n, std::uint32_t* out) {
  constexpr std::uint64_t kMask = (std::uint64_t{1} << W) - 1;
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8, in += W) {
#pragma GCC unroll 8
    for (unsigned j = 0; j < 8; ++j) {
      std::uint64_t w;
      std::memcpy(&w, in + ((j * W) >> 3), 8);
      out[i + j] = static_cast<std::uint32_t>((w >> ((j * W) & 7)) & kMask);
    }
  }
  for (unsigned j = 0; i < n; ++i, ++j) {
    std::uint64_t w;
    std::memcpy(&w, in + ((j * W) >> 3), 8);
    out[i] = static_cast<std::uint32_t>((w >> ((j * W) & 7)) & kMask);
  }
}

// Doc-id flavour: out[i] = base + Σ_{j≤i} v_j + i (gaps stored minus one), fused with the unpack
// so the block is read and written once. Returns the value after the last id (last + 1).
template <unsigned W>
inline std::uint64_t unpack_gaps_w(const std::uint8_t* in, std::size_t n, std::uint64_t base,
                                   std::uint32_t* out) {
  constexpr std::uint64_t kMask = W == 0 ? 0 : (std::uint64_t{1} << W) - 1;
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8, in += W) {
#pragma GCC unroll 8
    for (unsigned j = 0; j < 8; ++j) {
      std::uint64_t w = 0;
      if constexpr (W != 0) std::memcpy(&w, in + ((j * W) >> 3), 8);
      base += (w >> ((j * W) & 7)) & kMask;
      out[i + j] = static_cast<std::uint32_t>(base);
      ++base;
    }
  }
  for (unsigned j = 0; i < n; ++i, ++j) {
    std::uint64_t w = 0;
    if constexpr (W != 0) std::memcpy(&w, in + ((j * W) >> 3), 8);
    base += (w >> ((j * W) & 7)) & kMask;
    out[i] = static_cast<std::uint32_t>(base);
    ++base;
  }
  return base;
}

template <std::size_t... Is>
constexpr auto make_gap_table(std::index_sequence<Is...>) {
  using Fn = std::uint64_t (*)(const std::uint8_t*, std::size_t, std::uint64_t, std::uint32_t*);
  return std::array<Fn, sizeof...(Is)>{&unpack_gaps_w<static_cast<unsigned>(Is)>...};
}

template <unsigned... Ws>
struct UnpackTable {
  using Fn = void (*)(const std::uint8_t*, std::size_t, std::uint32_t*);
  static constexpr Fn kFns[] = {&unpack_w<Ws>...};
};

template <std::size_t... Is>
constexpr auto make_table(std::index_sequence<Is...>) {
  return UnpackTable<static_cast<unsigned>(Is + 1)...>{};
}
}  // namespace detail

/// Decodes `n` doc ids stored as gaps minus one from `base` (see unpack_gaps_w); returns last + 1.
inline std::uint64_t unpack_gaps(const std::uint8_t* in, std::size_t n, unsigned width,
                                 std::uint64_t base, std::uint32_t* out) {
  static constexpr auto kTable = detail::make_gap_table(std::make_index_sequence<33>{});
  return kTable[width](in, n, base, out);
}

/// Reads `n` values of `width` bits (≤ 32) from `in` into `out`.
inline void unpack(const std::uint8_t* in, std::size_t n, unsigned width, std::uint32_t* out) {
  if (width == 0) {
    std::memset(out, 0, n * sizeof(std::uint32_t));
    return;
  }
  using Table = decltype(detail::make_table(std::make_index_sequence<32>{}));
  Table::kFns[width - 1](in, n, out);
}

}  // namespace qaplan::internal
