#include "qaplan/route.hpp"

#include <algorithm>

#include "internal/lexicon_ids.hpp"
#include "qaplan/source.hpp"

namespace qaplan {
namespace {

std::string first_hit_text(const QueryAnalysis& q, std::uint32_t list) {
  for (const CueHit& h : q.hits)
    if (h.list == list) return q.query.text.substr(h.begin, h.end - h.begin);
  return {};
}

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

std::string_view to_string(Route r) noexcept {
  return r == Route::kDirectAnswer ? "direct_answer" : "retrieval";
}

std::string_view to_string(RouteReason r) noexcept {
  switch (r) {
    case RouteReason::kGreeting: return "greeting";
    case RouteReason::kHandoff: return "handoff";
    case RouteReason::kOutOfScope: return "out_of_scope";
    case RouteReason::kSourceBoundary: return "source_boundary";
    case RouteReason::kNeedsRetrieval: return "needs_retrieval";
  }
  return "needs_retrieval";
}

RouteDecision decide_route(const QueryAnalysis& q, const ScenarioConfig& scenario,
                           const std::optional<std::string>& source_filter, const Lexicon& lex) {
  const auto& ids = lex.ids();
  const Config& c = lex.config();

  if (q.has(ids.handoff)) return direct(RouteReason::kHandoff, first_hit_text(q, ids.handoff), c);
  if (internal::consists_only_of(q, {ids.handoff_standalone, ids.politeness, ids.greeting},
                                 ids.handoff_standalone))
    return direct(RouteReason::kHandoff, first_hit_text(q, ids.handoff_standalone), c);

  if (internal::consists_only_of(q, {ids.greeting, ids.politeness}, ids.greeting))
    return direct(RouteReason::kGreeting, first_hit_text(q, ids.greeting), c);

  if (q.has(ids.out_of_scope))
    return direct(RouteReason::kOutOfScope, first_hit_text(q, ids.out_of_scope), c);
  if (auto it = ids.scenario_out_of_scope.find(scenario.name);
      it != ids.scenario_out_of_scope.end() && q.has(it->second))
    return direct(RouteReason::kOutOfScope, first_hit_text(q, it->second), c);

  if (source_filter && !allowed(scenario, *source_filter))
    return direct(RouteReason::kSourceBoundary, *source_filter, c);
  // A scenario that allows every configured source cannot be left by a suggestion, so the
  // keyword count (done again by the intent stage) is skipped for it.
  if (!source_filter && scenario.allowed_sources.size() < c.sources.size()) {
    if (auto suggested = suggest_source(q, lex); suggested && !allowed(scenario, *suggested))
      return direct(RouteReason::kSourceBoundary, *suggested, c);
  }
  return RouteDecision{};
}

}  // namespace qaplan
