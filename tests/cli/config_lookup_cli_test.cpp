// One config lookup order (docs/guide.md) for every subcommand (--config, $QAPLAN_CONFIG,
// the checkout's config/rules.toml, the user config dir, the installed default / the build
// tree's source file), `-v` naming the file and how it was found, and `qaplan --version`.
// Every case runs the real binary with a controlled working directory and environment.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <toml++/toml.h>

#include "qaplan/version.hpp"
#include "test_support.hpp"

namespace {

namespace fs = std::filesystem;
using qaplan::test::RunResult;
using qaplan::test::sh_quote;

class LookupDir {
 public:
  LookupDir() {
    path_ = fs::temp_directory_path() /
            ("qaplan-lookup-" + std::to_string(::getpid()) + "-" + std::to_string(counter_++));
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~LookupDir() { fs::remove_all(path_); }
  const fs::path& path() const { return path_; }

 private:
  static inline int counter_ = 0;
  fs::path path_;
};

void write(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << text;
}

// A rules file with its companions (model, glossaries) in `dir`.
fs::path copy_rules_to(const fs::path& dir) {
  fs::create_directories(dir);
  fs::copy_file(qaplan::test::shipped_config(), dir / "rules.toml",
                fs::copy_options::overwrite_existing);
  qaplan::test::copy_config_companions(dir);
  return dir / "rules.toml";
}

// A directory that looks like a qaplan checkout: config/rules.toml and the umbrella header.
fs::path make_checkout(const fs::path& root) {
  write(root / "include" / "qaplan" / "qaplan.hpp", "#pragma once\n");
  return copy_rules_to(root / "config");
}

// Runs the CLI in `cwd` with a clean environment: no QAPLAN_CONFIG, XDG_CONFIG_HOME = `xdg`
// (an empty directory unless the test fills it) and HOME = `xdg` too.
RunResult run_in(const fs::path& cwd, const fs::path& xdg, const std::string& args,
                 const std::string& env = "") {
  return qaplan::test::run("cd " + sh_quote(cwd.string()) + " && env -u QAPLAN_CONFIG HOME=" +
                           sh_quote(xdg.string()) + " XDG_CONFIG_HOME=" + sh_quote(xdg.string()) +
                           " " + env + " " + sh_quote(qaplan::test::qaplan_bin()) + " " + args);
}

std::string config_line(const fs::path& p, const std::string& how) {
  return "qaplan: config " + fs::weakly_canonical(p).string() + " (" + how + ")\n";
}

const char* kQuestion = "'报销费用超过5000需要谁审批' --plan-only";

TEST(ConfigLookupCli, CheckoutConfigIsReadInPlaceFromAnySubdirectory) {
  LookupDir t;
  const fs::path rules = make_checkout(t.path() / "checkout");
  fs::create_directories(t.path() / "checkout" / "build" / "deep");
  fs::create_directories(t.path() / "xdg");
  const RunResult r = run_in(t.path() / "checkout" / "build" / "deep", t.path() / "xdg",
                             std::string("-v plan ") + kQuestion);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, config_line(rules, "qaplan checkout"));
  EXPECT_NE(r.out.find("\"reason\":\"faq_first_short_query_guard_pricing_guard\""),
            std::string::npos)
      << r.out;

  // An edit takes effect on the next run: no copy elsewhere shadows it.
  std::ofstream(rules, std::ios::app) << "\n[[[ broken\n";
  const RunResult broken =
      run_in(t.path() / "checkout" / "build" / "deep", t.path() / "xdg", std::string("plan ") + kQuestion);
  EXPECT_EQ(broken.status, 2) << broken.err;
  EXPECT_NE(broken.err.find(rules.filename().string()), std::string::npos) << broken.err;
  EXPECT_NE(broken.err.find("checkout"), std::string::npos) << broken.err;
}

TEST(ConfigLookupCli, ADirectoryWithoutTheQaplanMarkerIsNotACheckout) {
  LookupDir t;
  // config/rules.toml alone (some other project's config folder) is not taken.
  copy_rules_to(t.path() / "other" / "config");
  std::ofstream(t.path() / "other" / "config" / "rules.toml", std::ios::app) << "\n[[[ broken\n";
  fs::create_directories(t.path() / "xdg");
  const RunResult r = run_in(t.path() / "other", t.path() / "xdg", std::string("-v plan ") + kQuestion);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err.find("other/config"), std::string::npos) << r.err;
}

TEST(ConfigLookupCli, FlagBeatsEnvironmentBeatsCheckout) {
  LookupDir t;
  const fs::path checkout_rules = make_checkout(t.path() / "checkout");
  const fs::path env_rules = copy_rules_to(t.path() / "env");
  const fs::path flag_rules = copy_rules_to(t.path() / "flag");
  fs::create_directories(t.path() / "xdg");
  const fs::path cwd = t.path() / "checkout";

  const RunResult env = run_in(cwd, t.path() / "xdg", std::string("-v plan ") + kQuestion,
                               "QAPLAN_CONFIG=" + sh_quote(env_rules.string()));
  ASSERT_EQ(env.status, 0) << env.err;
  EXPECT_EQ(env.err, config_line(env_rules, "$QAPLAN_CONFIG"));

  const RunResult flag =
      run_in(cwd, t.path() / "xdg",
             std::string("-v plan ") + kQuestion + " --config " + sh_quote(flag_rules.string()),
             "QAPLAN_CONFIG=" + sh_quote(env_rules.string()));
  ASSERT_EQ(flag.status, 0) << flag.err;
  EXPECT_EQ(flag.err, config_line(flag_rules, "--config"));

  // Set but wrong is an error naming the variable, never a silent fall-back to the checkout.
  const RunResult missing = run_in(cwd, t.path() / "xdg", std::string("plan ") + kQuestion,
                                   "QAPLAN_CONFIG=" + sh_quote((t.path() / "nope.toml").string()));
  EXPECT_EQ(missing.status, 2);
  EXPECT_TRUE(missing.out.empty());
  EXPECT_NE(missing.err.find("QAPLAN_CONFIG"), std::string::npos) << missing.err;
  EXPECT_EQ(std::count(missing.err.begin(), missing.err.end(), '\n'), 1) << missing.err;
  (void)checkout_rules;
}

TEST(ConfigLookupCli, UserConfigDirIsUsedOutsideACheckout) {
  LookupDir t;
  fs::create_directories(t.path() / "elsewhere");
  const fs::path xdg_rules = copy_rules_to(t.path() / "xdg" / "qaplan");
  const RunResult r = run_in(t.path() / "elsewhere", t.path() / "xdg",
                             std::string("-v plan ") + kQuestion);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, config_line(xdg_rules, "user config dir"));

  // Without XDG_CONFIG_HOME the user dir is ~/.config/qaplan.
  const fs::path home_rules = copy_rules_to(t.path() / "home" / ".config" / "qaplan");
  const RunResult home = qaplan::test::run(
      "cd " + sh_quote((t.path() / "elsewhere").string()) +
      " && env -u QAPLAN_CONFIG -u XDG_CONFIG_HOME HOME=" + sh_quote((t.path() / "home").string()) +
      " " + sh_quote(qaplan::test::qaplan_bin()) + " -v plan " + kQuestion);
  ASSERT_EQ(home.status, 0) << home.err;
  EXPECT_EQ(home.err, config_line(home_rules, "user config dir"));

  // The checkout still comes first.
  const fs::path checkout_rules = make_checkout(t.path() / "checkout");
  const RunResult in_checkout =
      run_in(t.path() / "checkout", t.path() / "xdg", std::string("-v plan ") + kQuestion);
  ASSERT_EQ(in_checkout.status, 0) << in_checkout.err;
  EXPECT_EQ(in_checkout.err, config_line(checkout_rules, "qaplan checkout"));
}

TEST(ConfigLookupCli, BuildTreeBinaryReadsTheSourceFileNotACopy) {
  LookupDir t;
  fs::create_directories(t.path() / "elsewhere");
  fs::create_directories(t.path() / "xdg");
  const RunResult r =
      run_in(t.path() / "elsewhere", t.path() / "xdg", std::string("-v plan ") + kQuestion);
  ASSERT_EQ(r.status, 0) << r.err;
  // The source file itself, even where an older build left a copy beside the binary.
  EXPECT_EQ(r.err, config_line(qaplan::test::shipped_config(), "build tree's source"));
}

TEST(ConfigLookupCli, EveryCommandThatReadsTheConfigNamesItWithV) {
  LookupDir t;
  const fs::path rules = make_checkout(t.path() / "checkout");
  fs::create_directories(t.path() / "xdg");
  const fs::path cwd = t.path() / "checkout";
  const std::string line = config_line(rules, "qaplan checkout");
  write(t.path() / "corpus.jsonl", "{\"id\":\"d1\",\"text\":\"报销 流程 审批\"}\n");
  for (const std::string args :
       {std::string("-v plan ") + kQuestion, std::string("-v rewrite '那审批呢' --history '报销流程是什么'"),
        std::string("-v config check"),
        "-v search --corpus " + sh_quote((t.path() / "corpus.jsonl").string()) + " --query 报销"}) {
    SCOPED_TRACE(args);
    const RunResult r = run_in(cwd, t.path() / "xdg", args);
    EXPECT_EQ(r.status, 0) << r.err;
    // Exactly once, first on stderr, even when a command reads the file twice.
    EXPECT_EQ(r.err.substr(0, line.size()), line) << r.err;
    EXPECT_EQ(r.err.find(line, 1), std::string::npos) << r.err;
  }
  // Without -v nothing is said.
  const RunResult quiet = run_in(cwd, t.path() / "xdg", std::string("plan ") + kQuestion);
  EXPECT_EQ(quiet.status, 0);
  EXPECT_TRUE(quiet.err.empty()) << quiet.err;
}

TEST(ConfigLookupCli, VersionNamesLibraryConfigSchemaModelAndDatasetFingerprints) {
  LookupDir t;
  const fs::path rules = make_checkout(t.path() / "checkout");
  fs::create_directories(t.path() / "xdg");
  const RunResult r = run_in(t.path() / "checkout", t.path() / "xdg", "--version");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(r.err.empty()) << r.err;
  EXPECT_EQ(r.out.rfind(std::string("qaplan ") + QAPLAN_VERSION_STRING + "\n", 0), 0u) << r.out;

  // Expected values come from the files themselves, not from this test.
  const toml::table cfg = toml::parse_file(rules.string());
  const int schema = cfg["schema_version"].value<int>().value();
  EXPECT_NE(r.out.find("config schema_version " + std::to_string(schema) + "\n"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("config " + fs::weakly_canonical(rules).string() + " (qaplan checkout)"),
            std::string::npos)
      << r.out;
  const std::string model_sha = cfg["model"]["sha256"].value<std::string>().value();
  EXPECT_NE(r.out.find("sha256:" + model_sha), std::string::npos) << r.out;
  const auto registry = nlohmann::json::parse(
      qaplan::test::slurp(qaplan::test::source_dir() / "eval_sets" / "fingerprints.json"));
  ASSERT_FALSE(registry.empty());
  for (const auto& [name, fp] : registry.items()) {
    EXPECT_NE(r.out.find("benchmark dataset " + name + " dataset_sha256:" +
                         fp.at("dataset_sha256").get<std::string>()),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("corpus_sha256:" + fp.at("corpus_sha256").get<std::string>()),
              std::string::npos)
        << r.out;
  }

  // The model line follows the config in use: turned off there, "(off)" here.
  std::string text = qaplan::test::slurp(rules);
  const auto at = text.find("enabled = true", text.find("[model]"));
  ASSERT_NE(at, std::string::npos);
  text.replace(at, 14, "enabled = false");
  write(rules, text);
  const RunResult off = run_in(t.path() / "checkout", t.path() / "xdg", "--version");
  EXPECT_NE(off.out.find("sha256:" + model_sha + " (off)"), std::string::npos) << off.out;

  // A broken config does not break --version; it says so on the config's line.
  write(rules, "[[[ broken\n");
  const RunResult broken = run_in(t.path() / "checkout", t.path() / "xdg", "--version");
  EXPECT_EQ(broken.status, 0);
  EXPECT_NE(broken.out.find("config error"), std::string::npos) << broken.out;
}

}  // namespace
