#pragma once
/// Stage — route: answer directly (greeting, handoff, out of scope, source boundary) or retrieve.
/// Checks run in this order, first match wins:
///  1. handoff: a [route] handoff phrase anywhere (转人工), or the message is only
///     handoff_standalone words (人工) plus politeness;
///  2. greeting: the message is only greeting/politeness words and punctuation — a greeting
///     wrapped around a real request (你好，我想查一下报销流程) is NOT a greeting;
///  3. out_of_scope: a [route] out_of_scope phrase or one of the scenario's own;
///  4. source_boundary: the explicit source filter, or the source the question's keywords
///     suggest, is not among the scenario's allowed_sources;
///  5. otherwise retrieval.
#include <optional>
#include <string>
#include <string_view>

#include "qaplan/config.hpp"
#include "qaplan/export.hpp"
#include "qaplan/lexicon.hpp"

namespace qaplan {

enum class Route { kDirectAnswer, kRetrieval };
QAPLAN_API std::string_view to_string(Route r) noexcept;  ///< "direct_answer" | "retrieval"

enum class RouteReason { kGreeting, kHandoff, kOutOfScope, kSourceBoundary, kNeedsRetrieval };
/// "greeting" | "handoff" | "out_of_scope" | "source_boundary" | "needs_retrieval"
QAPLAN_API std::string_view to_string(RouteReason r) noexcept;

struct RouteDecision {
  Route route = Route::kRetrieval;
  RouteReason reason = RouteReason::kNeedsRetrieval;
  std::string detail;  ///< what decided it: the matched phrase or the out-of-bounds source
  std::string reply;   ///< [route.replies] text for direct answers, empty for retrieval
};

/// `scenario` must come from the same config as `lex`; `source_filter`, when set, must name a
/// configured source (Planner checks both and reports invalid input otherwise).
QAPLAN_API RouteDecision decide_route(const QueryAnalysis& q, const ScenarioConfig& scenario,
                                      const std::optional<std::string>& source_filter,
                                      const Lexicon& lex);

}  // namespace qaplan
