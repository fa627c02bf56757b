// [ranking.*] in rules.toml sets qaplan search's defaults; explicit flags override it.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "test_support.hpp"

namespace {

namespace fs = std::filesystem;
using qaplan::test::run;
using qaplan::test::sh_quote;

struct Fixture {
  fs::path dir = fs::temp_directory_path() / ("qaplan-ranking-" + std::to_string(::getpid()));
  fs::path corpus = dir / "corpus.jsonl";
  fs::path cfg_b0 = dir / "b0.toml";
  Fixture() {
    fs::create_directories(dir);
    qaplan::test::copy_config_companions(dir);
    std::ofstream(corpus) << "{\"id\":\"short\",\"text\":\"退货退款\"}\n"
                          << "{\"id\":\"long\",\"text\":\"退货退款需要在七天内提交申请并附上订单号和照片\"}\n";
    std::string text = qaplan::test::slurp(qaplan::test::shipped_config());
    const std::string from = "b = 0.75";
    text.replace(text.find(from), from.size(), "b = 0.0");
    std::ofstream(cfg_b0) << text;
  }
  ~Fixture() { fs::remove_all(dir); }
  std::string search(const std::string& extra) const {
    const auto r = run("env -u QAPLAN_CONFIG " + qaplan::test::qaplan_bin() + " search --corpus " +
                       sh_quote(corpus.string()) + " --query 退货 --format tsv " + extra);
    EXPECT_EQ(r.status, 0) << r.err;
    return r.out;
  }
};

TEST(RankingConfigCli, ConfigSetsBm25DefaultsAndFlagsOverride) {
  Fixture f;
  const std::string shipped = f.search("");
  const std::string b0 = f.search("--config " + sh_quote(f.cfg_b0.string()));
  // With b = 0 length does not matter: both documents score the same and keep input order.
  EXPECT_NE(shipped, b0);
  const auto first_score = [](const std::string& tsv) { return tsv.substr(tsv.rfind('\t', tsv.find('\n')) + 1, tsv.find('\n') - tsv.rfind('\t', tsv.find('\n')) - 1); };
  const std::string second_line = b0.substr(b0.find('\n') + 1);
  EXPECT_EQ(first_score(b0), first_score(second_line));
  // An explicit --b wins over the config.
  EXPECT_EQ(f.search("--config " + sh_quote(f.cfg_b0.string()) + " --b 0.75"), shipped);
}

TEST(RankingConfigCli, BadRankingConfigIsExit2NamingTheKey) {
  Fixture f;
  std::string text = qaplan::test::slurp(qaplan::test::shipped_config());
  text.replace(text.find("norms = \"exact\""), 15, "norms = \"fast\"");
  const fs::path bad = f.dir / "bad.toml";
  std::ofstream(bad) << text;
  const auto r = run(qaplan::test::qaplan_bin() + " search --corpus " + sh_quote(f.corpus.string()) +
                     " --query 退货 --config " + sh_quote(bad.string()));
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("[ranking.bm25] norms"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty());
}

}  // namespace

namespace {

// `config check` and the commands that use [ranking.*] accept and refuse the same values: both
// go through the option structs' own validate() (issue: check said ok to m = 5000, bench refused).
TEST(RankingConfigCli, ConfigCheckAgreesWithRunTime) {
  Fixture f;
  struct Edit {
    const char* from;
    const char* to;
    const char* field;
  };
  for (const Edit& e : {Edit{"m = 16", "m = 5000", "[ranking.hnsw] m"},
                        Edit{"ef_search = 64", "ef_search = 0", "[ranking.hnsw] ef_search"},
                        Edit{"k1 = 1.2", "k1 = -1", "[ranking.bm25] k1"},
                        Edit{"k = 60", "k = 0", "[ranking.rrf] k"}}) {
    SCOPED_TRACE(e.to);
    std::string text = qaplan::test::slurp(qaplan::test::shipped_config());
    text.replace(text.find(e.from), std::string(e.from).size(), e.to);
    const fs::path bad = f.dir / "edited.toml";
    std::ofstream(bad) << text;
    const auto check = run(qaplan::test::qaplan_bin() + " config check " + sh_quote(bad.string()));
    const auto search = run(qaplan::test::qaplan_bin() + " search --mode hybrid --corpus " +
                            sh_quote(f.corpus.string()) + " --query 退货 --config " +
                            sh_quote(bad.string()));
    const auto bench = run(qaplan::test::qaplan_bin() + " bench --backend local-tfidf --output " +
                           sh_quote((f.dir / "out").string()) + " --config " +
                           sh_quote(bad.string()));
    for (const auto* r : {&check, &search, &bench}) {
      EXPECT_EQ(r->status, 2) << r->err;
      EXPECT_NE(r->err.find(e.field), std::string::npos) << r->err;
      // The same one line everywhere: file:line, the key and the option's own message.
      EXPECT_EQ(r->err, check.err);
    }
    EXPECT_FALSE(fs::exists(f.dir / "out" / "report.json"));
  }
}

}  // namespace
