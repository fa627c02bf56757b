// `qaplan eval-rewrite` end to end (docs/eval-rewrite.md): the shipped follow-ups over the shipped
// knowledge base and the frozen single-turn benchmark; every figure of report.json recomputed
// here from its per-question rows; the Recall@5 gate both ways; bad datasets.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "json_support.hpp"
#include "qaplan/eval/chain_eval.hpp"
#include "test_support.hpp"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using qaplan::test::run;
using qaplan::test::RunResult;
using qaplan::test::sh_quote;
using qaplan::test::slurp;

const char* const kArms[] = {"raw", "rewrite", "rewrite_variants", "full"};

class EvalRewriteCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("qaplan-eval-rewrite-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  RunResult eval(const std::string& args) {
    return run(sh_quote(qaplan::test::qaplan_bin()) + " eval-rewrite --config " +
               sh_quote(qaplan::test::shipped_config().string()) + " " + args);
  }
  static fs::path shipped_followups() {
    return qaplan::test::source_dir() / "eval_sets" / "chain" / "followups-v1.jsonl";
  }
  // Writes `lines` as name.jsonl with a registry beside it that registers exactly these bytes.
  fs::path write_set(const std::string& name, const std::vector<json>& lines) {
    std::string text;
    for (const json& l : lines) text += l.dump() + "\n";
    const fs::path p = dir_ / name;
    std::ofstream(p, std::ios::binary) << text;
    auto sha = qaplan::canonical_jsonl_sha256(text, name);
    EXPECT_TRUE(sha.ok());
    json reg = {{"format", "qaplan-chain-fingerprints-1"},
                {"files", {{name, {{"version", "test-1"}, {"kb", "kb-1"}, {"sha256", *sha}}}}}};
    std::ofstream(dir_ / "fingerprints.json") << reg.dump(2);
    return p;
  }
  static std::vector<json> shipped_rows() {
    std::vector<json> rows;
    std::istringstream in(slurp(shipped_followups()));
    for (std::string line; std::getline(in, line);)
      if (!line.empty()) rows.push_back(json::parse(line));
    return rows;
  }
  fs::path dir_;
};

double recall_of(const json& arm, std::size_t items, std::size_t k) {
  std::size_t found = 0;
  for (const json& r : arm["ranks"]) found += !r.is_null() && r.get<std::size_t>() <= k;
  return items == 0 ? 0.0 : static_cast<double>(found) / static_cast<double>(items);
}
double rr_of(const json& arm) {
  std::size_t best = 0;
  for (const json& r : arm["ranks"])
    if (!r.is_null() && (best == 0 || r.get<std::size_t>() < best)) best = r.get<std::size_t>();
  return best >= 1 && best <= 10 ? 1.0 / static_cast<double>(best) : 0.0;
}

// Every aggregate of one collection recomputed from the per-question rows.
void check_collection(const json& report, const std::string& collection) {
  struct Acc {
    std::size_t n = 0, items = 0, found5 = 0;
    double r1 = 0, r5 = 0, r10 = 0, rr = 0;
    long retrieval = 0, paths = 0, model = 0;
  };
  std::map<std::string, std::map<std::string, Acc>> by;  // group → arm → sums
  std::map<std::string, std::size_t> rewritten;
  for (const json& q : report["questions"]) {
    if (q["collection"] != collection) continue;
    rewritten["all"] += q["rewritten"].get<bool>();
    rewritten[q["family"].get<std::string>()] += q["rewritten"].get<bool>();
    const std::size_t items = q["items"].size();
    ASSERT_GT(items, 0u) << q["id"];
    for (const auto& [arm, a] : q["arms"].items()) {
      ASSERT_EQ(a["ranks"].size(), items) << q["id"] << " " << arm;
      for (const std::string g : {std::string("all"), q["family"].get<std::string>()}) {
        Acc& acc = by[g][arm];
        ++acc.n;
        acc.items += items;
        acc.r1 += recall_of(a, items, 1);
        acc.r5 += recall_of(a, items, 5);
        acc.r10 += recall_of(a, items, 10);
        acc.rr += rr_of(a);
        for (const json& r : a["ranks"]) acc.found5 += !r.is_null() && r.get<std::size_t>() <= 5;
        acc.retrieval += a["cost"]["retrieval_calls"].get<long>();
        acc.paths += a["cost"]["variant_paths"].get<long>();
        acc.model += a["cost"]["model_calls"].get<long>();
      }
      // The row's own figures agree with its ranks.
      EXPECT_NEAR(a["recall_at_5"].get<double>(), recall_of(a, items, 5), 1e-12);
      EXPECT_NEAR(a["reciprocal_rank"].get<double>(), rr_of(a), 1e-12);
    }
  }
  const json& m = report["metrics"][collection];
  ASSERT_FALSE(by.empty());
  for (const auto& [group, n] : rewritten)
    EXPECT_EQ(m["rewritten"][group].get<std::size_t>(), n) << group;
  for (const auto& [group, arms] : by) {
    const json& g = group == "all" ? m["all"] : m["by_family"][group];
    ASSERT_EQ(g.size(), arms.size()) << group;
    for (const auto& [arm, acc] : arms) {
      const json& x = g[arm];
      EXPECT_EQ(x["questions"].get<std::size_t>(), acc.n) << group << " " << arm;
      EXPECT_EQ(x["items"].get<std::size_t>(), acc.items) << group << " " << arm;
      EXPECT_EQ(x["items_found_at_5"].get<std::size_t>(), acc.found5) << group << " " << arm;
      EXPECT_NEAR(x["recall_at_1"].get<double>(), acc.r1 / acc.n, 1e-9) << group << " " << arm;
      EXPECT_NEAR(x["recall_at_5"].get<double>(), acc.r5 / acc.n, 1e-9) << group << " " << arm;
      EXPECT_NEAR(x["recall_at_10"].get<double>(), acc.r10 / acc.n, 1e-9) << group << " " << arm;
      EXPECT_NEAR(x["mrr_at_10"].get<double>(), acc.rr / acc.n, 1e-9) << group << " " << arm;
      EXPECT_EQ(x["cost"]["retrieval_calls"].get<long>(), acc.retrieval) << group << " " << arm;
      EXPECT_EQ(x["cost"]["variant_paths"].get<long>(), acc.paths) << group << " " << arm;
      EXPECT_EQ(x["cost"]["model_calls"].get<long>(), acc.model) << group << " " << arm;
    }
  }
}

// The gate recomputed from the rows.
double ratio_from_rows(const json& report) {
  double rw = 0, full = 0;
  for (const json& q : report["questions"]) {
    if (q["collection"] != "followups") continue;
    const std::size_t items = q["items"].size();
    rw += recall_of(q["arms"]["rewrite"], items, 5);
    full += recall_of(q["arms"]["full"], items, 5);
  }
  return full > 0 ? rw / full : -1.0;
}

TEST_F(EvalRewriteCli, ShippedSetsEveryFigureFollowsFromTheRows) {
  const RunResult r = eval("--output " + sh_quote((dir_ / "out").string()));
  const json j = json::parse(slurp(dir_ / "out" / "report.json"));
  const bool passed = j["gate"]["passed"].get<bool>();
  EXPECT_EQ(r.status, 0) << r.err;  // without --fail-on-gate a failed gate is still a complete run
  EXPECT_EQ(j["followups"]["version"], "followups-1");
  EXPECT_EQ(j["knowledge_base"]["version"], "kb-1");
  EXPECT_EQ(j["benchmark"]["version"], "policy-retrieval-1");
  std::size_t followups = 0, bench = 0;
  for (const json& q : j["questions"]) {
    if (q["collection"] == "followups") {
      ++followups;
      for (const char* arm : kArms) EXPECT_TRUE(q["arms"].contains(arm)) << q["id"] << arm;
      // The rewrite arm searches the rewrite, never the history.
      const std::string query = q["arms"]["rewrite"]["query"];
      if (!q["rewritten"].get<bool>()) EXPECT_EQ(query, q["arms"]["raw"]["query"]) << q["id"];
      // The variants arm searches what the executor would: never the fragment as typed once it
      // was rewritten.
      if (q["rewritten"].get<bool>() && query != q["arms"]["raw"]["query"]) {
        const json& v = q["arms"]["rewrite_variants"]["variants"];
        EXPECT_EQ(std::find(v.begin(), v.end(), q["arms"]["raw"]["query"]), v.end()) << q["id"];
        EXPECT_EQ(q["arms"]["rewrite_variants"]["query"], query) << q["id"];
      }
    } else {
      ++bench;
      EXPECT_EQ(q["family"], "single_turn");
      EXPECT_FALSE(q["arms"].contains("full"));
    }
  }
  EXPECT_EQ(followups, 126u);
  EXPECT_GT(bench, 0u);
  check_collection(j, "followups");
  check_collection(j, "benchmark");
  const double ratio = ratio_from_rows(j);
  EXPECT_NEAR(j["gate"]["ratio"].get<double>(), ratio, 1e-9);
  EXPECT_EQ(passed, ratio >= j["gate"]["min_ratio"].get<double>());
  // Families: the five of the follow-up set, each with 25 or 26 questions.
  EXPECT_EQ(j["metrics"]["followups"]["by_family"].size(), 5u);
  const std::string md = slurp(dir_ / "out" / "report.md");
  EXPECT_EQ(md.find("null"), std::string::npos);
  EXPECT_NE(md.find("## Gate"), std::string::npos);
  EXPECT_NE(md.find("| continuation |"), std::string::npos);
  // With --fail-on-gate the exit status follows the gate.
  const RunResult g = eval("--fail-on-gate --output " + sh_quote((dir_ / "gate").string()));
  EXPECT_EQ(g.status, passed ? 0 : 3) << g.err;
}

TEST_F(EvalRewriteCli, TwoRunsAreIdenticalApartFromTiming) {
  ASSERT_EQ(eval("--output " + sh_quote((dir_ / "a").string())).status, 0);
  ASSERT_EQ(eval("--output " + sh_quote((dir_ / "b").string())).status, 0);
  json a = json::parse(slurp(dir_ / "a" / "report.json"));
  json b = json::parse(slurp(dir_ / "b" / "report.json"));
  EXPECT_TRUE(a.contains("timing"));
  qaplan::test::strip_timing(a);
  qaplan::test::strip_timing(b);
  EXPECT_EQ(a, b);
  EXPECT_EQ(slurp(dir_ / "a" / "report.md"), slurp(dir_ / "b" / "report.md"));
}

TEST_F(EvalRewriteCli, GateFailsWhereTheHistoryCannotHelp) {
  // The shipped follow-ups with their history replaced by small talk: nothing in the history
  // names what the follow-up is about, so no rewrite can recover it; the full question can.
  std::vector<json> rows = shipped_rows();
  for (json& r : rows) r["history"] = json::array({"你好，在吗"});
  const fs::path set = write_set("nohelp.jsonl", rows);
  const RunResult r = eval("--no-bench --fail-on-gate --dataset " + sh_quote(set.string()) +
                           " --output " + sh_quote((dir_ / "out").string()));
  EXPECT_EQ(r.status, 3) << r.err;
  const json j = json::parse(slurp(dir_ / "out" / "report.json"));
  EXPECT_EQ(j["benchmark"], nullptr);
  const double ratio = ratio_from_rows(j);
  EXPECT_LT(ratio, 0.9);
  EXPECT_FALSE(j["gate"]["passed"].get<bool>());
  check_collection(j, "followups");
}

TEST_F(EvalRewriteCli, GatePassesWhenTheFollowUpIsAlreadyWrittenOut) {
  // The same rows asked as their full question (after unrelated small talk): nothing to
  // rewrite, so the rewrite arm reaches the ceiling.
  std::vector<json> rows = shipped_rows();
  for (json& r : rows) {
    r["history"] = json::array({"你好，在吗"});
    r["question"] = r["full_question"];
  }
  const fs::path set = write_set("written.jsonl", rows);
  const RunResult r = eval("--no-bench --fail-on-gate --dataset " + sh_quote(set.string()) +
                           " --output " + sh_quote((dir_ / "out").string()));
  EXPECT_EQ(r.status, 0) << r.err;
  const json j = json::parse(slurp(dir_ / "out" / "report.json"));
  EXPECT_GE(ratio_from_rows(j), 0.9);
  EXPECT_TRUE(j["gate"]["passed"].get<bool>());
}

TEST_F(EvalRewriteCli, BadDatasetIsOneLineNamingFileAndLine) {
  std::vector<json> rows = shipped_rows();
  rows.resize(3);
  struct Case {
    std::string name;
    std::function<void(json&)> spoil;
    std::string field;
  };
  const std::vector<Case> cases = {
      {"nofull.jsonl", [](json& r) { r.erase("full_question"); }, "full_question"},
      {"family.jsonl", [](json& r) { r["family"] = "sarcasm"; }, "family"},
      {"history.jsonl", [](json& r) { r["history"] = json::array(); }, "history"},
      {"noevidence.jsonl", [](json& r) {
         r["expected_chunk_ids"] = json::array();
         r["expected_faq_id"] = nullptr;
       }, "expected_chunk_ids"},
  };
  for (const Case& c : cases) {
    std::vector<json> bad = rows;
    c.spoil(bad[2]);
    const fs::path set = write_set(c.name, bad);
    const fs::path out = dir_ / ("out-" + c.name);
    const RunResult r = eval("--dataset " + sh_quote(set.string()) + " --output " +
                             sh_quote(out.string()));
    EXPECT_EQ(r.status, 2) << c.name << ": " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find(c.name + ":3"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(c.field), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(out)) << c.name;
  }
  // Malformed JSON on line 2.
  {
    const fs::path p = dir_ / "broken.jsonl";
    std::ofstream(p) << rows[0].dump() << "\n{\"id\": \"f-x\",\n";
    const RunResult r = eval("--dataset " + sh_quote(p.string()) + " --output " +
                             sh_quote((dir_ / "out-broken").string()));
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_NE(r.err.find("broken.jsonl:2"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(dir_ / "out-broken"));
  }
  // A well-formed file the registry does not know.
  {
    const fs::path p = write_set("known.jsonl", rows);
    std::ofstream(p, std::ios::app) << rows[0].dump() << "\n";  // duplicate id on line 4
    const RunResult r = eval("--dataset " + sh_quote(p.string()) + " --output " +
                             sh_quote((dir_ / "out-dup").string()));
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_NE(r.err.find("known.jsonl:4"), std::string::npos) << r.err;
  }
}

}  // namespace
