#include "qaplan/planner.hpp"

#include <algorithm>
#include <chrono>

namespace qaplan {
namespace {

using Clock = std::chrono::steady_clock;
std::int64_t ns_since(Clock::time_point t0) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - t0).count();
}

}  // namespace

Result<Planner> Planner::create(Config config) {
  auto lex = Lexicon::create(std::move(config));
  if (!lex.ok()) return lex.error();
  return Planner(std::move(lex).value());
}

Result<Preparation> Planner::prepare(const PrepareRequest& request) const {
  const Config& c = lexicon_.config();
  const auto t0 = Clock::now();
  Preparation out;
  out.query = request.question;

  // Request validation: everything a host can get wrong is invalid input, named precisely.
  const std::string& scenario_name = request.scenario.empty() ? c.default_scenario : request.scenario;
  const auto sc = c.scenarios.find(scenario_name);
  if (sc == c.scenarios.end())
    return make_error(ErrorCode::kInvalidInput, "unknown scenario '" + scenario_name + "'", "scenario");
  if (request.source) {
    const bool known = std::any_of(c.sources.begin(), c.sources.end(),
                                   [&](const SourceConfig& s) { return s.name == *request.source; });
    if (!known) {
      std::string names;
      for (const auto& s : c.sources) names += (names.empty() ? "" : ", ") + s.name;
      return make_error(ErrorCode::kInvalidInput,
                        "unknown source '" + *request.source + "' (known: " + names + ")", "source");
    }
  }
  if (request.history.size() > static_cast<std::size_t>(c.input.max_history_turns))
    return make_error(ErrorCode::kInvalidInput,
                      std::to_string(request.history.size()) + " turns, limit " +
                          std::to_string(c.input.max_history_turns) + " ([input] max_history_turns)",
                      "history");
  for (std::size_t i = 0; i < request.history.size(); ++i) {
    // History is validated like the question (it is fed to the rewrite stage later) but only
    // its presence matters to the plan.
    auto h = normalize_question(request.history[i], c.input, "history[" + std::to_string(i) + "]");
    if (!h.ok()) return h.error();
  }
  auto norm = normalize_question(request.question, c.input, "question");
  if (!norm.ok()) return norm.error();
  const QueryAnalysis q = lexicon_.analyze(std::move(norm).value());
  out.normalized = q.query;
  auto t = Clock::now();
  out.timings.text_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(t - t0).count();

  out.route = decide_route(q, sc->second, request.source, lexicon_);
  out.timings.route_ns = ns_since(t);
  if (out.route.route == Route::kDirectAnswer) {
    out.timings.total_ns = ns_since(t0);
    return out;
  }

  t = Clock::now();
  IntentResult intent = decide_intent(classify_intent(q, !request.history.empty(), lexicon_));
  out.effective_source = effective_source(request.source, intent.suggested_source);
  out.timings.intent_ns = ns_since(t);

  t = Clock::now();
  const PlanSignals signals{q.query.query_units, infer_question_category(q, lexicon_),
                            is_table_query(q, lexicon_)};
  out.timings.category_ns = ns_since(t);

  t = Clock::now();
  auto plan = build_retrieval_plan(out.route, intent, signals, c.retrieval_strategy);
  if (!plan.ok()) return plan.error();
  out.plan = std::move(plan->plan);
  out.plan_trace = std::move(plan->trace);
  out.intent = std::move(intent);
  out.timings.plan_ns = ns_since(t);
  out.timings.total_ns = ns_since(t0);
  return out;
}

}  // namespace qaplan
