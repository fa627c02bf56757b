// Router classifier speed (docs/model.md#speed; target: p50 ≤ 2 µs per question on one core).
// Speed lives here, not in tests.
//
//   build/bench/model_bench                                  # Google Benchmark suite
//   build/bench/model_bench --per-question [--reps=200]      # p50 / p95 / p99 per question
//   QAPLAN_BENCH_QUESTIONS=path.jsonl build/bench/model_bench   # another question set
//   QAPLAN_ROUTER_MODEL=path.qpm build/bench/model_bench        # another model file
//
// Questions: tools/bench/data/planner_questions.jsonl ({"question", "history"?}), normalized
// once with normalize_question (as the planner does before it calls the model); `previous` is the
// normalized last history turn. One predict() scores all five heads.
//
// --per-question (handled before benchmark::Initialize): each predict() is timed on its own with
// steady_clock, `reps` passes over the whole set (so the branch predictor cannot memorise one
// question); per question the median is kept; reports p50/p95/p99/max over those medians and the
// heap allocations per predict() (must be 0).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <new>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/percentile.hpp"
#include "planning/model/features.hpp"
#include "planning/model/router_model.hpp"
#include "planning/text.hpp"

// Counts operator new calls so --per-question can prove predict() allocates nothing. One thread.
static std::uint64_t g_allocations = 0;
void* operator new(std::size_t size) {
  ++g_allocations;
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace {

using Clock = std::chrono::steady_clock;
using qaplan::internal::RouterModel;

[[noreturn]] void die(const std::string& msg) {
  std::fprintf(stderr, "model_bench: %s\n", msg.c_str());
  std::exit(2);
}

std::string env_or(const char* name, const std::string& fallback) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' ? std::string(v) : fallback;
}

struct Item {
  std::string text;
  std::string previous;
};

struct Fixture {
  RouterModel* model = nullptr;
  std::vector<Item> items;
};

const Fixture& fixture() {
  static const Fixture* f = [] {
    auto* fx = new Fixture;
    const std::string model_path =
        env_or("QAPLAN_ROUTER_MODEL", QAPLAN_SOURCE_DIR "/config/models/router-v1.qpm");
    auto m = RouterModel::load(model_path);
    if (!m.ok()) die(m.error().to_string());
    fx->model = new RouterModel(std::move(m).value());
    const std::string path = env_or("QAPLAN_BENCH_QUESTIONS",
                                    QAPLAN_SOURCE_DIR "/tools/bench/data/planner_questions.jsonl");
    std::ifstream in(path);
    if (!in) die("cannot read " + path);
    const qaplan::InputConfig limits;
    std::string line;
    int lineno = 0;
    while (std::getline(in, line)) {
      ++lineno;
      if (line.empty()) continue;
      try {
        const auto j = nlohmann::json::parse(line);
        Item it;
        auto q = qaplan::internal::normalize_question(j.at("question").get<std::string>(), limits);
        if (!q.ok()) die(path + ":" + std::to_string(lineno) + ": " + q.error().message);
        it.text = q->text;
        if (j.contains("history") && !j.at("history").empty()) {
          auto p = qaplan::internal::normalize_question(j.at("history").back().get<std::string>(),
                                                        limits, "history");
          if (!p.ok()) die(path + ":" + std::to_string(lineno) + ": " + p.error().message);
          it.previous = p->text;
        }
        fx->items.push_back(std::move(it));
      } catch (const std::exception& e) {
        die(path + ":" + std::to_string(lineno) + ": " + e.what());
      }
    }
    if (fx->items.empty()) die(path + ": no questions");
    return fx;
  }();
  return *f;
}

void BM_Predict(benchmark::State& state) {
  const Fixture& f = fixture();
  qaplan::internal::ModelOutput out;
  std::size_t i = 0;
  for (auto _ : state) {
    f.model->predict(f.items[i].text, f.items[i].previous, out);
    benchmark::DoNotOptimize(out);
    if (++i == f.items.size()) i = 0;
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Predict);

void BM_ExtractFeatures(benchmark::State& state) {
  const Fixture& f = fixture();
  qaplan::internal::FeatureBuffer buf;
  std::size_t i = 0;
  for (auto _ : state) {
    qaplan::internal::extract_router_features(f.items[i].text, f.items[i].previous, 20, buf);
    benchmark::DoNotOptimize(buf);
    if (++i == f.items.size()) i = 0;
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ExtractFeatures);

int per_question(int reps) {
  const Fixture& f = fixture();
  const std::size_t n = f.items.size();
  std::vector<std::vector<double>> times(n);
  for (auto& t : times) t.reserve(static_cast<std::size_t>(reps));  // no allocation while timed
  qaplan::internal::ModelOutput out;
  const std::uint64_t alloc_before = g_allocations;
  for (int r = 0; r < reps; ++r)
    for (std::size_t i = 0; i < n; ++i) {
      const auto t0 = Clock::now();
      f.model->predict(f.items[i].text, f.items[i].previous, out);
      const auto t1 = Clock::now();
      benchmark::DoNotOptimize(out);
      times[i].push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
    }
  const std::uint64_t allocs = g_allocations - alloc_before;
  std::vector<double> med;
  for (auto& t : times) {
    std::sort(t.begin(), t.end());
    med.push_back(t[t.size() / 2]);
  }
  auto pct = [&](double p) { return *qaplan::internal::nearest_rank_percentile(med, p); };
  std::printf("router model %s (%s)\n", f.model->name().c_str(), f.model->sha256().c_str());
  std::printf("questions %zu, reps %d, one thread\n", n, reps);
  std::printf("predict() per question, µs: p50 %.3f  p95 %.3f  p99 %.3f  max %.3f\n", pct(50),
              pct(95), pct(99), *std::max_element(med.begin(), med.end()));
  std::printf("heap allocations per predict(): %.3f\n",
              static_cast<double>(allocs) / (static_cast<double>(n) * reps));
  return allocs == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i)
    if (std::string(argv[i]) == "--per-question") {
      int reps = 200;
      for (int k = 1; k < argc; ++k)
        if (std::string(argv[k]).rfind("--reps=", 0) == 0) reps = std::atoi(argv[k] + 7);
      return per_question(std::max(reps, 1));
    }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
