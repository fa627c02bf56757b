// Domain lexicon load and scan (docs/domain.md): how long the planner's start-up spends reading a
// lexicon, how much memory it keeps, and what one question's scan costs.
//   QAPLAN_DOMAIN_LEXICON=/path/to/big.qdl build/bench/domain_bench
// (default: the shipped config/domain/kb.qdl). rss_delta_mb is the resident memory one loaded
// lexicon adds (measured once, outside the timed loop).
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "planning/domain_lexicon.hpp"

namespace {

std::string lexicon_path() {
  const char* env = std::getenv("QAPLAN_DOMAIN_LEXICON");
  return env != nullptr && *env != '\0' ? env : QAPLAN_SOURCE_DIR "/config/domain/kb.qdl";
}

double rss_mb() {
  std::ifstream in("/proc/self/statm");
  long pages = 0, resident = 0;
  in >> pages >> resident;
  return static_cast<double>(resident) * static_cast<double>(::sysconf(_SC_PAGESIZE)) / 1e6;
}

void BM_DomainLexiconLoad(benchmark::State& state) {
  const std::string path = lexicon_path();
  std::size_t terms = 0;
  for (auto _ : state) {
    auto lex = qaplan::internal::DomainLexicon::load(path);
    if (!lex.ok()) {
      state.SkipWithError(lex.error().to_string().c_str());
      return;
    }
    terms = lex->term_count();
    benchmark::DoNotOptimize(lex);
  }
  const double before = rss_mb();
  auto kept = qaplan::internal::DomainLexicon::load(path);
  state.counters["rss_delta_mb"] = rss_mb() - before;
  state.counters["terms"] = static_cast<double>(terms);
}
BENCHMARK(BM_DomainLexiconLoad)->Unit(benchmark::kMillisecond);

void BM_DomainLexiconScan(benchmark::State& state) {
  auto lex = qaplan::internal::DomainLexicon::load(lexicon_path());
  if (!lex.ok()) {
    state.SkipWithError(lex.error().to_string().c_str());
    return;
  }
  const std::string q = "出差到上海住宿标准是多少，报销需要哪些发票，vpn连不上怎么办 w12 w345";
  std::vector<qaplan::internal::DomainLexicon::Hit> hits;
  for (auto _ : state) {
    lex->scan(q, hits);
    benchmark::DoNotOptimize(hits.data());
  }
  state.counters["hits"] = static_cast<double>(hits.size());
}
BENCHMARK(BM_DomainLexiconScan);

}  // namespace

BENCHMARK_MAIN();
