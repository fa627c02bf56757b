// The HNSW distance kernels (src/ranking/internal/ip_kernels.hpp): every kernel this CPU runs
// returns the reference's bits on random and adversarial vectors, at every length around the
// register widths, from unaligned addresses — so a graph is the same on every machine.
#include "ranking/internal/ip_kernels.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "support/rng.hpp"

namespace {

using qaplan::internal::IpDistance;
using qaplan::internal::KernelIsa;

constexpr KernelIsa kAll[] = {KernelIsa::kScalar, KernelIsa::kAvx, KernelIsa::kAvx2,
                              KernelIsa::kAvx512};

std::vector<std::size_t> lengths() {
  std::vector<std::size_t> d;
  for (std::size_t i = 1; i <= 100; ++i) d.push_back(i);
  for (std::size_t x : {127, 128, 129, 255, 256, 257, 383, 384, 385, 768, 1000, 1536})
    d.push_back(x);
  return d;
}

// The same bits, or both NaN (a NaN's payload is not part of the contract).
bool same(float x, float y) {
  return (std::isnan(x) && std::isnan(y)) ||
         std::bit_cast<std::uint32_t>(x) == std::bit_cast<std::uint32_t>(y);
}

// Checks every available kernel against the reference on vectors made by `fill` (called with
// the length and the two buffers), with both vectors one float past an aligned start.
int check_all(const std::string& what,
              const std::function<void(std::size_t, float*, float*)>& fill) {
  int kernels = 0;
  for (KernelIsa isa : kAll) {
    const IpDistance k = qaplan::internal::ip_kernel(isa);
    if (k == nullptr) continue;
    ++kernels;
    for (std::size_t d : lengths()) {
      std::vector<float> a(d + 1), b(d + 1);
      fill(d, a.data() + 1, b.data() + 1);
      const float want = qaplan::internal::ip_distance_reference(a.data() + 1, b.data() + 1, d);
      const float got = k(a.data() + 1, b.data() + 1, &d);
      if (!same(want, got)) {
        ADD_FAILURE() << what << ": " << qaplan::internal::kernel_isa_name(isa) << " d=" << d
                      << " got " << got << " want " << want;
        return kernels;  // one report per kind of vector, not one per length
      }
    }
  }
  return kernels;
}

TEST(IpKernels, EveryKernelReturnsTheReferenceBitsOnRandomVectors) {
  qaplan::test::Rng rng(7);
  const int kernels = check_all("uniform", [&](std::size_t d, float* a, float* b) {
    for (std::size_t i = 0; i < d; ++i) {
      a[i] = static_cast<float>(2 * rng.uniform() - 1);
      b[i] = static_cast<float>(2 * rng.uniform() - 1);
    }
  });
  // Scalar always; this project's x86-64 CI machines have AVX at least.
  EXPECT_GE(kernels, 1);
  std::printf("kernels checked on this CPU: %d (best %s)\n", kernels,
              qaplan::internal::kernel_isa_name(qaplan::internal::best_kernel_isa()));
}

TEST(IpKernels, EveryKernelReturnsTheReferenceBitsOnAdversarialVectors) {
  qaplan::test::Rng rng(11);
  const float denorm = std::numeric_limits<float>::denorm_min();
  // Products that underflow to denormals and zero.
  check_all("denormals", [&](std::size_t d, float* a, float* b) {
    for (std::size_t i = 0; i < d; ++i) {
      a[i] = denorm * static_cast<float>(1 + rng.next() % 1000);
      b[i] = (i % 3 == 0) ? 1e-3f : static_cast<float>(rng.uniform());
    }
  });
  // Negative zeros everywhere: a lane a kernel touches without need turns −0 into +0.
  check_all("negative zeros", [](std::size_t d, float* a, float* b) {
    for (std::size_t i = 0; i < d; ++i) {
      a[i] = -0.0f;
      b[i] = 1.0f;
    }
  });
  // Cancellation: large terms of alternating sign with small ones between, where the order of
  // the additions decides the low bits.
  check_all("cancellation", [&](std::size_t d, float* a, float* b) {
    for (std::size_t i = 0; i < d; ++i) {
      a[i] = (i % 2 ? -1.0f : 1.0f) * (i % 5 == 0 ? 1e4f : static_cast<float>(rng.uniform()));
      b[i] = (i % 7 == 0) ? 1e-4f : 1.0f;
    }
  });
  // Overflow to infinity and inf − inf: every kernel gives the reference's inf or NaN.
  check_all("overflow", [&](std::size_t d, float* a, float* b) {
    for (std::size_t i = 0; i < d; ++i) {
      a[i] = (i % 2 ? -3e38f : 3e38f);
      b[i] = (i % 3 ? 2.0f : 1.0f);
    }
  });
}

// The reference is an inner product: within the bound the searcher's double rescoring assumes
// (vector_index.cpp) of the exact value, on unit vectors.
TEST(IpKernels, TheReferenceIsAnInnerProductWithinTheRescoringBound) {
  qaplan::test::Rng rng(3);
  for (std::size_t d : lengths()) {
    std::vector<float> a(d), b(d);
    double na = 0, nb = 0;
    for (std::size_t i = 0; i < d; ++i) {
      a[i] = static_cast<float>(rng.normal());
      b[i] = static_cast<float>(rng.normal());
      na += double(a[i]) * a[i];
      nb += double(b[i]) * b[i];
    }
    double exact = 0;
    for (std::size_t i = 0; i < d; ++i) {
      a[i] = static_cast<float>(a[i] / std::sqrt(na));
      b[i] = static_cast<float>(b[i] / std::sqrt(nb));
      exact += double(a[i]) * b[i];
    }
    const double err = (static_cast<double>(d) / 8.0 + 16.0) * 0x1.0p-23;
    EXPECT_NEAR(qaplan::internal::ip_distance_reference(a.data(), b.data(), d), 1.0 - exact, err)
        << "d=" << d;
  }
}

TEST(IpKernels, TheBestKernelRunsHere) {
  EXPECT_NE(qaplan::internal::ip_kernel(KernelIsa::kScalar), nullptr);
  EXPECT_NE(qaplan::internal::ip_kernel(qaplan::internal::best_kernel_isa()), nullptr);
}

}  // namespace
