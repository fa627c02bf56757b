// qaplan ask and search --with-text (docs/indexes.md): a question to ranked passages with their
// text over a saved index, the plan's rewrite, scope, time range and limits applied.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <nlohmann/json.hpp>
#include <sstream>

#include "test_support.hpp"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using qaplan::test::run;
using qaplan::test::RunResult;
using qaplan::test::ScratchDir;
using qaplan::test::sh_quote;

const char* kNow = "2026-03-15T10:00:00+08:00";

fs::path kb_docs() { return qaplan::test::source_dir() / "eval_sets" / "kb" / "docs.jsonl"; }

std::map<std::string, json> corpus_by_id(const fs::path& corpus) {
  std::map<std::string, json> out;
  std::istringstream in(qaplan::test::slurp(corpus));
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) {
      json j = json::parse(line);
      out[j["id"].get<std::string>()] = j;
    }
  return out;
}

class AskCli : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new ScratchDir("ask");
    const RunResult r = q("index build --corpus " + sh_quote(kb_docs().string()) + " --output " +
                          sh_quote(index().string()));
    ASSERT_EQ(r.status, 0) << r.err;
  }
  static void TearDownTestSuite() { delete dir_; }
  static fs::path index() { return dir_->path() / "ix"; }
  static RunResult q(const std::string& args) {
    return run("env -u QAPLAN_CONFIG " + sh_quote(qaplan::test::qaplan_bin()) + " " + args);
  }
  static json ask(const std::string& args) {
    const RunResult r = q("ask " + args + " --index " + sh_quote(index().string()) + " --now " + kNow);
    EXPECT_EQ(r.status, 0) << args << ": " << r.err;
    return json::parse(r.out);
  }
  static inline ScratchDir* dir_ = nullptr;
};

TEST_F(AskCli, SearchWithTextReturnsEachHitsOwnText) {
  const RunResult r = q("search --index " + sh_quote(index().string()) +
                        " --query '差旅 住宿 标准' --k 3 --with-text");
  ASSERT_EQ(r.status, 0) << r.err;
  const json hits = json::parse(r.out)["hits"];
  ASSERT_EQ(hits.size(), 3u);
  const auto corpus = corpus_by_id(kb_docs());
  for (const json& h : hits) EXPECT_EQ(h["text"], corpus.at(h["id"].get<std::string>())["text"]);
  // Text needs the store and JSON.
  EXPECT_EQ(q("search --index " + sh_quote(index().string()) + " --query x --with-text --format tsv")
                .status,
            2);
}

TEST_F(AskCli, PassagesCarryTheirTextAndTheRouteAnswersSmallTalk) {
  const json hello = ask("'你好'");
  EXPECT_EQ(hello["route"], "direct_answer");
  EXPECT_FALSE(hello["reply"].get<std::string>().empty());
  EXPECT_FALSE(hello.contains("passages"));

  const json a = ask("'出差住宿标准是多少'");
  EXPECT_EQ(a["route"], "retrieval");
  ASSERT_FALSE(a["passages"].empty());
  const auto corpus = corpus_by_id(kb_docs());
  std::set<std::string> parents;
  for (const json& p : a["passages"]) {
    const json& doc = corpus.at(p["id"].get<std::string>());
    EXPECT_EQ(p["text"], doc["text"]);
    EXPECT_EQ(p["source"], doc["source"]);
    EXPECT_TRUE(parents.insert(doc["parent_id"].get<std::string>()).second) << "one per section";
  }
  EXPECT_NE(a["passages"][0]["text"].get<std::string>().find("住宿"), std::string::npos);
}

TEST_F(AskCli, TheFollowUpIsSearchedAsItsRewriteAndTheExplanationIsThePlan) {
  const json a = ask("'那病假呢' --history '年假怎么申请' --explain");
  ASSERT_EQ(a["queries"].size(), 1u);
  EXPECT_EQ(a["queries"][0], a["plan"]["analysis"]["rewrite"]["query"]);
  EXPECT_NE(a["queries"][0].get<std::string>().find("病假"), std::string::npos);
  ASSERT_FALSE(a["passages"].empty());
  EXPECT_NE(a["passages"][0]["text"].get<std::string>().find("病假"), std::string::npos);
  // --explain is exactly what `qaplan plan` says for the same request.
  const RunResult plan = q("plan '那病假呢' --history '年假怎么申请' --now " + std::string(kNow));
  ASSERT_EQ(plan.status, 0) << plan.err;
  EXPECT_EQ(a["plan"], json::parse(plan.out));
}

TEST_F(AskCli, ScopeAndTimeRangeHoldForEveryPassage) {
  const json legal = ask("'审批流程' --source legal");
  ASSERT_FALSE(legal["passages"].empty());
  for (const json& p : legal["passages"]) EXPECT_EQ(p["source"], "legal");
  // 去年第三季度 at 2026-03-15: [2025-07-01, 2025-10-01); every passage in force on some day of it.
  const json dated = ask("'去年第三季度的差旅费报销制度'");
  ASSERT_FALSE(dated["passages"].empty());
  bool superseded_exists = false;
  for (const auto& [id, doc] : corpus_by_id(kb_docs()))
    superseded_exists |= doc["effective_to"].is_string() && doc["effective_to"] < "2025-07-01" &&
                         doc["source"] == "finance";
  ASSERT_TRUE(superseded_exists) << "the KB lost the superseded policy this test needs";
  for (const json& p : dated["passages"]) {
    EXPECT_LT(p["effective_from"].get<std::string>(), "2025-10-01") << p["id"];
    if (p.contains("effective_to")) EXPECT_GE(p["effective_to"].get<std::string>(), "2025-07-01") << p["id"];
  }
}

// A department read from the question's words is a preference: documents of another department
// that answer the question still come back (IT部 has no reimbursement rules; finance does).
TEST_F(AskCli, AGuessedDepartmentRanksItsDocumentsHigherButKeepsTheRest) {
  const json a = ask("'IT部门的报销标准' --explain");
  const json& filters = a["plan"]["analysis"]["filters"];
  EXPECT_EQ(filters["department"], "IT部");
  EXPECT_EQ(filters["preferred"], json::array({"department"}));
  ASSERT_FALSE(a["passages"].empty());
  const auto corpus = corpus_by_id(kb_docs());
  bool other_department = false;
  for (const json& p : a["passages"])
    other_department |= corpus.at(p["id"].get<std::string>())["department"] != "IT部";
  EXPECT_TRUE(other_department) << a["passages"];
}

TEST_F(AskCli, AFieldTheCorpusLacksNeverScopesItsDocumentsAway) {
  ScratchDir t("ask-plain");
  const fs::path corpus = t.path() / "c.jsonl";
  std::ofstream(corpus) << R"({"id": "a", "text": "年假申请需要在系统里提交，主管审批"})" "\n"
                        << R"({"id": "b", "text": "报销发票需要在三个月内提交"})" "\n";
  ASSERT_EQ(q("index build --corpus " + sh_quote(corpus.string()) + " --output " +
              sh_quote((t.path() / "ix").string()))
                .status,
            0);
  const RunResult r = q("ask '年假怎么申请' --source hr --index " + sh_quote((t.path() / "ix").string()));
  ASSERT_EQ(r.status, 0) << r.err;
  const json a = json::parse(r.out);
  ASSERT_FALSE(a["passages"].empty());
  EXPECT_EQ(a["passages"][0]["id"], "a");
  ASSERT_TRUE(a.contains("notes"));
  EXPECT_NE(a["notes"].dump().find("filter on source"), std::string::npos) << a["notes"];
}

TEST_F(AskCli, AnIndexWithoutItsStoreIsRefusedInOneLine) {
  ScratchDir t("ask-nostore");
  ASSERT_EQ(q("index build --no-store --corpus " + sh_quote(kb_docs().string()) + " --output " +
              sh_quote((t.path() / "ix").string()))
                .status,
            0);
  const RunResult r = q("ask '出差住宿标准' --index " + sh_quote((t.path() / "ix").string()));
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(r.out.empty());
  EXPECT_NE(r.err.find("docs.jsonl"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

// The host's query embedding adds a cosine leg: a document only the vectors find reaches the
// passages when the vector is given, not without it.
TEST_F(AskCli, QueryVectorsAddACosineLeg) {
  ScratchDir t("ask-vectors");
  // In scope (finance, tagged 差旅 like the question), not a lexical top hit.
  const std::string target = "doc-fin-travel-v2-05";
  {
    std::ofstream v(t.path() / "vectors.jsonl");
    for (const auto& [id, doc] : corpus_by_id(kb_docs()))
      v << json{{"id", id}, {"vector", id == target ? std::vector<float>{1, 0, 0, 0}
                                                      : std::vector<float>{0, 1, 0, 0}}}.dump()
        << "\n";
    std::ofstream(t.path() / "q.json") << "[[1, 0, 0, 0]]";
    std::ofstream(t.path() / "bad.json") << "[[1, 0]]";
  }
  const fs::path ix = t.path() / "ix";
  ASSERT_EQ(q("index build --corpus " + sh_quote(kb_docs().string()) + " --vectors " +
              sh_quote((t.path() / "vectors.jsonl").string()) + " --output " + sh_quote(ix.string()))
                .status,
            0);
  auto ids = [&](const std::string& extra) {
    const RunResult r = q("ask '出差住宿标准是多少' --index " + sh_quote(ix.string()) + " --now " +
                          kNow + extra);
    EXPECT_EQ(r.status, 0) << r.err;
    std::set<std::string> out;
    const json a = json::parse(r.out);  // named: a range-for over a temporary's member dangles
    for (const json& p : a["passages"]) out.insert(p["id"].get<std::string>());
    EXPECT_FALSE(out.empty()) << r.out;
    return std::make_pair(out, r.out);
  };
  const auto [lexical, lexical_out] = ids("");
  EXPECT_EQ(lexical.count(target), 0u) << lexical_out;
  const auto [hybrid, hybrid_out] = ids(" --vectors " + sh_quote((t.path() / "q.json").string()));
  EXPECT_EQ(hybrid.count(target), 1u) << hybrid_out;
  // A vector of the wrong length is the request's error, naming it.
  const RunResult bad = q("ask '出差住宿标准是多少' --index " + sh_quote(ix.string()) + " --vectors " +
                          sh_quote((t.path() / "bad.json").string()));
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("query_vectors[0]"), std::string::npos) << bad.err;
}

}  // namespace
