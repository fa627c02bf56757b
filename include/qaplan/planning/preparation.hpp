#pragma once
/// What Planner::prepare() takes and returns: the request, the decided signals with who decided
/// them, the model's verdicts and the stage timings. Apart from planner.hpp so that the stages
/// and the analysis can name a Preparation without the facade.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "qaplan/planning/plan.hpp"
#include "qaplan/planning/types.hpp"

namespace qaplan {

/// One question to prepare.
struct PrepareRequest {
  std::string question;
  std::vector<std::string> history;   ///< earlier turns, oldest first
  std::string scenario;               ///< empty = the config's default_scenario
  std::optional<std::string> source;  ///< explicit source filter from the front end
};

/// Wall-clock nanoseconds per stage (for diagnostics; never part of a plan's identity).
struct StageTimings {
  std::int64_t text_ns = 0;
  std::int64_t route_ns = 0;
  std::int64_t intent_ns = 0;
  std::int64_t category_ns = 0;
  std::int64_t plan_ns = 0;
  std::int64_t total_ns = 0;
};

/// One signal the plan uses besides the intent, and who decided it.
template <class T>
struct Decided {
  T value{};
  DecidedBy decided_by = DecidedBy::kDefault;
  double score = 0.0;       ///< the model's probability when decided_by = model
  std::string detail;       ///< the matched keyword, "carried from history", …
};

/// The model's verdicts for one question (for explanation; empty with the model off).
struct ModelVerdicts {
  std::string model;  ///< name of the model
  std::string act;    ///< dialogue act label and its probability
  double act_score = 0;
  std::string intent;
  double intent_score = 0;
  std::string category;
  double category_score = 0;
  std::string source;
  double source_score = 0;
  double dependent_score = 0;  ///< P(needs its context); 0 without history
};

/// Everything prepare() decided. For a direct answer, intent/plan/trace are empty.
/// How a source decision's detail ends when weak or split evidence widened the scope to the
/// candidate sources (`effective_sources`) rather than one source; engine reports key on it.
inline constexpr std::string_view kScopeWidenedToCandidates = " → candidates";

struct Preparation {
  std::string query;  ///< the raw question
  NormalizedQuery normalized;
  std::vector<std::string> history;  ///< the request's turns, normalized, oldest first
  RouteDecision route;
  std::optional<IntentResult> intent;
  std::optional<std::string> effective_source;
  /// Where retrieval may look: {effective_source} when there is one; else the candidate sources
  /// when the evidence named some but was too weak or conflicting for a hard scope (`source.detail`
  /// says why), within the scenario; else the scenario's allowed_sources when it allows fewer
  /// than all sources (never "everything" by omission); else empty (every source).
  std::vector<std::string> effective_sources;
  /// Where retrieval looks again when `effective_sources` finds no evidence: the scenario's
  /// allowed sources (empty = every source). Set only when qaplan chose the scope (no host
  /// `source`) and a wider one exists: a keyword or a carried turn can name the wrong source
  /// (财务章 is legal's), and one more search costs less than a lost answer (docs/routing.md).
  std::optional<std::vector<std::string>> fallback_sources;
  Decided<std::optional<std::string>> source;   ///< suggested source and who decided it
  Decided<QuestionCategory> category;           ///< the plan's question_category
  std::optional<ModelVerdicts> model;
  std::optional<RetrievalPlan> plan;
  std::optional<PlanTrace> plan_trace;
  StageTimings timings;
};

}  // namespace qaplan
