#pragma once
#include <filesystem>
#include <string>

#include "qaplan/planning/config.hpp"
#include "qaplan/ranking/config.hpp"

namespace qaplan::cli {

/// Finds the rules file: --config, then $QAPLAN_CONFIG, then rules.toml beside the executable
/// (build tree), then <prefix>/share/qaplan/rules.toml (install tree).
Result<std::filesystem::path> find_config(const std::string& flag_value);

/// find_config() + load_config().
Result<Config> load_cli_config(const std::string& flag_value);

/// find_config() + load_ranking_config() ([ranking.*] of the same file).
Result<RankingConfig> load_cli_ranking_config(const std::string& flag_value);

}  // namespace qaplan::cli
