#pragma once
// The router training data (eval_sets/router/, schema in its README) read into normalized,
// labelled rows: shared by the trainer (train_model.cpp) and the fastText comparison harness
// (tools/bench/model_compare.cpp), so both see exactly the same rows and features.
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "planning/model/router_model.hpp"
#include "qaplan/eval/bench.hpp"
#include "qaplan/export.hpp"
#include "qaplan/status.hpp"

namespace qaplan::internal {

enum class RouterSplit : std::uint8_t { kTrain = 0, kDev, kTest };
inline constexpr std::array<const char*, 3> kRouterSplitNames = {"train", "dev", "test"};

/// The labels of every head, in the order a trained model scores them.
using RouterLabelSets = std::array<std::vector<std::string>, kHeads>;

/// The shipped label sets (source: hr, finance, it, admin, legal, none).
QAPLAN_API const RouterLabelSets& router_label_sets();

/// The shipped sets with the source head's labels replaced by `sources` (a host's [[sources]]
/// names, in file order) plus "none". act, intent, category and dependent stay fixed: the planner
/// maps them onto enums, while source labels are only names it looks up in its config. Errors:
/// kInvalidConfig (field "sources") for an empty or duplicate name, "none" as a name, or more
/// sources than a model file holds (15).
QAPLAN_API Result<RouterLabelSets> router_label_sets_with_sources(
    const std::vector<std::string>& sources);

/// One utterance. `label[h]` is the label index for head h, or -1 when the row does not carry
/// that head's label (heads train on the rows that carry their label: intent, category and
/// source only on act = question rows; dependent only on rows with a previous turn).
struct RouterRow {
  std::string file;      ///< data file name ("own_social.jsonl", "external/…")
  int line = 0;          ///< 1-based
  std::string text;      ///< normalize_question(text)
  std::string previous;  ///< normalize_question(previous); empty without one
  bool has_previous = false;
  std::array<std::int8_t, kHeads> label{-1, -1, -1, -1, -1};
  RouterSplit split = RouterSplit::kTrain;
};

struct RouterData {
  RouterLabelSets labels;       ///< what each row's label indexes into
  std::vector<RouterRow> rows;  ///< files in name order, lines in file order
  std::string fingerprint;      ///< SHA-256 over "name sha256\n" of every file, names sorted
  std::vector<std::pair<std::string, std::string>> files;  ///< (name, sha256), names sorted
};

/// Verifies every file against the registry (`fingerprints.json`: {"format":
/// "qaplan-router-data-1", "files": {name: sha256}}) — a file missing from it, a hash mismatch
/// or a registered file that was not passed is kFingerprintMismatch — then reads every row
/// strictly (unknown or missing keys, unknown labels, labels on the wrong kind of row, a text
/// that does not normalize, a normalized text in two splits: kInvalidInput naming file:line and
/// the field).
QAPLAN_API Result<RouterData> load_router_data(const std::vector<NamedText>& files,
                                               const NamedText& fingerprints);

/// The same against other label sets (a host's sources, or a model's own labels). A row whose
/// source is not among them names `source_origin` (where those labels came from: "the
/// [[sources]] of rules.toml") beside the known labels.
QAPLAN_API Result<RouterData> load_router_data(const std::vector<NamedText>& files,
                                               const NamedText& fingerprints,
                                               const RouterLabelSets& labels,
                                               std::string_view source_origin);

}  // namespace qaplan::internal
