#pragma once
/// The route evaluation behind `qaplan eval-route` (docs/routing.md): labelled messages of
/// domains the planner was not built for go through Planner::prepare, and the two costly errors
/// are counted per domain and split — a real question answered directly (the user loses the
/// answer) and a social message retrieved (one needless search).
///
/// Dataset: one JSONL file, or a directory whose *.jsonl files are read in name order
/// (eval_sets/ood). A line: {"id", "domain", "kind": "question" | "social", "act": "question" |
/// a direct act, "text", "split": "dev" | "test", "history"?: [...]}. Unknown or missing fields,
/// a duplicate id and a kind that contradicts the act are errors naming the file and line.
///
/// The gate: on the chosen split, questions answered directly ≤ `max_question_direct` and
/// social messages answered directly ≥ `min_social_direct`, over all domains together (each
/// domain is reported, not gated: 24 social messages a domain are too few for the bar).
/// Deterministic; pure apart from the planner it is given.
#include <filesystem>
#include <string>
#include <vector>

#include "qaplan/export.hpp"
#include "qaplan/planning/planner.hpp"
#include "qaplan/status.hpp"

namespace qaplan {

/// One labelled message.
struct RouteSample {
  std::string id;
  std::string domain;
  bool question = true;  ///< kind "question" (else "social")
  std::string act;       ///< "question" or the direct act a person would expect
  std::string text;
  std::string split;  ///< "dev" | "test"
  std::vector<std::string> history;
};

/// Reads a JSONL file or every *.jsonl of a directory. Errors: kIo, kInvalidInput naming the
/// file and line.
QAPLAN_API Result<std::vector<RouteSample>> read_route_samples(const std::filesystem::path& path);

/// Counts of one domain (or "all") on one split.
struct RouteCell {
  std::string domain;
  std::string split;
  int questions = 0;
  int questions_direct = 0;  ///< real questions answered directly: the costly error
  int social = 0;
  int social_direct = 0;    ///< social messages answered directly (any direct act)
  int social_same_act = 0;  ///< … with the labelled act
  std::vector<std::string> question_errors;  ///< "id text → reason (by)" of every question error
  std::vector<std::string> social_errors;    ///< the same for social messages retrieved
};

struct RouteGate {
  std::string split = "test";
  double max_question_direct = 0.005;
  double min_social_direct = 0.90;
};

struct RouteReport {
  std::string dataset;
  std::string model;
  RouteGate gate;
  std::vector<RouteCell> cells;  ///< per domain × split, then "all" × split
  bool gate_passed = false;
  std::vector<std::string> gate_failures;  ///< "bank/test: questions direct 1.1 % > 0.5 %"
};

/// Prepares every sample. A sample the planner refuses (invalid input) counts as retrieved.
QAPLAN_API RouteReport evaluate_routes(const Planner& planner,
                                       const std::vector<RouteSample>& samples,
                                       const RouteGate& gate, std::string dataset_name);

QAPLAN_API std::string route_report_json(const RouteReport& report);
QAPLAN_API std::string route_report_markdown(const RouteReport& report);

}  // namespace qaplan
