#include "planning/stages/route.hpp"

#include <algorithm>

namespace qaplan::internal {
namespace {

RouteDecision direct(RouteReason reason, std::string detail, const Config& c) {
  RouteDecision d;
  d.route = Route::kDirectAnswer;
  d.reason = reason;
  d.detail = std::move(detail);
  if (auto it = c.route.replies.find(std::string(to_string(reason))); it != c.route.replies.end())
    d.reply = it->second;
  return d;
}

bool allowed(const ScenarioConfig& sc, const std::string& source) {
  return std::find(sc.allowed_sources.begin(), sc.allowed_sources.end(), source) !=
         sc.allowed_sources.end();
}

}  // namespace

RouteDecision decide_route(const ScannedQuery& q, const ScenarioConfig& scenario,
                           const std::optional<std::string>& source_filter,
                           const std::optional<std::string>& suggested, const Lexicon& lex) {
  const LexiconIds& ids = lex.ids();
  const Config& c = lex.config();

  if (q.has(ids.handoff)) return direct(RouteReason::kHandoff, first_hit_text(q, ids.handoff), c);
  if (consists_only_of(q, {ids.handoff_standalone, ids.politeness, ids.greeting},
                       ids.handoff_standalone))
    return direct(RouteReason::kHandoff, first_hit_text(q, ids.handoff_standalone), c);

  if (consists_only_of(q, {ids.greeting, ids.politeness}, ids.greeting))
    return direct(RouteReason::kGreeting, first_hit_text(q, ids.greeting), c);

  if (q.has(ids.out_of_scope))
    return direct(RouteReason::kOutOfScope, first_hit_text(q, ids.out_of_scope), c);
  if (auto it = ids.scenario_out_of_scope.find(scenario.name);
      it != ids.scenario_out_of_scope.end() && q.has(it->second))
    return direct(RouteReason::kOutOfScope, first_hit_text(q, it->second), c);

  if (source_filter && !allowed(scenario, *source_filter))
    return direct(RouteReason::kSourceBoundary, *source_filter, c);
  if (!source_filter && suggested && !allowed(scenario, *suggested))
    return direct(RouteReason::kSourceBoundary, *suggested, c);
  return RouteDecision{};
}

}  // namespace qaplan::internal
