#pragma once
/// The Planner facade: text → lexicon scan → route → intent → gateway → category → plan.
/// Immutable and thread-safe after create(): one Planner may serve any number of threads.
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
#include "qaplan/planning/preparation.hpp"
#include "qaplan/planning/types.hpp"
#include "qaplan/status.hpp"

namespace qaplan {

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
