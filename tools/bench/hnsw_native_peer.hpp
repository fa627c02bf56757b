#pragma once
// Raw hnswlib built with -march=native in its own translation unit (hnsw_native_peer.cpp): the
// build users who care about vector speed make, with the SIMD kernels the compiler flags select
// (AVX-512 on a CPU that has it). vector_bench --peer measures qaplan against it and against the
// portable build side by side.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace qaplan::bench {

class NativeHnsw {
 public:
  NativeHnsw(std::size_t dims, std::size_t capacity, std::size_t m, std::size_t ef_construction,
             std::size_t seed);
  ~NativeHnsw();
  NativeHnsw(const NativeHnsw&) = delete;
  NativeHnsw& operator=(const NativeHnsw&) = delete;

  void add(const float* v, std::size_t label);
  void set_ef(std::size_t ef);
  /// The k nearest labels by inner product, in no particular order.
  void search(const float* q, std::size_t k, std::vector<std::uint32_t>& out) const;
  /// The widest kernel hnswlib compiled in this translation unit: "avx512", "avx", "sse".
  static const char* simd();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace qaplan::bench
