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
QAPLAN_API const std::array<std::vector<std::string>, kHeads>& router_label_sets();

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

}  // namespace qaplan::internal
