// Runs the built qaplan CLI (QAPLAN_BIN) on small temp files: exact TSV output of `search` and
// `tokenize`, and exit codes for bad input.
#include <set>
#include <sstream>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "test_support.hpp"

namespace {

namespace fs = std::filesystem;
using qaplan::test::qaplan_bin;
using qaplan::test::run;
using qaplan::test::sh_quote;
using qaplan::test::slurp;

class SearchCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("qaplan-search-cli-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
    // The tiny corpus of bm25_test.cpp, as text: tokens a b c d e are ASCII words.
    write("c.jsonl",
          "{\"id\":\"d0\",\"text\":\"a b c\"}\n"
          "{\"id\":\"d1\",\"text\":\"a a d\"}\n"
          "{\"id\":\"d2\",\"text\":\"B\"}\n"
          "{\"id\":\"d3\",\"text\":\"，。\"}\n"
          "{\"id\":\"d4\",\"text\":\"c d e e\",\"title\":\"ignored\"}\n");
    write("q.jsonl",
          "{\"id\":\"q1\",\"query\":\"a\"}\n"
          "{\"id\":\"q2\",\"query\":\"c d\"}\n"
          "{\"id\":\"q3\",\"query\":\"zzz\"}\n");
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  void write(const std::string& name, const std::string& content) {
    std::ofstream(dir_ / name, std::ios::binary) << content;
  }
  qaplan::test::RunResult q(const std::string& args) { return run(sh_quote(qaplan_bin()) + " " + args); }

  fs::path dir_;
};

// Scores (see bm25_test.cpp): N 4, avgdl 2.75, idf ln 2; K(3) = 1.281818, K(4) = 1.609091.
//   q1 "a": d1 = ln2·2/(2+K(3)) = 0.422416564, d0 = ln2/(1+K(3)) = 0.303769681
//   q2 "c d": d4 = 2·ln2/(1+K(4)) = 0.531332334, then the d0/d1 tie at 0.303769681 (d0 first)
//   q3: no known term → no lines.
TEST_F(SearchCli, Bm25TsvExact) {
  const auto r = q("search --corpus " + sh_quote(path("c.jsonl")) + " --queries " +
                   sh_quote(path("q.jsonl")) + " --format tsv");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out,
            "q1\t1\td1\t0.422416564\n"
            "q1\t2\td0\t0.303769681\n"
            "q2\t1\td4\t0.531332334\n"
            "q2\t2\td0\t0.303769681\n"
            "q2\t3\td1\t0.303769681\n");
}

TEST_F(SearchCli, KTruncatesAndOutputFile) {
  const auto r = q("search --corpus " + sh_quote(path("c.jsonl")) + " --query 'C,D' --k 1" +
                   " --format tsv --output " + sh_quote(path("out.tsv")));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(slurp(path("out.tsv")), "query\t1\td4\t0.531332334\n");
}

TEST_F(SearchCli, JsonShape) {
  const auto r = q("search --corpus " + sh_quote(path("c.jsonl")) + " --query a --k 1");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.substr(0, r.out.find("\"score\"")), "{\"qid\":\"query\",\"hits\":[{\"rank\":1,\"id\":\"d1\",");
}

TEST_F(SearchCli, LuceneNormsOnShortDocsMatchTo7Digits) {
  const auto r = q("search --corpus " + sh_quote(path("c.jsonl")) + " --query a --k 1 --norms lucene --format tsv");
  ASSERT_EQ(r.status, 0) << r.err;
  ASSERT_EQ(r.out.rfind("query\t1\td1\t", 0), 0u) << r.out;
  EXPECT_NEAR(std::stod(r.out.substr(r.out.rfind('\t') + 1)), 0.422416564, 1e-6);
}

TEST_F(SearchCli, RoundsPrintTimingLikeLuceneHarness) {
  const auto r = q("search --corpus " + sh_quote(path("c.jsonl")) + " --queries " +
                   sh_quote(path("q.jsonl")) + " --format tsv --rounds 2");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("qaplan index docs=5 index_s="), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("qaplan search mode=bm25 queries=3 qps="), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(" p99_us="), std::string::npos) << r.err;
  EXPECT_EQ(r.out.rfind("q1\t1\td1\t0.422416564\n", 0), 0u) << r.out;
}

TEST_F(SearchCli, Tokenize) {
  write("t.jsonl", "{\"id\":\"x1\",\"text\":\"退货SKU-1234怎么办\"}\n{\"id\":\"x2\",\"text\":\"\"}\n");
  auto r = q("tokenize --input " + sh_quote(path("t.jsonl")) + " --format tsv");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "x1\t退货 sku-1234 怎么 么办\nx2\t\n");
  r = q("tokenize --input " + sh_quote(path("q.jsonl")));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "q1\ta\nq2\tc d\nq3\tzzz\n");
  r = q("tokenize --input " + sh_quote(path("t.jsonl")) + " --output " + sh_quote(path("t.jsonl")));
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("refusing to overwrite an input"), std::string::npos);
}

TEST_F(SearchCli, BadInputExitsTwoWithOneLine) {
  write("bad.jsonl", "{\"id\":\"a\",\"text\":\"x\"}\n{\"id\":\"a\",\"text\":\"y\"}\n");
  write("badq.jsonl", "{\"id\":\"q\"}\n");
  const std::string c = " --corpus " + sh_quote(path("c.jsonl"));
  struct Case {
    std::string args;
    std::string needle;
  };
  const Case cases[] = {
      {"search --corpus " + sh_quote(path("bad.jsonl")) + " --query x", "bad.jsonl:2 id: duplicate id"},
      {"search --corpus " + sh_quote(path("missing.jsonl")) + " --query x", "cannot read"},
      {"search" + c + " --queries " + sh_quote(path("badq.jsonl")), "badq.jsonl:1 query: missing field"},
      {"search" + c, "give exactly one of --query or --queries"},
      {"search" + c + " --query x --norms bogus", "--norms"},
      {"search" + c + " --query x --b 1.5", "b must be in [0, 1]"},
      {"search" + c + " --query x --k1 -1", "k1"},
      {"search" + c + " --query x --k -3", "--k"},
      {"search" + c + " --query x --rounds 0", "--rounds"},
      {"search" + c + " --query x --format xml", "--format"},
      {"search" + c + " --query x --output " + sh_quote(path("c.jsonl")), "refusing to overwrite"},
      {"search" + c + " --query $(printf 'a\\377')", "invalid UTF-8"},
      {"tokenize --input " + sh_quote(path("bad.jsonl")), "duplicate id"},
      {"tokenize --input " + sh_quote(dir_.string()), "is a directory"},
  };
  for (const auto& k : cases) {
    const auto r = q(k.args);
    EXPECT_EQ(r.status, 2) << k.args << "\n" << r.err;
    EXPECT_NE(r.err.find(k.needle), std::string::npos) << k.args << "\n" << r.err;
  }
  // The corpus was never touched.
  EXPECT_EQ(slurp(path("c.jsonl")).rfind("{\"id\":\"d0\",\"text\":\"a b c\"}\n", 0), 0u);
}

}  // namespace

namespace {

std::set<std::string> doc_ids(const std::string& tsv) {
  std::set<std::string> ids;
  std::istringstream in(tsv);
  std::string qid, rank, id, score;
  while (std::getline(in, qid, '\t') && std::getline(in, rank, '\t') && std::getline(in, id, '\t') &&
         std::getline(in, score))
    ids.insert(id);
  return ids;
}

// d3 ("，。") has no token: it gets no vector but must not make vector/hybrid refuse the corpus.
TEST_F(SearchCli, VectorModesSkipDocumentsWithoutTokens) {
  for (const char* mode : {"vector", "hybrid"}) {
    const auto r = q("search --corpus " + sh_quote(path("c.jsonl")) + " --query a --format tsv --mode " + mode);
    ASSERT_EQ(r.status, 0) << mode << ": " << r.err;
    EXPECT_EQ(doc_ids(r.out), (std::set<std::string>{"d0", "d1"})) << mode << "\n" << r.out;
  }
}

TEST_F(SearchCli, EmptyCorpusGivesNoHitsInEveryMode) {
  write("empty.jsonl", "");
  for (const char* mode : {"bm25", "vector", "hybrid"}) {
    const auto r = q("search --corpus " + sh_quote(path("empty.jsonl")) + " --query a --format tsv --mode " + mode);
    EXPECT_EQ(r.status, 0) << mode << ": " << r.err;
    EXPECT_EQ(r.out, "") << mode;
  }
}

// A query without tokens (punctuation only) is an empty result that stays visible in every
// format and mode: TSV writes "qid<TAB>0<TAB>-<TAB>0<TAB>no_tokens", JSON "no_tokens": true. A
// query with tokens but no match (q3 "zzz") keeps the TREC convention: no TSV row, "hits": [].
TEST_F(SearchCli, QueryWithoutTokensIsKeptAndMarkedInEveryFormat) {
  write("qp.jsonl",
        "{\"id\":\"q1\",\"query\":\"a\"}\n"
        "{\"id\":\"qp\",\"query\":\"，。！？...\"}\n"
        "{\"id\":\"q3\",\"query\":\"zzz\"}\n");
  const std::string base = "search --corpus " + sh_quote(path("c.jsonl")) + " --queries " +
                           sh_quote(path("qp.jsonl"));
  auto r = q(base + " --format tsv");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out,
            "q1\t1\td1\t0.422416564\n"
            "q1\t2\td0\t0.303769681\n"
            "qp\t0\t-\t0\tno_tokens\n");
  for (const char* mode : {"bm25", "vector", "hybrid"}) {
    SCOPED_TRACE(mode);
    r = q(base + " --format tsv --mode " + mode);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("qp\t0\t-\t0\tno_tokens\n"), std::string::npos) << r.out;
    r = q(base + " --mode " + mode);
    ASSERT_EQ(r.status, 0) << r.err;
    std::istringstream in(r.out);
    std::string line;
    std::vector<nlohmann::json> rows;
    while (std::getline(in, line)) rows.push_back(nlohmann::json::parse(line));
    ASSERT_EQ(rows.size(), 3u) << r.out;
    EXPECT_EQ(rows[1]["qid"], "qp");
    EXPECT_EQ(rows[1]["no_tokens"], true);
    EXPECT_TRUE(rows[1]["hits"].empty());
    EXPECT_FALSE(rows[0].contains("no_tokens")) << rows[0];
    EXPECT_FALSE(rows[2].contains("no_tokens")) << rows[2];
    EXPECT_TRUE(rows[2]["hits"].empty());
  }
  // One --query, pretty JSON, and a saved index.
  r = q("search --corpus " + sh_quote(path("c.jsonl")) + " --query '，。' --format tsv");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "query\t0\t-\t0\tno_tokens\n");
  r = q("search --corpus " + sh_quote(path("c.jsonl")) + " --query '，。' --pretty");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["no_tokens"], true);
  r = q("index build --corpus " + sh_quote(path("c.jsonl")) + " --output " + sh_quote(path("ix")));
  ASSERT_EQ(r.status, 0) << r.err;
  r = q("search --index " + sh_quote(path("ix")) + " --queries " + sh_quote(path("qp.jsonl")) +
        " --format tsv");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("qp\t0\t-\t0\tno_tokens\n"), std::string::npos) << r.out;
}

}  // namespace
