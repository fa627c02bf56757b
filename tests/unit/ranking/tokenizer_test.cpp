#include "qaplan/ranking/tokenizer.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "test_support.hpp"

namespace {

using qaplan::Tokenizer;

Tokenizer make() {
  auto t = Tokenizer::create();
  EXPECT_TRUE(t.ok()) << (t.ok() ? "" : t.error().to_string());
  return std::move(t).value();
}

std::vector<std::string> toks(const Tokenizer& t, std::string_view s) {
  auto r = t.tokenize(s);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().to_string());
  return r.ok() ? *r : std::vector<std::string>{};
}

TEST(Tokenizer, Version) {
  const Tokenizer t = make();
  EXPECT_EQ(t.version(), "nfkc-cjk-bigrams-ascii-1");
  EXPECT_EQ(qaplan::kTokenizerVersion, "nfkc-cjk-bigrams-ascii-1");
}

// Every line of tests/data/tokenizer_vectors.jsonl: the normative examples first, then
// hand-written edge cases.
TEST(Tokenizer, Vectors) {
  const Tokenizer t = make();
  std::ifstream in(qaplan::test::source_dir() / "tests" / "data" / "tokenizer_vectors.jsonl");
  ASSERT_TRUE(in) << "missing tokenizer_vectors.jsonl";
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    ++n;
    const auto j = nlohmann::json::parse(line);
    const std::string text = j.at("text").get<std::string>();
    const auto want = j.at("tokens").get<std::vector<std::string>>();
    EXPECT_EQ(toks(t, text), want) << "line " << n << ": " << text;
  }
  EXPECT_GE(n, 9 + 20);
}

TEST(Tokenizer, NormativeExamplesInline) {
  const Tokenizer t = make();
  EXPECT_EQ(toks(t, "退货SKU-1234怎么办"),
            (std::vector<std::string>{"退货", "sku-1234", "怎么", "么办"}));
  EXPECT_EQ(toks(t, "5,000元"), (std::vector<std::string>{"5", "000", "元"}));
}

TEST(Tokenizer, InvalidUtf8IsAnErrorNotACrash) {
  const Tokenizer t = make();
  const std::vector<std::string> bad = {
      "\xff",                  // never valid
      "ok\xc3",                // truncated 2-byte sequence
      "\xc0\xaf",              // overlong '/'
      "\xe0\x80\xaf",          // overlong 3-byte
      "\xed\xa0\x80",          // UTF-16 surrogate D800
      "\xf4\x90\x80\x80",      // above U+10FFFF
      "\xe9\x80",              // truncated 退
      "\x80",                  // lone continuation byte
      "退货\xe8\xb4\x28",      // bad continuation
  };
  for (const auto& s : bad) {
    auto r = t.tokenize(s);
    ASSERT_FALSE(r.ok()) << "accepted invalid bytes of length " << s.size();
    EXPECT_EQ(r.error().code, qaplan::ErrorCode::kInvalidInput);
    EXPECT_NE(r.error().message.find("invalid UTF-8"), std::string::npos);
  }
  auto r = t.tokenize("ab\xff");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "invalid UTF-8 at byte 2");
}

TEST(Tokenizer, EmbeddedNulSeparates) {
  const Tokenizer t = make();
  EXPECT_EQ(toks(t, std::string_view("ab\0cd", 5)), (std::vector<std::string>{"ab", "cd"}));
}

TEST(Tokenizer, TokenizeIntoAppendsAndKeepsOutputOnError) {
  const Tokenizer t = make();
  std::vector<std::string> out = {"x"};
  ASSERT_TRUE(t.tokenize_into("退货", out).ok());
  EXPECT_EQ(out, (std::vector<std::string>{"x", "退货"}));
  EXPECT_FALSE(t.tokenize_into("a\xff", out).ok());
  EXPECT_EQ(out, (std::vector<std::string>{"x", "退货"}));
}

TEST(Tokenizer, ThreadSafe) {
  const Tokenizer t = make();
  const std::vector<std::string> want = {"退货", "sku-1234", "怎么", "么办"};
  std::vector<std::thread> th;
  std::vector<int> bad(4, 0);
  for (int i = 0; i < 4; ++i)
    th.emplace_back([&, i] {
      for (int k = 0; k < 2000; ++k) {
        auto r = t.tokenize("退货SKU-1234怎么办");
        if (!r.ok() || *r != want) ++bad[i];
      }
    });
  for (auto& x : th) x.join();
  for (int b : bad) EXPECT_EQ(b, 0);
}

}  // namespace
