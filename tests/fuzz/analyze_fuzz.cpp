// Fuzz target: question + history + analysis context → Planner::prepare, then Planner::analyze
// (rewrite, variants, filters, routing, execution path, fallback ladder, prompt profile). Input:
// byte 0 picks the planner (bit 0: with the router model), the `now` (bits 1-2: none, two fixed
// instants, or the LAST line of the input as a fuzzed `now`), and the session department/user
// (bit 3); the rest is split at '\n' into the question and the history turns.
//
// Invariants: analyze is deterministic (twice → identical JSON, which is valid and UTF-8); a direct
// answer has no variants, a retrieval has the original question first; a time filter is a
// non-empty [from, to) of YYYY-MM-DD dates; confidences in [0, 1]; routing (empty for a direct
// answer; bm25 exactly when an ID was found), path and fallback
// actions are from their fixed vocabularies and the ladder is numbered 1…n; the prompt profile
// carries the plan's context limits; an error is kInvalidInput naming `now`.
#include <nlohmann/json.hpp>
#include <set>

#include "fuzz_support.hpp"
#include "qaplan/planning/analysis.hpp"
#include "qaplan/planning/config.hpp"
#include "qaplan/planning/json.hpp"
#include "qaplan/planning/planner.hpp"

using namespace qaplan;

namespace {

std::vector<Planner>* g_planners = nullptr;

bool is_date(const std::string& s) {
  if (s.size() != 10 || s[4] != '-' || s[7] != '-') return false;
  for (std::size_t i : {0, 1, 2, 3, 5, 6, 8, 9})
    if (s[i] < '0' || s[i] > '9') return false;
  return true;
}

void check(const Preparation& p, const QueryAnalysis& a, const std::string& json) {
  if (!p.plan) {
    QAPLAN_FUZZ_CHECK(a.variants.empty(), json);
  } else {
    QAPLAN_FUZZ_CHECK(!a.variants.empty() && a.variants.front().kind == "original", json);
    const PlanKnobs& k = p.plan->knobs();
    QAPLAN_FUZZ_CHECK(a.prompt.max_context_chars == k.max_context_chars &&
                          a.prompt.max_context_doc_chars == k.max_context_doc_chars &&
                          a.prompt.final_context_top_n == k.final_context_top_n,
                      json);
  }
  for (const auto& v : a.variants) QAPLAN_FUZZ_CHECK(!v.text.empty() && fuzz::valid_utf8(v.text), json);
  if (a.filters.time) {
    const TimeRange& t = *a.filters.time;
    QAPLAN_FUZZ_CHECK(is_date(t.from) && is_date(t.to) && t.from < t.to, json);
  }
  QAPLAN_FUZZ_CHECK(a.execution.confidence >= 0.0 && a.execution.confidence <= 1.0, json);
  static const std::set<std::string> kPaths = {"semantic", "graph", "research", "out_of_scope",
                                               "direct"};
  QAPLAN_FUZZ_CHECK(kPaths.count(a.execution.path) == 1, a.execution.path);
  // Routing is decided for a retrieval only; a direct answer leaves it empty.
  if (p.plan) {
    QAPLAN_FUZZ_CHECK(a.routing.mode == "bm25" || a.routing.mode == "hybrid", a.routing.mode);
    QAPLAN_FUZZ_CHECK(a.routing.model_tier == "small" || a.routing.model_tier == "large",
                      a.routing.model_tier);
    QAPLAN_FUZZ_CHECK((a.routing.mode == "bm25") == !a.routing.ids.empty(), json);
  } else {
    QAPLAN_FUZZ_CHECK(a.routing.mode.empty() && a.routing.model_tier.empty(), json);
  }
  static const std::set<std::string> kActions = {"relax_filters", "switch_tool", "rewrite_query",
                                                 "search_files", "escalate"};
  for (std::size_t i = 0; i < a.fallback.size(); ++i) {
    QAPLAN_FUZZ_CHECK(a.fallback[i].step == static_cast<int>(i) + 1, json);
    QAPLAN_FUZZ_CHECK(kActions.count(a.fallback[i].action) == 1, a.fallback[i].action);
  }
  QAPLAN_FUZZ_CHECK(a.cost.model_calls >= 0 && a.cost.retrieval_calls >= 0 &&
                        a.cost.variant_paths >= 0,
                    json);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  g_planners = new std::vector<Planner>();
  for (const bool with_model : {false, true}) {  // the shipped rules.toml has its [model] on
    auto cfg = load_config(fuzz::config_dir() / "rules.toml");
    if (!cfg.ok()) std::abort();
    cfg->model.enabled = cfg->model.enabled && with_model;
    auto planner = Planner::create(std::move(cfg).value());
    if (!planner.ok()) std::abort();
    g_planners->push_back(std::move(planner).value());
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const std::uint8_t opts = data[0];
  const Planner& planner = (*g_planners)[opts & 1];
  auto parts = fuzz::split(fuzz::as_view(data + 1, size - 1), '\n');
  AnalysisContext ctx;
  switch ((opts >> 1) & 3) {
    case 0: break;
    case 1: ctx.now = "2026-11-30T10:00:00+08:00"; ctx.timezone = "Asia/Shanghai"; break;
    case 2: ctx.now = "2024-02-29T23:59:59-05:00"; break;
    case 3:
      if (parts.size() > 1) {
        ctx.now = std::string(parts.back());
        parts.pop_back();
      }
      break;
  }
  if (opts & 8) {
    ctx.session_department = "财务部";
    ctx.session_user = "u123";
  }
  PrepareRequest req;
  req.question = std::string(parts[0]);
  for (std::size_t i = 1; i < parts.size(); ++i) req.history.emplace_back(parts[i]);
  auto prep = planner.prepare(req);
  if (!prep.ok()) return 0;  // plan_fuzz covers prepare's errors

  auto a = planner.analyze(*prep, ctx);
  auto b = planner.analyze(*prep, ctx);
  QAPLAN_FUZZ_CHECK(a.ok() == b.ok(), ctx.now);
  if (!a.ok()) {
    fuzz::check_error(a.error());
    QAPLAN_FUZZ_CHECK(a.error().code == ErrorCode::kInvalidInput, a.error().to_string());
    QAPLAN_FUZZ_CHECK(a.error().field.find("now") != std::string::npos ||
                          a.error().message.find("now") != std::string::npos,
                      a.error().to_string());
    return 0;
  }
  const std::string ja = to_json(*prep, *a), jb = to_json(*prep, *b);
  QAPLAN_FUZZ_CHECK(ja == jb, ja + "\n  vs\n  " + jb);
  const auto parsed = nlohmann::json::parse(ja, nullptr, /*allow_exceptions=*/false);
  QAPLAN_FUZZ_CHECK(!parsed.is_discarded(), ja);
  check(*prep, *a, ja);
  return 0;
}
