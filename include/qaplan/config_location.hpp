#pragma once
/// Where qaplan's rules file is found when nobody names it: one order for the CLI, the library
/// (`Config::load_default`, `Planner::create_default`) and every subcommand.
#include <filesystem>
#include <string>
#include <vector>

#include "qaplan/export.hpp"
#include "qaplan/status.hpp"

namespace qaplan {

/// How a rules file was found (`-v` prints it).
enum class ConfigOrigin {
  kExplicit,     ///< a path the caller passed (--config)
  kEnvironment,  ///< $QAPLAN_CONFIG
  kCheckout,     ///< config/rules.toml of the qaplan checkout holding the working directory
  kUserDir,      ///< $XDG_CONFIG_HOME/qaplan/rules.toml (default ~/.config/qaplan/rules.toml)
  kInstalled,    ///< <prefix>/share/qaplan/rules.toml beside the library or executable
  kBuildTree,    ///< the source tree a build-tree binary was built from (its file, never a copy)
};

struct ConfigLocation {
  std::filesystem::path path;
  ConfigOrigin origin = ConfigOrigin::kExplicit;
  /// "--config", "$QAPLAN_CONFIG", "qaplan checkout", "user config dir", "installed default",
  /// "build tree's source".
  std::string describe() const;
};

/// Finds the rules file, first match wins:
///  1. `explicit_path` when not empty (returned as given; the loader reports a missing file);
///  2. $QAPLAN_CONFIG when set and not empty (it must name an existing file);
///  3. config/rules.toml of the qaplan checkout holding the working directory (the nearest
///     ancestor directory with config/rules.toml and include/qaplan/qaplan.hpp), so an edit in a
///     checkout takes effect at once;
///  4. $XDG_CONFIG_HOME/qaplan/rules.toml, or ~/.config/qaplan/rules.toml without XDG_CONFIG_HOME;
///  5. for code in its build tree (the CLI, the build-tree Python module), the source tree's
///     config/rules.toml — the file itself, never a copy;
///  6. the installed default: share/qaplan/rules.toml next to the directory of the qaplan library
///     or the executable it is linked into, then the package's data dir (as find_package(qaplan)
///     saw it — a moved prefix; the Python package's own qaplan/data), then under the install
///     prefix qaplan was built for.
/// Errors: kIo when $QAPLAN_CONFIG names no file, or nothing is found (naming where it looked).
/// `package_datadir` (may be null) is step 6's second place; locate_config() fills it in.
QAPLAN_API Result<ConfigLocation> locate_config_from(const std::filesystem::path& explicit_path,
                                                     const char* package_datadir);

/// locate_config_from() with the data dir of the package the host was compiled against
/// (qaplanConfig.cmake defines QAPLAN_PACKAGE_DATADIR on qaplan::qaplan).
inline Result<ConfigLocation> locate_config(const std::filesystem::path& explicit_path = {}) {
#ifdef QAPLAN_PACKAGE_DATADIR
  return locate_config_from(explicit_path, QAPLAN_PACKAGE_DATADIR);
#else
  return locate_config_from(explicit_path, nullptr);
#endif
}

}  // namespace qaplan
