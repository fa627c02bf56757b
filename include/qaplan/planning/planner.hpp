#pragma once
/// The Planner facade: text → lexicon scan → route → intent → gateway → category → plan.
/// Immutable and thread-safe after create(): one Planner may serve any number of threads.
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <utility>
#include <string>
#include <vector>

#include "qaplan/export.hpp"
#include "qaplan/planning/analysis.hpp"
#include "qaplan/planning/config.hpp"
#include "qaplan/planning/extensions.hpp"
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
  Decided<std::optional<std::string>> source;   ///< suggested source and who decided it
  Decided<QuestionCategory> category;           ///< the plan's question_category
  std::optional<ModelVerdicts> model;
  std::optional<RetrievalPlan> plan;
  std::optional<PlanTrace> plan_trace;
  StageTimings timings;
};

/// What a host may plug into a Planner besides its Config.
struct PlannerOptions {
  /// Replaces the built-in model's intent candidate (the built-in model still serves the route,
  /// category and source when [model] is enabled). Shared: it must outlive no Planner copy.
  std::shared_ptr<const IntentModel> intent_model;
  /// Rewrite hooks by name; [rewrite] hook names the one to use (it must be registered here).
  std::map<std::string, std::shared_ptr<const QueryRewriter>> rewriters;
  /// The host's domain lexicon (`qaplan domain build`), instead of [domain] lexicon; its
  /// fingerprint is not checked against [domain] sha256 (the host names the file it built).
  std::optional<std::filesystem::path> domain_lexicon;
};

class QAPLAN_API Planner {
 public:
  /// Validates and compiles the config and loads the [model] file when enabled (its SHA-256 must
  /// equal [model] sha256). Errors: kInvalidConfig (config, fingerprint mismatch), kIo / 
  /// kInvalidInput (model file), kInternal (OpenCC data missing).
  static Result<Planner> create(Config config, PlannerOptions options = {});

  /// create(Config::load_default(), options): the planner a host gets without naming a file.
  static Result<Planner> create_default(PlannerOptions options = {}) {
    auto config = Config::load_default();
    if (!config.ok()) return config.error();
    return create(std::move(config).value(), std::move(options));
  }

  /// Prepares one question. Errors (kInvalidInput, naming the request field): invalid UTF-8,
  /// empty or too long question or history turn, too many history turns, unknown scenario,
  /// unknown source.
  Result<Preparation> prepare(const PrepareRequest& request) const;

  /// The analysis stage (docs/guide.md): rewrite, variants, filters, routing, execution path,
  /// fallback ladder, prompt profile and cost ledger of a prepared question. Hooks run here (and
  /// only here). Errors (kInvalidInput): `context.now` not ISO-8601 ("now"); a Preparation
  /// made by another Planner's config is not detected — use the same Planner.
  Result<QueryAnalysis> analyze(const Preparation& preparation,
                                const AnalysisContext& context = {}) const;

  const Config& config() const noexcept;

  /// The router model in use ("<name> sha256:<hex>"), or "off".
  std::string model_description() const;
  /// The domain lexicon in use: "<file> sha256:<hex> N terms, M sources", or "none".
  std::string domain_description() const;

 private:
  struct Impl;
  explicit Planner(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}
  std::shared_ptr<const Impl> impl_;
};

}  // namespace qaplan
