#include "config_lookup.hpp"

#include <cstdlib>
#include <iostream>

namespace qaplan::cli {
namespace fs = std::filesystem;

namespace {
bool g_verbose = false;
}  // namespace

void set_verbose(bool on) { g_verbose = on; }

Result<fs::path> find_config(const std::string& flag_value) {
  auto where = locate_config(flag_value);
  if (!where.ok()) return where.error();
  // Once per process: search reads the file twice (planning and [ranking.*]).
  static bool said = false;
  if (g_verbose && !said) {
    said = true;
    std::error_code ec;
    const fs::path shown = fs::absolute(where->path, ec);
    std::cerr << "qaplan: config " << (ec ? where->path : shown).lexically_normal().string()
              << " (" << where->describe() << ")\n";
  }
  return where->path;
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
  // Data lives where the default rules file does: a checkout (or the source tree a build-tree
  // binary came from) holds config/ beside eval_sets/, an install keeps both in share/qaplan —
  // so any working directory works.
  if (auto rules = locate_config(); rules.ok()) {
    const fs::path dir = rules->path.parent_path();
    if (dir.filename() == "config") candidates.push_back(dir.parent_path() / relative);
    else if (dir.filename() == "qaplan" && dir.parent_path().filename() == "share")
      candidates.push_back(dir / relative);
  }
  std::string looked;
  std::vector<fs::path> seen;
  for (const fs::path& c : candidates) {
    const fs::path shown = c.lexically_normal();
    bool dup = false;
    for (const fs::path& p : seen) dup = dup || p == shown;
    if (dup) continue;
    seen.push_back(shown);
    if (fs::is_regular_file(c, ec)) return fs::weakly_canonical(c, ec);
    looked += (looked.empty() ? "" : ", ") + shown.string();
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

Result<Planner> load_cli_planner(const std::string& flag_value) {
  auto cfg = load_cli_config(flag_value);
  if (!cfg.ok()) return cfg.error();
  return Planner::create(std::move(cfg).value());
}

Result<RankingConfig> load_cli_ranking_config(const std::string& flag_value) {
  auto path = find_config(flag_value);
  if (!path.ok()) return path.error();
  // A rules file named on the command line is checked whole, as `config check` and `plan` check
  // it: search / index / bench must not run with a file the rest of qaplan refuses.
  if (!flag_value.empty()) {
    auto whole = load_config(*path);
    if (!whole.ok()) return whole.error();
  }
  return load_ranking_config(*path);
}

}  // namespace qaplan::cli
