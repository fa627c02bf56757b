#pragma once
// The inner-product distance of the HNSW graph (1 − ⟨a, b⟩ over `dims` floats), one kernel per
// instruction set, picked at run time — the build never uses -march, so one binary runs at the
// best speed of whatever x86-64 it lands on.
//
// Every kernel returns the same bits as the reference: lane l (of 32) sums a[i]·b[i] for
// i ≡ l (mod 32) in increasing i, each product rounded before its addition (no fused
// multiply-add: it rounds once and would make the graph depend on the CPU), then the lanes are
// added in one fixed pairwise tree (l + 16, l + 8, l + 4, l + 2, l + 1). SSE2 keeps the lanes in
// eight 4-wide registers, AVX / AVX2 in four 8-wide, AVX-512 in two 16-wide — the same additions
// in the same order, so a graph built on one machine is bit-identical on every other. Only the
// graph uses these; reported scores are rescored in double (vector_index.cpp).
#include <cstddef>

namespace qaplan::internal {

/// hnswlib's distance signature: `dims` points to a std::size_t.
using IpDistance = float (*)(const void* a, const void* b, const void* dims);

enum class KernelIsa { kScalar, kAvx, kAvx2, kAvx512 };

inline constexpr std::size_t kIpLanes = 32;

/// The reference every kernel equals bit for bit.
float ip_distance_reference(const float* a, const float* b, std::size_t dims) noexcept;

/// The kernel for `isa`, or nullptr when this CPU cannot run it.
IpDistance ip_kernel(KernelIsa isa) noexcept;

/// The widest instruction set this CPU runs (checked once).
KernelIsa best_kernel_isa() noexcept;

const char* kernel_isa_name(KernelIsa isa) noexcept;

}  // namespace qaplan::internal
