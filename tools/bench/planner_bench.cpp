// Planner::prepare() speed (docs/planner_perf.md). Speed lives here, not in tests.
//
//   build/bench/planner_bench                          # Google Benchmark suite
//   build/bench/planner_bench --benchmark_filter=Prepare
//   build/bench/planner_bench --per-question [--reps=200] [--top=5] [--hot | --cold[=MB] |
//                                            --idle=US]
//   QAPLAN_BENCH_QUESTIONS=path.jsonl build/bench/planner_bench   # another question set
//
// Questions: tools/bench/data/planner_questions.jsonl, one {"question", "history"?: [...]} per
// line (250 realistic helpdesk questions: short, long, follow-ups, direct answers, full-width).
// Config: the shipped config/rules.toml. Everything runs on one thread.
//
// Subsets (decided once at start-up by running prepare() on each question):
//   direct    — route = direct_answer (greeting, handoff, out_of_scope, source_boundary)
//   follow_up — retrieval with history
//   short     — retrieval, no history, query units <= 12 (the short-query rule's limit)
//   long      — retrieval, no history, >= 30 code points in the raw question
//
// --per-question (handled before benchmark::Initialize): every prepare() is timed on its own with
// steady_clock, `reps` times per question, in `reps` passes over the whole set (so the branch
// predictor cannot memorise one question; --hot repeats each question `reps` times in a row
// instead; --cold evicts the caches before each call, as retrieval does in a host — --cold=MB
// writes MB megabytes instead of 64; --idle=US spins US µs reading only the clock, so what the
// machine itself takes from the caches in that time shows); per question the median is kept.
// Reports p50/p95/p99/max over those medians (all questions and per subset), plans/s (wall clock
// over reps/4 untimed passes over the set, and n / sum of medians), heap allocations per
// prepare(), and the median of prepare()'s own StageTimings.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/percentile.hpp"
#include "planning/domain_lexicon.hpp"
#include "planning/lexicon.hpp"
#include "planning/stages/domain.hpp"
#include "planning/stages/category.hpp"
#include "planning/stages/gateway.hpp"
#include "planning/stages/intent.hpp"
#include "planning/stages/route.hpp"
#include "planning/stages/source.hpp"
#include "planning/text.hpp"
#include "qaplan/planning/config.hpp"
#include "qaplan/planning/planner.hpp"

// Counts operator new calls (allocations made by qaplan, which is linked statically into this
// binary) so --per-question can report heap allocations per prepare(). Not thread-safe; every
// benchmark here runs on one thread.
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

// Kinds of the per-kind report: social, traditional, english and follow_up come from the file's
// "kind" field; the others are inferred from the plan (direct, short, medium, long).
enum class Kind { kDirect, kFollowUp, kShort, kLong, kOther, kSocial, kTraditional, kEnglish };

const char* kind_name(Kind k) {
  switch (k) {
    case Kind::kDirect: return "direct";
    case Kind::kFollowUp: return "follow_up";
    case Kind::kShort: return "short";
    case Kind::kLong: return "long";
    case Kind::kOther: return "medium";
    case Kind::kSocial: return "social";
    case Kind::kTraditional: return "traditional";
    case Kind::kEnglish: return "english";
  }
  return "?";
}

[[noreturn]] void die(const std::string& msg) {
  std::fprintf(stderr, "planner_bench: %s\n", msg.c_str());
  std::exit(2);
}

std::size_t code_points(std::string_view s) {
  std::size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80 ? 1 : 0;
  return n;
}

struct Fixture {
  qaplan::Config config;
  std::vector<qaplan::PrepareRequest> requests;
  std::vector<Kind> kinds;
  std::vector<std::string> labels;  // the file's "kind" field, "" when absent
  std::vector<bool> direct;         // answered directly (no intent/plan stages)
  std::vector<qaplan::NormalizedQuery> normalized;  // per request, for BM_Analyze
  std::vector<qaplan::internal::ScannedQuery> analyses;  // per request, for the stage benchmarks
  std::vector<std::size_t> retrieval;               // requests routed to retrieval
  qaplan::Planner* planner = nullptr;
  const qaplan::internal::Lexicon* lexicon = nullptr;  // the stages alone, as prepare() runs them
  // The config's domain lexicon (null without one), its source map and generic keywords.
  const qaplan::internal::DomainReader* domain = nullptr;

  std::vector<std::size_t> subset(Kind k) const {
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < kinds.size(); ++i)
      if (kinds[i] == k) out.push_back(i);
    return out;
  }
};

std::string questions_path() {
  const char* v = std::getenv("QAPLAN_BENCH_QUESTIONS");
  if (v != nullptr && *v != '\0') return v;
  return QAPLAN_SOURCE_DIR "/tools/bench/data/planner_questions.jsonl";
}

const Fixture& fixture() {
  static const Fixture* f = [] {
    auto* fx = new Fixture;
    auto cfg = qaplan::load_config(QAPLAN_SOURCE_DIR "/config/rules.toml");
    if (!cfg.ok()) die("config: " + cfg.error().message);
    fx->config = std::move(cfg).value();
    auto planner = qaplan::Planner::create(fx->config);
    if (!planner.ok()) die("planner: " + planner.error().message);
    fx->planner = new qaplan::Planner(std::move(planner).value());
    fx->lexicon = new qaplan::internal::Lexicon(qaplan::internal::Lexicon::create(fx->config).value());
    if (!fx->config.domain.lexicon.empty()) {
      const std::string dpath = QAPLAN_SOURCE_DIR "/config/" + fx->config.domain.lexicon;
      auto d = qaplan::internal::DomainLexicon::load(dpath);
      if (!d.ok()) die("domain lexicon: " + d.error().to_string());
      fx->domain = new qaplan::internal::DomainReader(std::move(d).value(), fx->config);
    }

    const std::string path = questions_path();
    std::ifstream in(path);
    if (!in) die("cannot read " + path);
    std::string line;
    int lineno = 0;
    while (std::getline(in, line)) {
      ++lineno;
      if (line.empty()) continue;
      nlohmann::json j;
      try {
        j = nlohmann::json::parse(line);
      } catch (const std::exception& e) {
        die(path + ":" + std::to_string(lineno) + ": " + e.what());
      }
      qaplan::PrepareRequest r;
      r.question = j.at("question").get<std::string>();
      if (j.contains("history")) r.history = j.at("history").get<std::vector<std::string>>();
      fx->requests.push_back(std::move(r));
      fx->labels.push_back(j.value("kind", std::string()));
    }
    if (fx->requests.empty()) die(path + ": no questions");

    const qaplan::internal::Lexicon& lex = *fx->lexicon;
    for (std::size_t i = 0; i < fx->requests.size(); ++i) {
      const auto& r = fx->requests[i];
      auto p = fx->planner->prepare(r);
      if (!p.ok()) die("prepare('" + r.question + "'): " + p.error().message);
      Kind k = Kind::kOther;
      if (p->route.route == qaplan::Route::kDirectAnswer) k = Kind::kDirect;
      else if (!r.history.empty()) k = Kind::kFollowUp;
      else if (p->normalized.query_units <= 12) k = Kind::kShort;
      else if (code_points(r.question) >= 30) k = Kind::kLong;
      if (fx->labels[i] == "social") k = Kind::kSocial;
      if (fx->labels[i] == "traditional") k = Kind::kTraditional;
      if (fx->labels[i] == "english") k = Kind::kEnglish;
      fx->kinds.push_back(k);
      fx->direct.push_back(p->route.route == qaplan::Route::kDirectAnswer);
      if (!fx->direct.back()) fx->retrieval.push_back(fx->normalized.size());
      auto n = qaplan::internal::normalize_question(r.question, fx->config.input);
      fx->normalized.push_back(n.value());
      fx->analyses.push_back(lex.scan(n.value()));
    }
    return fx;
  }();
  return *f;
}

// One iteration = one prepare() of the next question of `idx`, cycling.
void run_prepare(benchmark::State& state, const std::vector<std::size_t>& idx) {
  const Fixture& f = fixture();
  if (idx.empty()) {
    state.SkipWithError("empty subset");
    return;
  }
  std::size_t i = 0;
  for (auto _ : state) {
    auto p = f.planner->prepare(f.requests[idx[i]]);
    benchmark::DoNotOptimize(p);
    if (++i == idx.size()) i = 0;
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["questions"] = static_cast<double>(idx.size());
}

std::vector<std::size_t> all_indices() {
  std::vector<std::size_t> v(fixture().requests.size());
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = i;
  return v;
}

void BM_PrepareAll(benchmark::State& state) { run_prepare(state, all_indices()); }
void BM_PrepareShort(benchmark::State& state) {
  run_prepare(state, fixture().subset(Kind::kShort));
}
void BM_PrepareLong(benchmark::State& state) { run_prepare(state, fixture().subset(Kind::kLong)); }
void BM_PrepareFollowUp(benchmark::State& state) {
  run_prepare(state, fixture().subset(Kind::kFollowUp));
}
void BM_PrepareDirect(benchmark::State& state) {
  run_prepare(state, fixture().subset(Kind::kDirect));
}

// Stage 1a: validation + ICU NFKC_Casefold + whitespace + query units.
void BM_Normalize(benchmark::State& state) {
  const Fixture& f = fixture();
  std::size_t i = 0;
  for (auto _ : state) {
    auto n = qaplan::internal::normalize_question(f.requests[i].question, f.config.input);
    benchmark::DoNotOptimize(n);
    if (++i == f.requests.size()) i = 0;
  }
  state.SetItemsProcessed(state.iterations());
}

// Stage 1b: Aho-Corasick scan (includes copying the NormalizedQuery, scan() takes a value).
void BM_Analyze(benchmark::State& state) {
  const Fixture& f = fixture();
  const qaplan::internal::Lexicon& lex = *f.lexicon;
  std::size_t i = 0;
  for (auto _ : state) {
    auto a = lex.scan(f.normalized[i]);
    benchmark::DoNotOptimize(a);
    if (++i == f.normalized.size()) i = 0;
  }
  state.SetItemsProcessed(state.iterations());
}

// The remaining stages on precomputed analyses (retrieval questions only, like prepare()).
void BM_Route(benchmark::State& state) {
  const Fixture& f = fixture();
  const qaplan::internal::Lexicon& lex = *f.lexicon;
  const auto& sc = f.config.scenarios.at(f.config.default_scenario);
  const std::optional<std::string> no_source;
  std::size_t i = 0;
  for (auto _ : state) {
    auto r = qaplan::internal::decide_route(f.analyses[i], sc, no_source,
                                            qaplan::internal::suggest_source(f.analyses[i], lex),
                                            qaplan::internal::ModelVerdict{}, lex);
    benchmark::DoNotOptimize(r);
    if (++i == f.analyses.size()) i = 0;
  }
  state.SetItemsProcessed(state.iterations());
}

// The domain view (read_domain: fold, lexicon scan, per-source terms) of every question.
void BM_ReadDomain(benchmark::State& state) {
  const Fixture& f = fixture();
  if (f.domain == nullptr) {
    state.SkipWithError("the config names no [domain] lexicon");
    return;
  }
  std::size_t i = 0;
  for (auto _ : state) {
    auto v = f.domain->read(f.analyses[i], *f.lexicon);
    benchmark::DoNotOptimize(v);
    if (++i == f.analyses.size()) i = 0;
  }
  state.SetItemsProcessed(state.iterations());
}

// The source decision from keywords and the domain view (no model: prepare() adds it).
void BM_DecideSource(benchmark::State& state) {
  const Fixture& f = fixture();
  std::vector<qaplan::internal::DomainView> views;
  for (const auto& q : f.analyses)
    views.push_back(f.domain ? f.domain->read(q, *f.lexicon) : qaplan::internal::DomainView{});
  std::size_t i = 0;
  for (auto _ : state) {
    auto d = qaplan::internal::decide_source(f.analyses[i], qaplan::internal::ModelVerdict{},
                                             *f.lexicon, f.domain ? &views[i].sources : nullptr);
    benchmark::DoNotOptimize(d);
    if (++i == f.analyses.size()) i = 0;
  }
  state.SetItemsProcessed(state.iterations());
}

void BM_Intent(benchmark::State& state) {
  const Fixture& f = fixture();
  const qaplan::internal::Lexicon& lex = *f.lexicon;
  std::size_t i = 0;
  for (auto _ : state) {
    const std::size_t k = f.retrieval[i];
    auto r = qaplan::internal::decide_intent(
        qaplan::internal::classify_intent(f.analyses[k], !f.requests[k].history.empty(),
                                          qaplan::internal::suggest_source(f.analyses[k], lex), lex),
        std::nullopt, "", f.config.intent_gateway);
    benchmark::DoNotOptimize(r);
    if (++i == f.retrieval.size()) i = 0;
  }
  state.SetItemsProcessed(state.iterations());
}

void BM_Category(benchmark::State& state) {
  const Fixture& f = fixture();
  const qaplan::internal::Lexicon& lex = *f.lexicon;
  std::size_t i = 0;
  for (auto _ : state) {
    const auto& a = f.analyses[f.retrieval[i]];
    auto c = qaplan::internal::infer_question_category(a, lex);
    auto t = qaplan::internal::is_table_query(a, lex);
    benchmark::DoNotOptimize(c);
    benchmark::DoNotOptimize(t);
    if (++i == f.retrieval.size()) i = 0;
  }
  state.SetItemsProcessed(state.iterations());
}

void BM_Plan(benchmark::State& state) {
  const Fixture& f = fixture();
  const qaplan::internal::Lexicon& lex = *f.lexicon;
  struct Input {
    qaplan::IntentResult intent;
    qaplan::PlanSignals signals;
  };
  std::vector<Input> inputs;
  for (std::size_t k : f.retrieval) {
    const auto& a = f.analyses[k];
    inputs.push_back({qaplan::internal::decide_intent(
                          qaplan::internal::classify_intent(a, !f.requests[k].history.empty(),
                                                            std::nullopt, lex),
                          std::nullopt, "", f.config.intent_gateway),
                      {a.query.query_units, qaplan::internal::infer_question_category(a, lex),
                       qaplan::internal::is_table_query(a, lex)}});
  }
  const qaplan::RouteDecision route;
  std::size_t i = 0;
  for (auto _ : state) {
    auto p = qaplan::build_retrieval_plan(route, inputs[i].intent, inputs[i].signals,
                                          f.config.retrieval_strategy);
    benchmark::DoNotOptimize(p);
    if (++i == inputs.size()) i = 0;
  }
  state.SetItemsProcessed(state.iterations());
}

// Planner::analyze() on precomputed preparations of the retrieval questions:
// rewrite, glossary, filters, routing, execution path, fallback ladder and prompt profile,
// without a model hook. `now` is fixed so time expressions resolve the same every run.
qaplan::AnalysisContext bench_context() {
  qaplan::AnalysisContext c;
  c.now = "2026-03-15T10:00:00+08:00";
  c.timezone = "Asia/Shanghai";
  return c;
}

// analyze() over the retrieval questions; `follow_ups_only` keeps those with history (the
// rewrite's path, issue 23's follow-up bound).
void analysis_loop(benchmark::State& state, bool follow_ups_only) {
  const Fixture& f = fixture();
  std::vector<qaplan::Preparation> preps;
  for (std::size_t k : f.retrieval)
    if (!follow_ups_only || f.kinds[k] == Kind::kFollowUp)
      preps.push_back(f.planner->prepare(f.requests[k]).value());
  const qaplan::AnalysisContext ctx = bench_context();
  std::size_t i = 0;
  for (auto _ : state) {
    auto a = f.planner->analyze(preps[i], ctx);
    benchmark::DoNotOptimize(a);
    if (++i == preps.size()) i = 0;
  }
  state.SetItemsProcessed(state.iterations());
}

void BM_AnalysisStage(benchmark::State& state) { analysis_loop(state, false); }
void BM_AnalysisFollowUp(benchmark::State& state) { analysis_loop(state, true); }

// Config → Planner (validation + Aho-Corasick build). Includes copying the Config.
void BM_PlannerCreate(benchmark::State& state) {
  const Fixture& f = fixture();
  for (auto _ : state) {
    auto p = qaplan::Planner::create(f.config);
    benchmark::DoNotOptimize(p);
  }
}

// What a host pays to start: the config found and read, the router model read and hashed, the
// domain lexicon loaded, the tries built (warm: the files are in the page cache and the heap is
// reused; a fresh process also pays its page faults, docs/benchmarks.md#start-up).
void BM_CreateDefault(benchmark::State& state) {
  for (auto _ : state) {
    auto p = qaplan::Planner::create_default();
    if (!p.ok()) state.SkipWithError(p.error().to_string().c_str());
    benchmark::DoNotOptimize(p);
  }
}

// prepare() reads steady_clock for its StageTimings (10 reads on the retrieval path); this is
// the price of one read on this machine, to put the stage numbers above in proportion.
void BM_SteadyClockNow(benchmark::State& state) {
  for (auto _ : state) {
    auto t = Clock::now();
    benchmark::DoNotOptimize(t);
  }
  state.SetItemsProcessed(state.iterations());
}

BENCHMARK(BM_PrepareAll);
BENCHMARK(BM_PrepareShort);
BENCHMARK(BM_PrepareLong);
BENCHMARK(BM_PrepareFollowUp);
BENCHMARK(BM_PrepareDirect);
BENCHMARK(BM_Normalize);
BENCHMARK(BM_Analyze);
BENCHMARK(BM_Route);
BENCHMARK(BM_ReadDomain);
BENCHMARK(BM_DecideSource);
BENCHMARK(BM_Intent);
BENCHMARK(BM_Category);
BENCHMARK(BM_Plan);
BENCHMARK(BM_AnalysisStage);
BENCHMARK(BM_AnalysisFollowUp);
BENCHMARK(BM_PlannerCreate)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_CreateDefault)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SteadyClockNow);

// ---- --per-question mode -------------------------------------------------------------------

double percentile(const std::vector<double>& v, double p) {
  return qaplan::internal::nearest_rank_percentile(v, p).value_or(0.0);
}

double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// The median of question q's `nreps` samples in `v` (laid out v[q * nreps + r]).
double median_at(const std::vector<double>& v, std::size_t q, std::size_t nreps) {
  return median_of(std::vector<double>(v.begin() + static_cast<std::ptrdiff_t>(q * nreps),
                                       v.begin() + static_cast<std::ptrdiff_t>((q + 1) * nreps)));
}

// prepare() per question: the median wall µs (med) and the medians of its StageTimings fields
// (intent, category and plan over retrieval questions only).
struct PrepareMedians {
  std::vector<double> med;
  std::vector<double> stage_text, stage_route, stage_intent, stage_category, stage_plan,
      stage_total;
};

// --cold: before each timed call, 64 MB (or --cold=MB) are written over (twice the L3 here), as a
// retrieval over a large index does between two plans in a host: the planner's code and tables
// start from memory (path_bench measures the same on the real path; this is quicker to iterate
// on). --idle=US instead spins US µs on the clock alone: no memory of its own, so the cost that
// remains is what the machine (interrupts, the hypervisor, other tenants) evicts meanwhile.
bool g_cold = false;
std::size_t g_cold_bytes = std::size_t{64} << 20;
double g_idle_us = 0;
void evict_caches() {
  if (g_idle_us > 0) {
    const auto end = Clock::now() + std::chrono::duration<double, std::micro>(g_idle_us);
    while (Clock::now() < end) {
    }
  }
  if (!g_cold) return;
  static std::vector<char> junk(g_cold_bytes);
  for (std::size_t i = 0; i < junk.size(); i += 64) junk[i] = static_cast<char>(junk[i] + 1);
  benchmark::DoNotOptimize(junk.data());
}

// Times every prepare() on its own, `reps` times per question (interleaved passes, or in a row
// with `hot`), and keeps the medians per question.
PrepareMedians time_prepare(const Fixture& f, std::size_t nreps, bool hot) {
  const qaplan::Planner& planner = *f.planner;
  const std::size_t n = f.requests.size();
  // samples[q * reps + r]: wall µs of one prepare(); st[k][q * reps + r]: StageTimings field k.
  std::vector<double> samples(n * nreps);
  std::vector<double> st[6];
  for (auto& v : st) v.resize(n * nreps);
  auto time_one = [&](std::size_t q, std::size_t r) {
    evict_caches();
    const auto t0 = Clock::now();
    auto p = planner.prepare(f.requests[q]);
    const auto t1 = Clock::now();
    benchmark::DoNotOptimize(p);
    samples[q * nreps + r] = std::chrono::duration<double, std::micro>(t1 - t0).count();
    const auto& t = p->timings;
    const std::int64_t fields[6] = {t.text_ns, t.route_ns, t.intent_ns, t.category_ns, t.plan_ns,
                                    t.total_ns};
    for (int k = 0; k < 6; ++k) st[k][q * nreps + r] = static_cast<double>(fields[k]);
  };
  // Warm-up: one pass over the whole set.
  for (const auto& req : f.requests) {
    auto p = planner.prepare(req);
    benchmark::DoNotOptimize(p);
  }
  if (hot) {
    // Each question `reps` times in a row: caches and branch predictors learn that question.
    for (std::size_t q = 0; q < n; ++q)
      for (std::size_t r = 0; r < nreps; ++r) time_one(q, r);
  } else {
    // Default: `reps` passes over the whole set, so consecutive calls see different questions
    // (what a server sees); each call is still timed on its own.
    for (std::size_t r = 0; r < nreps; ++r)
      for (std::size_t q = 0; q < n; ++q) time_one(q, r);
  }
  PrepareMedians m;
  m.med.resize(n);
  for (std::size_t q = 0; q < n; ++q) {
    m.med[q] = median_at(samples, q, nreps);
    m.stage_text.push_back(median_at(st[0], q, nreps));
    m.stage_route.push_back(median_at(st[1], q, nreps));
    m.stage_total.push_back(median_at(st[5], q, nreps));
    if (!f.direct[q]) {  // direct answers stop after route
      m.stage_intent.push_back(median_at(st[2], q, nreps));
      m.stage_category.push_back(median_at(st[3], q, nreps));
      m.stage_plan.push_back(median_at(st[4], q, nreps));
    }
  }
  return m;
}

// analyze() per retrieval question: its median µs, the follow-ups' among them, and analyze() plus
// the question's prepare() median.
struct AnalyzeMedians {
  std::vector<double> an_med, an_followup, with_prepare;
};

// Times analyze() on each retrieval question's Preparation in `nreps` interleaved passes; `med`
// holds prepare()'s medians per question.
AnalyzeMedians time_analyze(const Fixture& f, std::size_t nreps, const std::vector<double>& med) {
  const qaplan::Planner& planner = *f.planner;
  const qaplan::AnalysisContext ctx = bench_context();
  std::vector<qaplan::Preparation> preps;
  for (std::size_t k : f.retrieval) preps.push_back(planner.prepare(f.requests[k]).value());
  std::vector<double> an(preps.size() * nreps);
  for (std::size_t r = 0; r < nreps; ++r)
    for (std::size_t q = 0; q < preps.size(); ++q) {
      evict_caches();
      const auto t0 = Clock::now();
      auto a = planner.analyze(preps[q], ctx);
      const auto t1 = Clock::now();
      benchmark::DoNotOptimize(a);
      an[q * nreps + r] = std::chrono::duration<double, std::micro>(t1 - t0).count();
    }
  AnalyzeMedians m;
  for (std::size_t q = 0; q < preps.size(); ++q) {
    m.an_med.push_back(median_at(an, q, nreps));
    if (!f.requests[f.retrieval[q]].history.empty()) m.an_followup.push_back(m.an_med.back());
    m.with_prepare.push_back(m.an_med.back() + med[f.retrieval[q]]);
  }
  return m;
}

// Plans per second over `passes` passes over the set, timed as a whole (not call by call).
double plans_per_second(const Fixture& f, int passes) {
  const qaplan::Planner& planner = *f.planner;
  const auto t0 = Clock::now();
  for (int p = 0; p < passes; ++p)
    for (const auto& req : f.requests) {
      auto r = planner.prepare(req);
      benchmark::DoNotOptimize(r);
    }
  const double secs = std::chrono::duration<double>(Clock::now() - t0).count();
  return static_cast<double>(passes) * static_cast<double>(f.requests.size()) / secs;
}

// Adds the allocations of one prepare() per question to allocs_all, and those of the retrieval
// questions to allocs_retrieval.
void count_allocations(const Fixture& f, std::uint64_t& allocs_all,
                       std::uint64_t& allocs_retrieval) {
  const qaplan::Planner& planner = *f.planner;
  for (std::size_t q = 0; q < f.requests.size(); ++q) {
    const std::uint64_t before = g_allocations;
    {
      auto r = planner.prepare(f.requests[q]);
      benchmark::DoNotOptimize(r);
    }
    const std::uint64_t used = g_allocations - before;
    allocs_all += used;
    if (!f.direct[q]) allocs_retrieval += used;
  }
}

// One row of the latency table: p50/p95/p99/max of `v` (nothing when empty).
void print_row(const char* name, const std::vector<double>& v) {
  if (v.empty()) return;
  std::printf("  %-10s %5zu %9.3f %9.3f %9.3f %9.3f\n", name, v.size(), percentile(v, 50),
              percentile(v, 95), percentile(v, 99), percentile(v, 100));
}

// The latency tables: prepare() over every question and per kind, then analyze().
void print_latency(const Fixture& f, int reps, bool hot, const std::vector<double>& med,
                   const AnalyzeMedians& an) {
  const std::size_t n = f.requests.size();
  std::printf("per-question latency: %zu questions x %d reps, %s order (single thread, "
              "steady_clock)\n",
              n, reps,
              hot      ? "hot (same question repeated)"
              : g_cold ? "cold (caches evicted before each call)"
              : g_idle_us > 0 ? "idle (a spin on the clock before each call)"
                       : "interleaved (passes over the set)");
  std::printf("  %-10s %5s %9s %9s %9s %9s  (us, over per-question medians)\n", "subset", "n",
              "p50", "p95", "p99", "max");
  print_row("all", med);
  for (Kind k : {Kind::kShort, Kind::kOther, Kind::kLong, Kind::kFollowUp, Kind::kDirect,
                 Kind::kSocial, Kind::kTraditional, Kind::kEnglish}) {
    std::vector<double> v;
    for (std::size_t q = 0; q < n; ++q)
      if (f.kinds[q] == k) v.push_back(med[q]);
    print_row(kind_name(k), v);
  }
  std::printf("analyze() without a model hook, retrieval questions (us, over per-question medians):\n");
  print_row("analysis", an.an_med);
  print_row("an:follow", an.an_followup);
  print_row("prep+anal", an.with_prepare);
}

// The `top` slowest questions by their median.
void print_slowest(const Fixture& f, int top, const std::vector<double>& med) {
  const std::size_t n = f.requests.size();
  std::vector<std::size_t> order(n);
  for (std::size_t i = 0; i < n; ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return med[a] > med[b]; });
  std::printf("slowest %d:\n", top);
  for (int i = 0; i < top && static_cast<std::size_t>(i) < n; ++i) {
    const std::size_t q = order[static_cast<std::size_t>(i)];
    std::printf("  %8.3f us  [%s, %zu history] %s\n", med[q], kind_name(f.kinds[q]),
                f.requests[q].history.size(), f.requests[q].question.c_str());
  }
}

int per_question(int reps, int top, bool hot) {
  const Fixture& f = fixture();
  const std::size_t n = f.requests.size();
  const std::size_t nreps = static_cast<std::size_t>(reps);
  const PrepareMedians pm = time_prepare(f, nreps, hot);
  const std::vector<double>& med = pm.med;

  // analyze() per retrieval question, timed the same way (interleaved passes, median per question).
  const AnalyzeMedians an = time_analyze(f, nreps, med);

  // Throughput: whole passes over the set, one clock read per pass.
  const int passes = std::max(1, reps / 4);
  const double plans_per_s = plans_per_second(f, passes);

  // Heap allocations per prepare(), counted over one pass (the returned Preparation included).
  std::uint64_t allocs_all = 0, allocs_retrieval = 0;
  count_allocations(f, allocs_all, allocs_retrieval);

  print_latency(f, reps, hot, med, an);
  double sum_med = 0;
  for (double m : med) sum_med += m;
  std::printf("throughput: %.0f plans/s wall (%d passes over the set, %.3f us/plan mean; "
              "preemption on a busy machine counts)\n",
              plans_per_s, passes, 1e6 / plans_per_s);
  std::printf("            %.0f plans/s from the medians (n / sum of per-question medians)\n",
              static_cast<double>(n) * 1e6 / sum_med);
  std::printf("heap allocations per prepare(): %.1f mean (%.1f for retrieval questions)\n",
              static_cast<double>(allocs_all) / static_cast<double>(n),
              f.retrieval.empty() ? 0.0
                                  : static_cast<double>(allocs_retrieval) /
                                        static_cast<double>(f.retrieval.size()));
  std::printf("prepare() StageTimings, median over per-question medians (ns; each includes its\n"
              "  own steady_clock reads; intent/category/plan over retrieval questions only):\n");
  std::printf("  text(normalize+analyze) %.0f  route %.0f  intent %.0f  category %.0f  plan %.0f"
              "  total %.0f\n",
              median_of(pm.stage_text), median_of(pm.stage_route),
              pm.stage_intent.empty() ? 0.0 : median_of(pm.stage_intent),
              pm.stage_category.empty() ? 0.0 : median_of(pm.stage_category),
              pm.stage_plan.empty() ? 0.0 : median_of(pm.stage_plan), median_of(pm.stage_total));
  if (top > 0) print_slowest(f, top, med);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  bool per_q = false;
  bool hot = false;
  int reps = 200;
  int top = 5;
  std::vector<char*> rest;
  for (int i = 0; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "--per-question") per_q = true;
    else if (a == "--hot") hot = true;
    else if (a == "--cold") g_cold = true;
    else if (a.starts_with("--cold=")) {
      g_cold = true;
      g_cold_bytes = static_cast<std::size_t>(std::max(1.0, std::atof(argv[i] + 7)) * (1 << 20));
    } else if (a.starts_with("--idle=")) g_idle_us = std::max(0.0, std::atof(argv[i] + 7));
    else if (a.starts_with("--reps=")) reps = std::max(1, std::atoi(argv[i] + 7));
    else if (a.starts_with("--top=")) top = std::max(0, std::atoi(argv[i] + 6));
    else rest.push_back(argv[i]);
  }
  if (const char* e = std::getenv("QAPLAN_BENCH_PER_QUESTION"); e != nullptr && *e == '1')
    per_q = true;
  if ((g_cold || g_idle_us > 0) && (hot || !per_q)) {
    std::fprintf(stderr,
                 "planner_bench: --cold / --idle go with --per-question and not with --hot\n");
    return 2;
  }
  if (per_q) return per_question(reps, top, hot);

  int n = static_cast<int>(rest.size());
  benchmark::Initialize(&n, rest.data());
  if (benchmark::ReportUnrecognizedArguments(n, rest.data())) return 1;
  std::printf("questions: %zu from %s\n", fixture().requests.size(), questions_path().c_str());
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
