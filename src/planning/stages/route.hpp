#pragma once
// Stage — route: answer directly (greeting, handoff, out of scope, source boundary) or retrieve.
// Checks run in this order, first match wins:
//  1. handoff: a [route] handoff phrase anywhere (转人工), or the message is only
//     handoff_standalone words (人工) plus politeness;
//  2. greeting: the message is only greeting/politeness words and punctuation — a greeting
//     wrapped around a real request (你好，我想查一下报销流程) is NOT a greeting;
//  3. out_of_scope: a [route] out_of_scope phrase or one of the scenario's own;
//  4. source_boundary: the explicit source filter, or the source the question's keywords
//     suggest, is not among the scenario's allowed_sources;
//  5. otherwise retrieval.
#include <optional>
#include <string>

#include "planning/lexicon.hpp"

namespace qaplan::internal {

/// `scenario` must come from the lexicon's config; `source_filter`, when set, must name a
/// configured source (Planner checks both and reports invalid input otherwise). `suggested` is
/// the source the question's keywords suggest (computed once by the caller).
RouteDecision decide_route(const ScannedQuery& q, const ScenarioConfig& scenario,
                           const std::optional<std::string>& source_filter,
                           const std::optional<std::string>& suggested, const Lexicon& lex);

}  // namespace qaplan::internal
