#include "ranking/internal/ip_kernels.hpp"

#include <immintrin.h>

#include <cstdint>
#include <initializer_list>

namespace qaplan::internal {
namespace {

// The lanes' fixed pairwise tree (ip_kernels.hpp), shared by every kernel.
float reduce_lanes(float* acc) noexcept {
  for (std::size_t w = kIpLanes / 2; w >= 1; w /= 2)
    for (std::size_t l = 0; l < w; ++l) acc[l] += acc[l + w];
  return acc[0];
}

// Elements from `i` on (fewer than 32 left) go to lanes 0, 1, … in order: the reference's tail.
void add_tail(float* acc, const float* a, const float* b, std::size_t i, std::size_t d) noexcept {
  for (std::size_t l = 0; i + l < d; ++l) acc[l] += a[i + l] * b[i + l];
}

// The reference, written so that GCC vectorises it with whatever the function is compiled for
// (each lane is independent; floating-point additions are never reordered in ISO C++ mode).
inline float generic_body(const float* a, const float* b, std::size_t d) noexcept {
  float acc[kIpLanes] = {};
  std::size_t i = 0;
  for (; i + kIpLanes <= d; i += kIpLanes)
    for (std::size_t l = 0; l < kIpLanes; ++l) acc[l] += a[i + l] * b[i + l];
  add_tail(acc, a, b, i, d);
  return 1.0f - reduce_lanes(acc);
}

std::size_t dims_of(const void* p) noexcept { return *static_cast<const std::size_t*>(p); }

// Lanes 0 … 7 of the tree after its l + 8 step, added on in registers as reduce_lanes adds them
// (l + 4: the two 128-bit halves; l + 2: the high pair onto the low; l + 1): the same additions in
// the same order, without storing 32 floats and adding them one by one.
__attribute__((target("avx"))) inline float reduce_8(__m256 s8) noexcept {
  const __m128 s4 = _mm_add_ps(_mm256_castps256_ps128(s8), _mm256_extractf128_ps(s8, 1));
  const __m128 s2 = _mm_add_ps(s4, _mm_movehl_ps(s4, s4));
  return _mm_cvtss_f32(_mm_add_ss(s2, _mm_shuffle_ps(s2, s2, 1)));
}

float scalar_kernel(const void* a, const void* b, const void* d) {
  return generic_body(static_cast<const float*>(a), static_cast<const float*>(b), dims_of(d));
}

__attribute__((target("avx"))) float avx_kernel(const void* a, const void* b, const void* d) {
  return generic_body(static_cast<const float*>(a), static_cast<const float*>(b), dims_of(d));
}

// AVX2: lanes 8k … 8k + 7 in acc[k]; whole 8-blocks of the tail go to the next register, the
// rest through the scalar tail.
__attribute__((target("avx2"))) float avx2_kernel(const void* pa, const void* pb, const void* pd) {
  const auto* a = static_cast<const float*>(pa);
  const auto* b = static_cast<const float*>(pb);
  const std::size_t d = dims_of(pd);
  __m256 acc[4] = {_mm256_setzero_ps(), _mm256_setzero_ps(), _mm256_setzero_ps(),
                   _mm256_setzero_ps()};
  std::size_t i = 0;
  for (; i + kIpLanes <= d; i += kIpLanes)
    for (int k = 0; k < 4; ++k)
      acc[k] = _mm256_add_ps(
          acc[k], _mm256_mul_ps(_mm256_loadu_ps(a + i + 8 * k), _mm256_loadu_ps(b + i + 8 * k)));
  int k = 0;
  for (; i + 8 <= d; i += 8, ++k)
    acc[k] = _mm256_add_ps(acc[k], _mm256_mul_ps(_mm256_loadu_ps(a + i), _mm256_loadu_ps(b + i)));
  // No scalar tail: the tree in registers (l + 16: registers 0 + 2 and 1 + 3; l + 8: those two).
  if (i == d)
    return 1.0f - reduce_8(_mm256_add_ps(_mm256_add_ps(acc[0], acc[2]), _mm256_add_ps(acc[1], acc[3])));
  alignas(32) float lanes[kIpLanes];
  for (int r = 0; r < 4; ++r) _mm256_store_ps(lanes + 8 * r, acc[r]);
  add_tail(lanes + 8 * k, a, b, i, d);
  return 1.0f - reduce_lanes(lanes);
}

// AVX-512: lanes 0 … 15 in lo, 16 … 31 in hi; the tail is added under a mask, so the lanes it
// does not reach keep their bits (an added +0 would turn a −0 into +0).
__attribute__((target("avx512f"))) float avx512_kernel(const void* pa, const void* pb,
                                                       const void* pd) {
  const auto* a = static_cast<const float*>(pa);
  const auto* b = static_cast<const float*>(pb);
  const std::size_t d = dims_of(pd);
  __m512 lo = _mm512_setzero_ps(), hi = _mm512_setzero_ps();
  std::size_t i = 0;
  for (; i + kIpLanes <= d; i += kIpLanes) {
    lo = _mm512_add_ps(lo, _mm512_mul_ps(_mm512_loadu_ps(a + i), _mm512_loadu_ps(b + i)));
    hi = _mm512_add_ps(hi, _mm512_mul_ps(_mm512_loadu_ps(a + i + 16), _mm512_loadu_ps(b + i + 16)));
  }
  for (__m512* r : {&lo, &hi}) {
    if (i >= d) break;
    const std::size_t n = d - i < 16 ? d - i : 16;
    const auto m = static_cast<__mmask16>((std::uint32_t{1} << n) - 1);
    const __m512 p =
        _mm512_mul_ps(_mm512_maskz_loadu_ps(m, a + i), _mm512_maskz_loadu_ps(m, b + i));
    *r = _mm512_mask_add_ps(*r, m, *r, p);
    i += n;
  }
  // The tree in registers: l + 16 is lo + hi, l + 8 its two 256-bit halves (taken with the masked
  // extract: GCC 12's plain one and its 512 → 256 cast warn on an undefined source).
  const __m512d s16 = _mm512_castps_pd(_mm512_add_ps(lo, hi));
  const __m256d zero = _mm256_setzero_pd();
  const __m256 s8 = _mm256_add_ps(_mm256_castpd_ps(_mm512_mask_extractf64x4_pd(zero, 0xFF, s16, 0)),
                                  _mm256_castpd_ps(_mm512_mask_extractf64x4_pd(zero, 0xFF, s16, 1)));
  return 1.0f - reduce_8(s8);
}

}  // namespace

float ip_distance_reference(const float* a, const float* b, std::size_t dims) noexcept {
  return generic_body(a, b, dims);
}

IpDistance ip_kernel(KernelIsa isa) noexcept {
  __builtin_cpu_init();
  switch (isa) {
    case KernelIsa::kScalar:
      return &scalar_kernel;
    case KernelIsa::kAvx:
      return __builtin_cpu_supports("avx") ? &avx_kernel : nullptr;
    case KernelIsa::kAvx2:
      return __builtin_cpu_supports("avx2") ? &avx2_kernel : nullptr;
    case KernelIsa::kAvx512:
      return __builtin_cpu_supports("avx512f") ? &avx512_kernel : nullptr;
  }
  return nullptr;
}

KernelIsa best_kernel_isa() noexcept {
  static const KernelIsa best = [] {
    for (KernelIsa isa : {KernelIsa::kAvx512, KernelIsa::kAvx2, KernelIsa::kAvx})
      if (ip_kernel(isa) != nullptr) return isa;
    return KernelIsa::kScalar;
  }();
  return best;
}

const char* kernel_isa_name(KernelIsa isa) noexcept {
  switch (isa) {
    case KernelIsa::kScalar:
      return "sse2";
    case KernelIsa::kAvx:
      return "avx";
    case KernelIsa::kAvx2:
      return "avx2";
    case KernelIsa::kAvx512:
      return "avx512";
  }
  return "?";
}

}  // namespace qaplan::internal
