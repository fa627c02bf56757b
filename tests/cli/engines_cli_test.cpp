// docs/engines.md: `qaplan plan "<q>" --engine es|opensearch|milvus [--engine-version V]
// [--vectors FILE]` prints the engine requests beside the plan; bad combinations exit 2 with
// one line naming the flag or file.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "test_support.hpp"

namespace {

namespace fs = std::filesystem;
using qaplan::test::run;
using qaplan::test::sh_quote;
using Json = nlohmann::json;

const std::string kNowFlag = " --now 2026-11-30T10:00:00+08:00";

qaplan::test::RunResult plan_now(const std::string& args) {
  return run(sh_quote(qaplan::test::qaplan_bin()) + " plan " + args + kNowFlag);
}

fs::path temp_file(const std::string& name, const std::string& text) {
  const fs::path p = fs::temp_directory_path() / ("qaplan-engines-" + std::to_string(::getpid()) + "-" + name);
  std::ofstream(p, std::ios::binary) << text;
  return p;
}

TEST(EnginesCli, PrintsTheRequestsBesideThePlan) {
  const auto r = plan_now(sh_quote("法务部上周签署的合同清单") + " --engine es");
  ASSERT_EQ(r.status, 0) << r.err;
  const Json j = Json::parse(r.out);
  ASSERT_TRUE(j.contains("retrieval_plan"));
  ASSERT_TRUE(j.contains("analysis"));
  const Json& e = j["engine_requests"];
  EXPECT_EQ(e["engine"], "elasticsearch");
  EXPECT_EQ(e["version"], "8.16");  // [engines.elasticsearch] version of the shipped file
  // No vectors: lexical legs only, reported; the department and tag read from words are
  // preferences, required by one more document leg, fused on the client.
  EXPECT_EQ(e["mode"], "client_fusion");
  bool reported = false;
  for (const Json& k : e["knobs"]) reported |= k["name"] == "dense_legs" && k["status"] == "unsupported";
  EXPECT_TRUE(reported);
  ASSERT_EQ(e["requests"].size(), 3u);  // FAQ, documents, documents preferring 法务部
  EXPECT_EQ(e["requests"][2]["name"], "doc:bm25:0:preferred");
  EXPECT_NE(e["requests"][2]["body"].dump().find("\"department\":\"法务部\""), std::string::npos);
  EXPECT_EQ(e["requests"][1]["body"].dump().find("\"department\""), std::string::npos);
}

TEST(EnginesCli, VersionAndVectorsShapeTheRequests) {
  const auto vecs = temp_file("v.json", "[[0.1, 0.2, 0.3]]");
  const auto r = plan_now(sh_quote("差旅住宿标准是多少") + " --engine opensearch --engine-version 2.10 --vectors " +
                      sh_quote(vecs.string()));
  ASSERT_EQ(r.status, 0) << r.err;
  const Json e = Json::parse(r.out)["engine_requests"];
  EXPECT_EQ(e["version"], "2.10");
  EXPECT_EQ(e["mode"], "client_fusion");
  EXPECT_NE(r.out.find("[0.1,0.2,0.3]"), std::string::npos);
  const auto m = plan_now(sh_quote("差旅住宿标准是多少") + " --engine milvus --engine-version 2.4 --vectors " +
                      sh_quote(vecs.string()) + " --pretty");
  ASSERT_EQ(m.status, 0) << m.err;
  const Json me = Json::parse(m.out)["engine_requests"];
  for (const Json& leg : me["legs"]) EXPECT_EQ(leg["modality"], "dense");  // 2.4: no BM25 function
  fs::remove(vecs);
}

TEST(EnginesCli, BadCombinationsExitTwoWithOneLine) {
  const auto bad_json = temp_file("bad.json", "[[0.1, \"x\"]]");
  const auto two = temp_file("two.json", "[[0.1], [0.2]]");
  const struct {
    std::string args, names;
  } cases[] = {
      {"x --vectors " + bad_json.string(), "--vectors"},  // without --engine
      {"x --engine-version 8.16", "--engine-version"},
      {"x --engine es --plan-only", "--engine"},
      {"x --engine solr", "--engine"},
      {"x --engine es --engine-version 7.10", "7.10"},
      {"x --engine milvus --engine-version 2.3", "2.3"},
      // Milvus 2.4 without vectors could run no leg: refused, not an empty request list.
      {sh_quote("差旅住宿标准是多少") + " --engine milvus --engine-version 2.4", "BM25"},
      {"x --engine es --vectors " + bad_json.string(), bad_json.string()},
      {"x --engine es --vectors /nonexistent/v.json", "/nonexistent/v.json"},
      {sh_quote("差旅住宿标准是多少") + " --engine es --vectors " + two.string(), "vectors"},
  };
  for (const auto& c : cases) {
    const auto r = plan_now(c.args);
    EXPECT_EQ(r.status, 2) << c.args << "\n" << r.out << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << c.args << ": " << r.err;
    EXPECT_NE(r.err.find(c.names), std::string::npos) << c.args << ": " << r.err;
    EXPECT_TRUE(r.out.empty()) << c.args;
  }
  fs::remove(bad_json);
  fs::remove(two);
}

TEST(EnginesCli, ConfigCheckValidatesTheEnginesTable) {
  const fs::path dir = fs::temp_directory_path() / ("qaplan-engines-cfg-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  fs::copy_file(qaplan::test::shipped_config(), dir / "rules.toml", fs::copy_options::overwrite_existing);
  qaplan::test::copy_config_companions(dir);
  const std::string shipped = qaplan::test::slurp(dir / "rules.toml");
  std::ofstream(dir / "rules.toml", std::ios::app) << "\n[engines.opensearch.extra]\nx = 1\n";
  const auto r = run(sh_quote(qaplan::test::qaplan_bin()) + " config check " +
                     sh_quote((dir / "rules.toml").string()));
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.err.find("extra"), std::string::npos) << r.err;
  // OpenSearch's rank_constant stops at 10 000: a larger k is refused before any request.
  std::string big = shipped;
  big.replace(big.find("rrf_k = 60 "), 10, "rrf_k = 12000");
  std::ofstream(dir / "rules.toml", std::ios::binary | std::ios::trunc) << big;
  const auto k = run(sh_quote(qaplan::test::qaplan_bin()) + " config check " +
                     sh_quote((dir / "rules.toml").string()));
  EXPECT_EQ(k.status, 2) << k.out;
  EXPECT_NE(k.err.find("rrf_k"), std::string::npos) << k.err;
  EXPECT_NE(k.err.find("10000"), std::string::npos) << k.err;
  fs::remove_all(dir);
}

// docs/engines.md's examples, rendered from the binary's JSON the way the page shows them: the
// texts, the mode and its reasons, then each request as its HTTP / SDK call and compact body.
std::vector<std::string> rendered(const nlohmann::ordered_json& e) {
  std::vector<std::string> out;
  std::string texts;
  for (const auto& t : e["texts"]) texts += (texts.empty() ? "'" : ", '") + t.get<std::string>() + "'";
  out.push_back("# texts: [" + texts + "]");
  std::string reasons;
  for (const auto& m : e["mode_reasons"]) reasons += (reasons.empty() ? "" : "; ") + m.get<std::string>();
  out.push_back("# mode: " + e["mode"].get<std::string>() + " — " + reasons);
  const bool milvus = e["engine"] == "milvus";
  if (e.contains("pipeline")) {
    out.push_back("PUT /_search/pipeline/" + e["pipeline"]["id"].get<std::string>());
    out.push_back(e["pipeline"]["body"].dump());
  }
  for (const auto& q : e["requests"]) {
    const std::string index = q["index"].get<std::string>();
    std::string call = milvus ? q["api"].get<std::string>() + "(" + index + ")" : "POST /" + index + "/_search";
    if (q.contains("params"))
      for (const auto& [k, v] : q["params"].items()) call += "?" + k + "=" + v.get<std::string>();
    out.push_back(call + "  # " + q["name"].get<std::string>());
    out.push_back(q["body"].dump());
    if (q.contains("pymilvus")) out.push_back("pymilvus: " + q["pymilvus"].dump());
    if (q.contains("rest"))
      out.push_back("REST: POST " + q["rest"]["path"].get<std::string>() + " " + q["rest"]["body"].dump());
  }
  return out;
}

TEST(EnginesCli, TheDocsExamplesAreWhatTheBinaryPrints) {
  const std::string doc = qaplan::test::slurp(qaplan::test::source_dir() / "docs" / "engines.md");
  const std::size_t section = doc.find("\n## Examples\n");
  ASSERT_NE(section, std::string::npos) << "docs/engines.md lost its examples";
  const std::size_t begin = doc.find("```\n", section) + 4;
  const std::size_t end = doc.find("```", begin);
  ASSERT_NE(end, std::string::npos);
  qaplan::test::ScratchDir t("engines-docs");
  std::ofstream(t.path() / "v1.json") << "[[0.12, -0.4, 0.33]]";
  std::string after = qaplan::test::slurp(qaplan::test::shipped_config());
  after.replace(after.find("dedupe = \"before_fusion\""), 24, "dedupe = \"after_fusion\" ");
  after.replace(after.find("license = \"basic\""), 17, "license = \"enterprise\"");
  std::ofstream(t.path() / "after-fusion.toml", std::ios::binary) << after;
  qaplan::test::copy_config_companions(t.path());
  std::istringstream in(doc.substr(begin, end - begin));
  std::vector<std::pair<std::string, std::vector<std::string>>> examples;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("$ qaplan ", 0) == 0) examples.push_back({line.substr(9), {}});
    else if (!line.empty() && !examples.empty()) examples.back().second.push_back(line);
  }
  ASSERT_GE(examples.size(), 6u);
  for (const auto& [args, shown] : examples) {
    const auto r = run("cd " + sh_quote(t.path().string()) + " && " + sh_quote(qaplan::test::qaplan_bin()) +
                       " " + args + kNowFlag);
    ASSERT_EQ(r.status, 0) << args << "\n" << r.err;
    const auto got = rendered(nlohmann::ordered_json::parse(r.out)["engine_requests"]);
    std::string all;
    for (const std::string& l : got) all += l + "\n";
    EXPECT_EQ(got, shown) << "docs/engines.md example `" << args << "` differs; the binary prints:\n" << all;
  }
}

}  // namespace
