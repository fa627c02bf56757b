#pragma once
/// Training and evaluation of the built-in router classifier (docs/model.md) behind
/// `qaplan model train` and `qaplan model eval`.
///
/// The model scores five heads from one feature table: act (the dialogue act, or `question`),
/// intent (FAQ_QUERY, KNOWLEDGE_QUERY), category (default, pricing, compliance, troubleshooting,
/// summary), source (the host's sources + none; shipped: hr, finance, it, admin, legal, none) and
/// dependent (independent, dependent: whether a message needs its previous turn). Only the source
/// labels are the host's: a planner maps them onto its config's [[sources]] by name, while the
/// other heads' labels are the planner's own enums. Data: the JSONL files of eval_sets/router/ (schema
/// in its README) with their registry `fingerprints.json`; every row carries a frozen split
/// (train / dev / test). A head trains on the `train` rows that carry its label.
///
/// Learning: LIBLINEAR, L2-regularized logistic regression solved in the primal (trust-region
/// Newton, no randomness), one-vs-rest for more than two labels, one thread, a fixed C per head;
/// features are the hashed n-grams of `router-features-2` (src/planning/model/features.hpp) with
/// value count / sqrt(number of text features); features seen in fewer than `min_count` training
/// rows of a head are dropped. Weights are quantized to int8 per head. The same data and options
/// give byte-identical model files.
///
/// These functions read no files: callers pass file contents (the CLI does the I/O). Not
/// reentrant with other LIBLINEAR users in the process (LIBLINEAR's print hook is global); the
/// results never depend on timing or threads.
#include <array>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "qaplan/eval/bench.hpp"  // NamedText
#include "qaplan/export.hpp"
#include "qaplan/planning/config.hpp"
#include "qaplan/status.hpp"

namespace qaplan {

/// Options of one training run.
///
/// | field        | default               | meaning                                             |
/// |--------------|-----------------------|-----------------------------------------------------|
/// | data         | —                     | every data file; name = path below the data folder  |
/// | fingerprints | —                     | the data folder's fingerprints.json                 |
/// | sources      | the shipped five      | the source head's labels in order, "none" added     |
/// |              | (default_router_      | last; a row with another source is refused.         |
/// |              | sources())            | set_sources(config): the config's [[sources]]       |
/// | sources_     | "the shipped sources" | where `sources` came from, named in errors          |
/// |   origin     |                       |                                                     |
/// | name         | "router-v1"           | the model's name (recorded in the file)             |
/// | command      | "qaplan model train"  | recorded in the file; keep paths out of it, so the  |
/// |              |                       | bytes do not depend on where training ran           |
/// | c            | kDefaultRouterC       | LIBLINEAR's C per head, each in (0, 1e4]            |
/// | balance      | kDefaultRouterBalance | class weights: a label with n training rows gets    |
/// |              |                       | C·(n_max / n)^balance; 0 = unweighted; in [0, 1]    |
/// | min_count    | 2                     | a feature must occur in ≥ min_count training rows   |
/// | hash_bits    | 20                    | feature id bits, in [12, 26]                        |
/// | eps          | 0.001                 | LIBLINEAR's stopping tolerance, in (0, 1)           |
///
/// Per-head arrays are in head order: act, intent, category, source, dependent.
/// The defaults were chosen on the dev split only (`model_compare --sweep`, docs/model.md): act
/// by dev macro F1, the other heads by dev accuracy, over C ∈ {0.5 … 256} × balance ∈ {0, ½, 1}.
inline constexpr std::array<double, 5> kDefaultRouterC = {8.0, 16.0, 64.0, 256.0, 128.0};
inline constexpr std::array<double, 5> kDefaultRouterBalance = {1.0, 1.0, 0.5, 0.0, 0.0};

/// The shipped config's [[sources]], in file order: the source labels of router-v1.qpm.
inline const std::vector<std::string>& default_router_sources() {
  static const std::vector<std::string> kSources = {"hr", "finance", "it", "admin", "legal"};
  return kSources;
}

struct RouterTrainOptions {
  std::vector<NamedText> data;
  NamedText fingerprints;
  std::vector<std::string> sources = default_router_sources();
  std::string sources_origin = "the shipped sources";
  std::string name = "router-v1";
  std::string command = "qaplan model train";
  std::array<double, 5> c = kDefaultRouterC;
  std::array<double, 5> balance = kDefaultRouterBalance;
  int min_count = 2;
  unsigned hash_bits = 20;
  double eps = 0.001;

  /// Source labels = `config`'s [[sources]] names in file order (the shipped config gives
  /// exactly the defaults, so the shipped model retrains byte for byte); sources_origin names
  /// config.origin.
  QAPLAN_API void set_sources(const Config& config);

  /// kInvalidConfig naming the field when a value is out of range (sources: 1–15 unique names,
  /// none of them empty or "none").
  QAPLAN_API Status validate() const;
};

/// Precision, recall and F1 of one label (0 when undefined).
struct RouterClassMetrics {
  std::string label;
  int support = 0;    ///< rows whose gold label this is
  int predicted = 0;  ///< rows predicted as this label
  int correct = 0;
  double precision = 0.0, recall = 0.0, f1 = 0.0;
};

/// One head on one split.
struct RouterHeadReport {
  std::string head;   ///< act, intent, category, source, dependent
  std::string split;  ///< train, dev, test
  int samples = 0;
  double accuracy = 0.0;
  double macro_f1 = 0.0;  ///< over labels with support > 0
  std::vector<std::string> labels;
  std::vector<RouterClassMetrics> classes;  ///< label order
  std::vector<std::vector<int>> confusion;  ///< [gold][predicted], label order
};

/// Accuracy of one head on one split of one data file.
struct RouterFileAccuracy {
  std::string file, head, split;
  int samples = 0;
  double accuracy = 0.0;
};

/// Rows per head, label and split.
struct RouterLabelCount {
  std::string head, label;
  std::array<int, 3> per_split{};  ///< train, dev, test
};

struct RouterReport {
  std::string model_name;
  std::string model_sha256;
  std::string model_metadata;    ///< the model file's metadata JSON
  std::string data_fingerprint;  ///< of the data evaluated
  std::vector<RouterLabelCount> counts;
  std::vector<RouterHeadReport> heads;  ///< split order, then head order
  std::vector<RouterFileAccuracy> files;
  /// Training only: per head, the share of evaluated rows where the shipped int8 model picks the
  /// same label as the unquantized weights (empty from evaluate_router_model).
  std::vector<std::pair<std::string, double>> quantization_agreement;
};

struct TrainedRouterModel {
  std::string bytes;    ///< the model file
  std::string sha256;   ///< of `bytes`
  RouterReport report;  ///< the trained model on train, dev and test
};

/// Trains the router model. Errors: kInvalidConfig (options), kFingerprintMismatch (data not
/// matching its registry), kInvalidInput (a malformed row, naming file:line and field — a source
/// not in `sources` names them and `sources_origin`; a head label without training rows, e.g. a
/// configured source no row carries), kInternal (LIBLINEAR failed).
QAPLAN_API Result<TrainedRouterModel> train_router_model(const RouterTrainOptions& options);

/// Scores a model file (`model_origin` names it in errors) on the rows of `splits` (each
/// "train", "dev" or "test"). The rows are read against the model's own labels, so a host's
/// model is scored on the host's data without its config. Errors: kInvalidInput (bad model file, bad data, unknown split),
/// kFingerprintMismatch.
QAPLAN_API Result<RouterReport> evaluate_router_model(std::string_view model_bytes,
                                                      std::string_view model_origin,
                                                      const std::vector<NamedText>& data,
                                                      const NamedText& fingerprints,
                                                      const std::vector<std::string>& splits);

/// The report as JSON (deterministic: no timing) and as Markdown (per head and split: accuracy,
/// per-class precision / recall / F1, confusion matrix).
QAPLAN_API std::string router_report_json(const RouterReport& report, bool pretty);
QAPLAN_API std::string router_report_markdown(const RouterReport& report);

}  // namespace qaplan
