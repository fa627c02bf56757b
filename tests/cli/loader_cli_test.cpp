// The binary's run path: the dynamic loader must never look for qaplan's libraries in the
// working directory. An empty run path entry (the ":::…" CMake pads into a build-tree binary for
// the install step) does exactly that, so a library dropped where a user runs qaplan is loaded.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "test_support.hpp"

namespace {

using qaplan::test::run;
using qaplan::test::sh_quote;

// (name, path) of every library `ldd` resolves for the binary.
std::vector<std::pair<std::string, std::string>> needed_libraries() {
  const auto r = run("ldd " + sh_quote(qaplan::test::qaplan_bin()));
  std::vector<std::pair<std::string, std::string>> out;
  std::istringstream in(r.out);
  for (std::string line; std::getline(in, line);) {
    std::istringstream words(line);
    std::string name, arrow, path;
    if (words >> name >> arrow >> path && arrow == "=>" && path.front() == '/')
      out.emplace_back(name, path);
  }
  return out;
}

TEST(Loader, NoLibraryIsLoadedFromTheWorkingDirectory) {
  const auto libs = needed_libraries();
  if (libs.empty()) GTEST_SKIP() << "SKIPPED: ldd lists no libraries (ldd missing or a static binary)";
  std::string libm;
  for (const auto& [name, path] : libs)
    if (name.rfind("libm.so", 0) == 0) libm = path;
  ASSERT_FALSE(libm.empty()) << "the binary links libm";
  // Another real library under each needed name: loaded in its place, it breaks symbol lookup.
  const qaplan::test::ScratchDir scratch("loader");
  const std::filesystem::path& dir = scratch.path();
  for (const auto& [name, path] : libs)
    if (name.rfind("libm.so", 0) != 0 && name.rfind("libc.so", 0) != 0)
      std::filesystem::copy_file(libm, dir / name,
                                 std::filesystem::copy_options::overwrite_existing);
  const auto r = run("cd " + sh_quote(dir.string()) + " && " +
                     sh_quote(qaplan::test::qaplan_bin()) + " --version");
  EXPECT_EQ(r.status, 0) << r.err;
}

}  // namespace
