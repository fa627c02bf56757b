#pragma once
/// JSON for planning (the CLI's format; hosts may use it for logs, traces and batch input).
/// Strings in and out, so no JSON library type appears in qaplan's public API.
#include <string>
#include <string_view>

#include "qaplan/export.hpp"
#include "qaplan/planning/planner.hpp"

namespace qaplan {

struct JsonOptions {
  bool pretty = false;   ///< indent with 2 spaces
  bool timings = false;  ///< include "timings_us" (non-deterministic, off by default)
};

/// One object with keys query, normalized_query, query_units, route, intent, effective_source,
/// retrieval_plan (every knob of kPlanKnobs in table order, then question_category,
/// intent_rule_score, intent_decision_score, reason), plan_trace (intent/retrieval_plan/
/// plan_trace are null for direct answers).
QAPLAN_API std::string to_json(const Preparation& p, const JsonOptions& opts = {});

/// The same object with "analysis" (rewrite, variants, variant_reasons, rejected_variants,
/// hook_calls, filters, routing, execution, fallback, budget, prompt_profile, cost) after
/// plan_trace — what `qaplan plan` prints without --plan-only.
QAPLAN_API std::string to_json(const Preparation& p, const QueryAnalysis& a,
                               const JsonOptions& opts = {});

/// What `qaplan rewrite` prints: query, normalized_query, history (normalized), route, intent,
/// follow_up, matched_rules and the analysis's "rewrite" object.
QAPLAN_API std::string rewrite_to_json(const Preparation& p, const QueryAnalysis& a,
                                       const JsonOptions& opts = {});

/// The analysis alone.
QAPLAN_API std::string to_json(const QueryAnalysis& a, const JsonOptions& opts = {});

/// {"error": {"code", "message", "context", "file"?, "line"?, "column"?, "field"?}} plus
/// "line" (the batch line) when `batch_line` > 0. `context` is Error::where().
QAPLAN_API std::string error_to_json(const Error& e, long batch_line = 0);

/// One batch request line: a JSON object with "question" (required string) and optional
/// "history" (array of strings), "scenario", "source" (strings); null means absent.
/// Errors: kInvalidInput naming the field (unknown fields, wrong types, malformed JSON,
/// duplicate keys).
QAPLAN_API Result<PrepareRequest> parse_prepare_request(std::string_view json_line);

}  // namespace qaplan
