// HNSW vs exact cosine search and RRF fusion (docs/measured.md). Speed lives here, not in tests.
//
//   build/bench/vector_bench [--benchmark_filter=…]
//   QAPLAN_BENCH_VECTORS=100000 QAPLAN_BENCH_DIMS=256 build/bench/vector_bench
//   build/bench/vector_bench --harness [ROUNDS]   the Lucene harness's protocol instead: two
//     warm-up passes over 1 000 distinct queries, then the best of ROUNDS (3) timed passes, one
//     thread; prints QPS and nearest-rank per-query p50/p95 of that pass for HNSW, exact search
//     and RRF.
//   build/bench/vector_bench --peer [N DIM NQ M EFC]   qaplan's VectorIndex side by side with raw
//     hnswlib (Debian libhnswlib-dev, its own SSE kernels, as ../shared/peers/ann builds it) on the
//     ann peer's "lowrank" data (the same generator and seed: 100 000 × 256, 1 000 queries, M 16,
//     efC 200 by default): build seconds of each, then recall@10 and QPS at ef 10 … 320, one
//     thread, one warm-up pass then the best of 3 timed passes over the distinct queries.
//
// The corpus is synthetic and clustered (fixed seed: 100 unit centres, each row = centre +
// N(0, 0.15²) per dimension), built once per process with the default HnswOptions. Each search
// benchmark reports recall@10 against brute force next to its speed (tie-aware: a returned doc
// whose score equals the exact 10th score counts as correct), plus the index build time.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <optional>
#include <functional>
#include <vector>

#include <hnswlib/hnswlib.h>

#include <random>

#include "support/rng.hpp"
#if QAPLAN_NATIVE_PEER
#include "hnsw_native_peer.hpp"
#endif
#include "qaplan/ranking/fusion.hpp"
#include "qaplan/ranking/vector_index.hpp"

namespace {

using qaplan::test::Rng;

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
    auto queries = clustered(rng, 1000, d, centres);  // distinct: no query is timed twice
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

// Recall@10 of `search` against the brute-force top-10 computed once at fixture time.
template <class Search>
double recall_at_10(const Corpus& c, Search search) {
  std::size_t correct = 0;
  for (std::size_t i = 0; i < c.queries.size(); ++i) {
    const double kth = c.exact10[i].back().score;
    // Keep the Result alive: `for (x : *f())` would iterate a destroyed temporary.
    const auto got = search(c.queries[i]);
    for (const auto& hit : *got) correct += hit.score >= kth ? 1 : 0;
  }
  return static_cast<double>(correct) / static_cast<double>(10 * c.queries.size());
}

double recall_at_10(const Corpus& c) {
  return recall_at_10(c, [&](const std::vector<float>& q) { return c.index.search(q, 10); });
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

// The same searches from 1, 2 and 4 threads sharing the index; items_per_second is the total.
void BM_HnswSearchThreads(benchmark::State& state) {
  const Corpus& c = corpus();
  std::size_t i = static_cast<std::size_t>(state.thread_index()) * 97;
  for (auto _ : state) {
    auto r = c.index.search(c.queries[i++ % c.queries.size()], 10);
    benchmark::DoNotOptimize(r);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_HnswSearchThreads)->Threads(1)->Threads(2)->Threads(4)->UseRealTime()->Unit(benchmark::kMicrosecond);

void BM_ExactSearchTop10(benchmark::State& state) {
  const Corpus& c = corpus();
  std::size_t i = 0;
  for (auto _ : state) {
    auto r = c.index.search_exact(c.queries[i++ % c.queries.size()], 10);
    benchmark::DoNotOptimize(r);
  }
  set_counters(state, c);
  // Measured like HNSW's (it is 1 unless search_exact and the fixture's reference disagree).
  state.counters["recall_at_10"] =
      recall_at_10(c, [&](const std::vector<float>& q) { return c.index.search_exact(q, 10); });
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

// One timed pass per call of `pass`; returns per-query microseconds of the best (fastest) pass.
template <class F>
std::vector<double> best_of(int rounds, std::size_t queries, F&& one_query) {
  using Clock = std::chrono::steady_clock;
  std::vector<double> best;
  double best_total = 1e300;
  for (int r = -2; r < rounds; ++r) {  // r < 0: warm-up passes, not kept
    std::vector<double> us(queries);
    const auto t0 = Clock::now();
    for (std::size_t q = 0; q < queries; ++q) {
      const auto a = Clock::now();
      one_query(q);
      us[q] = std::chrono::duration<double, std::micro>(Clock::now() - a).count();
    }
    const double total = std::chrono::duration<double>(Clock::now() - t0).count();
    if (r >= 0 && total < best_total) {
      best_total = total;
      best = std::move(us);
    }
  }
  best.push_back(best_total);  // last element: the pass's wall seconds
  return best;
}

void print_harness(const char* what, std::vector<double> us) {
  const double total = us.back();
  us.pop_back();
  const double qps = static_cast<double>(us.size()) / total;
  std::sort(us.begin(), us.end());
  auto rank = [&](double p) {  // nearest rank
    const auto k = static_cast<std::size_t>(std::ceil(p / 100.0 * static_cast<double>(us.size())));
    return us[std::max<std::size_t>(k, 1) - 1];
  };
  std::printf("%-28s qps=%.1f p50_us=%.1f p95_us=%.1f p99_us=%.1f\n", what, qps, rank(50), rank(95),
              rank(99));
}

int run_harness(int rounds) {
  const Corpus& c = corpus();
  constexpr std::size_t kQueries = 1000;
  std::printf("vectors=%zu dims=%zu build_s=%.2f ef_search=%zu recall_at_10=%.4f rounds=%d\n", c.n,
              c.d, c.build_seconds, c.index.options().ef_search, recall_at_10(c), rounds);
  std::size_t sink = 0;
  print_harness("hnsw top-10", best_of(rounds, kQueries, [&](std::size_t q) {
                  sink += c.index.search(c.queries[q % c.queries.size()], 10)->size();
                }));
  print_harness("exact top-10", best_of(rounds, std::min<std::size_t>(kQueries, 100), [&](std::size_t q) {
                  sink += c.index.search_exact(c.queries[q % c.queries.size()], 10)->size();
                }));
  for (const std::uint32_t n : {18u, 1000u, 20000u}) {
    qaplan::RankedList a, b;
    for (std::uint32_t i = 0; i < n; ++i) {
      a.push_back({i, 1.0 / (1.0 + i)});
      b.push_back({(i * 7919u + n / 2) % (2 * n), 1.0 - i * 1e-6});
    }
    const std::string label = "rrf 2 lists x " + std::to_string(n);
    print_harness(label.c_str(), best_of(rounds, kQueries, [&](std::size_t) {
                    sink += qaplan::fuse_rrf({a, b})->size();
                  }));
  }
  return sink == 0 ? 1 : 0;
}


// ---- --peer: qaplan vs raw hnswlib on the ann peer's lowrank data ---------------------------

// ../shared/peers/ann/ann_bench.cc's generator, verbatim in behaviour (same engine, seed and
// order of draws), so both harnesses see the same vectors on this toolchain.
void ann_normalize(float* v, int d) {
  double s = 0;
  for (int i = 0; i < d; ++i) s += static_cast<double>(v[i]) * v[i];
  const float inv = static_cast<float>(1.0 / std::sqrt(s));
  for (int i = 0; i < d; ++i) v[i] *= inv;
}
void ann_gen_lowrank(int n, int d, std::vector<float>& out, std::mt19937_64& rng,
                     const std::vector<float>& A, int r) {
  std::normal_distribution<float> g(0.f, 1.f);
  out.resize(static_cast<std::size_t>(n) * d);
  std::vector<float> z(r);
  for (int i = 0; i < n; ++i) {
    float* v = &out[static_cast<std::size_t>(i) * d];
    for (int k = 0; k < r; ++k) z[k] = g(rng);
    for (int j = 0; j < d; ++j) {
      float s = 0;
      for (int k = 0; k < r; ++k) s += A[static_cast<std::size_t>(j) * r + k] * z[k];
      v[j] = s + 0.1f * g(rng);
    }
    ann_normalize(v, d);
  }
}

// One system under test: its name, how to build it and how to search it.
struct PeerSystem {
  const char* name;
  double build_s = 0;
  std::function<void(int ef)> set_ef;
  std::function<void(int q, int ef, std::vector<std::uint32_t>& out)> search;
};

// Lowrank data of the ann peer (queries Q, rows X), built once.
struct PeerData {
  int N, d, nq;
  std::vector<float> X, Q;
  std::vector<std::vector<float>> rows, qs;
};

PeerData peer_data(int N, int d, int nq) {
  PeerData p{N, d, nq, {}, {}, {}, {}};
  std::mt19937_64 rng(1234);
  const int r = 32;
  std::vector<float> A(static_cast<std::size_t>(d) * r);
  std::normal_distribution<float> g(0.f, 1.f);
  for (auto& a : A) a = g(rng);
  ann_gen_lowrank(N, d, p.X, rng, A, r);
  ann_gen_lowrank(nq, d, p.Q, rng, A, r);
  for (int i = 0; i < N; ++i)
    p.rows.emplace_back(p.X.begin() + static_cast<long>(i) * d, p.X.begin() + static_cast<long>(i + 1) * d);
  for (int i = 0; i < nq; ++i)
    p.qs.emplace_back(p.Q.begin() + static_cast<long>(i) * d, p.Q.begin() + static_cast<long>(i + 1) * d);
  return p;
}

template <class F>
double seconds_of(F&& f) {
  const auto t0 = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Each ef: one warm-up pass per system, then 3 timed passes, the systems alternating within each
// pass; the best pass counts. Recall@10 against qaplan's exact search.
void peer_table(const PeerData& p, std::vector<PeerSystem>& systems,
                const std::vector<std::vector<std::uint32_t>>& gt) {
  auto recall = [&](const std::vector<std::vector<std::uint32_t>>& got) {
    std::size_t hit = 0;
    for (int q = 0; q < p.nq; ++q)
      for (auto id : got[q]) hit += std::count(gt[q].begin(), gt[q].end(), id) ? 1 : 0;
    return static_cast<double>(hit) / (10.0 * p.nq);
  };
  for (const int ef : {10, 20, 40, 80, 160, 320}) {
    std::vector<std::vector<std::vector<std::uint32_t>>> got(systems.size(),
                                                             std::vector<std::vector<std::uint32_t>>(p.nq));
    std::vector<double> best(systems.size(), 1e300);
    for (auto& s : systems) s.set_ef(ef);
    for (int rep = 0; rep < 4; ++rep) {
      for (std::size_t s = 0; s < systems.size(); ++s) {
        const double t = seconds_of([&] {
          for (int q = 0; q < p.nq; ++q) systems[s].search(q, ef, got[s][q]);
        });
        if (rep > 0) best[s] = std::min(best[s], t);
      }
    }
    std::printf("ef=%d", ef);
    for (std::size_t s = 0; s < systems.size(); ++s)
      std::printf("  %s recall@10=%.4f qps=%.0f", systems[s].name, recall(got[s]), p.nq / best[s]);
    for (std::size_t s = 1; s < systems.size(); ++s)
      std::printf("  ratio/%s=%.3f", systems[s].name, best[s] / best[0]);
    std::printf("\n");
  }
}

int run_peer(int N, int d, int nq, int M, int efc) {
  const PeerData p = peer_data(N, d, nq);
  std::printf("# lowrank N=%d dim=%d nq=%d M=%d efC=%d, one thread; qaplan kernel: best of this CPU\n",
              N, d, nq, M, efc);
  std::optional<qaplan::VectorIndex> ours;
  std::vector<PeerSystem> systems;
  systems.push_back({"qaplan", seconds_of([&] {
                       auto r = qaplan::VectorIndex::create(
                           static_cast<std::size_t>(d), p.rows,
                           {static_cast<std::size_t>(M), static_cast<std::size_t>(efc), 64, 100});
                       if (r.ok()) ours.emplace(std::move(r).value());
                     }),
                     [](int) {},
                     [&](int q, int ef, std::vector<std::uint32_t>& out) {
                       auto res = ours->search(p.qs[q], 10, static_cast<std::size_t>(ef));
                       out.clear();
                       for (const auto& h : *res) out.push_back(h.doc);
                     }});
  if (!ours) return 1;
  hnswlib::InnerProductSpace space(static_cast<std::size_t>(d));
  std::optional<hnswlib::HierarchicalNSW<float>> raw;
  systems.push_back({"hnswlib-portable", seconds_of([&] {
                       raw.emplace(&space, static_cast<std::size_t>(N), static_cast<std::size_t>(M),
                                   static_cast<std::size_t>(efc), 100);
                       for (int i = 0; i < N; ++i)
                         raw->addPoint(&p.X[static_cast<std::size_t>(i) * d], static_cast<hnswlib::labeltype>(i));
                     }),
                     [&](int ef) { raw->setEf(static_cast<std::size_t>(ef)); },
                     [&](int q, int, std::vector<std::uint32_t>& out) {
                       auto res = raw->searchKnn(&p.Q[static_cast<std::size_t>(q) * d], 10);
                       out.clear();
                       for (; !res.empty(); res.pop()) out.push_back(static_cast<std::uint32_t>(res.top().second));
                     }});
#if QAPLAN_NATIVE_PEER
  std::optional<qaplan::bench::NativeHnsw> native;
  systems.push_back({"hnswlib-native", seconds_of([&] {
                       native.emplace(static_cast<std::size_t>(d), static_cast<std::size_t>(N),
                                      static_cast<std::size_t>(M), static_cast<std::size_t>(efc), 100);
                       for (int i = 0; i < N; ++i)
                         native->add(&p.X[static_cast<std::size_t>(i) * d], static_cast<std::size_t>(i));
                     }),
                     [&](int ef) { native->set_ef(static_cast<std::size_t>(ef)); },
                     [&](int q, int, std::vector<std::uint32_t>& out) {
                       native->search(&p.Q[static_cast<std::size_t>(q) * d], 10, out);
                     }});
  std::printf("# hnswlib-native: -march=native, kernel %s\n", qaplan::bench::NativeHnsw::simd());
#endif
  std::printf("build_s");
  for (const auto& s : systems) std::printf("  %s=%.2f", s.name, s.build_s);
  for (std::size_t s = 1; s < systems.size(); ++s)
    std::printf("  ratio/%s=%.3f", systems[s].name, systems[0].build_s / systems[s].build_s);
  std::printf("\n");
  // Ground truth: exact top-10 by qaplan's double scores.
  std::vector<std::vector<std::uint32_t>> gt(nq);
  for (int q = 0; q < nq; ++q) {
    const auto exact = ours->search_exact(p.qs[q], 10);  // kept alive while iterated
    if (!exact.ok()) return 1;
    for (const auto& h : *exact) gt[q].push_back(h.doc);
  }
  peer_table(p, systems, gt);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 2 && std::string(argv[1]) == "--peer") {
    auto arg = [&](int i, int def) { return argc > i ? std::atoi(argv[i]) : def; };
    return run_peer(arg(2, 100000), arg(3, 256), arg(4, 1000), arg(5, 16), arg(6, 200));
  }
  if (argc >= 2 && std::string(argv[1]) == "--harness")
    return run_harness(argc >= 3 ? std::max(1, std::atoi(argv[2])) : 3);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
