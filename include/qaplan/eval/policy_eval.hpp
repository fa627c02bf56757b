#pragma once
/// The intent-policy evaluation gate (`qaplan eval-policy`, docs/evaluation.md):
/// labelled samples go through Planner::prepare (normalize → route → intent → gateway → plan)
/// and every expectation a sample states is checked — route, intent, effective source,
/// requires_rewrite, decision policy, rule score and confidence ranges, plan fields. No
/// retrieval, no model call beyond the planner's own.
///
/// Dataset (eval_sets/intent_policy.json):
///   {"version": "…", "description": "…", "samples": [ {sample}, … ]}
/// A sample: "id", "severity" ("critical" | "warning"), "question", optional "history" (array),
/// "scenario", "source_filter", and any of the expectations "expected_route",
/// "expected_route_reason", "expected_intent", "expected_source" (a name or null),
/// "expected_requires_rewrite", "expected_decision_policy", "expected_confidence_min" / "_max",
/// "expected_rule_score_min" / "_max", "expected_plan_contains" (an object of plan field → value:
/// any knob, "question_category", "reason", "intent_rule_score", "intent_decision_score"),
/// plus a free "note". Unknown fields are errors; at least one expectation per sample.
///
/// Pure apart from the planner it is given; thread-safe.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "qaplan/export.hpp"
#include "qaplan/planning/planner.hpp"
#include "qaplan/status.hpp"

namespace qaplan {

/// One labelled sample; every `expected_*` is optional (absent = not checked).
struct PolicySample {
  std::string id;
  bool critical = false;
  std::string question;
  std::vector<std::string> history;
  std::string scenario;
  std::optional<std::string> source_filter;
  std::string note;
  std::optional<std::string> expected_route;
  std::optional<std::string> expected_route_reason;
  std::optional<std::string> expected_intent;
  bool check_source = false;
  std::optional<std::string> expected_source;  ///< nullopt + check_source = "no source"
  std::optional<bool> expected_requires_rewrite;
  std::optional<std::string> expected_decision_policy;
  std::optional<double> expected_confidence_min, expected_confidence_max;
  std::optional<double> expected_rule_score_min, expected_rule_score_max;
  std::string expected_plan_contains;  ///< JSON object text ("" = none)
};

struct PolicyDataset {
  std::string version;
  std::string description;
  std::string sha256;  ///< of the file's bytes
  std::vector<PolicySample> samples;
};

/// Strict parse. Errors: kInvalidInput naming `name` and the JSON path.
QAPLAN_API Result<PolicyDataset> parse_policy_dataset(std::string_view json_text,
                                                      std::string_view name);

/// One checked expectation.
struct PolicyCheck {
  std::string dimension;  ///< "route", "intent", "source", "rewrite", "policy", "score", "plan"
  std::string field;      ///< what exactly ("confidence", "faq_direct_threshold", …)
  bool passed = false;
  std::string expected;
  std::string actual;
};

struct PolicySampleResult {
  std::string id;
  bool critical = false;
  std::string question;
  std::vector<std::string> history;
  std::string error;  ///< prepare() refused the sample (counts as failed)
  std::vector<PolicyCheck> checks;
  bool passed = false;
};

/// Accuracy of one dimension: samples checked on it and samples all of whose checks passed.
struct PolicyDimension {
  std::string name;
  std::size_t checked = 0;
  std::size_t passed = 0;
};

struct PolicyReport {
  std::string dataset_name;
  std::string dataset_version;
  std::string dataset_sha256;
  std::string config_origin;
  std::string model;  ///< "name sha256" of the router model, or "off"
  std::vector<PolicyDimension> dimensions;
  std::vector<PolicySampleResult> samples;
  std::size_t critical_samples = 0, critical_failed = 0;
  std::size_t warning_samples = 0, warning_failed = 0;
};

/// Runs every sample. `model` describes the planner's model for the report.
QAPLAN_API PolicyReport evaluate_policy(const Planner& planner, const PolicyDataset& dataset,
                                        std::string_view dataset_name, std::string_view model);

/// report.json (every sample, every check) and report.md (accuracy table, failed samples).
QAPLAN_API std::string policy_report_json(const PolicyReport& report, bool pretty = true);
QAPLAN_API std::string policy_report_markdown(const PolicyReport& report);

}  // namespace qaplan
