#pragma once
/// The Planner facade: text → lexicon scan → route → intent → gateway → category → plan.
/// Immutable and thread-safe after create(): one Planner may serve any number of threads.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "qaplan/export.hpp"
#include "qaplan/planning/config.hpp"
#include "qaplan/planning/plan.hpp"
#include "qaplan/planning/types.hpp"
#include "qaplan/status.hpp"

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

  /// Prepares one question. Errors (kInvalidInput, naming the request field): invalid UTF-8,
  /// empty or too long question or history turn, too many history turns, unknown scenario,
  /// unknown source.
  Result<Preparation> prepare(const PrepareRequest& request) const;

  const Config& config() const noexcept;

 private:
  struct Impl;
  explicit Planner(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}
  std::shared_ptr<const Impl> impl_;
};

}  // namespace qaplan
