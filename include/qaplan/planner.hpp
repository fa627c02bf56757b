#pragma once
/// The Planner facade: wires text → lexicon scan → route → intent → gateway → category → plan.
/// Immutable and thread-safe after create(): one Planner may serve any number of threads.
/// Hosts may also call each stage alone (text.hpp, route.hpp, intent.hpp, …).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "qaplan/category.hpp"
#include "qaplan/config.hpp"
#include "qaplan/export.hpp"
#include "qaplan/gateway.hpp"
#include "qaplan/intent.hpp"
#include "qaplan/lexicon.hpp"
#include "qaplan/plan.hpp"
#include "qaplan/route.hpp"
#include "qaplan/source.hpp"
#include "qaplan/status.hpp"
#include "qaplan/text.hpp"

namespace qaplan {

/// One question to prepare.
struct PrepareRequest {
  std::string question;
  std::vector<std::string> history;   ///< earlier user turns, oldest first
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

/// Everything prepare() decided. For a direct answer, intent/plan/trace are empty.
struct Preparation {
  std::string query;  ///< the raw question
  NormalizedQuery normalized;
  RouteDecision route;
  std::optional<IntentResult> intent;
  std::optional<std::string> effective_source;
  std::optional<RetrievalPlan> plan;
  std::optional<PlanTrace> plan_trace;
  StageTimings timings;
};

class QAPLAN_API Planner {
 public:
  /// Validates and compiles the config. Errors: kInvalidConfig.
  static Result<Planner> create(Config config);

  /// Prepares one question. Errors (kInvalidInput): invalid UTF-8, empty or too long question or
  /// history turn, too many history turns, unknown scenario, unknown source.
  Result<Preparation> prepare(const PrepareRequest& request) const;

  const Config& config() const noexcept { return lexicon_.config(); }
  const Lexicon& lexicon() const noexcept { return lexicon_; }

 private:
  explicit Planner(Lexicon lexicon) : lexicon_(std::move(lexicon)) {}
  Lexicon lexicon_;
};

}  // namespace qaplan
