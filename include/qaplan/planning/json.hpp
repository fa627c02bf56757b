#pragma once
/// JSON for planning (the CLI's format; hosts may use it for logs, traces and batch input).
/// Strings in and out, so no JSON library type appears in qaplan's public API.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

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

/// One batch request line as written: which optional fields the line has of its own, so a
/// caller's defaults (e.g. `qaplan plan --input F --scenario S`) fill only the missing ones.
struct BatchLine {
  std::string question;
  std::optional<std::vector<std::string>> history;  ///< absent or null: nullopt
  std::optional<std::string> scenario;
  std::optional<std::string> source;
  /// The "id" field as compact JSON text (`"q-1"` or `42`), echoed so results can be matched
  /// back; nullopt when absent or null.
  std::optional<std::string> id;

  /// The request: this line's fields, and `defaults`' history/scenario/source where the line
  /// has none (an explicit empty history `[]` is the line's own and is kept).
  QAPLAN_API PrepareRequest request(const PrepareRequest& defaults = {}) const;
};

/// One batch request line: a JSON object with "question" (required string) and optional
/// "history" (array of strings), "scenario", "source" (strings) and "id" (a string or an
/// integer); null means absent.
/// Errors: kInvalidInput naming the field (unknown fields, wrong types, malformed JSON,
/// duplicate keys).
QAPLAN_API Result<BatchLine> parse_batch_line(std::string_view json_line);

/// The "id" of a batch line that may fail to parse otherwise (for its error object): the
/// compact JSON text when the line is a JSON object whose "id" is a string or an integer.
QAPLAN_API std::optional<std::string> batch_line_id(std::string_view json_line);

/// parse_batch_line(json_line) → request() with no defaults ("id" is accepted and dropped).
QAPLAN_API Result<PrepareRequest> parse_prepare_request(std::string_view json_line);

}  // namespace qaplan
