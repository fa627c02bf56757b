// The umbrella header includes every public header, or names the one it leaves out and why: a
// new header cannot be forgotten there. This file includes the umbrella alone, so it also proves
// that the umbrella compiles on its own.
#include "qaplan/qaplan.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
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

// A third-party library enters the sources through one private adapter header (or .cpp files
// only): its heavy header stays out of every other header's users, and the one place that wraps
// it is known. Public headers include none.
TEST(Umbrella, ThirdPartyHeadersOnlyInTheirAdapter) {
  namespace fs = std::filesystem;
  const fs::path root = qaplan::test::source_dir();
  const std::map<std::string, std::string> adapter = {
      {"<nlohmann/", "src/common/json_reader.hpp"}, {"<toml++/", "src/common/toml_reader.hpp"},
      {"<nettle/", "src/common/sha256.hpp"},
      {"<opencc/", "src/planning/tw2s.hpp"},        {"<spdlog/", ""},
      {"<unicode/", ""},                             {"<linear.h>", ""},
      {"<hnswlib/", "src/ranking/internal/hnsw_adapter.hpp"}};
  size_t checked = 0;
  for (const char* dir : {"src", "include", "tools"}) {
    for (const auto& e : fs::recursive_directory_iterator(root / dir)) {
      if (e.path().extension() != ".hpp" && e.path().extension() != ".h") continue;
      const std::string name = fs::relative(e.path(), root).generic_string();
      const std::string text = qaplan::test::slurp(e.path());
      ++checked;
      for (const auto& [header, owner] : adapter) {
        const bool includes = text.find("#include " + header) != std::string::npos;
        EXPECT_TRUE(!includes || name == owner)
            << name << " includes " << header << "; only "
            << (owner.empty() ? std::string(".cpp files") : owner) << " may";
      }
    }
  }
  EXPECT_GE(checked, 100u);
}

}  // namespace
