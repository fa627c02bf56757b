// The bad-input catalogue (docs/reliability.md): every file in tests/data/bad_inputs/ (plus large
// or derived inputs generated here: overlong lines, deep nesting, edited copies of the shipped
// rules and vector pack) driven through the CLI. A bad input must give exit 2 and exactly one line
// on stderr, "qaplan: …", naming the file (and line / field where there is one), valid UTF-8 and
// free of control bytes; inputs that are merely unusual (BOM, CRLF, empty) must work. Outputs that
// cannot be written (a full disk: `ulimit -f`, /dev/full) give exit 2 and leave no partial output
// file behind.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "test_support.hpp"

namespace {

namespace fs = std::filesystem;
using qaplan::test::qaplan_bin;
using qaplan::test::RunResult;
using qaplan::test::sh_quote;
using qaplan::test::slurp;
using qaplan::test::source_dir;

fs::path catalogue() { return source_dir() / "tests" / "data" / "bad_inputs"; }
std::string bad(const std::string& name) { return sh_quote((catalogue() / name).string()); }

bool valid_utf8(const std::string& s) {
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    const int len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    if (len == 0 || i + static_cast<std::size_t>(len) > s.size()) return false;
    for (int k = 1; k < len; ++k)
      if ((static_cast<unsigned char>(s[i + static_cast<std::size_t>(k)]) & 0xC0) != 0x80) return false;
    i += static_cast<std::size_t>(len);
  }
  return true;
}

class BadInputs : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("qaplan-bad-inputs-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::permissions(dir_ / "unreadable.jsonl", fs::perms::owner_all, ec);
    fs::remove_all(dir_, ec);
  }

  std::string tmp(const std::string& name) const { return sh_quote((dir_ / name).string()); }
  void write(const std::string& name, const std::string& content) const {
    std::ofstream(dir_ / name, std::ios::binary) << content;
  }
  // A copy of the shipped rules (with its glossaries and model beside it), edited by `edit`.
  std::string rules_copy(const std::string& name, const std::string& text) const {
    qaplan::test::copy_config_companions(dir_);
    write(name, text);
    return tmp(name);
  }

  static RunResult run(const std::string& args) {
    return qaplan::test::run(sh_quote(qaplan_bin()) + " " + args + " </dev/null");
  }

  // Exit 2 and one clean stderr line that names `where` and contains `what`.
  static void expect_refused(const RunResult& r, const std::string& where, const std::string& what) {
    EXPECT_EQ(r.status, 2) << r.err;
    ASSERT_FALSE(r.err.empty());
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "not one line: " << r.err;
    EXPECT_EQ(r.err.rfind("qaplan: ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find(where), std::string::npos) << "does not name " << where << ": " << r.err;
    EXPECT_NE(r.err.find(what), std::string::npos) << "does not say " << what << ": " << r.err;
    EXPECT_TRUE(valid_utf8(r.err)) << r.err;
    for (char c : r.err.substr(0, r.err.size() - 1))
      EXPECT_TRUE(static_cast<unsigned char>(c) >= 0x20 || c == '\t') << "control byte: " << r.err;
  }

  // No output file and no temp or staged file left in `dir`.
  static void expect_no_output_left(const fs::path& dir, const std::string& output_name) {
    EXPECT_FALSE(fs::exists(dir / output_name)) << output_name;
    if (!fs::is_directory(dir)) return;
    for (const auto& e : fs::recursive_directory_iterator(dir)) {
      const std::string n = e.path().filename().string();
      EXPECT_FALSE(n.starts_with(".qaplan-tmp") || n.ends_with(".partial") ||
                   n == "report.json" || n == "report.md" || n == output_name)
          << "left behind: " << e.path();
    }
  }

  fs::path dir_;
};

// ---- `qaplan plan --input` (batch JSONL) ---------------------------------------------------------

TEST_F(BadInputs, BatchLinesWithBadBytesOrJsonAreRefusedByLine) {
  struct Case {
    const char* file;
    const char* what;
  };
  for (const Case c : {Case{"batch_nul_byte.jsonl", "control character"},
                       Case{"batch_invalid_utf8.jsonl", "UTF-8"},
                       Case{"batch_overlong_utf8.jsonl", "UTF-8"},
                       Case{"batch_surrogate_utf8.jsonl", "UTF-8"},
                       Case{"batch_escaped_surrogate.jsonl", "surrogate"},
                       Case{"batch_huge_number.jsonl", "number"},
                       Case{"batch_duplicate_keys.jsonl", "duplicate"},
                       Case{"batch_truncated.jsonl", "malformed JSON"}}) {
    SCOPED_TRACE(c.file);
    auto r = run("plan --input " + bad(c.file));
    expect_refused(r, std::string(c.file) + ":1", c.what);
    // stdout carries the same error as one JSON line for line 1.
    EXPECT_NE(r.out.find("\"line\":1"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find('\n'), r.out.size() - 1) << r.out;
    EXPECT_TRUE(valid_utf8(r.out)) << r.out;
  }
}

TEST_F(BadInputs, BatchBomCrlfAndEmptyFilesWork) {
  auto bom = run("plan --input " + bad("batch_bom.jsonl"));
  EXPECT_EQ(bom.status, 0) << bom.err;
  EXPECT_NE(bom.out.find("\"query\":\"年假怎么申请\""), std::string::npos) << bom.out;
  auto crlf = run("plan --input " + bad("batch_crlf.jsonl"));
  EXPECT_EQ(crlf.status, 0) << crlf.err;
  EXPECT_NE(crlf.out.find("\"query\":\"报销要多久到账\""), std::string::npos) << crlf.out;
  EXPECT_EQ(crlf.out.find('\r'), std::string::npos);
  auto empty = run("plan --input " + bad("batch_empty.jsonl"));
  EXPECT_EQ(empty.status, 0) << empty.err;
  EXPECT_EQ(empty.out, "");
}

TEST_F(BadInputs, BatchOverlongLinesAndDeepNesting) {
  // A 1 MB question on one line: refused by the length limit, naming the field.
  write("overlong.jsonl", "{\"question\": \"" + std::string(1 << 20, 'a') + "\"}\n" +
                              "{\"question\": \"年假怎么申请\"}\n");
  auto r = run("plan --input " + tmp("overlong.jsonl"));
  expect_refused(r, "overlong.jsonl:1", "question");
  EXPECT_NE(r.out.find("\"query\":\"年假怎么申请\""), std::string::npos) << "line 2 still runs";
  // 100 000 nested arrays in one line: an error, not a stack overflow.
  write("deep.jsonl", "{\"question\": " + std::string(100000, '[') + std::string(100000, ']') + "}\n");
  expect_refused(run("plan --input " + tmp("deep.jsonl")), "deep.jsonl:1", "question");
  // The same depth of objects in history.
  std::string objs;
  for (int i = 0; i < 100000; ++i) objs += "{\"a\":";
  objs += "1" + std::string(100000, '}');
  write("deep2.jsonl", "{\"question\": \"q\", \"history\": " + objs + "}\n");
  expect_refused(run("plan --input " + tmp("deep2.jsonl")), "deep2.jsonl:1", "history");
}

TEST_F(BadInputs, BatchInputThatIsNotAReadableFile) {
  expect_refused(run("plan --input " + tmp("missing.jsonl")), "missing.jsonl", "cannot read");
  expect_refused(run("plan --input " + sh_quote(dir_.string())), dir_.string(), "");
  // /proc/self/mem opens but every read at offset 0 fails (EIO), even for root: a file that
  // cannot be read.
  expect_refused(run("plan --input /proc/self/mem"), "/proc/self/mem", "");
}

// chmod 000 does not stop root, so this one case can only run as another user; the read-error
// path itself is covered by /proc/self/mem above.
TEST_F(BadInputs, UnreadableFileWhenNotRoot) {
  if (::geteuid() == 0) GTEST_SKIP() << "running as root: chmod 000 does not block reads";
  write("unreadable.jsonl", "{\"question\": \"年假\"}\n");
  fs::permissions(dir_ / "unreadable.jsonl", fs::perms::none);
  expect_refused(run("plan --input " + tmp("unreadable.jsonl")), "unreadable.jsonl",
                 "cannot read");
  expect_refused(run("config check " + tmp("unreadable.jsonl")), "unreadable.jsonl",
                 "cannot read");
}

// ---- rules files (`qaplan config check`, `--config`) ---------------------------------------------

TEST_F(BadInputs, RulesFilesWithBadBytesOrSyntax) {
  struct Case {
    const char* file;
    const char* where;
    const char* what;
  };
  for (const Case c : {Case{"rules_nul_byte.toml", "rules_nul_byte.toml:1", "TOML syntax error"},
                       Case{"rules_invalid_utf8.toml", "rules_invalid_utf8.toml", "UTF-8"},
                       Case{"rules_overlong_utf8.toml", "rules_overlong_utf8.toml", "UTF-8"},
                       Case{"rules_surrogate_utf8.toml", "rules_surrogate_utf8.toml", "UTF-8"},
                       Case{"rules_duplicate_keys.toml", "rules_duplicate_keys.toml:2", "already exists"},
                       Case{"rules_huge_number.toml", "rules_huge_number.toml:1", "schema_version"},
                       Case{"rules_truncated.toml", "rules_truncated.toml", "missing required"},
                       Case{"rules_truncated_table.toml", "rules_truncated_table.toml:2", "TOML syntax error"},
                       Case{"rules_empty.toml", "rules_empty.toml", "schema_version"}}) {
    SCOPED_TRACE(c.file);
    expect_refused(run("config check " + bad(c.file)), c.where, c.what);
    // The same file given to a command that plans.
    expect_refused(run("plan --config " + bad(c.file) + " 年假"), c.where, c.what);
  }
  expect_refused(run("config check " + sh_quote(dir_.string())), dir_.string(), "is a directory");
}

TEST_F(BadInputs, RulesFilesGeneratedFromTheShippedOne) {
  const std::string shipped = slurp(qaplan::test::shipped_config());
  // Unusual but valid: a BOM, CRLF line ends.
  auto ok = run("config check " + rules_copy("bom.toml", "\xEF\xBB\xBF" + shipped));
  EXPECT_EQ(ok.status, 0) << ok.err;
  std::string crlf;
  for (char c : shipped) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  ok = run("config check " + rules_copy("crlf.toml", crlf));
  EXPECT_EQ(ok.status, 0) << ok.err;
  // Truncated in the middle of the file (at a line end, so it stays UTF-8).
  const std::string half = shipped.substr(0, shipped.find('\n', shipped.size() / 2) + 1);
  expect_refused(run("config check " + rules_copy("half.toml", half)), "half.toml", "");
  // A number beyond double range (a parser may read 1e999 as DBL_MAX): refused, naming the key.
  std::string huge = shipped;
  const auto k1 = huge.find("\nk1 = ");
  ASSERT_NE(k1, std::string::npos);
  huge.replace(k1, huge.find('\n', k1 + 1) - k1, "\nk1 = 1e999");
  expect_refused(run("config check " + rules_copy("huge.toml", huge)), "huge.toml", "k1: out of range");
  // An integer beyond 64 bits (a parser may saturate it).
  std::string big = shipped;
  const auto seed = big.find("\nseed = ");
  ASSERT_NE(seed, std::string::npos);
  big.replace(seed, big.find('\n', seed + 1) - seed, "\nseed = 99999999999999999999999");
  expect_refused(run("config check " + rules_copy("big.toml", big)), "big.toml", "seed: out of range");
  // A crash fuzzing found (a multi-line string ending in four quotes, then 20 000 nested arrays)
  // and its slow dotted key, at the end of an otherwise valid file.
  const std::string deep = shipped + "x = \"\"\"a\"\"\"\"\ny = " + std::string(20000, '[') +
                           std::string(20000, ']') + "\n# \"\n";
  expect_refused(run("config check " + rules_copy("deep.toml", deep)), "deep.toml", "nesting deeper");
  std::string dotted = "a";
  for (int i = 0; i < 30000; ++i) dotted += ".a";
  expect_refused(run("config check " + rules_copy("dotted.toml", dotted + " = 1\n")), "dotted.toml:1",
                 "nesting deeper");
  // An overlong line.
  expect_refused(run("config check " + rules_copy("long.toml", shipped + "# " + std::string(5000, 'x') + "\n")),
                 "long.toml", "line longer than 4096 bytes");
}

// ---- corpora (`qaplan search --corpus`, `qaplan tokenize --input`) -------------------------------

// A corpus line that is not JSON says so ("not a valid JSON value", the corpus reader's wording,
// src/ranking/corpus.cpp) with the file and line.
TEST_F(BadInputs, CorpusFilesWithBadBytesOrJson) {
  struct Case {
    const char* file;
    const char* where;
    const char* what;
  };
  for (const Case c : {Case{"corpus_nul_byte.jsonl", "corpus_nul_byte.jsonl:1", "not a valid JSON value"},
                       Case{"corpus_invalid_utf8.jsonl", "corpus_invalid_utf8.jsonl:2", "UTF-8"},
                       Case{"corpus_overlong_utf8.jsonl", "corpus_overlong_utf8.jsonl:1", "UTF-8"},
                       Case{"corpus_surrogate_utf8.jsonl", "corpus_surrogate_utf8.jsonl:1", "UTF-8"},
                       Case{"corpus_huge_number.jsonl", "corpus_huge_number.jsonl:1", ""},
                       Case{"corpus_duplicate_keys.jsonl", "corpus_duplicate_keys.jsonl:1", "duplicate"},
                       Case{"corpus_duplicate_ids.jsonl", "corpus_duplicate_ids.jsonl:2", "d1"},
                       Case{"corpus_truncated.jsonl", "corpus_truncated.jsonl:2", "not a valid JSON value"}}) {
    SCOPED_TRACE(c.file);
    expect_refused(run("search --corpus " + bad(c.file) + " --query 年假"), c.where, c.what);
    expect_refused(run("tokenize --format tsv --input " + bad(c.file)), c.where, c.what);
  }
  expect_refused(run("search --query 年假 --corpus " + sh_quote(dir_.string())), dir_.string(), "");
  expect_refused(run("search --query 年假 --corpus /proc/self/mem"), "/proc/self/mem", "");
  // Deep nesting in one line.
  write("deep.jsonl", "{\"id\": \"d\", \"text\": " + std::string(100000, '[') +
                          std::string(100000, ']') + "}\n");
  expect_refused(run("search --query 年假 --corpus " + tmp("deep.jsonl")), "deep.jsonl:1", "text");
  // A 1 MB line is a valid (if long) document.
  write("long.jsonl", "{\"id\": \"d\", \"text\": \"" + std::string(1 << 20, 'a') + " 年假\"}\n");
  auto r = run("search --format tsv --query 年假 --corpus " + tmp("long.jsonl"));
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("\td\t"), std::string::npos) << r.out;
}

TEST_F(BadInputs, CorpusBomCrlfAndEmptyFilesWork) {
  for (const char* f : {"corpus_bom.jsonl", "corpus_crlf.jsonl"}) {
    auto r = run("search --format tsv --query 年假 --corpus " + bad(f));
    EXPECT_EQ(r.status, 0) << f << ": " << r.err;
    EXPECT_EQ(r.out.rfind("query\t1\td1\t", 0), 0u) << f << ": " << r.out;
  }
  auto r = run("search --format tsv --query 年假 --corpus " + bad("corpus_empty.jsonl"));
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "");
}

// ---- vector packs (`qaplan bench --backend cached`) -----------------------------------------------

TEST_F(BadInputs, VectorPacksWithNanInfinityAndOutOfRangeNumbers) {
  const fs::path vec = source_dir() / "eval_sets" / "vectors";
  const std::string pack = slurp(vec / "local-tfidf.query-vectors.json");
  const std::string index = sh_quote((vec / "local-tfidf.index.json").string());
  const auto first = pack.find(": [", pack.find("\"query_vectors\"")) + 3;
  const auto comma = pack.find(',', first);
  ASSERT_LT(first, comma);
  auto with = [&](const std::string& value) {
    std::string p = pack;
    p.replace(first, comma - first, value);
    return p;
  };
  struct Case {
    const char* value;
    const char* what;
  };
  for (const Case c : {Case{"NaN", "malformed JSON"}, Case{"Infinity", "malformed JSON"},
                       Case{"-Infinity", "malformed JSON"}, Case{"1e39", "not a finite float"},
                       Case{"-1e999999", "not a finite float"}, Case{"\"0.5\"", "non-number"}}) {
    SCOPED_TRACE(c.value);
    write("pack.json", with(c.value));
    auto r = run("bench --backend cached --query-vectors " + tmp("pack.json") +
                 " --index-vectors " + index + " --output " + tmp("out"));
    expect_refused(r, "pack.json", c.what);
    expect_no_output_left(dir_ / "out", "report.json");
  }
  // Subnormal and underflowing values are numbers like any other: the run completes.
  for (const char* value : {"1e-45", "-1e-400"}) {
    SCOPED_TRACE(value);
    write("pack.json", with(value));
    auto r = run("bench --backend cached --query-vectors " + tmp("pack.json") + " --index-vectors " +
                 index + " --output " + tmp("ok"));
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(fs::exists(dir_ / "ok" / "report.json"));
  }
}

// ---- outputs on a full disk -------------------------------------------------------------------------

// `ulimit -f 1` caps every file the command writes at 512 bytes; SIGXFSZ is ignored (inherited
// through exec), so the write fails with EFBIG as on a full disk instead of killing the process.
TEST_F(BadInputs, FullDiskForOutputFilesLeavesNothingBehind) {
  std::string corpus;
  for (int i = 0; i < 200; ++i)
    corpus += "{\"id\": \"doc-" + std::to_string(i) + "\", \"text\": \"年假怎么申请 报销流程 " +
              std::to_string(i) + "\"}\n";
  write("corpus.jsonl", corpus);
  const std::string limit = "sh -c " + sh_quote("trap '' XFSZ; ulimit -f 1; exec \"$0\" \"$@\"") + " ";
  auto q = [&](const std::string& args) {
    return qaplan::test::run(limit + sh_quote(qaplan_bin()) + " " + args + " </dev/null");
  };
  fs::create_directories(dir_ / "o1");
  auto r = q("search --format tsv --k 0 --query 年假 --corpus " + tmp("corpus.jsonl") +
             " --output " + tmp("o1/hits.tsv"));
  expect_refused(r, "hits.tsv", "write");
  expect_no_output_left(dir_ / "o1", "hits.tsv");

  fs::create_directories(dir_ / "o2");
  r = q("tokenize --format tsv --input " + tmp("corpus.jsonl") + " --output " + tmp("o2/tok.tsv"));
  expect_refused(r, "tok.tsv", "write");
  expect_no_output_left(dir_ / "o2", "tok.tsv");

  r = q("bench --backend local-tfidf --output " + tmp("o3"));
  expect_refused(r, "o3", "write");
  expect_no_output_left(dir_ / "o3", "report.json");

  // An existing output is left as it was.
  write("o1/hits.tsv", "old\n");
  r = q("search --format tsv --k 0 --query 年假 --corpus " + tmp("corpus.jsonl") + " --output " +
        tmp("o1/hits.tsv"));
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_EQ(slurp(dir_ / "o1" / "hits.tsv"), "old\n");
}

TEST_F(BadInputs, FullDiskOnStdoutIsAnError) {
  // /dev/full: every write fails with ENOSPC.
  for (const std::string args :
       {std::string("plan 年假怎么申请"), "plan --input " + bad("batch_crlf.jsonl"),
        "search --query 年假 --corpus " + bad("corpus_ok.jsonl"),
        "tokenize --format tsv --input " + bad("corpus_ok.jsonl")}) {
    SCOPED_TRACE(args);
    auto r = qaplan::test::run(sh_quote(qaplan_bin()) + " " + args + " >/dev/full </dev/null");
    expect_refused(r, "stdout", "cannot write");
  }
}

}  // namespace
