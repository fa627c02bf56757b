// The shipped chain sets against their registry, and `kb build` over a host's own data
// (docs/evaluation.md); the knowledge base it builds is read by retrieval
// (tests/unit/retrieval/kb_test.cpp).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>

#include "qaplan/eval/chain_eval.hpp"
#include "qaplan/planning/config.hpp"
#include "qaplan/retrieval/kb.hpp"
#include "test_support.hpp"

namespace {

namespace fs = std::filesystem;
using qaplan::test::slurp;

fs::path kb_dir() { return qaplan::test::source_dir() / "eval_sets" / "kb"; }
fs::path chain_set_dir() { return qaplan::test::source_dir() / "eval_sets" / "chain"; }

qaplan::NamedText named_file(const fs::path& p) { return {p.filename().string(), slurp(p)}; }

TEST(ChainSets, ShippedSetsMatchTheirRegistry) {
  const auto reg = named_file(chain_set_dir() / "fingerprints.json");
  for (const char* name : {"chain-v1.jsonl", "followups-v1.jsonl"}) {
    auto r = qaplan::verify_chain_file(named_file(chain_set_dir() / name), reg);
    ASSERT_TRUE(r.ok()) << name << ": " << r.error().to_string();
    EXPECT_EQ(r->kb_version, "kb-1");
  }
  auto changed = named_file(chain_set_dir() / "followups-v1.jsonl");
  changed.text.replace(changed.text.find("f-0001"), 6, "f-9999");
  auto bad = qaplan::verify_chain_file(changed, reg);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().code, qaplan::ErrorCode::kFingerprintMismatch);
  auto unregistered = qaplan::verify_chain_file({"chain-v2.jsonl", "{}\n"}, reg);
  ASSERT_FALSE(unregistered.ok());
  EXPECT_EQ(unregistered.error().code, qaplan::ErrorCode::kFingerprintMismatch);
}

// ---- kb build: a host's own data ----------------------------------------------------------

qaplan::KbBuildInput shipped_input() {
  qaplan::KbBuildInput in;
  in.faq = named_file(kb_dir() / "faq.jsonl");
  in.docs = named_file(kb_dir() / "docs.jsonl");
  auto cfg = qaplan::load_config(qaplan::test::shipped_config());
  if (!cfg.ok()) throw std::runtime_error(cfg.error().to_string());
  for (const auto& src : cfg->sources) in.sources.push_back(src.name);
  return in;
}

TEST(KbBuild, TheShippedFilesGiveTheShippedFingerprints) {
  qaplan::test::ScratchDir t("kb");
  qaplan::KbBuildInput in = shipped_input();
  in.questions = named_file(chain_set_dir() / "chain-v1.jsonl");
  in.questions_version = "chain-1";
  auto s = qaplan::build_knowledge_base(in, t.path() / "kb");
  ASSERT_TRUE(s.ok()) << s.error().to_string();
  // The registry it writes registers exactly the hashes the committed one does.
  const auto committed = nlohmann::json::parse(slurp(kb_dir() / "fingerprints.json"));
  EXPECT_EQ(s->faq_sha256, committed["versions"]["kb-1"]["faq_sha256"]);
  EXPECT_EQ(s->docs_sha256, committed["versions"]["kb-1"]["docs_sha256"]);
  EXPECT_EQ(s->sources, (std::vector<std::string>{"admin", "finance", "hr", "it", "legal"}));
  auto kb = qaplan::read_knowledge_base(t.path() / "kb");
  ASSERT_TRUE(kb.ok()) << kb.error().to_string();
  EXPECT_EQ(kb->version, "kb-1");
  EXPECT_EQ(kb->faqs.size(), 183u);
  auto set = qaplan::read_chain_set(t.path() / "kb" / "questions" / "questions.jsonl");
  ASSERT_TRUE(set.ok()) << set.error().to_string();
  EXPECT_EQ(set->version, "chain-1");
  EXPECT_EQ(set->kb_version, "kb-1");
  EXPECT_EQ(set->sha256, s->questions_sha256);
  EXPECT_EQ(set->questions.size(), s->questions);
  EXPECT_EQ(qaplan::test::published_names(t.path() / "kb" / "questions"),
            (std::set<std::string>{"fingerprints.json", "questions.jsonl"}));
}

TEST(KbBuild, AHostsOwnSourcesMustBeItsConfiguredOnes) {
  qaplan::test::ScratchDir t("kb");
  qaplan::KbBuildInput in = shipped_input();
  const std::string line =
      R"({"id": "card-1", "source": "cards", "question": "信用卡怎么激活", "paraphrases": ["卡片激活"], "answer": "在App里激活。", "tags": []})";
  in.faq = {"mine.jsonl", line + "\n"};
  auto refused = qaplan::build_knowledge_base(in, t.path() / "kb");
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().file, "mine.jsonl");
  EXPECT_EQ(refused.error().field, "source");
  EXPECT_NE(refused.error().message.find("\"card-1\""), std::string::npos) << refused.error().message;
  EXPECT_FALSE(fs::exists(t.path() / "kb"));
  // With the host's [[sources]] (or none to check against) the same file builds.
  in.sources = {"cards", "hr", "finance", "it", "admin", "legal"};
  auto built = qaplan::build_knowledge_base(in, t.path() / "kb");
  ASSERT_TRUE(built.ok()) << built.error().to_string();
  EXPECT_EQ(built->faqs, 1u);
}

TEST(KbBuild, QuestionsAreCheckedAgainstTheKbBeforeAnythingIsPublished) {
  qaplan::test::ScratchDir t("kb");
  qaplan::KbBuildInput in = shipped_input();
  std::string q = slurp(chain_set_dir() / "chain-v1.jsonl");
  const std::string known = "\"expected_faq_id\": \"faq-fin-001\"";
  ASSERT_NE(q.find(known), std::string::npos);
  q.replace(q.find(known), known.size(), "\"expected_faq_id\": \"faq-nope-001\"");
  in.questions = qaplan::NamedText{"my-questions.jsonl", q};
  auto r = qaplan::build_knowledge_base(in, t.path() / "kb");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().file, "my-questions.jsonl");
  EXPECT_NE(r.error().message.find("faq-nope-001"), std::string::npos) << r.error().to_string();
  EXPECT_FALSE(fs::exists(t.path() / "kb"));
  // A number in a question line has no canonical form: refused naming the user's file.
  in.questions = qaplan::NamedText{"my-questions.jsonl", R"({"id": 1})" "\n"};
  auto numbers = qaplan::build_knowledge_base(in, t.path() / "kb");
  ASSERT_FALSE(numbers.ok());
  EXPECT_EQ(numbers.error().file, "my-questions.jsonl");
  in.questions.reset();
  in.version = "kb 2";
  auto bad_version = qaplan::build_knowledge_base(in, t.path() / "kb");
  ASSERT_FALSE(bad_version.ok());
  EXPECT_EQ(bad_version.error().field, "version");
  EXPECT_FALSE(fs::exists(t.path() / "kb"));
}

}  // namespace
