#pragma once
// What eval-chain and calibrate read, found and loaded one way: the chain set (--dataset, or the
// questions `kb build` published beside --kb), the KB, the evaluation settings and the rules file.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "qaplan/eval/chain_eval.hpp"
#include "qaplan/retrieval/executor.hpp"

namespace qaplan::cli {

struct ChainInputs {
  ChainSet set;
  std::optional<KbIndex> kb;  ///< always set on success
  ChainEvalConfig settings;
  std::filesystem::path settings_path;
  RulesFile rules;
  std::vector<std::filesystem::path> files;  ///< every file read: never an output
};

/// The flags' values ("" = the default of each). Errors: as find_data_file and the loaders.
Result<ChainInputs> load_chain_inputs(const std::string& dataset, const std::string& kb,
                                      const std::string& eval_config, const std::string& config);

}  // namespace qaplan::cli
