// The router model's script fold (src/planning/model/fold.hpp).
//  - The committed table is what OpenCC's installed dictionaries give: every Simplified
//    character and phrase OpenCC knows (STCharacters, STPhrases, and the mainland readings of
//    both sides of TWPhrases) is sent through s2t and s2twp and back through qaplan's
//    to_simplified; spellings the round trip turns into one another form a group, whose
//    canonical is the shortest member (then see CanonicalOrder). Also every BMP ideograph alone, and
//    each Taiwan phrase's plain-Traditional reading against qaplan's (游標: 游标 vs 光标). QAPLAN_UPDATE_GOLDEN=1 rewrites
//    src/planning/model/fold_table.inc (a new table needs a retrained model).
//  - fold_for_model: leftmost-longest replacement, idempotent, the identity on text without a
//    spelling, cut at kMaxFoldBytes on a code point boundary.
#include <gtest/gtest.h>

#include <opencc/Config.hpp>
#include <opencc/Converter.hpp>
#include <opencc/DictEntry.hpp>
#include <opencc/Lexicon.hpp>
#include <opencc/MarisaDict.hpp>

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "planning/model/fold.hpp"
#include "planning/text.hpp"
#include "planning/simplify.hpp"
#include "test_support.hpp"

namespace {

using namespace qaplan;
using internal::fold_for_model;
using internal::kMaxFoldBytes;

std::string opencc_data(const char* file) {
  for (const char* dir : {"/usr/share/opencc/", "/usr/local/share/opencc/"}) {
    const std::string p = std::string(dir) + file;
    if (std::FILE* f = std::fopen(p.c_str(), "rb")) {
      std::fclose(f);
      return p;
    }
  }
  return {};
}

std::vector<std::string> dict_keys(const char* file) {
  std::vector<std::string> out;
  const std::string path = opencc_data(file);
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return out;
  auto dict = opencc::MarisaDict::NewFromFile(f);
  std::fclose(f);
  const auto lex = dict->GetLexicon();
  for (std::size_t i = 0; i < lex->Length(); ++i) out.push_back(lex->At(i)->Key());
  return out;
}

struct UnionFind {
  std::map<std::string, std::string> parent;
  std::string find(const std::string& x) {
    auto it = parent.find(x);
    if (it == parent.end()) return parent[x] = x;
    if (it->second == x) return x;
    return it->second = find(it->second);
  }
  void unite(const std::string& a, const std::string& b) {
    const std::string ra = find(a), rb = find(b);
    if (ra != rb) parent[ra] = rb;
  }
};

// Code points outside CJK Unified Ideographs (extension blocks, compatibility forms): rarer.
int rare_code_points(const std::string& s) {
  int n = 0;
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    const std::size_t len = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    if (len == 3) {
      const std::uint32_t cp = ((c & 0x0Fu) << 12) | ((static_cast<unsigned char>(s[i + 1]) & 0x3Fu) << 6) |
                               (static_cast<unsigned char>(s[i + 2]) & 0x3Fu);
      n += cp < 0x4E00 || cp > 0x9FFF;
    } else if (len == 4) {
      ++n;
    }
    i += len;
  }
  return n;
}

// A group's canonical: the shortest member (so folding never lengthens text), then the one with
// fewest rare code points (划, not 㓰), then one the mainland round trip keeps (尽: s2t 盡 → 尽;
// 在线, not 线上, which qaplan reads back as 在线), then the byte-smallest.
struct CanonicalOrder {
  std::function<bool(const std::string&)> stable;
  bool operator()(const std::string& a, const std::string& b) const {
    if (a.size() != b.size()) return a.size() < b.size();
    if (rare_code_points(a) != rare_code_points(b)) return rare_code_points(a) < rare_code_points(b);
    if (stable(a) != stable(b)) return stable(a);
    return a < b;
  }
};

// What the model reads: the planner's normalized text (NFKC casefold, Traditional simplified).
std::string normalized(const std::string& raw) {
  InputConfig limits;
  limits.max_question_chars = 100000;
  auto n = internal::normalize_question(raw, limits, "question");
  return n.ok() ? n->text : raw;
}

#define ASSERT_LT_OR_DIE(a, b) \
  if (!((a) < (b))) {             \
    ADD_FAILURE() << "fold table does not converge"; \
    return {};                    \
  }

// Leftmost-longest replacement with `map` (spelling → canonical): the specification that
// fold_for_model implements with an automaton.
std::string reference_fold(const std::string& text, const std::map<std::string, std::string>& map) {
  std::size_t longest = 0;
  for (const auto& [k, v] : map) longest = std::max(longest, k.size());
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    bool hit = false;
    for (std::size_t len = std::min(longest, text.size() - i); len > 0; --len) {
      const auto it = map.find(text.substr(i, len));
      if (it != map.end()) {
        out += it->second;
        i += len;
        hit = true;
        break;
      }
    }
    if (!hit) {
      const auto c = static_cast<unsigned char>(text[i]);
      const std::size_t len = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
      out += text.substr(i, len);
      i += len;
    }
  }
  return out;
}

// The table the installed OpenCC gives, as "{spelling, canonical}" lines sorted by spelling.
std::vector<std::pair<std::string, std::string>> compute_table() {
  opencc::Config cfg;
  const auto s2t = cfg.NewFromFile("s2t.json");
  const auto s2twp = cfg.NewFromFile("s2twp.json");
  const auto t2s = cfg.NewFromFile("t2s.json");
  std::set<std::string> candidates;
  for (const auto& k : dict_keys("STCharacters.ocd2")) candidates.insert(k);
  for (const auto& k : dict_keys("STPhrases.ocd2")) candidates.insert(k);
  for (const char* f : {"TWPhrases.ocd2", "TWPhrasesRev.ocd2"})
    for (const auto& k : dict_keys(f)) candidates.insert(t2s->Convert(k));
  // Every BMP ideograph alone: character variants (s2twp writes 着 as 著, which stays 著).
  auto utf8 = [](std::uint32_t cp) {
    std::string s;
    s += static_cast<char>(0xE0 | (cp >> 12));
    s += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    s += static_cast<char>(0x80 | (cp & 0x3F));
    return s;
  };
  for (std::uint32_t cp = 0x3400; cp <= 0x9FFF; ++cp) candidates.insert(utf8(cp));
  for (std::uint32_t cp = 0xF900; cp <= 0xFAFF; ++cp) candidates.insert(utf8(cp));
  UnionFind uf;
  // A Taiwan phrase read as plain Traditional (游標 → 游标) and as qaplan reads it (光标).
  // Everything is compared as the model reads it: normalized (NFKC casefold, Traditional
  // simplified), so SQL隐码攻击 is sql隐码攻击 and 請 never reaches the model.
  for (const auto& k : dict_keys("TWPhrasesRev.ocd2")) {
    const std::string plain = normalized(t2s->Convert(k)), ours = normalized(k);
    if (plain != ours) uf.unite(plain, ours);
  }
  for (const std::string& p : candidates) {
    if (normalized(p) != p) continue;
    for (const auto& conv : {s2t, s2twp}) {
      const std::string r = normalized(conv->Convert(p));
      if (r != p) uf.unite(p, r);
    }
  }
  auto stable = [&](const std::string& m) { return normalized(s2t->Convert(m)) == m; };
  std::map<std::string, std::vector<std::string>> groups;
  for (const auto& [x, unused] : uf.parent) groups[uf.find(x)].push_back(x);
  std::vector<std::pair<std::string, std::string>> table;
  for (auto& [root, members] : groups) {
    std::sort(members.begin(), members.end(), CanonicalOrder{stable});
    for (std::size_t i = 1; i < members.size(); ++i) table.emplace_back(members[i], members[0]);
  }
  // A canonical may hold another group's spelling (进程员 holds 进程 → 程序): fold every
  // canonical with the table itself until nothing changes, so folding is idempotent and both
  // 程序员 and 进程员 read 程序员. An entry whose spelling then folds to itself goes.
  for (int round = 0;; ++round) {
    ASSERT_LT_OR_DIE(round, 20);
    std::map<std::string, std::string> map(table.begin(), table.end());
    bool changed = false;
    std::vector<std::pair<std::string, std::string>> next;
    for (const auto& [from, to] : table) {
      const std::string to2 = reference_fold(to, map);
      changed = changed || to2 != to;
      if (to2 != from) next.emplace_back(from, to2);
      else changed = true;
    }
    table = std::move(next);
    if (!changed) break;
  }
  std::sort(table.begin(), table.end());
  return table;
}

std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

std::filesystem::path table_file() {
  return test::source_dir() / "src" / "planning" / "model" / "fold_table.inc";
}

TEST(FoldTable, IsWhatTheInstalledOpenccGives) {
  ASSERT_FALSE(opencc_data("STCharacters.ocd2").empty()) << "OpenCC dictionaries not installed";
  const auto table = compute_table();
  ASSERT_GT(table.size(), 50u);
  std::string text =
      "// Generated by tests/unit/planning/fold_table_test.cpp from OpenCC's dictionaries; "
      "do not edit.\n"
      "// {spelling, canonical}: see src/planning/model/fold.hpp. QAPLAN_UPDATE_GOLDEN=1 rewrites.\n";
  for (const auto& [from, to] : table)
    text += "{\"" + escape(from) + "\", \"" + escape(to) + "\"},\n";
  if (std::getenv("QAPLAN_UPDATE_GOLDEN") != nullptr) {
    std::ofstream(table_file(), std::ios::binary) << text;
    GTEST_SKIP() << "rewrote " << table_file() << " (" << table.size() << " entries)";
  }
  EXPECT_EQ(test::slurp(table_file()), text)
      << "the installed OpenCC gives another fold table (QAPLAN_UPDATE_GOLDEN=1, then retrain)";
  // The compiled-in table is the committed file.
  const auto compiled = internal::fold_table();
  ASSERT_EQ(compiled.size(), table.size());
  for (std::size_t i = 0; i < table.size(); ++i) {
    EXPECT_EQ(compiled[i].first, table[i].first);
    EXPECT_EQ(compiled[i].second, table[i].second);
  }
}

TEST(FoldTable, CanonicalsAreShorterOrEqualAndNeverSpellings) {
  std::set<std::string_view> spellings;
  for (const auto& [from, to] : internal::fold_table()) {
    EXPECT_LE(to.size(), from.size()) << from;
    EXPECT_NE(from, to);
    spellings.insert(from);
  }
  for (const auto& [from, to] : internal::fold_table())
    EXPECT_FALSE(spellings.count(to)) << to << " is both a canonical and a spelling";
}

std::string fold(std::string_view s);

// Folding is idempotent: a spelling folds to its canonical, a canonical to itself.
TEST(FoldTable, EveryEntryFoldsToItsCanonicalWhichStays) {
  for (const auto& [from, to] : internal::fold_table()) {
    EXPECT_EQ(fold(from), to) << from;
    EXPECT_EQ(fold(to), to) << to;
  }
}

std::string fold(std::string_view s) {
  char buf[kMaxFoldBytes];
  return std::string(fold_for_model(s, buf));
}

TEST(FoldForModel, RoundTripPartnersReadAlike) {
  // s2twp writes 文档 as 文件; s2t keeps 文件; the model must see one word.
  EXPECT_EQ(fold("对外文件"), fold("对外文档"));
  // 着 → 著 (s2t) stays 著 (著 is also Simplified: 著名).
  EXPECT_EQ(fold("病了歇着"), fold("病了歇著"));
  EXPECT_EQ(fold("测试用线上数据"), fold("测试用在线数据"));
}

TEST(FoldForModel, IdentityWithoutSpellingsIdempotentAndBounded) {
  for (const char* s : {"", "how do i apply for annual leave", "年假怎么申请", "vpn 连不上"})
    EXPECT_EQ(fold(s), s);
  for (const char* s : {"对外文件和线上会议", "设置和串行", "歇着看文档"}) EXPECT_EQ(fold(fold(s)), fold(s));
  // Longer text is cut at a code point boundary before folding (3-byte characters).
  std::string long_text;
  while (long_text.size() < 2 * kMaxFoldBytes) long_text += "年假";
  const std::string f = fold(long_text);
  EXPECT_LE(f.size(), kMaxFoldBytes);
  EXPECT_EQ(f.size() % 3, 0u);
}

// The property the fold exists for, on every question of tests/data: a question and its s2t /
// s2twp conversions, after qaplan's to_simplified, fold to the same model text.
TEST(FoldForModel, QuestionsAndTheirConversionsFoldAlike) {
  opencc::Config cfg;
  const auto s2t = cfg.NewFromFile("s2t.json");
  const auto s2twp = cfg.NewFromFile("s2twp.json");
  std::size_t checked = 0, differ = 0;
  for (const char* f : test::kQuestionTables) {
    std::ifstream in(test::source_dir() / "tests" / "data" / f);
    std::string line;
    while (std::getline(in, line)) {
      if (line.empty()) continue;
      const std::string question = nlohmann::json::parse(line).at("question").get<std::string>();
      const std::string simple = normalized(question);
      for (const auto& conv : {s2t, s2twp}) {
        const std::string back = normalized(conv->Convert(question));
        ++checked;
        if (fold(back) != fold(simple)) {
          ++differ;
          ADD_FAILURE() << question << " → " << back << "\n  " << fold(simple) << "\n  "
                        << fold(back);
        }
      }
    }
  }
  EXPECT_GT(checked, 1000u);
  EXPECT_EQ(differ, 0u);
}

}  // namespace
