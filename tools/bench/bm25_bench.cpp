// BM25 build and top-k search on a generated Zipf corpus (the shape of
// ../shared/peers/gen_zipf_corpus.py: vocabulary 50 k, Zipf s = 1, mean length 60, queries of 3
// or 12 distinct terms drawn from a random document). Compares the default pruned search
// (MaxScore) with exhaustive term-at-a-time scoring and the untruncated k = 0 list used by RRF.
//
// BM_SavedSearchThreads: the same top-10 searches over the index saved and opened as a host opens
// it (mapped), from 1, 2 and 4 threads sharing it; items_per_second is the total over threads.
// BM_Unchanged: one Bm25Index::unchanged() of that mapped index (one fstat), the check a host
// runs before each batch of searches.
//
//   build*/bench/bm25_bench [--benchmark_filter=…]   (QAPLAN_BM25_BENCH_DOCS overrides 100 000)
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <filesystem>
#include <optional>

#include <unistd.h>

#include "qaplan/ranking/bm25.hpp"

namespace {

using Docs = std::vector<std::vector<std::string>>;

struct Fixture {
  Docs docs;
  std::vector<std::vector<std::string>> q_short, q_long;
  std::unique_ptr<qaplan::Bm25Index> exact, lucene;
};

std::size_t num_docs() {
  if (const char* e = std::getenv("QAPLAN_BM25_BENCH_DOCS")) return std::strtoul(e, nullptr, 10);
  return 100000;
}

std::vector<std::vector<std::string>> make_queries(const Docs& docs, std::mt19937_64& rng,
                                                   std::size_t qlen) {
  std::vector<std::vector<std::string>> qs;
  std::uniform_int_distribution<std::size_t> pick(0, docs.size() - 1);
  while (qs.size() < 500) {
    const auto& d = docs[pick(rng)];
    const std::set<std::string> distinct(d.begin(), d.end());
    std::vector<std::string> uniq(distinct.begin(), distinct.end());
    if (uniq.size() < qlen) continue;
    std::shuffle(uniq.begin(), uniq.end(), rng);
    uniq.resize(qlen);
    qs.push_back(uniq);
  }
  return qs;
}

const Fixture& fixture() {
  static Fixture f = [] {
    Fixture x;
    std::mt19937_64 rng(42);
    const int V = 50000;
    std::vector<double> w(V);
    for (int r = 0; r < V; ++r) w[r] = 1.0 / (r + 1);
    std::discrete_distribution<int> zipf(w.begin(), w.end());
    std::normal_distribution<double> len(60, 20);
    x.docs.resize(num_docs());
    for (auto& d : x.docs) {
      const int n = std::clamp(static_cast<int>(std::lround(len(rng))), 5, 180);
      d.reserve(n);
      for (int i = 0; i < n; ++i) d.push_back("w" + std::to_string(zipf(rng)));
    }
    x.q_short = make_queries(x.docs, rng, 3);
    x.q_long = make_queries(x.docs, rng, 12);
    x.exact = std::make_unique<qaplan::Bm25Index>(qaplan::Bm25Index::create(x.docs).value());
    x.lucene = std::make_unique<qaplan::Bm25Index>(
        qaplan::Bm25Index::create(x.docs, {1.2, 0.75, qaplan::Bm25Norms::kLucene}).value());
    return x;
  }();
  return f;
}

void BM_Build(benchmark::State& st) {
  const auto& f = fixture();
  for (auto _ : st) {
    auto idx = qaplan::Bm25Index::create(f.docs);
    benchmark::DoNotOptimize(idx);
  }
  st.counters["docs_per_s"] =
      benchmark::Counter(static_cast<double>(f.docs.size()), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_Build)->Unit(benchmark::kMillisecond)->Iterations(2);

// arg 0: 0 short / 1 long queries; arg 1: 0 pruned top-10 / 1 exhaustive top-10 / 2 k = 0;
// arg 2: 0 exact / 1 lucene norms.
void BM_Search(benchmark::State& st) {
  const auto& f = fixture();
  const auto& qs = st.range(0) == 0 ? f.q_short : f.q_long;
  const auto& idx = st.range(2) == 0 ? *f.exact : *f.lucene;
  std::size_t i = 0, hits = 0;
  for (auto _ : st) {
    const auto& q = qs[i++ % qs.size()];
    qaplan::RankedList r = st.range(1) == 0   ? idx.search(q, 10)
                           : st.range(1) == 1 ? idx.search_exhaustive(q, 10)
                                              : idx.search(q, 0);
    hits += r.size();
    benchmark::DoNotOptimize(r);
  }
  st.counters["qps"] = benchmark::Counter(static_cast<double>(st.iterations()), benchmark::Counter::kIsRate);
  st.SetLabel(std::string(st.range(0) == 0 ? "3-term" : "12-term") +
              (st.range(1) == 0 ? " maxscore" : st.range(1) == 1 ? " exhaustive" : " k=0") +
              (st.range(2) == 0 ? " exact" : " lucene"));
}
BENCHMARK(BM_Search)
    ->ArgsProduct({{0, 1}, {0, 1, 2}, {0, 1}})
    ->Unit(benchmark::kMicrosecond);

// The lucene-norm index saved to a temporary file and opened from it (removed at exit).
const qaplan::Bm25Index& saved() {
  static const std::filesystem::path path =
      std::filesystem::temp_directory_path() / ("qaplan-bm25-bench-" + std::to_string(::getpid()));
  static const std::optional<qaplan::Bm25Index> index = [] {
    if (!fixture().lucene->save(path).ok()) return std::optional<qaplan::Bm25Index>();
    auto opened = qaplan::Bm25Index::open(path);
    std::atexit([] { std::filesystem::remove(path); });
    return opened.ok() ? std::optional<qaplan::Bm25Index>(std::move(opened).value())
                       : std::optional<qaplan::Bm25Index>();
  }();
  return *index;
}

// arg 0: 0 short / 1 long queries. Each thread starts at its own place in the query list.
void BM_SavedSearchThreads(benchmark::State& st) {
  const auto& qs = st.range(0) == 0 ? fixture().q_short : fixture().q_long;
  const qaplan::Bm25Index& idx = saved();
  std::size_t i = static_cast<std::size_t>(st.thread_index()) * 97;
  for (auto _ : st) {
    qaplan::RankedList r = idx.search(qs[i++ % qs.size()], 10);
    benchmark::DoNotOptimize(r);
  }
  st.SetItemsProcessed(st.iterations());
  st.SetLabel(st.range(0) == 0 ? "3-term saved" : "12-term saved");
}
BENCHMARK(BM_SavedSearchThreads)
    ->Arg(0)
    ->Arg(1)
    ->Threads(1)
    ->Threads(2)
    ->Threads(4)
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);

void BM_Unchanged(benchmark::State& st) {
  const qaplan::Bm25Index& idx = saved();
  for (auto _ : st) {
    qaplan::Status s = idx.unchanged();
    benchmark::DoNotOptimize(s);
  }
}
BENCHMARK(BM_Unchanged)->Unit(benchmark::kNanosecond);

}  // namespace

BENCHMARK_MAIN();
