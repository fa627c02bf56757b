#include "qaplan/planning/config.hpp"

#include <gtest/gtest.h>

#include "planning/lexicon.hpp"
#include "qaplan/ranking/config.hpp"
#include "test_support.hpp"

namespace {

using qaplan::ErrorCode;
using qaplan::parse_config;

std::string shipped_text() { return qaplan::test::slurp(qaplan::test::shipped_config()); }

// Replaces the first occurrence of `from` in the shipped config (the test fails if absent).
std::string edited(const std::string& from, const std::string& to) {
  std::string s = shipped_text();
  const auto p = s.find(from);
  EXPECT_NE(p, std::string::npos) << "fixture text not found: " << from;
  if (p != std::string::npos) s.replace(p, from.size(), to);
  return s;
}

int line_of(const std::string& text, const std::string& needle) {
  const auto p = text.find(needle);
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(p), '\n'));
}

// What `qaplan config check` reads: the planning tables and the ranking room's [ranking.*].
qaplan::Status parse_whole(const std::string& text, const std::string& origin) {
  auto planning = parse_config(text, origin);
  if (!planning.ok()) return planning.error();
  auto ranking = qaplan::parse_ranking_config(text, origin);
  if (!ranking.ok()) return ranking.error();
  return {};
}

struct Case {
  const char* name;
  std::string from;
  std::string to;
  std::string key_in_context;  // the key the error must name
  std::string message_part;
};

TEST(Config, ShippedConfigLoadsAndCompiles) {
  auto c = qaplan::load_config(qaplan::test::shipped_config());
  ASSERT_TRUE(c.ok()) << c.error().to_string();
  EXPECT_EQ(c->input.max_question_chars, 512);
  EXPECT_EQ(c->retrieval_strategy.defaults.doc_top_k, 20);
  EXPECT_DOUBLE_EQ(c->intent.default_score, 0.60);
  ASSERT_TRUE(c->scenarios.count("default"));
  EXPECT_EQ(c->scenarios.at("default").allowed_sources,
            (std::vector<std::string>{"hr", "finance", "it", "admin", "legal"}));
  EXPECT_EQ(c->retrieval_strategy.patches.size(), 11u);
  EXPECT_TRUE(qaplan::internal::Lexicon::create(*c).ok());
  auto k = qaplan::load_ranking_config(qaplan::test::shipped_config());
  ASSERT_TRUE(k.ok()) << k.error().to_string();
  EXPECT_DOUBLE_EQ(k->bm25.k1, 1.2);
  EXPECT_DOUBLE_EQ(k->bm25.b, 0.75);
  EXPECT_EQ(k->bm25.norms, qaplan::Bm25Norms::kExact);
  EXPECT_EQ(k->hnsw.ef_search, 64u);
  EXPECT_DOUBLE_EQ(k->rrf.k, 60.0);
  EXPECT_DOUBLE_EQ(k->current_vector_threshold, 0.57);
}

TEST(Config, EveryErrorNamesFileLineAndKey) {
  const std::vector<Case> cases = {
      {"unknown top-level key", "default_scenario = \"default\"",
       "default_scenario = \"default\"\ntypo_key = 1", "typo_key", "unknown key"},
      {"unknown nested key", "max_history_turns = 20", "max_history_turns = 20\nmax_questoin = 3",
       "max_questoin", "unknown key"},
      {"wrong type", "max_question_chars = 512", "max_question_chars = \"512\"", "max_question_chars",
       "must be an integer"},
      {"threshold above 1", "faq_direct_threshold = 0.72", "faq_direct_threshold = 1.5",
       "faq_direct_threshold", "[0, 1]"},
      {"negative threshold", "min_context_score = 0.30", "min_context_score = -0.1",
       "min_context_score", "[0, 1]"},
      {"top_k zero", "faq_top_k = 20", "faq_top_k = 0", "faq_top_k", "> 0"},
      {"top_k negative in a patch", "set = { doc_top_k = 10,", "set = { doc_top_k = -3,",
       "set.doc_top_k", "> 0"},
      {"rule score above 1", "score = 0.75", "score = 7.5", "score", "[0, 1]"},
      {"unknown intent", "intent = \"FOLLOW_UP\"\nscore", "intent = \"FOLLOWUP\"\nscore", "intent",
       "unknown intent"},
      {"unknown plan field", "set = { doc_top_k = 10,", "set = { doc_topk = 10,", "set.doc_topk",
       "unknown RetrievalPlan field"},
      {"flag raised with at_least", "at_least = { doc_top_k = 24, final_context_top_n = 7 }",
       "at_least = { doc_top_k = 24, final_context_top_n = 7, prefer_table = true }",
       "prefer_table", "only `set`"},
      {"unknown source in scenario", "allowed_sources = [\"hr\"]", "allowed_sources = [\"hrr\"]",
       "allowed_sources", "unknown source 'hrr'"},
      {"empty word", "greeting = [\"你好\",", "greeting = [\"\",", "greeting", "is empty"},
      {"words not strings", "chit_chat = [\"你是谁\"", "chit_chat = [1, \"你是谁\"", "chit_chat",
       "array of strings"},
      {"unknown category", "category = \"summary\"", "category = \"sumary\"", "category",
       "unknown category"},
      {"bm25 norms", "norms = \"exact\"", "norms = \"exactish\"", "norms", "\"exact\" or \"lucene\""},
      {"bm25 k1 negative", "k1 = 1.2", "k1 = -1.0", "k1", "≥ 0"},
      {"bm25 b above 1", "b = 0.75", "b = 1.75", "b", "[0, 1]"},
      {"hnsw ef_search zero", "ef_search = 64", "ef_search = 0", "ef_search", "> 0"},
      {"rrf k zero", "k = 60", "k = 0", "k", "> 0"},
      {"unknown ranking key", "seed = 100", "seed = 100\nsead = 1", "sead", "unknown key"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const std::string text = edited(c.from, c.to);
    auto r = parse_whole(text, "config/rules.toml");
    ASSERT_FALSE(r.ok());
    const qaplan::Error& e = r.error();
    EXPECT_EQ(e.code, ErrorCode::kInvalidConfig);
    EXPECT_NE(e.where().find("config/rules.toml:"), std::string::npos) << e.to_string();
    EXPECT_NE(e.where().find(c.key_in_context), std::string::npos) << e.to_string();
    EXPECT_NE(e.message.find(c.message_part), std::string::npos) << e.to_string();
    EXPECT_EQ(e.to_string().find('\n'), std::string::npos);
  }
}

TEST(Config, ErrorLineNumberPointsAtTheOffendingKey) {
  const std::string text = edited("faq_top_k = 20", "faq_top_k = 0");
  auto r = parse_config(text, "rules.toml");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().where().find("rules.toml:" + std::to_string(line_of(text, "faq_top_k = 0"))),
            std::string::npos)
      << r.error().to_string();
  const std::string text2 = edited("max_history_turns = 20", "max_history_turns = 20\nbogus = true");
  auto r2 = parse_config(text2, "rules.toml");
  ASSERT_FALSE(r2.ok());
  EXPECT_NE(r2.error().where().find("rules.toml:" + std::to_string(line_of(text2, "bogus = true"))),
            std::string::npos)
      << r2.error().to_string();
}

TEST(Config, SyntaxErrorIsOneLineWithLocation) {
  auto r = parse_config("schema_version = 1\n[input\nmax_question_chars = 3\n", "bad.toml");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kInvalidConfig);
  EXPECT_NE(r.error().where().find("bad.toml:2"), std::string::npos) << r.error().to_string();
  EXPECT_EQ(r.error().to_string().find('\n'), std::string::npos);
}

TEST(Config, MissingRequiredTablesAndKeys) {
  auto r = parse_config("schema_version = 1\n", "min.toml");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("missing required"), std::string::npos);
  auto r2 = parse_config(edited("schema_version = 1", "schema_version = 2"), "x.toml");
  ASSERT_FALSE(r2.ok());
  EXPECT_NE(r2.error().where().find("schema_version"), std::string::npos);
}

TEST(Config, DuplicatesAndDanglingReferences) {
  auto dup = parse_config(edited("id = \"follow_up_elliptic\"", "id = \"follow_up_anaphora\""), "d.toml");
  ASSERT_FALSE(dup.ok());
  EXPECT_NE(dup.error().message.find("duplicate rule id"), std::string::npos);
  auto scen = parse_config(edited("default_scenario = \"default\"", "default_scenario = \"nope\""), "s.toml");
  ASSERT_FALSE(scen.ok());
  EXPECT_NE(scen.error().message.find("'nope'"), std::string::npos);
  auto twice = parse_config(edited("set = { doc_top_k = 10,", "at_most = { doc_top_k = 3 }\nset = { doc_top_k = 10,"), "t.toml");
  ASSERT_FALSE(twice.ok());
  EXPECT_NE(twice.error().message.find("changed twice"), std::string::npos);
}

TEST(Config, UnreadableFileIsIoError) {
  auto r = qaplan::load_config("/nonexistent/rules.toml");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kIo);
  EXPECT_NE(r.error().where().find("/nonexistent/rules.toml"), std::string::npos);
}

// A TOML parser recurses per nesting level; a hostile file must get an error, not a stack overflow.
TEST(Config, DeepNestingIsAnErrorNotACrash) {
  for (const std::string open_close : {"[]", "{}"}) {
    std::string text = "schema_version = 1\n";
    if (open_close == "[]") text += "a = " + std::string(20000, '[') + std::string(20000, ']') + "\n";
    else {
      text += "a = ";
      for (int i = 0; i < 20000; ++i) text += "{b = ";
      text += "1";
      for (int i = 0; i < 20000; ++i) text += "}";
      text += "\n";
    }
    auto r = parse_config(text, "deep.toml");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().where(), "deep.toml:2") << r.error().to_string();
    EXPECT_NE(r.error().message.find("nesting deeper than"), std::string::npos);
  }
  // Brackets inside strings and comments do not count.
  const std::string s = "x = \"" + std::string(100, '[') + "\" # " + std::string(100, '{') + "\n";
  auto r = parse_config(s, "strings.toml");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message.find("nesting"), std::string::npos) << r.error().to_string();
}

TEST(Config, InvalidUtf8ConfigIsRejected) {
  auto r = parse_config("schema_version = 1\n# \xff\n", "u.toml");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kInvalidConfig);
}

TEST(Config, ProgrammaticValidateCatchesWhatTomlWould) {
  auto c = qaplan::load_config(qaplan::test::shipped_config()).value();
  c.retrieval_strategy.defaults.faq_top_k = 0;
  EXPECT_FALSE(c.validate().ok());
  c = qaplan::load_config(qaplan::test::shipped_config()).value();
  c.intent.rules[0].score = 1.2;
  EXPECT_FALSE(c.validate().ok());
  c = qaplan::load_config(qaplan::test::shipped_config()).value();
  c.scenarios["hr_helpdesk"].allowed_sources = {"hr", "hr", "hr", "hr", "hr"};
  EXPECT_FALSE(c.validate().ok());  // duplicates would defeat route's allowed-everything shortcut
  c = qaplan::load_config(qaplan::test::shipped_config()).value();
  c.scenarios["default"].allowed_sources.push_back("nowhere");
  EXPECT_FALSE(c.validate().ok());
  EXPECT_FALSE(qaplan::internal::Lexicon::create(c).ok());
}

TEST(Config, EnumSpellingsRoundTrip) {
  for (auto i : {qaplan::Intent::kFaqQuery, qaplan::Intent::kKnowledgeQuery, qaplan::Intent::kFollowUp})
    EXPECT_EQ(qaplan::parse_intent(qaplan::to_string(i)).value(), i);
  for (auto c : {qaplan::QuestionCategory::kDefault, qaplan::QuestionCategory::kPricing,
                 qaplan::QuestionCategory::kCompliance, qaplan::QuestionCategory::kTroubleshooting,
                 qaplan::QuestionCategory::kSummary})
    EXPECT_EQ(qaplan::parse_question_category(qaplan::to_string(c)).value(), c);
  EXPECT_FALSE(qaplan::parse_intent("faq_query").ok());
}

}  // namespace
