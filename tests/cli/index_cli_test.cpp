// `qaplan index build` and `qaplan search --index` through the binary (docs/indexes.md): the saved
// index answers exactly like the in-memory search, the files are byte-identical across builds and
// thread counts, and bad indexes exit 2 with one line naming the file.
#include <gtest/gtest.h>
#include <unistd.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include <cstdint>
#include <cstring>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include "qaplan/ranking/tokenizer.hpp"
#include "test_support.hpp"

namespace {

namespace fs = std::filesystem;
using qaplan::test::qaplan_bin;
using qaplan::test::run;
using qaplan::test::sh_quote;
using qaplan::test::slurp;

class IndexCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("qaplan-index-cli-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
    std::string corpus;
    for (int i = 0; i < 400; ++i) {
      std::string text = (i % 3 == 0 ? "报销费用审批 " : "年假申请流程 ");
      for (int j = 0; j < 1 + i % 17; ++j) text += "w" + std::to_string((i * 7 + j * 13) % 97) + " ";
      corpus += "{\"id\":\"doc-" + std::to_string(i) + "\",\"text\":\"" + text + "\"}\n";
    }
    write("c.jsonl", corpus);
    write("q.jsonl",
          "{\"id\":\"q1\",\"query\":\"报销 w3 w5\"}\n{\"id\":\"q2\",\"query\":\"年假 w10 w11 w12 w13\"}\n"
          "{\"id\":\"q3\",\"query\":\"nothing\"}\n");
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  // A file of index directory `ix`'s live generation (ix/CURRENT names it).
  std::string live(const std::string& ix, const std::string& file) const {
    std::string gen = slurp(dir_ / ix / "CURRENT");
    while (!gen.empty() && gen.back() == '\n') gen.pop_back();
    return (dir_ / ix / gen / file).string();
  }
  void write(const std::string& name, const std::string& content) {
    std::ofstream(dir_ / name, std::ios::binary) << content;
  }
  qaplan::test::RunResult q(const std::string& args) { return run(sh_quote(qaplan_bin()) + " " + args); }
  fs::path dir_;
};

TEST_F(IndexCli, SavedIndexAnswersLikeTheCorpus) {
  for (const std::string norms : {"exact", "lucene"}) {
    const auto b = q("index build --corpus " + sh_quote(path("c.jsonl")) + " --output " +
                     sh_quote(path("ix-" + norms)) + " --norms " + norms);
    ASSERT_EQ(b.status, 0) << b.err;
    EXPECT_NE(b.out.find("\"documents\":400"), std::string::npos) << b.out;
    const std::string common = " --queries " + sh_quote(path("q.jsonl")) + " --k 0 --format tsv";
    const auto from_index = q("search --index " + sh_quote(path("ix-" + norms)) + common);
    const auto from_corpus = q("search --corpus " + sh_quote(path("c.jsonl")) + " --norms " + norms + common);
    ASSERT_EQ(from_index.status, 0) << from_index.err;
    ASSERT_EQ(from_corpus.status, 0) << from_corpus.err;
    EXPECT_FALSE(from_index.out.empty());
    EXPECT_EQ(from_index.out, from_corpus.out);
  }
}

TEST_F(IndexCli, BuildsAreByteIdenticalAcrossRunsAndThreads) {
  const std::string c = "index build --corpus " + sh_quote(path("c.jsonl")) + " --output ";
  ASSERT_EQ(q(c + sh_quote(path("a"))).status, 0);
  ASSERT_EQ(q(c + sh_quote(path("b"))).status, 0);
  ASSERT_EQ(q(c + sh_quote(path("t")) + " --threads 3").status, 0);
  const std::string a = slurp(live("a", "bm25.qidx"));
  EXPECT_FALSE(a.empty());
  EXPECT_EQ(a, slurp(live("b", "bm25.qidx")));
  EXPECT_EQ(a, slurp(live("t", "bm25.qidx")));
  // Rebuilding into an existing directory publishes a new generation and never writes the
  // published one again: gen-0 keeps its bytes, gen-1 is live, nothing staged is left behind.
  EXPECT_EQ(slurp(path("a/CURRENT")), "gen-0\n");
  ASSERT_EQ(q(c + sh_quote(path("a"))).status, 0);
  EXPECT_EQ(slurp(path("a/CURRENT")), "gen-1\n");
  EXPECT_EQ(slurp(path("a/gen-0/bm25.qidx")), a);
  EXPECT_EQ(slurp(path("a/gen-1/bm25.qidx")), a);
  std::set<std::string> names;
  for (const auto& e : fs::directory_iterator(path("a"))) names.insert(e.path().filename().string());
  EXPECT_EQ(names, (std::set<std::string>{".lock", "CURRENT", "gen-0", "gen-1"}));
  // The one before the previous generation goes with the next build.
  ASSERT_EQ(q(c + sh_quote(path("a"))).status, 0);
  EXPECT_FALSE(fs::exists(path("a/gen-0")));
  EXPECT_TRUE(fs::exists(path("a/gen-1")));
}

TEST_F(IndexCli, BadIndexesExitTwoWithOneLineNamingTheFile) {
  ASSERT_EQ(q("index build --corpus " + sh_quote(path("c.jsonl")) + " --output " + sh_quote(path("ix"))).status, 0);
  const std::string good = slurp(live("ix", "bm25.qidx"));
  struct Case {
    std::string name;
    std::string bytes;
    std::string needle;
  };
  std::string flipped = good;
  flipped[good.size() / 2] = static_cast<char>(flipped[good.size() / 2] ^ 0x5a);
  std::string v9 = good;
  v9[8] = 9;
  // Another tokenizer id, header resealed (its hash recomputed), so only the id check can refuse
  // it. The layout is read from the file itself: header size at byte 12, the header hash in its
  // last 8 bytes, the NUL-padded tokenizer id found by value.
  std::string retok = good;
  {
    std::uint32_t header_bytes = 0;
    std::memcpy(&header_bytes, retok.data() + 12, 4);
    ASSERT_LT(header_bytes, retok.size());
    const std::size_t at = retok.find(std::string(qaplan::kTokenizerVersion));
    ASSERT_LT(at, header_bytes) << "tokenizer id not in the header";
    retok[at] = 'X';
    const std::uint64_t h = XXH3_64bits(retok.data(), header_bytes - 8);
    std::memcpy(retok.data() + header_bytes - 8, &h, 8);
  }
  const Case cases[] = {
      {"truncated", good.substr(0, good.size() - 100), "truncated"},
      {"flipped", flipped, "checksum"},
      {"version", v9, "format version 9"},
      {"tokenizer", retok, "tokenizer"},
      {"empty", "", "not a qaplan BM25 index"},
      {"text", "hello world, not an index at all", "not a qaplan BM25 index"},
  };
  for (const auto& k : cases) {
    fs::create_directories(dir_ / k.name);
    write(k.name + "/bm25.qidx", k.bytes);
    const auto r = q("search --index " + sh_quote(path(k.name)) + " --query w3");
    EXPECT_EQ(r.status, 2) << k.name << ": " << r.err;
    EXPECT_NE(r.err.find(k.needle), std::string::npos) << k.name << ": " << r.err;
    EXPECT_NE(r.err.find("bm25.qidx"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "one line: " << r.err;
    EXPECT_TRUE(r.out.empty());
  }
  const struct {
    std::string args, needle;
  } usage[] = {
      {"search --index " + sh_quote(path("missing")) + " --query w3", "not an index directory"},
      {"search --index " + sh_quote(path("ix")) + " --query w3 --norms lucene", "rebuild"},
      {"search --index " + sh_quote(path("ix")) + " --corpus " + sh_quote(path("c.jsonl")) + " --query w3", "excludes"},
      {"search --index " + sh_quote(path("ix")) + " --query w3 --mode vector", "no vectors"},
      {"index build --corpus " + sh_quote(path("missing.jsonl")) + " --output " + sh_quote(path("o")), "cannot read"},
      {"index build --corpus " + sh_quote(path("c.jsonl")) + " --output " + sh_quote(path("c.jsonl")), "c.jsonl"},
      {"index build --corpus " + sh_quote(path("c.jsonl")) + " --output " + sh_quote(path("o")) + " --threads 0", "--threads"},
  };
  for (const auto& u : usage) {
    const auto r = q(u.args);
    EXPECT_EQ(r.status, 2) << u.args << "\n" << r.err;
    EXPECT_NE(r.err.find(u.needle), std::string::npos) << u.args << "\n" << r.err;
  }
}

TEST_F(IndexCli, VectorsAreSavedAndSearched) {
  // Three documents with 2-d vectors; the query vector points at doc-b.
  write("v.jsonl", "{\"id\":\"doc-a\",\"text\":\"alpha beta\"}\n{\"id\":\"doc-b\",\"text\":\"beta gamma\"}\n"
                   "{\"id\":\"doc-c\",\"text\":\"gamma delta\"}\n");
  write("vec.jsonl", "{\"id\":\"doc-c\",\"vector\":[0,1]}\n{\"id\":\"doc-a\",\"vector\":[1,0]}\n"
                     "{\"id\":\"doc-b\",\"vector\":[1,1]}\n");
  write("qv.jsonl", "{\"id\":\"q\",\"vector\":[1,1.1]}\n");
  write("vq.jsonl", "{\"id\":\"q\",\"query\":\"gamma\"}\n");
  const auto b = q("index build --corpus " + sh_quote(path("v.jsonl")) + " --vectors " +
                   sh_quote(path("vec.jsonl")) + " --output " + sh_quote(path("vx")));
  ASSERT_EQ(b.status, 0) << b.err;
  EXPECT_TRUE(fs::exists(live("vx", "hnsw.qidx")));
  const std::string common = " --index " + sh_quote(path("vx")) + " --queries " + sh_quote(path("vq.jsonl")) +
                             " --query-vectors " + sh_quote(path("qv.jsonl")) + " --format tsv";
  const auto v = q("search" + common + " --mode vector --k 1");
  ASSERT_EQ(v.status, 0) << v.err;
  EXPECT_EQ(v.out.substr(0, v.out.find('\t', 5)), "q\t1\tdoc-b");
  const auto h = q("search" + common + " --mode hybrid --k 2");
  ASSERT_EQ(h.status, 0) << h.err;
  EXPECT_NE(h.out.find("doc-b"), std::string::npos);
  // A graph from another build of the collection (bound to other BM25 bytes) is refused.
  write("v2.jsonl", "{\"id\":\"doc-a\",\"text\":\"alpha beta\"}\n{\"id\":\"doc-b\",\"text\":\"beta\"}\n"
                    "{\"id\":\"doc-c\",\"text\":\"gamma delta\"}\n");
  ASSERT_EQ(q("index build --corpus " + sh_quote(path("v2.jsonl")) + " --output " + sh_quote(path("vz"))).status, 0);
  fs::copy_file(live("vx", "hnsw.qidx"), live("vz", "hnsw.qidx"));
  const auto stale = q("search --index " + sh_quote(path("vz")) + " --queries " + sh_quote(path("vq.jsonl")) +
                       " --query-vectors " + sh_quote(path("qv.jsonl")) + " --mode vector --k 1");
  EXPECT_EQ(stale.status, 2) << stale.err;
  EXPECT_NE(stale.err.find("hnsw.qidx"), std::string::npos) << stale.err;
  EXPECT_EQ(stale.err.find('\n'), stale.err.size() - 1) << "one line: " << stale.err;
  EXPECT_TRUE(stale.out.empty());
  // A rebuild without vectors removes the now-stale graph.
  ASSERT_EQ(q("index build --corpus " + sh_quote(path("v.jsonl")) + " --output " + sh_quote(path("vx"))).status, 0);
  EXPECT_FALSE(fs::exists(live("vx", "hnsw.qidx")));
  // A vectors file missing a document is refused.
  write("short.jsonl", "{\"id\":\"doc-a\",\"vector\":[1,0]}\n");
  const auto bad = q("index build --corpus " + sh_quote(path("v.jsonl")) + " --vectors " +
                     sh_quote(path("short.jsonl")) + " --output " + sh_quote(path("vy")));
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("no vector for document"), std::string::npos) << bad.err;
}

}  // namespace
