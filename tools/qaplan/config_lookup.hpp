#pragma once
#include <filesystem>
#include <string>

#include "qaplan/config_location.hpp"
#include "qaplan/planning/config.hpp"
#include "qaplan/planning/planner.hpp"
#include "qaplan/ranking/config.hpp"

namespace qaplan::cli {

/// `-v`: every command that reads a rules file says which one on stderr.
void set_verbose(bool on);

/// The rules file: --config when given, else qaplan::locate_config()'s order ($QAPLAN_CONFIG,
/// the checkout's config/rules.toml, the user config dir, the installed default). With -v it
/// prints "qaplan: config <path> (<how it was found>)" once.
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

/// load_cli_config() + Planner::create(): the planner a command that only plans runs.
Result<Planner> load_cli_planner(const std::string& flag_value);

/// find_config() + load_ranking_config() ([ranking.*] of the same file).
Result<RankingConfig> load_cli_ranking_config(const std::string& flag_value);

}  // namespace qaplan::cli
