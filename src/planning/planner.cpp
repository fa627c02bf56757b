#include "qaplan/planning/planner.hpp"

#include <algorithm>
#include <chrono>

#include "planning/lexicon.hpp"
#include "planning/simplify.hpp"
#include "planning/stages/category.hpp"
#include "planning/stages/gateway.hpp"
#include "planning/stages/intent.hpp"
#include "planning/stages/route.hpp"
#include "planning/stages/source.hpp"
#include "planning/text.hpp"

namespace qaplan {
namespace {

using Clock = std::chrono::steady_clock;
std::int64_t ns_since(Clock::time_point t0) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - t0).count();
}

}  // namespace

struct Planner::Impl {
  internal::Lexicon lexicon;
};

Result<Planner> Planner::create(Config config) {
  QAPLAN_TRY(internal::ensure_simplifier());
  auto lex = internal::Lexicon::create(std::move(config));
  if (!lex.ok()) return std::move(lex).error();
  return Planner(std::make_shared<const Impl>(Impl{std::move(lex).value()}));
}

const Config& Planner::config() const noexcept { return impl_->lexicon.config(); }

Result<Preparation> Planner::prepare(const PrepareRequest& request) const {
  using namespace internal;
  const Lexicon& lex = impl_->lexicon;
  const Config& c = lex.config();
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
    if (!h.ok()) return std::move(h).error();
  }
  auto norm = normalize_question(request.question, c.input, "question");
  if (!norm.ok()) return std::move(norm).error();
  const ScannedQuery q = lex.scan(std::move(norm).value());
  out.normalized = q.query;
  auto t = Clock::now();
  out.timings.text_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(t - t0).count();

  // One keyword count serves the source boundary check and the intent candidate.
  std::optional<std::string> suggested = suggest_source(q, lex);
  out.route = decide_route(q, sc->second, request.source, suggested, lex);
  out.timings.route_ns = ns_since(t);
  if (out.route.route == Route::kDirectAnswer) {
    out.timings.total_ns = ns_since(t0);
    return out;
  }

  t = Clock::now();
  IntentResult intent =
      decide_intent(classify_intent(q, !request.history.empty(), std::move(suggested), lex));
  out.effective_source = effective_source(request.source, intent.suggested_source);
  out.timings.intent_ns = ns_since(t);

  t = Clock::now();
  const PlanSignals signals{q.query.query_units, infer_question_category(q, lex),
                            is_table_query(q, lex)};
  out.timings.category_ns = ns_since(t);

  t = Clock::now();
  auto plan = build_retrieval_plan(out.route, intent, signals, c.retrieval_strategy);
  if (!plan.ok()) return std::move(plan).error();
  out.plan = std::move(plan->plan);
  out.plan_trace = std::move(plan->trace);
  out.intent = std::move(intent);
  out.timings.plan_ns = ns_since(t);
  out.timings.total_ns = ns_since(t0);
  return out;
}

}  // namespace qaplan
