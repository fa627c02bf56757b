// Temp files and staging removed when a signal ends the process (src/common/temp_files.hpp,
// qaplan::remove_temp_files_on_signals; docs/reliability.md).
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "common/temp_files.hpp"
#include "qaplan/io.hpp"

namespace {

namespace fs = std::filesystem;

// In a child: registers a staging directory, a file in it and a temp file beside it, keeps an
// unregistered file, then receives `sig`. Returns the child's wait status.
int die_while_writing(const fs::path& dir, int sig) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    qaplan::remove_temp_files_on_signals();
    fs::create_directories(dir / ".gen-0.partial");
    const qaplan::internal::TempGuard staging(dir / ".gen-0.partial");
    std::ofstream(dir / ".gen-0.partial" / "bm25.qidx") << "half";
    const qaplan::internal::TempGuard staged(dir / ".gen-0.partial" / "bm25.qidx");
    std::ofstream(dir / ".qaplan-tmp-1") << "half";
    const qaplan::internal::TempGuard tmp(dir / ".qaplan-tmp-1");
    {
      std::ofstream(dir / ".qaplan-tmp-2") << "released";
      const qaplan::internal::TempGuard released(dir / ".qaplan-tmp-2");
    }
    ::raise(sig);
    ::_exit(0);  // not reached: the signal's default action ends the process
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return status;
}

TEST(TempFiles, ASignalRemovesWhatIsBeingWrittenAndStillKills) {
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
    const fs::path dir = fs::temp_directory_path() /
                         ("qaplan-temp-" + std::to_string(::getpid()) + "-" + std::to_string(sig));
    fs::remove_all(dir);
    fs::create_directories(dir);
    const int status = die_while_writing(dir, sig);
    ASSERT_TRUE(WIFSIGNALED(status)) << "signal " << sig;
    EXPECT_EQ(WTERMSIG(status), sig);
    EXPECT_FALSE(fs::exists(dir / ".gen-0.partial")) << "signal " << sig;
    EXPECT_FALSE(fs::exists(dir / ".qaplan-tmp-1")) << "signal " << sig;
    // A guard that ended no longer names its path: that file is someone else's now.
    EXPECT_TRUE(fs::exists(dir / ".qaplan-tmp-2")) << "signal " << sig;
    fs::remove_all(dir);
  }
}

}  // namespace
