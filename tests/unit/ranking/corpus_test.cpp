#include "qaplan/ranking/corpus.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace {

using qaplan::JsonlKind;
using qaplan::parse_jsonl;
using qaplan::TextRecord;

std::string err(std::string_view content, JsonlKind kind = JsonlKind::kCorpus) {
  auto r = parse_jsonl(content, kind, "c.jsonl");
  EXPECT_FALSE(r.ok());
  if (r.ok()) return "";
  EXPECT_EQ(r.error().code, qaplan::ErrorCode::kInvalidInput);
  return r.error().to_string();
}

TEST(Corpus, ParsesCorpusInOrderIgnoringOtherFields) {
  const std::string c =
      "\xEF\xBB\xBF{\"id\":\"b\",\"text\":\"退货\",\"title\":\"x\"}\n"
      "\n"
      "  \r\n"
      "{\"text\":\"\",\"id\":\"a\"}\r\n"
      "{\"id\":\"c\",\"text\":\"SKU-1\"}";  // no final newline
  auto r = parse_jsonl(c, JsonlKind::kCorpus, "c.jsonl");
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(*r, (std::vector<TextRecord>{{"b", "退货"}, {"a", ""}, {"c", "SKU-1"}}));
}

TEST(Corpus, ParsesQueriesAndAuto) {
  const std::string q = "{\"id\":\"q1\",\"query\":\"怎么退货\"}\n";
  auto r = parse_jsonl(q, JsonlKind::kQueries);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, (std::vector<TextRecord>{{"q1", "怎么退货"}}));
  auto a = parse_jsonl(q, JsonlKind::kAuto);
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(*a, *r);
  auto ac = parse_jsonl("{\"id\":\"d\",\"text\":\"t\",\"query\":\"q\"}\n", JsonlKind::kAuto);
  ASSERT_TRUE(ac.ok());
  EXPECT_EQ((*ac)[0].text, "t");
  // A corpus line is not a query line.
  EXPECT_EQ(err("{\"id\":\"d\",\"text\":\"t\"}\n", JsonlKind::kQueries), "c.jsonl:1 query: missing field");
}

TEST(Corpus, EmptyInputIsAnEmptyCollection) {
  auto r = parse_jsonl("", JsonlKind::kCorpus);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->empty());
}

TEST(Corpus, ErrorsNameFileLineAndField) {
  EXPECT_EQ(err("{\"id\":\"a\",\"text\":\"x\"}\n{\"text\":\"y\"}\n"), "c.jsonl:2 id: missing field");
  EXPECT_EQ(err("{\"id\":\"\",\"text\":\"y\"}"), "c.jsonl:1 id: must be a non-empty string");
  EXPECT_EQ(err("{\"id\":7,\"text\":\"y\"}"), "c.jsonl:1 id: must be a non-empty string");
  // Control characters in an id reached TSV output and engine requests raw:
  // escaped or raw, C0, DEL and C1 are refused on the fast and the general path alike.
  for (const char* id : {"a\\tb", "a\\u0000b", "\\u001b[31m", "a\x7f", "a\xc2\x85", "a\\u009f"})
    EXPECT_EQ(err(std::string("{\"id\":\"") + id + "\",\"text\":\"y\"}"),
              "c.jsonl:1 id: must not contain control characters (tab, line breaks, NUL, ESC, …)")
        << id;
  EXPECT_EQ(err("{\"text\":\"y\",\"id\":\"a\x7f\"}"),
            "c.jsonl:1 id: must not contain control characters (tab, line breaks, NUL, ESC, …)");
  EXPECT_EQ(err("{\"id\":\"a\",\"text\":3}"), "c.jsonl:1 text: must be a string");
  EXPECT_EQ(err("{\"id\":\"a\"}"), "c.jsonl:1 text: missing field");
  EXPECT_EQ(err("{\"id\":\"a\",\"text\":\"x\"}\n\n{\"id\":\"a\",\"text\":\"y\"}"),
            "c.jsonl:3 id: duplicate id \"a\" (first on line 1)");
  EXPECT_EQ(err("{\"id\":\"a\",\"text\":\"x\"\n"), "c.jsonl:1: not a valid JSON value");
  EXPECT_EQ(err("[1,2]\n"), "c.jsonl:1: expected one JSON object per line");
  EXPECT_EQ(err("{\"id\":\"a\",\"text\":\"\xff\"}\n"), "c.jsonl:1: invalid UTF-8 at byte 18 of the line");
}

TEST(Corpus, LoadFile) {
  const auto dir = std::filesystem::temp_directory_path() / ("qaplan-corpus-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto p = dir / "c.jsonl";
  std::ofstream(p) << "{\"id\":\"x\",\"text\":\"hello\"}\n";
  auto r = qaplan::load_jsonl(p, JsonlKind::kCorpus);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, (std::vector<TextRecord>{{"x", "hello"}}));
  auto missing = qaplan::load_jsonl(dir / "nope.jsonl", JsonlKind::kCorpus);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().code, qaplan::ErrorCode::kIo);
  std::filesystem::remove_all(dir);
}

}  // namespace
