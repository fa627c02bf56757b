// Across every subcommand: a usage or input error is one line on stderr,
// prefixed "qaplan: " once, names the flag or file, never doubles a prefix ("qaplan: qaplan
// bench:", "--output: --output …"), and exits 2. A usage error points at the help of the
// subcommand being parsed.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "test_support.hpp"

namespace {

using qaplan::test::run;
using qaplan::test::sh_quote;

struct Case {
  std::string args;
  std::string names;  // what the message must name (a flag, file or field)
};

const std::string kMissing = "/nonexistent-qaplan-dir/x.jsonl";

std::vector<Case> cases() {
  return {
      {"", "subcommand"},
      {"frobnicate", "frobnicate"},
      {"plan", "question"},
      {"plan ''", "question"},
      {"plan --scenario nope 'x'", "scenario"},
      {"plan --input " + kMissing, kMissing},
      {"plan --input - --pretty < /dev/null", "--pretty"},
      {"plan --config " + kMissing + " x", kMissing},
      {"rewrite", "question"},
      {"config check " + kMissing, kMissing},
      {"bench", "--backend"},
      {"bench --backend nope --output /tmp", "--backend"},
      {"bench --backend local-tfidf", "--output"},
      {"bench --backend local-tfidf --query-vectors x.json --output /tmp", "--query-vectors"},
      {"bench --backend cached --dataset " + kMissing + " --output /tmp", kMissing},
      {"search --query x", "--corpus"},
      {"search --corpus " + kMissing + " --query x", kMissing},
      {"search --corpus /dev/null --query x --k -1", "--k"},
      {"index", "subcommand"},
      {"index build --output /tmp/qaplan-never", "--corpus"},
      {"index build --corpus " + kMissing + " --output /tmp/qaplan-never", kMissing},
      {"tokenize", "--input"},
      {"tokenize --input " + kMissing, kMissing},
      {"model train --output /tmp/qaplan-never.model", "--data"},
      {"model train --data " + kMissing + " --output /tmp/qaplan-never.model", "--data"},
      {"model eval --data x --split dev --output /tmp", "--model"},
      {"eval-policy", "--output"},
      {"eval-policy --dataset " + kMissing + " --output /tmp/qaplan-never", kMissing},
      {"eval-chain", "--output"},
      {"eval-chain --dataset " + kMissing + " --output /tmp/qaplan-never", kMissing},
      {"eval-rewrite --dataset " + kMissing + " --output /tmp/qaplan-never", kMissing},
      {"eval-rewrite --min-ratio 2 --output /tmp/qaplan-never", "--min-ratio"},
      {"calibrate --output /tmp/qaplan-never", "--split"},
      {"calibrate --split test --output /tmp/qaplan-never", "--split"},
      {"recommend --calibration " + kMissing + " --evaluation x --policy y --output /tmp/qaplan-never",
       kMissing},
  };
}

TEST(Messages, EveryBadInvocationGetsOneLinePrefixedOnceNamingTheCulprit) {
  for (const auto& c : cases()) {
    const auto r = run(sh_quote(qaplan::test::qaplan_bin()) + " " + c.args);
    SCOPED_TRACE("qaplan " + c.args + "\nstderr: " + r.err);
    EXPECT_EQ(r.status, 2);
    ASSERT_FALSE(r.err.empty());
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << "not one line";
    EXPECT_EQ(r.err.rfind("qaplan: ", 0), 0u) << "not prefixed";
    EXPECT_EQ(r.err.find("qaplan: ", 1), std::string::npos) << "prefix repeated";
    EXPECT_EQ(r.err.find("qaplan " + c.args.substr(0, c.args.find(' ')) + ":"), std::string::npos)
        << "doubled command prefix";
    EXPECT_NE(r.err.find(c.names), std::string::npos) << "does not name " << c.names;
    // "--flag: --flag …" repeats the name it is prefixed with.
    for (size_t p = r.err.find("--"); p != std::string::npos; p = r.err.find("--", p + 2)) {
      size_t q = p + 2;
      while (q < r.err.size() && (std::isalnum(static_cast<unsigned char>(r.err[q])) || r.err[q] == '-'))
        ++q;
      const std::string flag = r.err.substr(p, q - p);
      EXPECT_NE(r.err.substr(p, 2 * flag.size() + 2), flag + ": " + flag) << "doubled " << flag;
    }
  }
}

TEST(Messages, UsageErrorsPointAtTheHelpOfTheCommandBeingParsed) {
  const struct {
    std::string args, hint;
  } cases[] = {
      {"index build --output /tmp/qaplan-never", "(see qaplan index build --help)"},
      {"eval-chain", "(see qaplan eval-chain --help)"},
      {"plan --no-such-flag x", "(see qaplan plan --help)"},
      {"model eval --data x --split nope --model m --output o", "(see qaplan model eval --help)"},
      {"--no-such-flag", "(see qaplan --help)"},
  };
  for (const auto& c : cases) {
    const auto r = run(sh_quote(qaplan::test::qaplan_bin()) + " " + c.args);
    EXPECT_EQ(r.status, 2) << c.args;
    EXPECT_NE(r.err.find(c.hint), std::string::npos) << c.args << "\nstderr: " << r.err;
  }
}

}  // namespace
