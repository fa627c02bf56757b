#pragma once
// [ranking.*] of rules.toml → the ranking library's option structs.
#include "qaplan/bench.hpp"
#include "qaplan/bm25.hpp"
#include "qaplan/config.hpp"
#include "qaplan/fusion.hpp"
#include "qaplan/vector_index.hpp"

namespace qaplan::cli {

inline Bm25Options bm25_options(const RankingConfig& r) {
  return Bm25Options{r.bm25_k1, r.bm25_b,
                     r.bm25_norms == "lucene" ? Bm25Norms::kLucene : Bm25Norms::kExact};
}

inline HnswOptions hnsw_options(const RankingConfig& r) {
  HnswOptions h;
  h.m = static_cast<std::size_t>(r.hnsw_m);
  h.ef_construction = static_cast<std::size_t>(r.hnsw_ef_construction);
  h.ef_search = static_cast<std::size_t>(r.hnsw_ef_search);
  h.seed = static_cast<std::uint64_t>(r.hnsw_seed);
  return h;
}

inline BenchOptions bench_options(const RankingConfig& r) {
  BenchOptions b;
  b.bm25 = bm25_options(r);
  b.hnsw = hnsw_options(r);
  b.rrf_k = r.rrf_k;
  b.current_vector_threshold = r.current_vector_threshold;
  return b;
}

}  // namespace qaplan::cli
