// The one lookup order for rules.toml (include/qaplan/config_location.hpp). The build embeds
// three paths: the install data dir, the source tree and the build tree; the last two only let a
// build-tree binary read the source file it was built from instead of a stale copy.
#include "qaplan/config_location.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <system_error>

namespace qaplan {
namespace fs = std::filesystem;

namespace {

bool is_file(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec);
}

// True when `inner` is `outer` or lies below it (both made absolute and normal).
bool is_within(const fs::path& inner, const fs::path& outer) {
  std::error_code ec;
  const fs::path a = fs::weakly_canonical(inner, ec);
  const fs::path b = fs::weakly_canonical(outer, ec);
  if (a.empty() || b.empty()) return false;
  auto ai = a.begin();
  for (auto bi = b.begin(); bi != b.end(); ++bi, ++ai)
    if (ai == a.end() || *ai != *bi) return false;
  return true;
}

// The nearest ancestor of the working directory that is a qaplan checkout.
fs::path checkout_config() {
  std::error_code ec;
  fs::path dir = fs::current_path(ec);
  if (ec) return {};
  for (int depth = 0; depth < 64 && !dir.empty(); ++depth) {
    const fs::path candidate = dir / "config" / "rules.toml";
    if (is_file(candidate) && is_file(dir / "include" / "qaplan" / "qaplan.hpp")) return candidate;
    if (dir == dir.root_path()) break;
    dir = dir.parent_path();
  }
  return {};
}

fs::path user_config() {
  if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg && fs::path(xdg).is_absolute())
    return fs::path(xdg) / "qaplan" / "rules.toml";
  if (const char* home = std::getenv("HOME"); home && *home)
    return fs::path(home) / ".config" / "qaplan" / "rules.toml";
  return {};
}

// The directory of the code that runs: the shared library holding this function, or the
// executable it is linked into (dladdr names either). The executable is asked only when dladdr
// cannot tell: in the Python module it is the interpreter, whose prefix says nothing about qaplan.
fs::path module_dir() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&locate_config_from), &info) != 0 && info.dli_fname &&
      fs::path(info.dli_fname).is_absolute())
    return fs::path(info.dli_fname).parent_path();
  std::error_code ec;
  if (const fs::path exe = fs::read_symlink("/proc/self/exe", ec); !ec) return exe.parent_path();
  return {};
}

struct Candidate {
  fs::path path;
  ConfigOrigin origin;
};

std::vector<Candidate> candidates(const char* package_datadir) {
  std::vector<Candidate> out;
  if (fs::path p = checkout_config(); !p.empty()) out.push_back({p, ConfigOrigin::kCheckout});
  if (fs::path p = user_config(); !p.empty()) out.push_back({p, ConfigOrigin::kUserDir});
  const fs::path dir = module_dir();
  // Code in its build tree (the CLI, the build-tree Python module) reads the source file it was
  // built from before any installed or packaged copy, so an edit reaches it at once.
  if (!dir.empty() && is_within(dir, QAPLAN_BUILD_BINARY_DIR))
    out.push_back({fs::path(QAPLAN_BUILD_SOURCE_DIR) / "config" / "rules.toml",
                   ConfigOrigin::kBuildTree});
  if (!dir.empty())
    out.push_back({(dir / ".." / "share" / "qaplan" / "rules.toml").lexically_normal(),
                   ConfigOrigin::kInstalled});
  // An add_subdirectory() host is told the source tree's config/ (it has no install tree).
  if (package_datadir && *package_datadir)
    out.push_back({fs::path(package_datadir) / "rules.toml",
                   is_within(package_datadir, QAPLAN_BUILD_SOURCE_DIR) ? ConfigOrigin::kBuildTree
                                                                       : ConfigOrigin::kInstalled});
  out.push_back({fs::path(QAPLAN_INSTALL_DATADIR) / "rules.toml", ConfigOrigin::kInstalled});
  return out;
}

}  // namespace

std::string ConfigLocation::describe() const {
  switch (origin) {
    case ConfigOrigin::kExplicit: return "--config";
    case ConfigOrigin::kEnvironment: return "$QAPLAN_CONFIG";
    case ConfigOrigin::kCheckout: return "qaplan checkout";
    case ConfigOrigin::kUserDir: return "user config dir";
    case ConfigOrigin::kInstalled: return "installed default";
    case ConfigOrigin::kBuildTree: return "build tree's source";
  }
  return "unknown";
}

Result<ConfigLocation> locate_config_from(const fs::path& explicit_path,
                                          const char* package_datadir) {
  if (!explicit_path.empty()) return ConfigLocation{explicit_path, ConfigOrigin::kExplicit};
  if (const char* env = std::getenv("QAPLAN_CONFIG"); env && *env) {
    // Set but wrong is an error, not a reason to fall back to another file silently.
    if (!is_file(env))
      return make_error(ErrorCode::kIo, std::string("no such file: ") + env, "QAPLAN_CONFIG");
    return ConfigLocation{fs::path(env), ConfigOrigin::kEnvironment};
  }
  std::string looked;
  for (const Candidate& c : candidates(package_datadir)) {
    if (is_file(c.path)) return ConfigLocation{c.path, c.origin};
    looked += (looked.empty() ? "" : ", ") + c.path.string();
  }
  return make_error(ErrorCode::kIo,
                    "no rules.toml found: pass --config PATH or set QAPLAN_CONFIG (looked in " +
                        looked + ")",
                    "config");
}

}  // namespace qaplan
