#include "config_lookup.hpp"

#include <cstdlib>

namespace qaplan::cli {
namespace fs = std::filesystem;

Result<fs::path> find_config(const std::string& flag_value) {
  if (!flag_value.empty()) return fs::path(flag_value);
  if (const char* env = std::getenv("QAPLAN_CONFIG"); env && *env) return fs::path(env);
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const fs::path dir = exe.parent_path();
    for (const fs::path& p : {dir / "rules.toml", dir / ".." / "share" / "qaplan" / "rules.toml"})
      if (fs::is_regular_file(p, ec)) return p.lexically_normal();
  }
  return make_error(ErrorCode::kIo,
                    "no config found: pass --config PATH or set QAPLAN_CONFIG (looked beside the "
                    "executable and in <prefix>/share/qaplan/rules.toml)",
                    "config");
}

Result<Config> load_cli_config(const std::string& flag_value) {
  auto path = find_config(flag_value);
  if (!path.ok()) return path.error();
  return load_config(*path);
}

Result<RankingConfig> load_cli_ranking_config(const std::string& flag_value) {
  auto path = find_config(flag_value);
  if (!path.ok()) return path.error();
  return load_ranking_config(*path);
}

}  // namespace qaplan::cli
