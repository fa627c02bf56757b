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

Result<fs::path> find_data_file(const std::string& flag_value, const fs::path& relative,
                                const std::string& flag) {
  if (!flag_value.empty()) return fs::path(flag_value);
  std::vector<fs::path> candidates{relative};
  std::error_code ec;
  if (const fs::path exe = fs::read_symlink("/proc/self/exe", ec); !ec) {
    candidates.push_back(exe.parent_path() / ".." / relative);
    candidates.push_back(exe.parent_path() / ".." / "share" / "qaplan" / relative);
  }
  std::string looked;
  for (const fs::path& c : candidates) {
    if (fs::is_regular_file(c, ec)) return fs::weakly_canonical(c, ec);
    looked += (looked.empty() ? "" : ", ") + c.lexically_normal().string();
  }
  return make_error(ErrorCode::kIo,
                    "no " + relative.filename().string() + " found; pass " + flag +
                        " (looked in " + looked + ")",
                    flag);
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
