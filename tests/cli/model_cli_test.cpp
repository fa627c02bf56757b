// `qaplan model train` / `qaplan model eval` through the binary (QAPLAN_BIN) on the tiny fixture
// data folder: exit codes (0 ok, 2 invalid input), one-line errors naming the file, outputs
// written whole or not at all, inputs never overwritten.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "common/sha256.hpp"
#include "support/router_fixture.hpp"
#include "test_support.hpp"

namespace {

namespace fs = std::filesystem;
using qaplan::test::qaplan_bin;
using qaplan::test::run;
using qaplan::test::sh_quote;
using qaplan::test::slurp;

class ModelCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("qaplan-model-cli-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    files_ = qaplan::test::router_fixture_files();
    write_data(files_, qaplan::test::router_fixture_fingerprints(files_));
  }
  void TearDown() override { fs::remove_all(dir_); }

  void write_data(const std::map<std::string, std::string>& files, const std::string& registry) {
    fs::remove_all(data());
    for (const auto& [name, text] : files) write(data() / name, text);
    write(data() / "fingerprints.json", registry);
  }
  static void write(const fs::path& p, const std::string& content) {
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << content;
  }
  fs::path data() const { return dir_ / "data"; }
  std::string at(const std::string& name) const { return sh_quote((dir_ / name).string()); }
  qaplan::test::RunResult q(const std::string& args) {
    return run(sh_quote(qaplan_bin()) + " " + args);
  }
  std::string train_args(const std::string& out) const {
    return "model train --data " + sh_quote(data().string()) + " --output " + at(out);
  }

  fs::path dir_;
  std::map<std::string, std::string> files_;
};

TEST_F(ModelCli, TrainWritesModelReportAndPrintsSha) {
  const auto r = q(train_args("m.qpm") + " --report " + at("rep"));
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  const std::string bytes = slurp(dir_ / "m.qpm");
  EXPECT_EQ(j["sha256"], qaplan::internal::sha256_hex(bytes));
  EXPECT_EQ(j["bytes"], bytes.size());
  EXPECT_EQ(bytes.substr(0, 8), "QPRouter");
  const auto rep = nlohmann::json::parse(slurp(dir_ / "rep" / "report.json"));
  EXPECT_EQ(rep["model"]["sha256"], j["sha256"]);
  EXPECT_EQ(rep["heads"].size(), 14u);  // five heads × train, dev, test; no dependent dev rows
  EXPECT_NE(slurp(dir_ / "rep" / "report.md").find("Confusion"), std::string::npos);
  // Twice: the same bytes (the command line recorded in the model holds no paths).
  const auto r2 = q(train_args("m2.qpm"));
  ASSERT_EQ(r2.status, 0) << r2.err;
  EXPECT_EQ(slurp(dir_ / "m2.qpm"), bytes);
  // --c is recorded and changes the model.
  const auto r3 = q(train_args("m3.qpm") + " --c act=0.5 --balance source=1");
  ASSERT_EQ(r3.status, 0) << r3.err;
  const std::string m3 = slurp(dir_ / "m3.qpm");
  EXPECT_NE(m3, bytes);
  EXPECT_NE(m3.find("qaplan model train --c act=0.5 --balance source=1"), std::string::npos);
}

TEST_F(ModelCli, EvalWritesReportsForOneSplit) {
  ASSERT_EQ(q(train_args("m.qpm")).status, 0);
  const auto r = q("model eval --model " + at("m.qpm") + " --data " + sh_quote(data().string()) +
                   " --split test --output " + at("ev"));
  ASSERT_EQ(r.status, 0) << r.err;
  const auto rep = nlohmann::json::parse(slurp(dir_ / "ev" / "report.json"));
  for (const auto& h : rep["heads"]) EXPECT_EQ(h["split"], "test");
  EXPECT_TRUE(fs::exists(dir_ / "ev" / "report.md"));
}

TEST_F(ModelCli, BadDataIsExit2AndWritesNothing) {
  auto files = files_;
  files["social.jsonl"] +=
      "{\"text\": \"嗨\", \"act\": \"wave\", \"intent\": null, "
      "\"category\": null, \"source\": null, \"lang\": \"zh-Hans\", "
      "\"split\": \"train\"}\n";
  write_data(files, qaplan::test::router_fixture_fingerprints(files));
  const auto r = q(train_args("m.qpm") + " --report " + at("rep"));
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("social.jsonl:36"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("wave"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "m.qpm"));
  EXPECT_FALSE(fs::exists(dir_ / "rep"));
  // Data that no longer matches its registry.
  write_data(files, qaplan::test::router_fixture_fingerprints(files_));
  const auto f = q(train_args("m.qpm"));
  EXPECT_EQ(f.status, 2);
  EXPECT_NE(f.err.find("social.jsonl"), std::string::npos) << f.err;
  EXPECT_NE(f.err.find("SHA-256"), std::string::npos) << f.err;
  EXPECT_FALSE(fs::exists(dir_ / "m.qpm"));
  // No data folder / no registry.
  EXPECT_EQ(q("model train --data " + at("nope") + " --output " + at("m.qpm")).status, 2);
  fs::remove(data() / "fingerprints.json");
  EXPECT_EQ(q(train_args("m.qpm")).status, 2);
  EXPECT_FALSE(fs::exists(dir_ / "m.qpm"));
}

TEST_F(ModelCli, NeverOverwritesAnInput) {
  const std::string input = (data() / "social.jsonl").string();
  const std::string before = slurp(input);
  const auto r =
      q("model train --data " + sh_quote(data().string()) + " --output " + sh_quote(input));
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("input"), std::string::npos) << r.err;
  EXPECT_EQ(slurp(input), before);
  // eval: the report folder may not be an input either.
  ASSERT_EQ(q(train_args("m.qpm")).status, 0);
  const auto e = q("model eval --model " + at("m.qpm") + " --data " + sh_quote(data().string()) +
                   " --split dev --output " + at("m.qpm"));
  EXPECT_EQ(e.status, 2) << e.err;
  EXPECT_TRUE(fs::is_regular_file(dir_ / "m.qpm"));
}

TEST_F(ModelCli, BadModelOrUsageIsExit2) {
  ASSERT_EQ(q(train_args("m.qpm")).status, 0);
  std::string bytes = slurp(dir_ / "m.qpm");
  bytes[bytes.size() / 2] ^= 0x01;
  write(dir_ / "bad.qpm", bytes);
  write(dir_ / "short.qpm", bytes.substr(0, 30));
  for (const char* model : {"bad.qpm", "short.qpm", "missing.qpm"}) {
    const auto r = q("model eval --model " + at(model) + " --data " + sh_quote(data().string()) +
                     " --split test --output " + at("ev"));
    EXPECT_EQ(r.status, 2) << model;
    EXPECT_NE(r.err.find(model), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_FALSE(fs::exists(dir_ / "ev")) << model;
  }
  EXPECT_EQ(q("model").status, 2);
  EXPECT_EQ(q("model train --output " + at("x.qpm")).status, 2);
  EXPECT_EQ(q(train_args("x.qpm") + " --c act=abc").status, 2);
  EXPECT_EQ(q(train_args("x.qpm") + " --c voice=2").status, 2);
  EXPECT_EQ(q(train_args("x.qpm") + " --c act=0").status, 2);
  EXPECT_EQ(q("model eval --model " + at("m.qpm") + " --data " + sh_quote(data().string()) +
              " --split train --output " + at("ev"))
                .status,
            2);
  EXPECT_FALSE(fs::exists(dir_ / "x.qpm"));
}

}  // namespace

namespace {

// The shipped config pins the shipped model's SHA-256 ([model] sha256): a config whose pin does
// not match the file (a retrained or swapped model) is refused at load — exit 2, one line naming
// the rules file, the field and the model file. With the pin matching, the same copy plans.
TEST(ModelPin, FingerprintMismatchIsExit2NamingTheFile) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("qaplan-model-pin-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  qaplan::test::copy_config_companions(dir);
  const std::string rules = slurp(qaplan::test::shipped_config());
  const std::string shipped_sha = slurp(dir / "models" / "router-v1.qpm.sha256").substr(0, 64);
  ASSERT_NE(rules.find("sha256 = \"" + shipped_sha + "\""), std::string::npos)
      << "config/rules.toml does not pin the shipped model";
  std::ofstream(dir / "rules.toml", std::ios::binary) << rules;
  auto ok = run(sh_quote(qaplan_bin()) + " plan --plan-only --config " +
                sh_quote((dir / "rules.toml").string()) + " 年假怎么申请");
  EXPECT_EQ(ok.status, 0) << ok.err;
  EXPECT_NE(ok.out.find("\"model_candidate\":{"), std::string::npos) << ok.out;

  std::string bad = rules;
  const std::string other(64, 'a');
  bad.replace(bad.find(shipped_sha), 64, other);
  std::ofstream(dir / "bad.toml", std::ios::binary) << bad;
  const auto r = run(sh_quote(qaplan_bin()) + " plan --plan-only --config " +
                     sh_quote((dir / "bad.toml").string()) + " 年假怎么申请");
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find("bad.toml"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("[model] sha256"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find((dir / "models" / "router-v1.qpm").string()), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(other), std::string::npos) << r.err;
  fs::remove_all(dir);
}

}  // namespace
