#pragma once
#include <filesystem>
#include <string>

#include "qaplan/config.hpp"

namespace qaplan::cli {

/// Finds the rules file: --config, then $QAPLAN_CONFIG, then rules.toml beside the executable
/// (build tree), then <prefix>/share/qaplan/rules.toml (install tree).
Result<std::filesystem::path> find_config(const std::string& flag_value);

/// find_config() + load_config().
Result<Config> load_cli_config(const std::string& flag_value);

}  // namespace qaplan::cli
