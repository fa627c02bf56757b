// The umbrella header includes every public header, or names the one it leaves out and why: a
// new header cannot be forgotten there. This file includes the umbrella alone, so it also proves
// that the umbrella compiles on its own. That public headers include no third-party header is
// ctest's third_party_headers (scripts/third_party_headers.py).
#include "qaplan/qaplan.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "test_support.hpp"

namespace {

TEST(Umbrella, IncludesEveryPublicHeaderOrSaysWhyNot) {
  namespace fs = std::filesystem;
  const fs::path include = qaplan::test::source_dir() / "include";
  const std::string umbrella = qaplan::test::slurp(include / "qaplan" / "qaplan.hpp");
  const std::string left_out = umbrella.substr(0, umbrella.find("\n#include \""));
  size_t checked = 0;
  for (const auto& e : fs::recursive_directory_iterator(include / "qaplan")) {
    if (e.path().extension() != ".hpp" || e.path().filename() == "qaplan.hpp") continue;
    const std::string name = fs::relative(e.path(), include).generic_string();
    ++checked;
    const bool included = umbrella.find("#include \"" + name + "\"") != std::string::npos;
    const bool named = left_out.find("Left out:") != std::string::npos &&
                       left_out.find(name) != std::string::npos;
    EXPECT_TRUE(included || named) << "include/qaplan/qaplan.hpp neither includes " << name
                                   << " nor says in its comment why it leaves it out";
    EXPECT_FALSE(included && named) << name << " is both included and named as left out";
  }
  EXPECT_GE(checked, 40u);
}

}  // namespace
