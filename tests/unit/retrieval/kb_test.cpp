// The shipped knowledge base: strict loading and fingerprints (docs/evaluation.md). The chain
// sets and `kb build` are eval's (tests/unit/eval/kb_build_test.cpp).
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "qaplan/retrieval/kb.hpp"
#include "test_support.hpp"

namespace {

namespace fs = std::filesystem;
using qaplan::test::slurp;

fs::path kb_dir() { return qaplan::test::source_dir() / "eval_sets" / "kb"; }

qaplan::NamedText file(const fs::path& p) { return {p.filename().string(), slurp(p)}; }

TEST(KnowledgeBase, ShippedKbLoadsAndMatchesItsRegisteredVersion) {
  auto kb = qaplan::read_knowledge_base(kb_dir());
  ASSERT_TRUE(kb.ok()) << kb.error().to_string();
  EXPECT_EQ(kb->version, "kb-1");
  EXPECT_EQ(kb->faqs.size(), 183u);
  EXPECT_EQ(kb->docs.size(), 267u);
  // What the KB must hold: >= 150 FAQs over the five sources, >= 200 chunks with parents, sections,
  // effective dates and table rows of lists, ledgers, detail and standard tables.
  std::map<std::string, int> by_source;
  for (const auto& f : kb->faqs) {
    ++by_source[f.source];
    EXPECT_FALSE(f.paraphrases.empty()) << f.id;
  }
  EXPECT_EQ(by_source.size(), 5u);
  std::set<std::string> table_titles;
  std::size_t rows = 0, dated = 0, drafts = 0;
  for (const auto& c : kb->docs) {
    EXPECT_FALSE(c.parent_id.empty());
    EXPECT_FALSE(c.section.empty());
    dated += c.effective_from.has_value();
    drafts += !c.is_signed;
    if (c.kind == qaplan::KbChunkKind::kTableRow) {
      ++rows;
      table_titles.insert(c.title);
    }
  }
  EXPECT_EQ(rows, 90u);
  EXPECT_GT(dated, 200u);
  EXPECT_GT(drafts, 0u);
  for (const char* kind : {"清单", "台账", "明细", "标准表"}) {
    bool found = false;
    for (const auto& t : table_titles) found |= t.find(kind) != std::string::npos;
    EXPECT_TRUE(found) << kind;
  }
}

TEST(KnowledgeBase, FingerprintIgnoresFormattingButNotContent) {
  const auto faq = file(kb_dir() / "faq.jsonl");
  const auto docs = file(kb_dir() / "docs.jsonl");
  const auto reg = file(kb_dir() / "fingerprints.json");
  // Re-serialise every line with the keys reversed, other spacing and blank lines between:
  // the canonical JSON, and so the fingerprint, is the same.
  std::string lines;
  for (std::size_t p = 0; p < faq.text.size();) {
    const std::size_t nl = faq.text.find('\n', p);
    const std::string line = faq.text.substr(p, nl - p);
    p = nl == std::string::npos ? faq.text.size() : nl + 1;
    if (line.empty()) continue;
    nlohmann::ordered_json j = nlohmann::ordered_json::parse(line), rev;
    std::vector<std::string> keys;
    for (auto& [k, v] : j.items()) keys.push_back(k);
    for (auto it = keys.rbegin(); it != keys.rend(); ++it) rev[*it] = j[*it];
    lines += "  " + rev.dump() + "  \n\n";
  }
  auto same = qaplan::load_knowledge_base({"faq.jsonl", lines}, docs, reg);
  ASSERT_TRUE(same.ok()) << same.error().to_string();
  EXPECT_EQ(same->version, "kb-1");

  // One changed character in one answer: no registered version matches.
  std::string changed = faq.text;
  const auto at = changed.find("550元");
  ASSERT_NE(at, std::string::npos);
  changed.replace(at, 3, "560");
  auto bad = qaplan::load_knowledge_base({"faq.jsonl", changed}, docs, reg);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().code, qaplan::ErrorCode::kFingerprintMismatch);
  EXPECT_NE(bad.error().message.find("registers the same docs.jsonl"), std::string::npos)
      << bad.error().message;
  // Dropping a line changes it as well.
  std::string shorter = docs.text.substr(0, docs.text.rfind('\n', docs.text.size() - 2) + 1);
  auto bad2 = qaplan::load_knowledge_base(faq, {"docs.jsonl", shorter}, reg);
  ASSERT_FALSE(bad2.ok());
  EXPECT_EQ(bad2.error().code, qaplan::ErrorCode::kFingerprintMismatch);
}

TEST(KnowledgeBase, StrictParsingNamesLineAndField) {
  const std::string good =
      R"({"id": "faq-x-1", "source": "hr", "question": "q", "paraphrases": ["p"], "answer": "a", "tags": []})";
  ASSERT_TRUE(qaplan::parse_faq_jsonl(good + "\n", "f").ok());
  struct Case {
    std::string text, field;
  } cases[] = {
      {good + "\n" + good + "\n", "id"},
      {R"({"id": "a", "source": "s\u0001ales", "question": "q", "paraphrases": ["p"], "answer": "a", "tags": []})", "source"},
      {R"({"id": "a", "source": "hr", "question": "q", "paraphrases": [], "answer": "a", "tags": []})", "paraphrases"},
      {R"({"id": "a", "source": "hr", "question": " ", "paraphrases": ["p"], "answer": "a", "tags": []})", "question"},
      {R"({"id": "a", "source": "hr", "question": "q", "paraphrases": ["p"], "answer": "a", "tags": [], "extra": 1})", "extra"},
  };
  for (const Case& c : cases) {
    auto r = qaplan::parse_faq_jsonl(c.text, "faq.jsonl");
    ASSERT_FALSE(r.ok()) << c.text;
    EXPECT_EQ(r.error().code, qaplan::ErrorCode::kInvalidInput);
    EXPECT_EQ(r.error().file, "faq.jsonl");
    EXPECT_GT(r.error().line, 0);
    EXPECT_EQ(r.error().field, c.field) << r.error().to_string();
  }
  const std::string doc =
      R"({"id": "d1", "doc_id": "x", "parent_id": "x#1", "title": "t", "section": "s", "source": "it", "department": "IT部", "tags": [], "path": "/it/", "is_signed": true, "version": "1.0", "effective_from": "2025-01-01", "effective_to": null, "kind": "text", "text": "文本"})";
  ASSERT_TRUE(qaplan::parse_docs_jsonl(doc, "d").ok());
  auto with = [&](const std::string& key, const std::string& value) {
    nlohmann::json j = nlohmann::json::parse(doc);
    j[key] = nlohmann::json::parse(value);
    return j.dump();
  };
  for (auto [key, value] : std::vector<std::pair<std::string, std::string>>{
           {"kind", "\"row\""},
           {"effective_from", "\"2025-02-30\""},
           {"effective_to", "\"2024-01-01\""},
           {"is_signed", "\"yes\""}}) {
    auto r = qaplan::parse_docs_jsonl(with(key, value), "docs.jsonl");
    ASSERT_FALSE(r.ok()) << key;
    EXPECT_EQ(r.error().field, key) << r.error().to_string();
    EXPECT_EQ(r.error().line, 1);
  }
  EXPECT_FALSE(qaplan::parse_docs_jsonl(std::string("\xff"), "d").ok());
  EXPECT_FALSE(qaplan::parse_docs_jsonl("", "d").ok());
}

TEST(KnowledgeBase, EffectiveRangeOverlap) {
  qaplan::DocChunk c;
  c.effective_from = "2023-03-01";
  c.effective_to = "2024-12-31";
  EXPECT_TRUE(qaplan::effective_in(c, "", ""));
  EXPECT_TRUE(qaplan::effective_in(c, "2024-12-31", "2025-01-01"));   // last day
  EXPECT_FALSE(qaplan::effective_in(c, "2025-01-01", ""));            // after it ended
  EXPECT_FALSE(qaplan::effective_in(c, "", "2023-03-01"));            // [from, to) excludes to
  EXPECT_TRUE(qaplan::effective_in(c, "", "2023-03-02"));
  c.effective_to.reset();
  EXPECT_TRUE(qaplan::effective_in(c, "2030-01-01", "2031-01-01"));   // open-ended
}

}  // namespace
