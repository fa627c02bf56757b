// `qaplan bench` end to end on the frozen dataset and the shipped vector pack.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "json_support.hpp"
#include "common/sha256.hpp"
#include "test_support.hpp"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using qaplan::test::run;
using qaplan::test::RunResult;
using qaplan::test::sh_quote;
using qaplan::test::slurp;

fs::path eval_dir() { return qaplan::test::source_dir() / "eval_sets"; }
fs::path dataset() { return eval_dir() / "policy-retrieval-v1.json"; }
fs::path pack() { return eval_dir() / "vectors" / "local-tfidf.query-vectors.json"; }
fs::path index_file() { return eval_dir() / "vectors" / "local-tfidf.index.json"; }

class BenchCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("qaplan-bench-cli-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  RunResult bench(const std::string& args) {
    return run(sh_quote(qaplan::test::qaplan_bin()) + " bench " + args);
  }
  RunResult bench_local(const fs::path& out) {
    return bench("--backend local-tfidf --dataset " + sh_quote(dataset()) + " --output " +
                 sh_quote(out));
  }
  RunResult bench_cached(const fs::path& out, const fs::path& qv, const fs::path& iv) {
    return bench("--backend cached --dataset " + sh_quote(dataset()) + " --query-vectors " +
                 sh_quote(qv) + " --index-vectors " + sh_quote(iv) + " --output " + sh_quote(out));
  }
  static void write(const fs::path& p, const std::string& s) {
    std::ofstream(p, std::ios::binary) << s;
  }
  fs::path dir_;
};

using qaplan::test::strip_timing;

TEST_F(BenchCli, LocalRunWritesBothReports) {
  const RunResult r = bench_local(dir_ / "out");
  ASSERT_EQ(r.status, 0) << r.err;
  // Both reports are published as one generation; no partial file is left behind.
  EXPECT_EQ(qaplan::test::published_names(dir_ / "out"),
            (std::set<std::string>{"report.json", "report.md"}));
  const json j = json::parse(slurp(dir_ / "out" / "report.json"));
  EXPECT_EQ(j["backend"], "local-tfidf");
  EXPECT_EQ(j["tokenizer_version"], "nfkc-cjk-bigrams-ascii-1");
  EXPECT_EQ(j["dataset"]["version"], "policy-retrieval-1");
  EXPECT_EQ(j["scope"]["in_scope"].size(), 18u);
  EXPECT_EQ(j["queries"].size(), 36u);
  ASSERT_EQ(j["methods"].size(), 3u);  // vector, bm25, rrf — no vector_current offline
  for (const auto& m : j["methods"]) {
    EXPECT_EQ(m["threshold_source"], "dev_calibration");
    EXPECT_EQ(m["metrics"]["dev"]["positives"], 8);
    EXPECT_EQ(m["metrics"]["dev"]["negatives"], 4);
    EXPECT_EQ(m["metrics"]["test"]["positives"], 16);
    EXPECT_EQ(m["metrics"]["test"]["negatives"], 8);
    // The chosen row of the dev table is the frozen threshold.
    const auto& cal = m["calibration"];
    EXPECT_EQ(cal["candidates"][cal["chosen_index"].get<std::size_t>()]["threshold"],
              m["threshold"]);
  }
  // Every query reports split, reason, labels and, per method, hits with both lists' scores.
  const json& q = j["queries"][0];
  EXPECT_FALSE(q["reason"].get<std::string>().empty());
  EXPECT_TRUE(q["methods"]["rrf"]["hits"][0].contains("cosine"));
  EXPECT_TRUE(q["methods"]["rrf"]["hits"][0].contains("bm25_rank"));
  const std::string md = slurp(dir_ / "out" / "report.md");
  EXPECT_NE(md.find("## Test split"), std::string::npos);
  EXPECT_NE(md.find("## Excluded by scope selection"), std::string::npos);
  EXPECT_NE(md.find("## Review cases"), std::string::npos);
}

TEST_F(BenchCli, TwoRunsAreIdenticalApartFromTiming) {
  ASSERT_EQ(bench_local(dir_ / "a").status, 0);
  ASSERT_EQ(bench_local(dir_ / "b").status, 0);
  json a = json::parse(slurp(dir_ / "a" / "report.json"));
  json b = json::parse(slurp(dir_ / "b" / "report.json"));
  strip_timing(a);
  strip_timing(b);
  EXPECT_EQ(a.dump(), b.dump());
}

TEST_F(BenchCli, CachedRunOnShippedPackReproducesLocalTfidfMetrics) {
  ASSERT_EQ(bench_local(dir_ / "local").status, 0);
  const RunResult r = bench_cached(dir_ / "cached", pack(), index_file());
  ASSERT_EQ(r.status, 0) << r.err;
  const json local = json::parse(slurp(dir_ / "local" / "report.json"));
  const json cached = json::parse(slurp(dir_ / "cached" / "report.json"));
  EXPECT_EQ(cached["backend"], "cached");
  EXPECT_EQ(cached["vectors"]["index_sha256"], qaplan::internal::sha256_hex(slurp(index_file())));
  EXPECT_NE(cached["vectors"]["provenance"].get<std::string>().find("built-in local-tfidf"),
            std::string::npos);
  ASSERT_EQ(cached["methods"].size(), 4u);
  for (std::size_t i = 0; i < 3; ++i) {
    SCOPED_TRACE(local["methods"][i]["name"].get<std::string>());
    EXPECT_EQ(cached["methods"][i]["name"], local["methods"][i]["name"]);
    EXPECT_EQ(cached["methods"][i]["threshold"], local["methods"][i]["threshold"]);
    EXPECT_EQ(cached["methods"][i]["metrics"], local["methods"][i]["metrics"]);
  }
  EXPECT_EQ(cached["methods"][3]["name"], "vector_current");
  EXPECT_EQ(cached["methods"][3]["threshold"], 0.57);
  EXPECT_EQ(cached["methods"][3]["threshold_source"], "fixed");
}

TEST_F(BenchCli, BadPackIsRefusedNamingTheProblem) {
  // Index bytes changed → its SHA-256 no longer matches the pack's index_sha256.
  write(dir_ / "index.json", slurp(index_file()) + "\n");
  RunResult r = bench_cached(dir_ / "out", pack(), dir_ / "index.json");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("index_sha256"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "out" / "report.json"));

  // A pack missing one frozen query.
  json p = json::parse(slurp(pack()));
  const std::string dropped = p["query_vectors"].begin().key();
  p["query_vectors"].erase(dropped);
  write(dir_ / "pack.json", p.dump());
  r = bench_cached(dir_ / "out", dir_ / "pack.json", index_file());
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find(dropped), std::string::npos) << r.err;
  // (cached without --query-vectors/--index-vectors now reads the shipped pack: see
  // CachedDefaultsToThePackBesideTheDataset.)
}

TEST_F(BenchCli, OutputThatIsAnInputIsRefusedAndLeftUntouched) {
  // Private copies so a bug could not damage the shipped files.
  fs::copy_file(dataset(), dir_ / "policy-retrieval-v1.json");
  fs::copy_file(eval_dir() / "fingerprints.json", dir_ / "fingerprints.json");
  fs::copy_file(pack(), dir_ / "pack.json");
  fs::copy_file(index_file(), dir_ / "index.json");
  const std::string before = slurp(dir_ / "policy-retrieval-v1.json");
  RunResult r =
      bench("--backend local-tfidf --dataset " + sh_quote(dir_ / "policy-retrieval-v1.json") +
            " --output " + sh_quote(dir_ / "policy-retrieval-v1.json"));
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("input"), std::string::npos) << r.err;
  EXPECT_EQ(slurp(dir_ / "policy-retrieval-v1.json"), before);

  const std::string pack_before = slurp(dir_ / "pack.json");
  r = bench("--backend cached --dataset " + sh_quote(dir_ / "policy-retrieval-v1.json") +
            " --query-vectors " + sh_quote(dir_ / "pack.json") + " --index-vectors " +
            sh_quote(dir_ / "index.json") + " --output " + sh_quote(dir_ / "pack.json"));
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(slurp(dir_ / "pack.json"), pack_before);

  r = bench("--export-queries " + sh_quote(dir_ / "index.json") + " --dataset " +
            sh_quote(dir_ / "policy-retrieval-v1.json") + " --index-vectors " +
            sh_quote(dir_ / "index.json"));
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(slurp(dir_ / "index.json"), slurp(index_file()));
}

TEST_F(BenchCli, ExportQueriesWritesOnlyTheManifest) {
  const RunResult r = bench("--export-queries " + sh_quote(dir_ / "manifest.json") + " --dataset " +
                            sh_quote(dataset()));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(fs::directory_iterator(dir_)->path().filename(), "manifest.json");
  const json m = json::parse(slurp(dir_ / "manifest.json"));
  EXPECT_EQ(m["index_sha256"], qaplan::internal::sha256_hex(slurp(index_file())));
  EXPECT_EQ(m["dimensions"], json::parse(slurp(index_file()))["dimensions"]);
  EXPECT_EQ(m["corpus_sha256"], json::parse(slurp(index_file()))["corpus_sha256"]);
  EXPECT_EQ(m["dataset_sha256"].get<std::string>().size(), 64u);
  ASSERT_EQ(m["queries"].size(), 36u);
  // Every manifest query is exactly a key of the shipped pack (the pack's key is the raw text).
  const json p = json::parse(slurp(pack()));
  for (const auto& q : m["queries"]) EXPECT_TRUE(p["query_vectors"].contains(q["query"]));
}

TEST_F(BenchCli, InvalidInvocationsExitTwo) {
  EXPECT_EQ(bench("--dataset " + sh_quote(dataset()) + " --output " + sh_quote(dir_ / "o")).status,
            2);  // backend is required
  EXPECT_EQ(
      bench("--backend qwen --dataset " + sh_quote(dataset()) + " --output " + sh_quote(dir_ / "o"))
          .status,
      2);
  // A dataset edited after registration → fingerprint mismatch.
  std::string text = slurp(dataset());
  const auto pos = text.find("\"reason\": \"");
  ASSERT_NE(pos, std::string::npos);
  text.insert(pos + 11, "x");
  write(dir_ / "policy-retrieval-v1.json", text);
  fs::copy_file(eval_dir() / "fingerprints.json", dir_ / "fingerprints.json");
  const RunResult r =
      bench("--backend local-tfidf --dataset " + sh_quote(dir_ / "policy-retrieval-v1.json") +
            " --output " + sh_quote(dir_ / "o"));
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("dataset_sha256"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "o"));
}

// ---- defaults and lookup -----------------------------------------------------------------

// Without --query-vectors/--index-vectors the cached backend reads vectors/ beside the dataset
// (for the shipped dataset: the shipped pack, eval_sets/vectors/).
TEST_F(BenchCli, CachedDefaultsToThePackBesideTheDataset) {
  RunResult r = bench("--backend cached --dataset " + sh_quote(dataset()) + " --output " +
                      sh_quote(dir_ / "default"));
  ASSERT_EQ(r.status, 0) << r.err;
  ASSERT_EQ(bench_cached(dir_ / "explicit", pack(), index_file()).status, 0);
  json d = json::parse(slurp(dir_ / "default" / "report.json"));
  json e = json::parse(slurp(dir_ / "explicit" / "report.json"));
  EXPECT_EQ(d["backend"], "cached");
  EXPECT_EQ(d["vectors"]["index_sha256"], qaplan::internal::sha256_hex(slurp(index_file())));
  strip_timing(d);
  strip_timing(e);
  EXPECT_EQ(d.dump(), e.dump());

  // A dataset elsewhere: the pack is looked for beside it, and its absence is named.
  fs::create_directories(dir_ / "ds");
  fs::copy_file(dataset(), dir_ / "ds" / "policy-retrieval-v1.json");
  fs::copy_file(eval_dir() / "fingerprints.json", dir_ / "ds" / "fingerprints.json");
  r = bench("--backend cached --dataset " + sh_quote(dir_ / "ds" / "policy-retrieval-v1.json") +
            " --output " + sh_quote(dir_ / "o2"));
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find((fs::path("ds") / "vectors" / "local-tfidf.query-vectors.json").string()),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "o2" / "report.json"));
  fs::copy(eval_dir() / "vectors", dir_ / "ds" / "vectors");
  r = bench("--backend cached --dataset " + sh_quote(dir_ / "ds" / "policy-retrieval-v1.json") +
            " --output " + sh_quote(dir_ / "o2"));
  ASSERT_EQ(r.status, 0) << r.err;
  json o2 = json::parse(slurp(dir_ / "o2" / "report.json"));
  strip_timing(o2);
  EXPECT_EQ(o2["methods"], e["methods"]);

  // The vector flags belong to the cached backend only; the message names the flag once.
  r = bench("--backend local-tfidf --dataset " + sh_quote(dataset()) + " --query-vectors " +
            sh_quote(pack()) + " --output " + sh_quote(dir_ / "o3"));
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err.rfind("qaplan: --query-vectors: ", 0), 0u) << r.err;
}

// From a working directory outside the checkout, with no --dataset, bench and --export-queries
// still find the shipped dataset and pack.
TEST_F(BenchCli, FindsShippedDataFromAnyWorkingDirectory) {
  fs::create_directories(dir_ / "cwd");
  const std::string cd = "cd " + sh_quote(dir_ / "cwd") + " && env -u QAPLAN_CONFIG " +
                         sh_quote(qaplan::test::qaplan_bin()) + " bench --config " +
                         sh_quote(qaplan::test::shipped_config()) + " ";
  RunResult r = run(cd + "--backend cached --output out");
  ASSERT_EQ(r.status, 0) << r.err;
  const json j = json::parse(slurp(dir_ / "cwd" / "out" / "report.json"));
  EXPECT_EQ(j["dataset"]["version"], "policy-retrieval-1");
  EXPECT_EQ(j["vectors"]["index_sha256"], qaplan::internal::sha256_hex(slurp(index_file())));
  r = run(cd + "--export-queries m.json");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(json::parse(slurp(dir_ / "cwd" / "m.json"))["queries"].size(), 36u);
}

// An installed layout (<prefix>/bin/qaplan, <prefix>/share/qaplan/eval_sets/ — what
// cmake --install writes) run from an unrelated directory uses its own data: the dataset it
// reports (log level info) is the install's copy, and the cached backend reads the install's pack.
TEST_F(BenchCli, InstalledLayoutFindsItsDataset) {
  const fs::path prefix = dir_ / "prefix";
  fs::create_directories(prefix / "bin");
  fs::copy_file(qaplan::test::qaplan_bin(), prefix / "bin" / "qaplan");
  fs::permissions(prefix / "bin" / "qaplan", fs::perms::owner_exec, fs::perm_options::add);
  const fs::path data = prefix / "share" / "qaplan" / "eval_sets";
  fs::create_directories(data);
  fs::copy_file(dataset(), data / "policy-retrieval-v1.json");
  fs::copy_file(eval_dir() / "fingerprints.json", data / "fingerprints.json");
  fs::copy(eval_dir() / "vectors", data / "vectors");
  fs::create_directories(dir_ / "cwd");
  const RunResult r = run("cd " + sh_quote(dir_ / "cwd") + " && env -u QAPLAN_CONFIG " +
                          sh_quote(prefix / "bin" / "qaplan") + " --log-level info bench --config " +
                          sh_quote(qaplan::test::shipped_config()) +
                          " --backend cached --output out");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("dataset " + fs::weakly_canonical(data / "policy-retrieval-v1.json").string()),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("vector pack " + fs::weakly_canonical(data).string()), std::string::npos)
      << r.err;
  const json j = json::parse(slurp(dir_ / "cwd" / "out" / "report.json"));
  EXPECT_EQ(j["backend"], "cached");
  EXPECT_EQ(j["vectors"]["index_sha256"], qaplan::internal::sha256_hex(slurp(index_file())));
}

// Usage errors: one line, "qaplan: <flag>: …", never "qaplan: qaplan bench: …" or
// "--output: --output …".
TEST_F(BenchCli, UsageMessagesNameTheFlagOnce) {
  const std::string ds = " --dataset " + sh_quote(dataset());
  const std::pair<std::string, std::string> cases[] = {
      {"--backend local-tfidf" + ds, "--output"},
      {ds + " --output " + sh_quote(dir_ / "o"), "--backend"},
      {"--backend cached --output " + sh_quote(dir_ / "o") + " --export-queries " +
           sh_quote(dir_ / "m.json"),
       "bench"},
      {"--backend cached --write-vector-pack " + sh_quote(dir_ / "p"), "--write-vector-pack"},
      {"--export-queries " + sh_quote(dir_ / "m.json") + " --backend cached", "--export-queries"},
  };
  for (const auto& [args, flag] : cases) {
    SCOPED_TRACE(args);
    const RunResult r = bench(args);
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    const std::string head = "qaplan: " + flag + ": ";
    ASSERT_EQ(r.err.rfind(head, 0), 0u) << r.err;
    EXPECT_NE(r.err.substr(head.size()).rfind(flag, 0), 0u) << "flag said twice: " << r.err;
    EXPECT_EQ(r.err.find("qaplan", 1), std::string::npos) << r.err;
  }
  EXPECT_FALSE(fs::exists(dir_ / "o"));
}

}  // namespace

namespace {

// "71.9 %", or "null" for an absent rate (the README's spelling).
std::string pct(const json& v) {
  if (v.is_null()) return "null";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f %%", 100.0 * v.get<double>());
  return buf;
}

// The "Frozen retrieval benchmark" table of docs/measured.md must be what `qaplan bench` computes
// on the shipped data: a figure there that the code no longer produces fails here.
TEST_F(BenchCli, ReadmeBenchmarkTableIsReproduced) {
  const RunResult r = bench_local(dir_ / "out");
  ASSERT_EQ(r.status, 0) << r.err;
  const json j = json::parse(slurp(dir_ / "out" / "report.json"));
  const std::string readme = slurp(qaplan::test::source_dir() / "docs" / "measured.md");
  const auto section = readme.find("**Frozen retrieval benchmark**");
  ASSERT_NE(section, std::string::npos) << "docs/measured.md lost its benchmark table";
  const std::map<std::string, std::string> label = {
      {"vector", "vector (local TF-IDF cosine)"}, {"bm25", "bm25"}, {"rrf", "rrf"}};
  for (const auto& m : j["methods"]) {
    const std::string name = m["name"];
    SCOPED_TRACE(name);
    const auto& t = m["metrics"]["test"];
    const auto& c = t["counts"];
    char threshold[32], mrr[32];
    std::snprintf(threshold, sizeof threshold, "%g", m["threshold"].get<double>());
    std::snprintf(mrr, sizeof mrr, "%.3f", t["raw_mrr_at_3"].get<double>());
    std::string precision = pct(t["evidence_precision"]);
    if (!t["evidence_precision"].is_null())
      precision += " (" + std::to_string(c["relevant_returned_chunks"].get<int>()) + "/" +
                   std::to_string(c["returned_chunks"].get<int>()) + ")";
    const std::string ood = pct(t["ood_rejection"]) + " (" +
                            std::to_string(c["rejected_negatives"].get<int>()) + "/" +
                            std::to_string(t["negatives"].get<int>()) + ")";
    const std::string row = "| " + label.at(name) + " | " + threshold + " | " +
                            pct(t["raw_recall_at_1"]) + " | " + pct(t["raw_recall_at_3"]) + " | " +
                            mrr + " | " + pct(t["accepted_recall_at_3"]) + " | " + precision +
                            " | " + ood + " |";
    EXPECT_NE(readme.find(row, section), std::string::npos) << "docs/measured.md row missing:\n" << row;
  }
}

}  // namespace
