// `--help` of every subcommand shows its defaults and matches the docs. docs/cli.md, the command
// reference, holds each subcommand's `--help` verbatim (regenerate with scripts/cli_help.sh); the
// README and docs/ may only name commands, flags and repository files that exist.
#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "test_support.hpp"

namespace {

using qaplan::test::run;
using qaplan::test::sh_quote;

using qaplan::test::lines_of;

std::string help_of(const std::string& command) {
  const auto r = run(sh_quote(qaplan::test::qaplan_bin()) + (command.empty() ? "" : " " + command) +
                     " --help");
  EXPECT_EQ(r.status, 0) << command << ": " << r.err;
  return r.out;
}

// The names under "Subcommands:" in a help text.
std::vector<std::string> subcommands_in(const std::string& help) {
  std::vector<std::string> out;
  bool in_list = false;
  for (const auto& line : lines_of(help)) {
    if (line == "Subcommands:") {
      in_list = true;
      continue;
    }
    if (!in_list) continue;
    if (line.size() < 3 || line.rfind("  ", 0) != 0 || line[2] == ' ') {
      if (!line.empty()) in_list = false;
      continue;
    }
    out.push_back(line.substr(2, line.find(' ', 2) - 2));
  }
  return out;
}

// Every command path the binary has ("" = the top level, "plan", "index build", …), found by
// walking the "Subcommands:" lists, so a new subcommand needs a README entry without anyone
// remembering to add it to this test.
std::vector<std::string> all_commands() {
  std::vector<std::string> out{""};
  for (size_t i = 0; i < out.size(); ++i)
    for (const auto& sub : subcommands_in(help_of(out[i])))
      out.push_back(out[i].empty() ? sub : out[i] + " " + sub);
  return out;
}

// docs/cli.md's generated blocks: a line `<!-- help: CMD -->` followed by a fenced block.
std::map<std::string, std::string> readme_help_blocks(const std::string& readme) {
  std::map<std::string, std::string> out;
  const auto lines = lines_of(readme);
  const std::string open = "<!-- help: ", close = " -->";
  for (size_t i = 0; i < lines.size(); ++i) {
    const auto& l = lines[i];
    if (l.rfind(open, 0) != 0 || l.size() < open.size() + close.size() ||
        l.compare(l.size() - close.size(), close.size(), close) != 0)
      continue;
    std::string cmd = l.substr(open.size(), l.size() - open.size() - close.size());
    if (cmd == "qaplan") cmd.clear();
    size_t j = i + 1;
    EXPECT_TRUE(j < lines.size() && lines[j].rfind("```", 0) == 0)
        << "docs/cli.md: '" << l << "' must be followed by a fenced block";
    std::string body;
    for (++j; j < lines.size() && lines[j] != "```"; ++j) body += lines[j] + "\n";
    EXPECT_FALSE(out.count(cmd)) << "docs/cli.md: two help blocks for '" << cmd << "'";
    out[cmd] = body;
    i = j;
  }
  return out;
}

std::string cli_page() {
  return qaplan::test::slurp(qaplan::test::source_dir() / "docs" / "cli.md");
}

TEST(HelpReadme, EverySubcommandHasItsHelpInTheCommandReferenceVerbatim) {
  const auto blocks = readme_help_blocks(cli_page());
  ASSERT_FALSE(blocks.empty()) << "docs/cli.md has no `<!-- help: … -->` blocks";
  const auto commands = all_commands();
  ASSERT_GE(commands.size(), 14u);  // plan, rewrite, config check, bench, search, index build, …
  for (const auto& cmd : commands) {
    const std::string name = cmd.empty() ? "qaplan" : cmd;
    auto it = blocks.find(cmd);
    if (it == blocks.end()) {
      ADD_FAILURE() << "docs/cli.md has no help block for '" << name
                    << "' (run scripts/cli_help.sh build/qaplan)";
      continue;
    }
    EXPECT_EQ(it->second, help_of(cmd))
        << "docs/cli.md's help block for '" << name << "' differs from `qaplan " << cmd
        << " --help` (run scripts/cli_help.sh build/qaplan)";
  }
  for (const auto& [cmd, body] : blocks)
    EXPECT_NE(std::find(commands.begin(), commands.end(), cmd), commands.end())
        << "docs/cli.md documents '" << cmd << "', which the binary does not have";
}

// An option's entry: its line plus the wrapped description lines under it.
struct OptionEntry {
  std::string names;  // e.g. "--k"
  std::string type;   // e.g. "UINT:INT in [0 - 100000000]=10"; empty for a flag
  std::string text;   // the whole entry
};

std::vector<OptionEntry> options_in(const std::string& help) {
  std::vector<OptionEntry> out;
  bool in_options = false;
  for (const auto& line : lines_of(help)) {
    if (line == "Options:" || line == "Positionals:") {
      in_options = true;
      continue;
    }
    if (!in_options) continue;
    if (line.empty() || (line[0] != ' ')) {
      in_options = false;
      continue;
    }
    if (line.size() > 2 && line.rfind("  ", 0) == 0 && line[2] != ' ') {
      OptionEntry e;
      const size_t end_names = line.find(' ', 2);
      e.names = line.substr(2, end_names == std::string::npos ? std::string::npos : end_names - 2);
      // The type follows the names after one space; the description after a run of spaces.
      if (end_names != std::string::npos && end_names + 1 < line.size() && line[end_names + 1] != ' ') {
        const size_t gap = line.find("  ", end_names + 1);
        e.type = line.substr(end_names + 1,
                             gap == std::string::npos ? std::string::npos : gap - end_names - 1);
      }
      e.text = line;
      out.push_back(e);
    } else if (!out.empty()) {
      out.back().text += " " + line;
    }
  }
  return out;
}

TEST(HelpReadme, EveryOptionThatTakesAValueStatesItsDefault) {
  size_t checked = 0;
  for (const auto& cmd : all_commands()) {
    for (const auto& e : options_in(help_of(cmd))) {
      if (e.type.empty()) continue;  // a flag: off unless given
      ++checked;
      const bool shown = e.type.find('=') != std::string::npos ||
                         e.type.find("REQUIRED") != std::string::npos ||
                         e.text.find("default") != std::string::npos;
      EXPECT_TRUE(shown) << "`qaplan " << cmd << " --help`: " << e.names
                         << " takes a value but its help states no default:\n" << e.text;
    }
  }
  EXPECT_GE(checked, 60u);
}

using Flags = std::map<std::string, std::set<std::string>>;  // command -> its option names

// The flags `text`'s hand-written usage summaries name that their command lacks, as failures
// naming `doc` and the line; returns how many flags it checked.
size_t check_usage_summaries(const std::string& doc, const std::string& text,
                             const std::vector<std::string>& commands, const Flags& flags) {
  const auto lines = lines_of(text);
  bool in_fence = false, generated = false;
  std::string current;  // the command of the summary line being continued
  bool in_summary = false;  // current is meaningful ("" = the top level: qaplan --version)
  size_t checked = 0;
  for (size_t i = 0; i < lines.size(); ++i) {
    const auto& l = lines[i];
    if (l.rfind("```", 0) == 0) {
      generated = !in_fence && i > 0 && lines[i - 1].rfind("<!-- help: ", 0) == 0;
      in_fence = !in_fence;
      in_summary = false;
      continue;
    }
    if (!in_fence || generated) continue;
    std::string body = l.substr(0, l.find('#'));  // drop trailing comments
    if (body.rfind("qaplan ", 0) == 0) {
      // The longest command path the line starts with; none when a flag follows `qaplan`.
      current.clear();
      for (const auto& c : commands)
        if (!c.empty() && body.compare(7, c.size(), c) == 0 &&
            (body.size() == 7 + c.size() || body[7 + c.size()] == ' ' ||
             body[7 + c.size()] == '|') &&
            c.size() > current.size())
          current = c;
      in_summary = !current.empty() || body.compare(7, 1, "-") == 0;
      if (!in_summary) {
        ADD_FAILURE() << doc << " line " << i + 1 << " names no qaplan subcommand: " << l;
        continue;
      }
    } else if (!in_summary || body.empty() || body[0] != ' ') {
      in_summary = false;
      continue;
    }
    for (size_t p = body.find("--"); p != std::string::npos; p = body.find("--", p + 2)) {
      size_t q = p + 2;
      while (q < body.size() && (std::islower(static_cast<unsigned char>(body[q])) ||
                                 std::isdigit(static_cast<unsigned char>(body[q])) || body[q] == '-'))
        ++q;
      const std::string flag = body.substr(p, q - p);
      if (flag.size() <= 2) continue;
      ++checked;
      auto has = [&](const std::string& c) {
        const auto it = flags.find(c);
        return it != flags.end() && it->second.count(flag) > 0;
      };
      EXPECT_TRUE(has(current) || has(""))  // -v, --version
          << doc << " line " << i + 1 << ": `qaplan " << current << "` has no " << flag << ": " << l;
      p = q - 2;
    }
  }
  return checked;
}

// The text outside fenced blocks.
std::string prose_of(const std::string& text) {
  std::string out;
  bool in_fence = false;
  for (const auto& line : lines_of(text)) {
    if (line.rfind("```", 0) == 0) in_fence = !in_fence;
    else if (!in_fence) out += line + "\n";
  }
  return out;
}

// The inline code spans (`…`) of the prose, one line each.
std::vector<std::string> code_spans(const std::string& text) {
  std::vector<std::string> out;
  for (const auto& line : lines_of(prose_of(text)))
    for (size_t open = line.find('`'); open != std::string::npos;) {
      const size_t close = line.find('`', open + 1);
      if (close == std::string::npos) break;
      out.push_back(line.substr(open + 1, close - open - 1));
      open = line.find('`', close + 1);
    }
  return out;
}

// A span that is a path in the repository: starts with one of its top-level directories, has no
// spaces and no placeholder (<t>, *, {a,b}, …).
bool names_repo_path(const std::string& span) {
  static const char* const kRoots[] = {"src/",     "include/", "docs/",   "examples/",
                                       "scripts/", "config/",  "tests/",  "tools/",
                                       "eval_sets/", "python/", "cmake/", ".ci/"};
  if (span.find_first_of(" <>*{}…|") != std::string::npos) return false;
  return std::any_of(std::begin(kRoots), std::end(kRoots),
                     [&](const char* r) { return span.rfind(r, 0) == 0; });
}

// The targets of Markdown links that are files of the repository ([x](benchmarks.md#y) →
// benchmarks.md), anchors dropped.
std::vector<std::string> relative_links(const std::string& text) {
  std::vector<std::string> out;
  const std::string prose = prose_of(text);
  for (size_t at = prose.find("]("); at != std::string::npos; at = prose.find("](", at + 2)) {
    const size_t close = prose.find(')', at + 2);
    if (close == std::string::npos) break;
    const std::string target = prose.substr(at + 2, close - at - 2);
    const std::string file = target.substr(0, target.find('#'));
    if (file.empty() || target.find("://") != std::string::npos || file.find(' ') != std::string::npos)
      continue;
    out.push_back(file);
  }
  return out;
}

// The hand-written usage summaries (```-blocks whose lines start with `qaplan <command>`) in the
// README and every page of docs/ may only name flags that command has.
TEST(HelpReadme, UsageSummariesNameOnlyExistingFlags) {
  const auto commands = all_commands();
  Flags flags;
  for (const auto& c : commands)
    for (const auto& e : options_in(help_of(c))) {
      std::istringstream names(e.names);
      for (std::string n; std::getline(names, n, ',');) flags[c].insert(n);
    }
  std::vector<std::filesystem::path> pages{qaplan::test::source_dir() / "README.md"};
  for (const auto& e : std::filesystem::directory_iterator(qaplan::test::source_dir() / "docs"))
    if (e.path().extension() == ".md") pages.push_back(e.path());
  size_t checked = 0;
  for (const auto& page : pages) {
    const std::string text = qaplan::test::slurp(page);
    const std::string name = page.filename().string();
    checked += check_usage_summaries(name, text, commands, flags);
    // Inline commands in the prose (`qaplan eval-chain --fail-on-regression`), as one-line
    // summaries of their own.
    std::string inline_block = "```\n";
    for (const std::string& span : code_spans(text))
      if (span.rfind("qaplan ", 0) == 0) inline_block += span + "\n";
    checked += check_usage_summaries(name + " (inline commands; line = nth)", inline_block + "```\n", commands, flags);
  }
  EXPECT_GE(checked, 80u);
}

// The repository files the README and docs/ name — `src/planning/lexicon.hpp`, a link to
// [benchmarks.md](benchmarks.md#…) — exist: a renamed file cannot leave a page pointing nowhere.
TEST(HelpReadme, DocsNameOnlyFilesThatExist) {
  namespace fs = std::filesystem;
  const fs::path root = qaplan::test::source_dir();
  std::vector<fs::path> pages{root / "README.md"};
  for (const auto& e : fs::directory_iterator(root / "docs"))
    if (e.path().extension() == ".md") pages.push_back(e.path());
  size_t checked = 0;
  for (const auto& page : pages) {
    const std::string text = qaplan::test::slurp(page);
    for (std::string path : code_spans(text)) {
      if (!names_repo_path(path)) continue;
      path = path.substr(0, path.find_first_of(":#"));  // file:line, page#anchor
      ++checked;
      EXPECT_TRUE(fs::exists(root / path))
          << page.filename().string() << " names `" << path << "`, which does not exist";
    }
    for (const std::string& link : relative_links(text)) {
      ++checked;
      EXPECT_TRUE(fs::exists(page.parent_path() / link))
          << page.filename().string() << " links to " << link << ", which does not exist";
    }
  }
  EXPECT_GE(checked, 200u);
}

}  // namespace

namespace {

// The README's quickstart runs as written: every command exits 0, the follow-up
// is rewritten as the text says, and `ask` prints passages with their text.
TEST(HelpReadme, TheQuickstartRunsAsWritten) {
  const std::vector<std::string> lines =
      qaplan::test::bash_block(qaplan::test::source_dir() / "README.md", "## Quickstart");
  ASSERT_GE(lines.size(), 5u) << "README.md lost its quickstart block";
  qaplan::test::ScratchDir t("quickstart");
  std::map<std::string, std::string> out;  // subcommand → stdout of its last run
  for (const std::string& line : lines) {
    ASSERT_EQ(line.rfind("build/qaplan ", 0), 0u) << line;
    const auto r = run(qaplan::test::doc_command(line, "ix", t.path()));
    ASSERT_EQ(r.status, 0) << line << "\n" << r.err;
    out[line.substr(13, line.find(' ', 13) - 13)] = r.out;
  }
  EXPECT_NE(out["plan"].find("\"病假怎么申请\""), std::string::npos) << out["plan"];
  ASSERT_TRUE(out.count("ask"));
  EXPECT_NE(out["ask"].find("\"text\": \""), std::string::npos) << out["ask"];
  EXPECT_NE(out["ask"].find("住宿"), std::string::npos);
}

}  // namespace
