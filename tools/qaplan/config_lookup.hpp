#pragma once
#include <filesystem>
#include <string>

#include "qaplan/planning/config.hpp"
#include "qaplan/ranking/config.hpp"

namespace qaplan::cli {

/// Finds the rules file: --config, then $QAPLAN_CONFIG, then rules.toml beside the executable
/// (build tree), then <prefix>/share/qaplan/rules.toml (install tree).
Result<std::filesystem::path> find_config(const std::string& flag_value);

/// A data file shipped with qaplan (e.g. "eval_sets/intent_policy.json"): `flag_value` when
/// given, else the first that exists of ./<relative>, <binary dir>/../<relative> (a build tree
/// inside the checkout) and <binary dir>/../share/qaplan/<relative> (an install). Errors: kIo
/// naming every place looked at.
Result<std::filesystem::path> find_data_file(const std::string& flag_value,
                                             const std::filesystem::path& relative,
                                             const std::string& flag);

/// find_config() + load_config().
Result<Config> load_cli_config(const std::string& flag_value);

/// find_config() + load_ranking_config() ([ranking.*] of the same file).
Result<RankingConfig> load_cli_ranking_config(const std::string& flag_value);

}  // namespace qaplan::cli
