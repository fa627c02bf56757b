#pragma once
// Files and directories being written (a temp file before its rename, a generation being staged)
// are registered while they exist under their temporary names, so that SIGINT, SIGTERM or SIGHUP
// remove them before the process dies (qaplan::remove_temp_files_on_signals). The next publish
// removes what a SIGKILL left (common/generation.cpp collect).
#include <cstddef>
#include <filesystem>

namespace qaplan::internal {

/// Registers `path` for removal on a signal while the guard lives (unlink for a file, rmdir for a
/// directory: register a directory before the files written into it). Registration is
/// lock-free; past 64 live registrations a path is not registered (the next build removes it).
class TempGuard {
 public:
  explicit TempGuard(const std::filesystem::path& path) noexcept;
  ~TempGuard();
  TempGuard(TempGuard&& o) noexcept : slot_(o.slot_) { o.slot_ = -1; }
  TempGuard(const TempGuard&) = delete;
  TempGuard& operator=(const TempGuard&) = delete;
  TempGuard& operator=(TempGuard&&) = delete;

 private:
  int slot_ = -1;
};

}  // namespace qaplan::internal
