// Compiled with -march=native (tools/bench/CMakeLists.txt): hnswlib with the SIMD kernels and
// prefetching that flag selects.
#include "hnsw_native_peer.hpp"

// The library's adapter, in a namespace of this file's own.
#define QAPLAN_HNSW_NAMESPACE native_peer
#include "ranking/internal/hnsw_adapter.hpp"

namespace qaplan::bench {

struct NativeHnsw::Impl {
  hnswlib::InnerProductSpace space;
  hnswlib::HierarchicalNSW<float> index;
  Impl(std::size_t dims, std::size_t capacity, std::size_t m, std::size_t efc, std::size_t seed)
      : space(dims), index(&space, capacity, m, efc, seed) {}
};

NativeHnsw::NativeHnsw(std::size_t dims, std::size_t capacity, std::size_t m,
                       std::size_t ef_construction, std::size_t seed)
    : impl_(std::make_unique<Impl>(dims, capacity, m, ef_construction, seed)) {}
NativeHnsw::~NativeHnsw() = default;

void NativeHnsw::add(const float* v, std::size_t label) { impl_->index.addPoint(v, label); }
void NativeHnsw::set_ef(std::size_t ef) { impl_->index.setEf(ef); }

void NativeHnsw::search(const float* q, std::size_t k, std::vector<std::uint32_t>& out) const {
  auto res = impl_->index.searchKnn(q, k);
  out.clear();
  while (!res.empty()) {
    out.push_back(static_cast<std::uint32_t>(res.top().second));
    res.pop();
  }
}

const char* NativeHnsw::simd() {
#if defined(USE_AVX512)
  return "avx512";
#elif defined(USE_AVX)
  return "avx";
#elif defined(USE_SSE)
  return "sse";
#else
  return "none";
#endif
}

}  // namespace qaplan::bench
