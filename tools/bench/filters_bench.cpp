// extract_filters() speed (target: p50 well under 5 µs per question). Speed lives here,
// not in tests.
//
//   build/bench/filters_bench                              # Google Benchmark suite
//   build/bench/filters_bench --benchmark_filter=Typical --benchmark_repetitions=20
//   build/bench/filters_bench --per-question [--reps=200]  # p50/p95/p99 over the question set
//
// Config: the [filters] section of the shipped config/rules.toml (read alone, so this bench does
// not depend on the other sections). Questions: tools/bench/data/planner_questions.jsonl,
// normalized once up front as the planner would; `now` is fixed. One thread.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/percentile.hpp"
#include "common/toml_reader.hpp"
#include "planning/analysis/filters.hpp"
#include "planning/text.hpp"
#include "qaplan/planning/config.hpp"

namespace {

using qaplan::internal::extract_filters;

[[noreturn]] void die(const std::string& msg) {
  std::fprintf(stderr, "filters_bench: %s\n", msg.c_str());
  std::exit(2);
}

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) die("cannot read " + path);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct Fixture {
  qaplan::FiltersConfig config;
  qaplan::AnalysisContext context;
  std::vector<std::string> questions;  // normalized
};

std::string normalized(std::string_view raw) {
  auto n = qaplan::internal::normalize_question(raw, qaplan::InputConfig{});
  if (!n.ok()) die("cannot normalize: " + std::string(raw));
  return n->text;
}

const Fixture& fixture() {
  static const Fixture* f = [] {
    auto* fx = new Fixture;
    namespace tr = qaplan::internal::toml_reader;
    const std::string path = QAPLAN_SOURCE_DIR "/config/rules.toml";
    const std::string text = slurp(path);
    auto st = tr::read_document(text, path, [&](const tr::Value& root, const std::string& origin) {
      tr::Reader top{root, "", origin, {}};
      return top.section("filters", true, [&](tr::Reader& r) {
        return qaplan::internal::read_filters_config(r, fx->config);
      });
    });
    if (!st.ok()) die("config: " + st.error().to_string());
    fx->context.now = "2026-11-30T10:00:00+08:00";
    fx->context.timezone = "Asia/Shanghai";
    std::ifstream in(QAPLAN_SOURCE_DIR "/tools/bench/data/planner_questions.jsonl");
    std::string line;
    while (std::getline(in, line)) {
      if (line.empty()) continue;
      const auto j = nlohmann::json::parse(line, nullptr, false);
      if (j.is_discarded() || !j.contains("question")) die("bad question line: " + line);
      fx->questions.push_back(normalized(j["question"].get<std::string>()));
    }
    if (fx->questions.empty()) die("no questions");
    return fx;
  }();
  return *f;
}

void run_one(benchmark::State& state, const std::string& raw) {
  const Fixture& fx = fixture();
  const std::string q = normalized(raw);
  for (auto _ : state) benchmark::DoNotOptimize(extract_filters(q, fx.config, fx.context));
}

// A typical question: one time expression and one vocabulary cue.
void BM_Typical(benchmark::State& state) { run_one(state, "上个月的差旅报销标准是多少"); }
BENCHMARK(BM_Typical);

// Every family at once: time, department, two tags, is_signed.
void BM_Dense(benchmark::State& state) { run_one(state, "法务部去年盖章版的采购合同在哪里查"); }
BENCHMARK(BM_Dense);

// Most questions carry no filter at all.
void BM_NoFilter(benchmark::State& state) { run_one(state, "年假怎么申请"); }
BENCHMARK(BM_NoFilter);

void BM_Long(benchmark::State& state) {
  run_one(state,
          "对比一下公司现行的差旅管理制度和去年的版本，主要在住宿标准、交通工具等级和报销时限上有哪些"
          "变化，以及2024年3月以来的补充通知");
}
BENCHMARK(BM_Long);

// The whole question set, round robin.
void BM_QuestionSet(benchmark::State& state) {
  const Fixture& fx = fixture();
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(extract_filters(fx.questions[i], fx.config, fx.context));
    i = i + 1 == fx.questions.size() ? 0 : i + 1;
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_QuestionSet);

// Compiling the shipped vocabulary: what a copied config pays on its first question.
void BM_Compile(benchmark::State& state) {
  const Fixture& fx = fixture();
  for (auto _ : state) {
    const qaplan::FiltersConfig copy = fx.config;  // a copy starts uncompiled
    benchmark::DoNotOptimize(extract_filters("", copy, fx.context));
  }
}
BENCHMARK(BM_Compile)->Unit(benchmark::kMicrosecond);

// Each question timed on its own, `reps` passes over the set; per question the median is kept,
// then p50/p95/p99/max over those medians.
int per_question(int reps) {
  using Clock = std::chrono::steady_clock;
  const Fixture& fx = fixture();
  const std::size_t n = fx.questions.size();
  for (const auto& q : fx.questions) benchmark::DoNotOptimize(extract_filters(q, fx.config, fx.context));
  std::vector<std::vector<double>> samples(n);
  for (int r = 0; r < reps; ++r)
    for (std::size_t i = 0; i < n; ++i) {
      const auto t0 = Clock::now();
      auto f = extract_filters(fx.questions[i], fx.config, fx.context);
      const auto t1 = Clock::now();
      benchmark::DoNotOptimize(f);
      samples[i].push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
    }
  std::vector<double> medians;
  std::size_t with_filter = 0;
  for (std::size_t i = 0; i < n; ++i) {
    medians.push_back(*qaplan::internal::nearest_rank_percentile(samples[i], 50));
    if (!extract_filters(fx.questions[i], fx.config, fx.context).reasons.empty()) ++with_filter;
  }
  const double mx = *std::max_element(medians.begin(), medians.end());
  std::printf("questions: %zu (%zu with a filter or reason), reps: %d\n", n, with_filter, reps);
  std::printf("extract_filters µs per question (median of %d): p50 %.3f  p95 %.3f  p99 %.3f  max %.3f\n",
              reps, *qaplan::internal::nearest_rank_percentile(medians, 50),
              *qaplan::internal::nearest_rank_percentile(medians, 95),
              *qaplan::internal::nearest_rank_percentile(medians, 99), mx);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  bool per_q = false;
  int reps = 200;
  std::vector<char*> rest;
  for (int i = 0; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "--per-question") per_q = true;
    else if (a.starts_with("--reps=")) reps = std::max(1, std::atoi(argv[i] + 7));
    else rest.push_back(argv[i]);
  }
  if (per_q) return per_question(reps);
  int n = static_cast<int>(rest.size());
  benchmark::Initialize(&n, rest.data());
  if (benchmark::ReportUnrecognizedArguments(n, rest.data())) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
