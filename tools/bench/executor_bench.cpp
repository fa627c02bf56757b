// execute_plan() and eval-chain speed (docs/evaluation.md). Speed lives here, not in tests.
//
//   build/bench/executor_bench                                  # Google Benchmark suite
//   taskset -c 1 build/bench/executor_bench --per-plan [--reps=200]
//
// Data: the shipped knowledge base (eval_sets/kb) and chain set (eval_sets/chain/chain-v1.jsonl),
// the shipped config/rules.toml. Every question is prepared and analysed once up front (as
// eval-chain does: rewrite, variants, filters); the benchmarks time execute_plan alone on the
// retrieval questions (direct answers return at once and are left out).
//
//   BM_ExecutePlan     one execute_plan per iteration, cycling through the retrieval questions
//   BM_KbIndexCreate   tokenizing and indexing both collections
//   BM_EvalChainRun    run_eval_chain over every question of the set (the main pass + 2 what-if passes)
//   BM_EvalChainAll    everything `qaplan eval-chain` does but process start: read and verify the
//                      files, index, plan, execute, judge, render report.json/report.md/charts
//   BM_AskIndex        `qaplan ask` in process: ask_index (prepare → analyze → BM25 over a saved
//                      index of eval_sets/kb/docs.jsonl → passages with text), one question of the
//                      chain set per iteration, direct answers included as a host would see them
//
// --per-plan (handled before benchmark::Initialize): every execute_plan is timed on its own with
// steady_clock, `reps` passes over all retrieval questions; per question the median is kept, and
// p50 / p95 / max over questions are printed with the per-stage medians.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdlib>
#include <optional>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <unistd.h>

#include "common/percentile.hpp"
#include "qaplan/retrieval/ask.hpp"
#include "qaplan/eval/chain_eval.hpp"
#include "qaplan/retrieval/executor.hpp"
#include "qaplan/io.hpp"

namespace {

namespace fs = std::filesystem;

fs::path root() { return fs::path(QAPLAN_SOURCE_DIR); }

struct Fixture {
  qaplan::ChainSet set;
  qaplan::RulesFile rules;
  qaplan::ChainEvalConfig ec;
  std::optional<qaplan::KbIndex> kb;
  std::optional<qaplan::Planner> planner;
  std::vector<qaplan::Preparation> preps;  // retrieval questions only
  std::vector<qaplan::ExecutionInputs> inputs;  // their analysis (rewrite, variants, filters)
};

template <class T>
T must(qaplan::Result<T> r) {
  if (!r.ok()) {
    std::fprintf(stderr, "executor_bench: %s\n", r.error().to_string().c_str());
    std::exit(1);
  }
  return std::move(r).value();
}

const Fixture& fixture() {
  static const Fixture f = [] {
    Fixture x;
    x.set = must(qaplan::read_chain_set(root() / "eval_sets" / "chain" / "chain-v1.jsonl"));
    x.rules = must(qaplan::read_rules_file(root() / "config" / "rules.toml"));
    x.ec = must(qaplan::read_chain_eval_config(root() / "eval_sets" / "chain" / "eval-config.json"));
    x.kb = must(qaplan::KbIndex::create(must(qaplan::read_knowledge_base(root() / "eval_sets" / "kb"))));
    x.planner = must(qaplan::Planner::create(x.rules.config));
    for (const auto& q : x.set.questions) {
      auto p = must(x.planner->prepare({q.question, q.history, q.scenario.value_or(""), q.source_filter}));
      if (p.route.route != qaplan::Route::kRetrieval) continue;
      x.inputs.push_back(qaplan::execution_inputs(must(x.planner->analyze(p))));
      x.preps.push_back(std::move(p));
    }
    return x;
  }();
  return f;
}

void BM_ExecutePlan(benchmark::State& state) {
  const Fixture& f = fixture();
  std::size_t i = 0;
  for (auto _ : state) {
    auto e = qaplan::execute_plan(f.preps[i], *f.kb, f.inputs[i]);
    benchmark::DoNotOptimize(e);
    if (++i == f.preps.size()) i = 0;
  }
  state.counters["plans"] = static_cast<double>(f.preps.size());
}
BENCHMARK(BM_ExecutePlan);

void BM_KbIndexCreate(benchmark::State& state) {
  auto kb = must(qaplan::read_knowledge_base(root() / "eval_sets" / "kb"));
  for (auto _ : state) {
    auto idx = qaplan::KbIndex::create(kb);
    benchmark::DoNotOptimize(idx);
  }
}
BENCHMARK(BM_KbIndexCreate)->Unit(benchmark::kMillisecond);

void BM_EvalChainRun(benchmark::State& state) {
  const Fixture& f = fixture();
  for (auto _ : state) {
    auto r = qaplan::run_eval_chain(f.rules.config, f.rules.sha256, *f.kb, f.set, f.ec);
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK(BM_EvalChainRun)->Unit(benchmark::kMillisecond);

void BM_EvalChainAll(benchmark::State& state) {
  for (auto _ : state) {
    auto set = must(qaplan::read_chain_set(root() / "eval_sets" / "chain" / "chain-v1.jsonl"));
    auto rules = must(qaplan::read_rules_file(root() / "config" / "rules.toml"));
    auto ec = must(qaplan::read_chain_eval_config(root() / "eval_sets" / "chain" / "eval-config.json"));
    auto kb = must(qaplan::KbIndex::create(must(qaplan::read_knowledge_base(root() / "eval_sets" / "kb"))));
    auto r = must(qaplan::run_eval_chain(rules.config, rules.sha256, kb, set, ec));
    std::size_t bytes = qaplan::chain_report_json(r).size() + qaplan::chain_report_markdown(r).size();
    for (const auto& [name, svg] : qaplan::chain_report_charts(r)) bytes += svg.size();
    benchmark::DoNotOptimize(bytes);
  }
}
BENCHMARK(BM_EvalChainAll)->Unit(benchmark::kMillisecond);

// A saved index (with its document store) of the shipped KB's documents, in a temp directory
// removed at exit, opened as `qaplan ask --index` opens it.
struct SavedKb {
  fs::path dir;
  std::optional<qaplan::CollectionIndex> index;
  std::optional<qaplan::DocStore> store;
  ~SavedKb() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
};

const SavedKb& saved_kb() {
  static const SavedKb kb = [] {
    SavedKb k;
    k.dir = fs::temp_directory_path() / ("qaplan-ask-bench-" + std::to_string(::getpid()));
    const fs::path corpus = root() / "eval_sets" / "kb" / "docs.jsonl";
    const auto bm25 = must(qaplan::build_bm25_from_jsonl(corpus));
    const std::string store = must(qaplan::make_doc_store(corpus, bm25));
    if (auto st = qaplan::save_collection_index(k.dir, bm25, nullptr, {corpus}, &store); !st.ok()) {
      std::fprintf(stderr, "executor_bench: %s\n", st.error().to_string().c_str());
      std::exit(1);
    }
    k.index = must(qaplan::CollectionIndex::open(k.dir, false));
    k.store = must(qaplan::DocStore::open(*k.index));
    return k;
  }();
  return kb;
}

void BM_AskIndex(benchmark::State& state) {
  const Fixture& f = fixture();
  const SavedKb& kb = saved_kb();
  std::size_t i = 0;
  for (auto _ : state) {
    const auto& q = f.set.questions[i];
    auto r = qaplan::ask_index(*f.planner, {q.question, q.history, q.scenario.value_or(""), q.source_filter},
                               {}, *kb.index, *kb.store);
    benchmark::DoNotOptimize(r);
    if (++i == f.set.questions.size()) i = 0;
  }
  state.counters["questions"] = static_cast<double>(f.set.questions.size());
  state.counters["documents"] = static_cast<double>(kb.index->size());
}
BENCHMARK(BM_AskIndex);

int per_plan(int reps) {
  const Fixture& f = fixture();
  using Clock = std::chrono::steady_clock;
  const std::size_t n = f.preps.size();
  std::vector<std::vector<double>> us(n), stage(4 * n);
  for (int pass = 0; pass < reps; ++pass)
    for (std::size_t i = 0; i < n; ++i) {
      const auto t0 = Clock::now();
      auto e = qaplan::execute_plan(f.preps[i], *f.kb, f.inputs[i]);
      const double t = std::chrono::duration<double, std::micro>(Clock::now() - t0).count();
      if (!e.ok()) return 1;
      us[i].push_back(t);
      stage[4 * i + 0].push_back(static_cast<double>(e->timings.query_ns) / 1e3);
      stage[4 * i + 1].push_back(static_cast<double>(e->timings.faq_ns) / 1e3);
      stage[4 * i + 2].push_back(static_cast<double>(e->timings.doc_ns) / 1e3);
      stage[4 * i + 3].push_back(static_cast<double>(e->timings.context_ns) / 1e3);
    }
  std::vector<double> med(n);
  std::array<std::vector<double>, 4> stage_med;
  for (std::size_t i = 0; i < n; ++i) {
    med[i] = *qaplan::internal::nearest_rank_percentile(us[i], 50);
    for (int s = 0; s < 4; ++s)
      stage_med[s].push_back(*qaplan::internal::nearest_rank_percentile(stage[4 * i + s], 50));
  }
  std::printf("execute_plan over %zu retrieval questions of %s, %d passes, median per question:\n",
              n, f.set.version.c_str(), reps);
  std::printf("  p50 %.1f us   p95 %.1f us   max %.1f us\n",
              *qaplan::internal::nearest_rank_percentile(med, 50),
              *qaplan::internal::nearest_rank_percentile(med, 95),
              *std::max_element(med.begin(), med.end()));
  const char* names[4] = {"query", "faq", "doc", "context"};
  for (int s = 0; s < 4; ++s)
    std::printf("  stage %-8s p50 %.1f us  p95 %.1f us\n", names[s],
                *qaplan::internal::nearest_rank_percentile(stage_med[s], 50),
                *qaplan::internal::nearest_rank_percentile(stage_med[s], 95));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--per-plan") == 0) {
      int reps = 200;
      for (int k = 1; k < argc; ++k)
        if (std::strncmp(argv[k], "--reps=", 7) == 0) reps = std::atoi(argv[k] + 7);
      return per_plan(std::max(1, reps));
    }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
