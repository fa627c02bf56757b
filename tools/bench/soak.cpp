// Soak benchmark: 10 M Planner::prepare() calls and 1 M searches in one process, with
// the resident set size (VmRSS) read at the start, every checkpoint and the end. Memory must stay
// flat: after a warm-up (allocator pools, ICU and thread-local scratch reach their steady size),
// RSS at the end may exceed RSS at the start by less than --max-growth-pct (1 %). Every answer is
// also compared with the first pass's, so a slow drift in results would show too.
//
//   build/bench/soak [--prepares N] [--searches N] [--config PATH] [--max-growth-pct X]
//
// Prints one JSON object per checkpoint and a summary on stdout; exit 1 when RSS grew by
// --max-growth-pct or more, or an answer changed. See docs/reliability.md#soak.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "qaplan/eval/dataset.hpp"
#include "qaplan/eval/scope.hpp"
#include "qaplan/planning/planner.hpp"
#include "qaplan/retrieval/hybrid.hpp"

namespace {

using namespace qaplan;
using Clock = std::chrono::steady_clock;

// VmRSS and VmHWM of this process in KiB.
std::pair<long, long> rss_kib() {
  std::ifstream in("/proc/self/status");
  std::string key;
  long rss = -1, hwm = -1;
  while (in >> key) {
    if (key == "VmRSS:") in >> rss;
    else if (key == "VmHWM:") in >> hwm;
    else in.ignore(1 << 12, '\n');
  }
  return {rss, hwm};
}

std::vector<PrepareRequest> load_requests(const std::string& root) {
  std::vector<PrepareRequest> out;
  for (const char* file : {"/tools/bench/data/planner_questions.jsonl", "/tests/data/followups.jsonl",
                           "/tests/data/trap_questions.jsonl", "/tests/data/category_source.jsonl"}) {
    std::ifstream in(root + file);
    std::string line;
    while (std::getline(in, line)) {
      const auto j = nlohmann::json::parse(line, nullptr, false);
      if (!j.is_object() || !j.contains("question")) continue;
      PrepareRequest r;
      r.question = j["question"].get<std::string>();
      if (j.contains("history")) r.history = j["history"].get<std::vector<std::string>>();
      out.push_back(std::move(r));
    }
  }
  return out;
}

struct Answer {
  bool ok = false;
  Route route = Route::kRetrieval;
  std::optional<RetrievalPlan> plan;
  bool operator==(const Answer&) const = default;
};

Answer answer(const Result<Preparation>& p) {
  if (!p.ok()) return {};
  return {true, p->route.route, p->plan};
}

double arg(int argc, char** argv, const char* name, double def) {
  for (int i = 1; i + 1 < argc; ++i)
    if (std::string(argv[i]) == name) return std::atof(argv[i + 1]);
  return def;
}
std::string sarg(int argc, char** argv, const char* name, std::string def) {
  for (int i = 1; i + 1 < argc; ++i)
    if (std::string(argv[i]) == name) return argv[i + 1];
  return def;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string root = QAPLAN_SOURCE_DIR;
  const auto prepares = static_cast<long>(arg(argc, argv, "--prepares", 10e6));
  const auto searches = static_cast<long>(arg(argc, argv, "--searches", 1e6));
  const double max_growth = arg(argc, argv, "--max-growth-pct", 1.0);
  const std::string config = sarg(argc, argv, "--config", root + "/config/rules.toml");
  const auto [rss0, hwm0] = rss_kib();

  auto cfg = load_config(config);
  if (!cfg.ok()) return std::fprintf(stderr, "%s\n", cfg.error().to_string().c_str()), 2;
  auto planner = Planner::create(std::move(cfg).value());
  if (!planner.ok()) return std::fprintf(stderr, "%s\n", planner.error().to_string().c_str()), 2;
  const auto requests = load_requests(root);
  std::vector<Answer> want;
  for (const auto& r : requests) want.push_back(answer(planner->prepare(r)));

  // The searcher: BM25 + HNSW + RRF over the policy scope of the frozen dataset (18 chunks, 36
  // queries). Not the 267-document eval_sets/kb: there one fused search costs milliseconds
  // (VectorIndex::approximate rescoring dense TF-IDF rows), so 1 M searches would take an hour.
  auto dataset = load_dataset_file(root + "/eval_sets/policy-retrieval-v1.json");
  if (!dataset.ok()) return std::fprintf(stderr, "%s\n", dataset.error().to_string().c_str()), 2;
  std::vector<TextRecord> docs;
  for (const auto& c : select_policy_scope(*dataset).chunks) docs.push_back({c.id, c.text});
  auto searcher = HybridSearcher::from_records(docs, HybridOptions{});
  if (!searcher.ok()) return std::fprintf(stderr, "%s\n", searcher.error().to_string().c_str()), 2;
  std::vector<HybridQuery> queries;
  std::vector<RankedList> want_hits;
  for (const auto& q : dataset->queries) {
    queries.push_back(*searcher->prepare(q.text));
    want_hits.push_back(*searcher->fused(queries.back(), 10));
  }

  long changed = 0, done_p = 0, done_s = 0;
  auto step = [&](long n_prepares, long n_searches) {
    for (long i = 0; i < n_prepares; ++i, ++done_p) {
      const std::size_t k = static_cast<std::size_t>(done_p) % requests.size();
      if (answer(planner->prepare(requests[k])) != want[k]) ++changed;
    }
    for (long i = 0; i < n_searches; ++i, ++done_s) {
      const std::size_t k = static_cast<std::size_t>(done_s) % queries.size();
      auto hits = searcher->fused(queries[k], 10);
      if (!hits.ok() || *hits != want_hits[k]) ++changed;
    }
  };

  // Warm-up: 1 % of the work, then the baseline.
  step(prepares / 100, searches / 100);
  const auto [rss_start, hwm_start] = rss_kib();
  const auto t0 = Clock::now();
  constexpr int kCheckpoints = 10;
  const long pp = prepares / kCheckpoints, ss = searches / kCheckpoints;
  for (int c = 1; c <= kCheckpoints; ++c) {
    step(pp, ss);
    const auto [rss, hwm] = rss_kib();
    const double secs = std::chrono::duration<double>(Clock::now() - t0).count();
    std::printf("{\"checkpoint\": %d, \"prepares\": %ld, \"searches\": %ld, \"rss_kib\": %ld, "
                "\"hwm_kib\": %ld, \"seconds\": %.1f}\n",
                c, done_p, done_s, rss, hwm, secs);
    std::fflush(stdout);
  }
  const auto [rss_end, hwm_end] = rss_kib();
  const double secs = std::chrono::duration<double>(Clock::now() - t0).count();
  const double growth = 100.0 * static_cast<double>(rss_end - rss_start) / static_cast<double>(rss_start);
  nlohmann::ordered_json summary = {
      {"config", config}, {"prepares", done_p}, {"searches", done_s}, {"questions", requests.size()},
      {"search_queries", queries.size()}, {"documents", docs.size()},
      {"rss_kib_process_start", rss0}, {"rss_kib_start", rss_start}, {"rss_kib_end", rss_end},
      {"hwm_kib_end", hwm_end}, {"rss_growth_pct", growth}, {"changed_answers", changed},
      {"seconds", secs}};
  std::printf("%s\n", summary.dump().c_str());
  (void)hwm0;
  (void)hwm_start;
  return (growth < max_growth && changed == 0) ? 0 : 1;
}
