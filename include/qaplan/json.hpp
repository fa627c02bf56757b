#pragma once
/// JSON output of planning results (the CLI's format; hosts may use it for logs and traces).
/// Returns strings so no JSON library type appears in qaplan's public API.
#include <string>

#include "qaplan/export.hpp"
#include "qaplan/planner.hpp"

namespace qaplan {

struct JsonOptions {
  bool pretty = false;   ///< indent with 2 spaces
  bool timings = false;  ///< include "timings_us" (non-deterministic, off by default)
};

/// One object with keys query, normalized_query, query_units, route, intent, effective_source,
/// retrieval_plan, plan_trace (intent/retrieval_plan/plan_trace are null for direct answers).
QAPLAN_API std::string to_json(const Preparation& p, const JsonOptions& opts = {});

/// {"error": {"code", "message", "context"}} plus optional "line" for batch input.
QAPLAN_API std::string error_to_json(const Error& e, long line = 0);

}  // namespace qaplan
