// `qaplan eval-route` end to end (docs/routing.md): per domain and split counts of real questions
// answered directly and social messages answered directly, the gate both ways (exit 3 only with
// --fail-on-gate), bad rows named by file and line (exit 2), and the shipped out-of-domain set
// passing the gate CI holds it to.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "test_support.hpp"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using qaplan::test::run;
using qaplan::test::RunResult;
using qaplan::test::sh_quote;
using qaplan::test::slurp;

json row(const std::string& id, const std::string& domain, const std::string& act,
         const std::string& text, const std::string& split) {
  return {{"id", id},   {"domain", domain}, {"kind", act == "question" ? "question" : "social"},
          {"act", act}, {"text", text},     {"split", split}};
}

class EvalRouteCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("qaplan-eval-route-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "set");
  }
  void TearDown() override { fs::remove_all(dir_); }

  void write(const std::string& name, const std::vector<json>& rows) {
    std::ofstream out(dir_ / "set" / name, std::ios::binary);
    for (const json& r : rows) out << r.dump() << "\n";
  }
  RunResult eval(const std::string& args) {
    return run(sh_quote(qaplan::test::qaplan_bin()) + " eval-route --config " +
               sh_quote(qaplan::test::shipped_config().string()) + " --output " +
               sh_quote((dir_ / "out").string()) + " " + args);
  }
  json report() { return json::parse(slurp(dir_ / "out" / "report.json")); }
  static const json* cell(const json& r, const std::string& domain, const std::string& split) {
    for (const json& c : r.at("cells"))
      if (c.at("domain") == domain && c.at("split") == split) return &c;
    return nullptr;
  }
  fs::path dir_;
};

// Two domains; every message is one the shipped planner decides without doubt (a question with a
// question word, a bare thanks or goodbye), so the counts are known.
std::vector<json> clear_rows(const std::string& d) {
  return {row(d + "-q1", d, "question", "招财宝怎么赎回", "test"),
          row(d + "-q2", d, "question", "为什么我的闪付卡额度一直没有涨", "test"),
          row(d + "-q3", d, "question", "退货地址在哪里", "dev"),
          row(d + "-s1", d, "thanks", "谢谢", "test"), row(d + "-s2", d, "goodbye", "再见", "dev")};
}

TEST_F(EvalRouteCli, CountsPerDomainAndSplit) {
  write("bank.jsonl", clear_rows("bank"));
  write("shop.jsonl", clear_rows("shop"));
  const RunResult r = eval("--dataset " + sh_quote((dir_ / "set").string()) + " --fail-on-gate");
  ASSERT_EQ(r.status, 0) << r.err;
  const json rep = report();
  for (const std::string d : {"bank", "shop"}) {
    const json* t = cell(rep, d, "test");
    ASSERT_NE(t, nullptr) << d;
    EXPECT_EQ(t->at("questions"), 2);
    EXPECT_EQ(t->at("questions_direct"), 0);
    EXPECT_EQ(t->at("social"), 1);
    EXPECT_EQ(t->at("social_direct"), 1);
    const json* v = cell(rep, d, "dev");
    ASSERT_NE(v, nullptr) << d;
    EXPECT_EQ(v->at("questions"), 1);
    EXPECT_EQ(v->at("social_direct"), 1);
  }
  const json* all = cell(rep, "all", "test");
  ASSERT_NE(all, nullptr);
  EXPECT_EQ(all->at("questions"), 4);
  EXPECT_EQ(all->at("social"), 2);
  EXPECT_TRUE(rep.at("gate").at("passed").get<bool>());
  EXPECT_TRUE(fs::exists(dir_ / "out" / "report.md"));
}

// A social message the planner retrieves (it carries a question) misses the social gate: exit 3
// with --fail-on-gate naming the cell, exit 0 without it; the error lists the message.
TEST_F(EvalRouteCli, AMissedGateExits3OnlyWhenAsked) {
  std::vector<json> rows = clear_rows("bank");
  rows.push_back(row("bank-s3", "bank", "thanks", "谢谢，那退货地址在哪里", "test"));
  write("bank.jsonl", rows);
  const std::string set = sh_quote((dir_ / "set").string());
  const RunResult gated = eval("--dataset " + set + " --fail-on-gate");
  EXPECT_EQ(gated.status, 3) << gated.err;
  EXPECT_NE(gated.err.find("social"), std::string::npos) << gated.err;
  const json rep = report();
  EXPECT_FALSE(rep.at("gate").at("passed").get<bool>());
  const json* t = cell(rep, "bank", "test");
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->at("social"), 2);
  EXPECT_EQ(t->at("social_direct"), 1);
  ASSERT_EQ(t->at("social_errors").size(), 1u);
  EXPECT_NE(t->at("social_errors")[0].get<std::string>().find("bank-s3"), std::string::npos);
  EXPECT_EQ(eval("--dataset " + set).status, 0);
  // The dev split has no such message: gating dev passes.
  EXPECT_EQ(eval("--dataset " + set + " --split dev --fail-on-gate").status, 0);
}

TEST_F(EvalRouteCli, BadRowsExit2NamingFileLineAndField) {
  write("bank.jsonl", {row("bank-q1", "bank", "question", "招财宝怎么赎回", "test"),
                       row("bank-q2", "bank", "thanks", "谢谢", "train")});
  const RunResult bad_split = eval("--dataset " + sh_quote((dir_ / "set").string()));
  EXPECT_EQ(bad_split.status, 2);
  EXPECT_NE(bad_split.err.find("bank.jsonl:2"), std::string::npos) << bad_split.err;
  EXPECT_NE(bad_split.err.find("split"), std::string::npos) << bad_split.err;
  EXPECT_FALSE(fs::exists(dir_ / "out" / "report.json"));

  json contradicting = row("bank-q1", "bank", "thanks", "招财宝怎么赎回", "test");
  contradicting["kind"] = "question";  // an act that is not a question on a question row
  write("bank.jsonl", {contradicting});
  const RunResult contradiction = eval("--dataset " + sh_quote((dir_ / "set").string()));
  EXPECT_EQ(contradiction.status, 2);
  EXPECT_NE(contradiction.err.find("act"), std::string::npos) << contradiction.err;
}

// What CI runs: the eight held-out domains pass the gate on their test split.
TEST(EvalRouteShipped, TheHeldOutDomainsPassTheGate) {
  const fs::path out =
      fs::temp_directory_path() / ("qaplan-eval-route-ood-" + std::to_string(::getpid()));
  fs::remove_all(out);
  const RunResult r = run(sh_quote(qaplan::test::qaplan_bin()) + " eval-route --config " +
                          sh_quote(qaplan::test::shipped_config().string()) + " --dataset " +
                          sh_quote((qaplan::test::source_dir() / "eval_sets" / "ood").string()) +
                          " --output " + sh_quote(out.string()) + " --fail-on-gate");
  EXPECT_EQ(r.status, 0) << r.err;
  const json rep = json::parse(slurp(out / "report.json"));
  int domains = 0;
  for (const json& c : rep.at("cells"))
    if (c.at("split") == "test" && c.at("domain") != "all") ++domains;
  EXPECT_GE(domains, 6);
  fs::remove_all(out);
}

}  // namespace

namespace {

// The route in the host's own domain: four deployments no rule was written on
// (eval_sets/ood_probe: messages written blind, 96 questions and 48 social messages each), each
// planned with a domain lexicon built by `qaplan domain build` from a small KB of its own
// (eval_sets/ood_probe_kb: written blind by another helper, who saw no message). With the host's
// vocabulary no more than two real questions of 384 get a canned reply (measured: 2 — a complaint
// read as a hand-off, and 你能帮我选课吗, whose 选课 the lexicon lacks; 3 before the twenty-ninth
// session's rules); social messages mostly still do (measured 167 of 192 — a KB word such as
// 小管家, the assistant's name in the KB, makes a thanks a retrieval: recoverable).
TEST(EvalRouteInTheHostsDomain, AKbOfTheirOwnKeepsRealQuestionsFromCannedReplies) {
  namespace fs = std::filesystem;
  const fs::path dir =
      fs::temp_directory_path() / ("qaplan-route-kb-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  int questions = 0, questions_direct = 0, social = 0, social_direct = 0;
  for (const char* d : {"gov_services", "property_mgmt", "auto_dealer", "training_school"}) {
    const fs::path cfg = dir / d / "config";
    fs::create_directories(cfg);
    fs::copy_file(qaplan::test::shipped_config(), cfg / "rules.toml");
    qaplan::test::copy_config_companions(cfg);
    const fs::path src = qaplan::test::source_dir() / "eval_sets";
    const fs::path kb = src / "ood_probe_kb" / (std::string(d) + ".jsonl");
    const RunResult built = run(sh_quote(qaplan::test::qaplan_bin()) + " domain build --corpus " +
                                sh_quote(kb.string()) + " --output " +
                                sh_quote((cfg / "domain" / "kb.qdl").string()));
    ASSERT_EQ(built.status, 0) << built.err;
    fs::create_directories(dir / d / "set");
    fs::copy_file(src / "ood_probe" / (std::string(d) + ".jsonl"), dir / d / "set" / "probe.jsonl");
    const RunResult r = run(sh_quote(qaplan::test::qaplan_bin()) + " eval-route --config " +
                            sh_quote((cfg / "rules.toml").string()) + " --dataset " +
                            sh_quote((dir / d / "set").string()) + " --output " +
                            sh_quote((dir / d / "out").string()));
    ASSERT_EQ(r.status, 0) << r.err;
    const json rep = json::parse(slurp(dir / d / "out" / "report.json"));
    for (const json& c : rep.at("cells")) {
      if (c.at("domain") == "all") continue;
      questions += c.at("questions").get<int>();
      questions_direct += c.at("questions_direct").get<int>();
      social += c.at("social").get<int>();
      social_direct += c.at("social_direct").get<int>();
    }
  }
  fs::remove_all(dir);
  std::printf("[route in the host's domain] questions answered directly %d/%d, social %d/%d\n",
              questions_direct, questions, social_direct, social);
  EXPECT_EQ(questions, 384);
  EXPECT_LE(questions_direct, 2);
  EXPECT_GE(social_direct, 160);
}

}  // namespace
