// `qaplan config check` refuses, through the real binary, every config that loads but would break
// or silently do nothing at run time (docs/config.md): one test per rule. Each test edits a copy
// of the shipped config/rules.toml, computes where the error must point from the edited text,
// and asserts exit 2, one stderr line `qaplan: file:line[:col] field: message`, the field and
// the message.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "test_support.hpp"

namespace fs = std::filesystem;
using qaplan::test::run;
using qaplan::test::RunResult;
using qaplan::test::sh_quote;

namespace {

std::string shipped() { return qaplan::test::slurp(qaplan::test::shipped_config()); }

int line_at(const std::string& text, std::size_t pos) {
  int line = 1;
  for (std::size_t i = 0; i < pos && i < text.size(); ++i) line += text[i] == '\n';
  return line;
}

// Column in code points of byte `pos` on its line.
int column_at(const std::string& text, std::size_t pos) {
  const std::size_t start = text.rfind('\n', pos == 0 ? 0 : pos - 1);
  int col = 1;
  for (std::size_t i = start == std::string::npos ? 0 : start + 1; i < pos; ++i)
    col += (static_cast<unsigned char>(text[i]) & 0xC0) != 0x80;
  return col;
}

struct Edited {
  std::string text;
  std::size_t at = 0;  // byte offset of the replacement in text
};

// Position of a table header at a line start (comments may name the table too); other anchors
// anywhere.
std::size_t find_anchor(const std::string& text, const std::string& after) {
  if (!after.starts_with("[")) return text.find(after);
  const std::size_t a = text.find("\n" + after);
  return a == std::string::npos ? a : a + 1;
}

// Replaces the first `old` found after `after` (an anchor that makes the place unique).
Edited replace(std::string text, const std::string& after, const std::string& old,
               const std::string& repl) {
  const std::size_t a = find_anchor(text, after);
  EXPECT_NE(a, std::string::npos) << "anchor not in the shipped config: " << after;
  const std::size_t p = text.find(old, a == std::string::npos ? 0 : a);
  EXPECT_NE(p, std::string::npos) << "text not in the shipped config: " << old;
  if (p == std::string::npos) return {text, 0};
  text.replace(p, old.size(), repl);
  return {text, p};
}

// Removes the table `[name]` (or `[[name]]`s) with its sub-tables, up to the next other header.
std::string remove_table(const std::string& text, const std::string& name) {
  std::string out;
  bool skipping = false;
  std::size_t b = 0;
  while (b < text.size()) {
    const std::size_t e = std::min(text.find('\n', b), text.size());
    const std::string line = text.substr(b, e - b);
    if (line.starts_with("[")) {
      const std::string bare = line.substr(line.starts_with("[[") ? 2 : 1);
      skipping = bare.starts_with(name + "]") || bare.starts_with(name + ".");
    }
    if (!skipping) out += line + "\n";
    b = e + 1;
  }
  return out;
}

class ConfigCheck : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("qaplan-config-check-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    qaplan::test::copy_config_companions(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  RunResult check(const std::string& name, const std::string& text) {
    const fs::path p = dir_ / name;
    std::ofstream(p, std::ios::binary) << text;
    path_ = p.string();
    return run(qaplan::test::qaplan_bin() + " config check " + sh_quote(p.string()));
  }

  // Exit 2, one stderr line naming file:line (and :column when > 0; no column when 0; -1: a
  // column may follow), the field and `words`.
  void expect_refused(const RunResult& r, int line, int column, const std::string& field,
                      const std::string& words) {
    EXPECT_EQ(r.status, 2) << "stdout: " << r.out << "\nstderr: " << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
    ASSERT_FALSE(r.err.empty());
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "one line: [" << r.err << "]";
    EXPECT_TRUE(r.err.starts_with("qaplan: ")) << r.err;
    std::string where = path_ + ":" + std::to_string(line);
    if (column > 0) where += ":" + std::to_string(column);
    const std::size_t w = r.err.find(where);
    ASSERT_NE(w, std::string::npos) << "must name " << where << " — " << r.err;
    const char next = r.err[w + where.size()];
    EXPECT_TRUE(next == ' ' || next == ':') << "location must end after " << where << " — " << r.err;
    if (column == 0) EXPECT_NE(next, ':') << "no column expected here? " << r.err;
    EXPECT_NE(r.err.find(field), std::string::npos) << "must name " << field << " — " << r.err;
    EXPECT_NE(r.err.find(words), std::string::npos) << "must say " << words << " — " << r.err;
  }

  fs::path dir_;
  std::string path_;
};

// ---- replies ---------------------------------------------------------------------------------

TEST_F(ConfigCheck, EveryReplyMustBePresent) {
  // Each direct answer's reply, deleted in turn: never an empty "reply" at run time.
  for (const char* key : {"greeting", "unclear", "source_boundary"}) {
    SCOPED_TRACE(key);
    const std::string text = shipped();
    const std::size_t header = find_anchor(text, "[route.replies]");
    ASSERT_NE(header, std::string::npos);
    const std::size_t at = text.find("\n" + std::string(key) + " ", header);
    ASSERT_NE(at, std::string::npos);
    std::string cut = text;
    cut.erase(at + 1, text.find('\n', at + 1) - at);
    expect_refused(check("reply.toml", cut), line_at(cut, header), 0,
                   "[route.replies] " + std::string(key), "missing required key");
  }
}

TEST_F(ConfigCheck, EveryReplyMustBeNonEmpty) {
  const Edited e = replace(shipped(), "[route.replies]", "unclear = ", "unclear = \"  \"\nx_unclear = ");
  // The original value now belongs to an unknown key; the empty reply comes first in the table.
  expect_refused(check("empty_reply.toml", e.text), line_at(e.text, e.at), 0,
                 "[route.replies] unclear", "must not be empty");
}

TEST_F(ConfigCheck, AReplyForNoDialogueActIsRefused) {
  const Edited e = replace(shipped(), "[route.replies]", "greeting = ", "greting = \"hi\"\ngreeting = ");
  expect_refused(check("typo_reply.toml", e.text), line_at(e.text, e.at), 0,
                 "[route.replies] greting", "unknown key");
}

// ---- keywords in the form matching uses ---------------------------------------------------------

TEST_F(ConfigCheck, UpperCaseKeywordIsRefusedWithItsNormalizedForm) {
  const Edited e = replace(shipped(), "[[sources]]", "\"vpn\"", "\"VPN\"");
  expect_refused(check("upper.toml", e.text), line_at(e.text, e.at), column_at(e.text, e.at),
                 "keywords", "write 'vpn'");
}

TEST_F(ConfigCheck, EveryMatchedListIsCheckedForNormalizedForm) {
  // Full-width, Traditional, upper-case and padded entries, in lists of different stages: each
  // could never match a normalized question.
  struct Case {
    const char* after;
    const char* old;
    const char* repl;
    const char* field;
    const char* expect;
  };
  for (const Case c : {Case{"[route]", "greeting = [", "greeting = [\"ＨＩ\", ", "[route] greeting", "'hi'"},
                       Case{"[[intent.rules]]", "contains_any = [", "contains_any = [\"請問\", ",
                            "contains_any", "'请问'"},
                       Case{"[[category.rules]]", "keywords = [", "keywords = [\" 报价 \", ",
                            "keywords", "'报价'"},
                       Case{"[category]", "table_keywords = [", "table_keywords = [\"Table\", ",
                            "table_keywords", "'table'"},
                       Case{"[scenarios.hr_helpdesk]", "out_of_scope = [", "out_of_scope = [\"Bug\", ",
                            "out_of_scope", "'bug'"},
                       Case{"[routing]", "part_markers = [", "part_markers = [\"AND\", ",
                            "part_markers", "'and'"},
                       Case{"[rewrite]", "question_words = [", "question_words = [\"How\", ",
                            "question_words", "'how'"},
                       Case{"[matching]", "ignore_within = [", "ignore_within = [\"這個月\", ",
                            "ignore_within", "'这个月'"}}) {
    SCOPED_TRACE(c.repl);
    const Edited e = replace(shipped(), c.after, c.old, c.repl);
    const std::size_t entry = e.text.find('"', e.at);
    expect_refused(check("form.toml", e.text), line_at(e.text, entry), column_at(e.text, entry),
                   c.field, c.expect);
  }
}

TEST_F(ConfigCheck, EmptyKeywordListsThatWouldNeverMatchAreRefused) {
  // A source may list no keywords: it is known by name, its words come from the
  // domain lexicon or the model.
  {
    std::string text = shipped();
    const std::size_t k = text.find("keywords = [", find_anchor(text, "[[sources]]"));
    text.replace(k, text.find(']', k) - k + 1, "keywords = []");
    const RunResult r = check("empty_source_keywords.toml", text);
    EXPECT_EQ(r.status, 0) << r.err;
  }
  for (const auto& [after, field] :
       {std::pair{"[[category.rules]]", "[category.rules[0]] keywords"}}) {
    SCOPED_TRACE(after);
    std::string text = shipped();
    const std::size_t a = find_anchor(text, after);
    ASSERT_NE(a, std::string::npos);
    const std::size_t k = text.find("keywords = [", a);
    const std::size_t end = text.find(']', k);
    text.replace(k, end - k + 1, "keywords = []");
    expect_refused(check("empty_list.toml", text), line_at(text, k), 0, field, "must not be empty");
  }
  // An optional condition list written empty would silently be no condition at all.
  const Edited e = replace(shipped(), "[[intent.rules]]", "contains_any = [", "ends_with_any = []\ncontains_any = [");
  expect_refused(check("empty_condition.toml", e.text), line_at(e.text, e.at), 0, "ends_with_any",
                 "must not be empty");
}

// ---- duplicates, each at its own line, naming the first ------------------------------------------

TEST_F(ConfigCheck, DuplicateSourceNamesBothLinesNotAnUnknownSource) {
  const std::string text = shipped();
  const std::size_t first = text.find("name = \"hr\"");
  ASSERT_NE(first, std::string::npos);
  const Edited e = replace(text, "[[sources]]", "name = \"it\"", "name = \"hr\"");
  const RunResult r = check("dup_source.toml", e.text);
  expect_refused(r, line_at(e.text, e.at), 0, "name",
                 "duplicate source 'hr' (first at line " + std::to_string(line_at(e.text, first)) + ")");
  EXPECT_EQ(r.err.find("unknown source"), std::string::npos) << r.err;
}

TEST_F(ConfigCheck, DuplicateIdsAndCategoriesNameTheirLine) {
  struct Case {
    const char* table;  // the array the second item is appended to
    const char* key;    // its key whose value is copied from the first item
    const char* what;
  };
  for (const Case c : {Case{"[[retrieval_strategy.patches]]", "id", "duplicate patch id"},
                       Case{"[[intent.rules]]", "id", "duplicate rule id"},
                       Case{"[[category.rules]]", "category", "duplicate category"},
                       Case{"[[prompt_profiles]]", "id", "duplicate profile id"},
                       Case{"[[routing.indexes]]", "name", "duplicate index"}}) {
    SCOPED_TRACE(c.table);
    std::string text = shipped();
    // Give the second item the first item's value.
    // Headers at a line start (comments may name a table too).
    const std::string header = std::string("\n") + c.table;
    const std::size_t t1 = text.find(header);
    const std::size_t t2 = text.find(header, t1 + 1);
    ASSERT_NE(t2, std::string::npos);
    const std::string k = std::string("\n") + c.key + " = ";
    const std::size_t v1 = text.find(k, t1) + k.size();
    const std::string value = text.substr(v1, text.find_first_of(" \n", v1) - v1);
    const std::size_t v2 = text.find(k, t2) + k.size();
    text.replace(v2, text.find_first_of(" \n", v2) - v2, value);
    expect_refused(check("dup.toml", text), line_at(text, v2), 0, c.key,
                   std::string(c.what) + " " + (value.front() == '"' ? "'" + value.substr(1, value.size() - 2) + "'" : value));
    const RunResult r = check("dup.toml", text);
    EXPECT_NE(r.err.find("first at line " + std::to_string(line_at(text, v1))), std::string::npos) << r.err;
  }
}

TEST_F(ConfigCheck, RuleIdEqualToTheDefaultRuleIdIsADuplicate) {
  const Edited e = replace(shipped(), "[[intent.rules]]", "id = \"", "id = \"default_knowledge\"\nx_id = \"");
  expect_refused(check("default_id.toml", e.text), line_at(e.text, e.at), 0, "id",
                 "duplicate rule id 'default_knowledge'");
}

TEST_F(ConfigCheck, DuplicateSourceInAScenarioNamesTheEntry) {
  const Edited e = replace(shipped(), "[scenarios.hr_helpdesk]", "allowed_sources = [\"hr\"",
                           "allowed_sources = [\"hr\", \"hr\"");
  const std::size_t second = e.text.find("\"hr\"", e.text.find("\"hr\"", e.at) + 1);
  expect_refused(check("dup_allowed.toml", e.text), line_at(e.text, second),
                 column_at(e.text, second), "allowed_sources", "duplicate source 'hr'");
}

// ---- dangling references ----------------------------------------------------------------------

TEST_F(ConfigCheck, UndefinedDefaultScenarioNamesItsLine) {
  const Edited e = replace(shipped(), "", "default_scenario = \"default\"", "default_scenario = \"nope\"");
  expect_refused(check("default_scenario.toml", e.text), line_at(e.text, e.at), 0,
                 "default_scenario", "scenario 'nope' is not defined");
}

TEST_F(ConfigCheck, ScenarioNamingAnUnknownSourceNamesTheEntry) {
  const Edited e = replace(shipped(), "[scenarios.hr_helpdesk]", "allowed_sources = [",
                           "allowed_sources = [\"payroll\", ");
  const std::size_t entry = e.at + std::string("allowed_sources = [").size();
  expect_refused(check("unknown_source.toml", e.text), line_at(e.text, entry),
                 column_at(e.text, entry), "allowed_sources", "unknown source 'payroll'");
}

TEST_F(ConfigCheck, GlossaryForAnUnknownSourceNamesItsLine) {
  const Edited e = replace(shipped(), "[glossary.domains]", "\n", "\npayroll = \"hr.toml\"\n");
  expect_refused(check("glossary.toml", e.text), line_at(e.text, e.at + 1), 0,
                 "[glossary.domains] payroll", "unknown source 'payroll'");
}

// ---- things that load but never take effect -------------------------------------------------------

TEST_F(ConfigCheck, PatchThatCanNeverFireIsRefused) {
  const Edited e = replace(shipped(), "[[retrieval_strategy.patches]]", "when = {",
                           "when = { intent = \"FOLLOW_UP\", intent_not = \"FOLLOW_UP\", x = 1 } \nx_when = {");
  expect_refused(check("never.toml", e.text), line_at(e.text, e.at), 0, "intent_not",
                 "can never fire");
}

TEST_F(ConfigCheck, PromptProfileAfterTheCatchAllIsRefused) {
  const std::string text = shipped();
  const std::size_t first = text.find("\n[[prompt_profiles]]") + 1;
  ASSERT_GT(first, 0u);
  const std::string added =
      "[[prompt_profiles]]\nid = \"catch_all\"\ncitation_style = \"a\"\ncaution = \"b\"\n"
      "answer_format = \"c\"\n\n";
  std::string edited = text;
  edited.insert(first, added);
  const std::size_t second = first + added.size();
  expect_refused(check("shadowed.toml", edited), line_at(edited, second), 0, "[prompt_profiles[1]]",
                 "can never be chosen: the profile at line " + std::to_string(line_at(edited, first)));
}

// ---- required tables, treated alike ---------------------------------------------------------------

TEST_F(ConfigCheck, EveryRequiredTableIsRequired) {
  for (const std::string table : {"input", "route", "intent", "category", "retrieval_strategy.defaults",
                                  "intent_gateway", "rewrite", "routing", "execution"}) {
    SCOPED_TRACE(table);
    const RunResult r = check("no_table.toml", remove_table(shipped(), table));
    const std::string last = table.substr(table.rfind('.') + 1);
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_NE(r.err.find(last + ": missing required table"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << r.err;
  }
  // A required table's numbers are required too: none falls back to a hidden built-in value.
  const Edited e = replace(shipped(), "[input]", "max_history_turns = ", "x_max_history_turns = ");
  const RunResult r = check("no_key.toml", e.text);
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("[input] max_history_turns: missing required key"), std::string::npos) << r.err;
}

TEST_F(ConfigCheck, OptionalTablesSwitchAFeatureOff) {
  for (const std::string table : {"matching", "model", "glossary", "route.model", "prompt_profiles",
                                  "ranking"}) {
    SCOPED_TRACE(table);
    const RunResult r = check("optional.toml", remove_table(shipped(), table));
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find(": ok"), std::string::npos) << r.out;
  }
}

// ---- TOML syntax errors in plain words -------------------------------------------------------------

TEST_F(ConfigCheck, SyntaxErrorsInPlainWordsWithLineAndColumn) {
  struct Case {
    const char* after;
    const char* old;
    const char* repl;
    const char* mark;  // where the column must point (first occurrence in repl's line)
    const char* words;
  };
  for (const Case c :
       {Case{"[input]", "max_history_turns = 20", "max_history_turns 20", "20", "expected `=`"},
        Case{"[input]", "max_history_turns = 20", "max_history_turns = 20 oops", "oops", "unexpected text after a value"},
        Case{"[input]", "max_history_turns = 20", "max_history_turns = \"20", "\"20", "invalid string"},
        Case{"", "[input]", "[input", "[input", "unclosed [table] header"},
        Case{"[input]", "max_history_turns = 20", "max_history_turns = 20\nmax_history_turns = 21",
             "21", "key 'max_history_turns' already exists"},
        Case{"[route.model]", "greeting = ", "greeting = { a = 1 \nx = ", "{", "an inline table { … } is not closed with `}`"}}) {
    SCOPED_TRACE(c.repl);
    const Edited e = replace(shipped(), c.after, c.old, c.repl);
    const std::size_t mark = e.text.find(c.mark, e.at);
    const RunResult r = check("syntax.toml", e.text);
    // What is missing is noticed where it was due: an unclosed inline table after its last value,
    // an unclosed string or [table] header at the end of its line. The line is known, the column
    // is where the parser gave up.
    const std::string words = c.words;
    const bool exact = !words.starts_with("an inline table") && !words.starts_with("invalid string") &&
                       !words.starts_with("unclosed");
    expect_refused(r, line_at(e.text, mark), exact ? column_at(e.text, mark) : -1, "", c.words);
    EXPECT_NE(r.err.find("TOML syntax error: "), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("toml::"), std::string::npos) << "parser internals leaked: " << r.err;
    EXPECT_EQ(r.err.find("parse_"), std::string::npos) << "parser internals leaked: " << r.err;
  }
}

TEST_F(ConfigCheck, ShippedConfigStaysValid) {
  const RunResult r = check("rules.toml", shipped());
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(r.err.empty()) << r.err;
  EXPECT_NE(r.out.find(": ok ("), std::string::npos) << r.out;
}

}  // namespace
