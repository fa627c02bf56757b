// HNSW vs exact cosine search and RRF fusion (issue 3 item 15). Speed lives here, not in tests.
//
//   build/bench/vector_bench [--benchmark_filter=…]
//   QAPLAN_BENCH_VECTORS=100000 QAPLAN_BENCH_DIMS=256 build/bench/vector_bench
//
// The corpus is synthetic and clustered (fixed seed: 100 unit centres, each row = centre +
// N(0, 0.15²) per dimension), built once per process with the default HnswOptions. Each search
// benchmark reports recall@10 against brute force next to its speed (tie-aware: a returned doc
// whose score equals the exact 10th score counts as correct), plus the index build time.
#include <benchmark/benchmark.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "qaplan/fusion.hpp"
#include "qaplan/vector_index.hpp"

namespace {

class Rng {
 public:
  explicit Rng(std::uint64_t seed) : s_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (s_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  double uniform() { return (static_cast<double>(next() >> 11) + 0.5) * 0x1.0p-53; }
  double normal() {
    const double u1 = uniform(), u2 = uniform();
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
  }

 private:
  std::uint64_t s_;
};

std::size_t env_size(const char* name, std::size_t fallback) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return fallback;
  return static_cast<std::size_t>(std::strtoull(v, nullptr, 10));
}

struct Corpus {
  std::size_t n = 0, d = 0;
  std::vector<std::vector<float>> queries;
  qaplan::VectorIndex index;
  double build_seconds = 0;
  std::vector<qaplan::RankedList> exact10;  // brute-force top-10 per query
};

std::vector<std::vector<float>> clustered(Rng& rng, std::size_t n, std::size_t d,
                                          const std::vector<std::vector<float>>& centres) {
  std::vector<std::vector<float>> out(n, std::vector<float>(d));
  for (auto& row : out) {
    const auto& c = centres[rng.next() % centres.size()];
    for (std::size_t j = 0; j < d; ++j) row[j] = static_cast<float>(c[j] + 0.15 * rng.normal());
  }
  return out;
}

const Corpus& corpus() {
  static const Corpus* c = [] {
    const std::size_t n = env_size("QAPLAN_BENCH_VECTORS", 50000);
    const std::size_t d = env_size("QAPLAN_BENCH_DIMS", 128);
    Rng rng(20261019);
    std::vector<std::vector<float>> centres(100, std::vector<float>(d));
    for (auto& ctr : centres) {
      double norm = 0;
      for (auto& x : ctr) {
        x = static_cast<float>(rng.normal());
        norm += static_cast<double>(x) * x;
      }
      for (auto& x : ctr) x = static_cast<float>(x / std::sqrt(norm));
    }
    auto rows = clustered(rng, n, d, centres);
    auto queries = clustered(rng, 200, d, centres);
    std::fprintf(stderr, "building HNSW over %zu x %zu vectors…\n", n, d);
    const auto t0 = std::chrono::steady_clock::now();
    auto idx = qaplan::VectorIndex::create(d, rows, {});
    const auto t1 = std::chrono::steady_clock::now();
    if (!idx.ok()) {
      std::fprintf(stderr, "%s\n", idx.error().to_string().c_str());
      std::exit(1);
    }
    auto* out = new Corpus{n, d, std::move(queries), std::move(*idx),
                           std::chrono::duration<double>(t1 - t0).count(), {}};
    for (const auto& q : out->queries) out->exact10.push_back(*out->index.search_exact(q, 10));
    return out;
  }();
  return *c;
}

double recall_at_10(const Corpus& c) {
  std::size_t correct = 0;
  for (std::size_t i = 0; i < c.queries.size(); ++i) {
    const double kth = c.exact10[i].back().score;
    // Keep the Result alive: `for (x : *f())` would iterate a destroyed temporary.
    const auto approx = c.index.search(c.queries[i], 10);
    for (const auto& hit : *approx) correct += hit.score >= kth ? 1 : 0;
  }
  return static_cast<double>(correct) / static_cast<double>(10 * c.queries.size());
}

void set_counters(benchmark::State& state, const Corpus& c) {
  state.counters["n"] = static_cast<double>(c.n);
  state.counters["dims"] = static_cast<double>(c.d);
  state.counters["build_s"] = c.build_seconds;
  state.counters["qps"] = benchmark::Counter(static_cast<double>(state.iterations()),
                                             benchmark::Counter::kIsRate);
}

void BM_HnswSearchTop10(benchmark::State& state) {
  const Corpus& c = corpus();
  std::size_t i = 0;
  for (auto _ : state) {
    auto r = c.index.search(c.queries[i++ % c.queries.size()], 10);
    benchmark::DoNotOptimize(r);
  }
  set_counters(state, c);
  state.counters["recall_at_10"] = recall_at_10(c);
  state.counters["ef_search"] = static_cast<double>(c.index.options().ef_search);
}
BENCHMARK(BM_HnswSearchTop10)->Unit(benchmark::kMicrosecond);

void BM_ExactSearchTop10(benchmark::State& state) {
  const Corpus& c = corpus();
  std::size_t i = 0;
  for (auto _ : state) {
    auto r = c.index.search_exact(c.queries[i++ % c.queries.size()], 10);
    benchmark::DoNotOptimize(r);
  }
  set_counters(state, c);
  state.counters["recall_at_10"] = 1.0;
}
BENCHMARK(BM_ExactSearchTop10)->Unit(benchmark::kMicrosecond);

// RRF over two untruncated lists of `range(0)` docs each (half overlap), as the benchmark fuses
// every scoped chunk.
void BM_RrfTwoLists(benchmark::State& state) {
  const auto n = static_cast<std::uint32_t>(state.range(0));
  qaplan::RankedList a, b;
  for (std::uint32_t i = 0; i < n; ++i) {
    a.push_back({i, 1.0 / (1.0 + i)});
    b.push_back({(i * 7919u + n / 2) % (2 * n), 1.0 - i * 1e-6});
  }
  for (auto _ : state) {
    auto r = qaplan::fuse_rrf({a, b});
    benchmark::DoNotOptimize(r);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * 2 * n);
}
BENCHMARK(BM_RrfTwoLists)->Arg(18)->Arg(1000)->Arg(100000)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
