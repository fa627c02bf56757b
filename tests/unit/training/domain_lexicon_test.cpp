// The domain lexicon: build (src/eval/domain_*.cpp) and loader (src/planning/domain_lexicon.cpp).
//  - a small bank-like fixture (tests/data/domain/) gives the expected terms and sources, twice
//    the same bytes;
//  - the background contrast drops words general chat uses;
//  - the loader refuses every malformed file naming file:line;
//  - scan finds terms and keeps ASCII terms on word boundaries;
//  - the shipped config/domain/kb.qdl is what eval_sets/kb builds today (QAPLAN_UPDATE_GOLDEN=1
//    rewrites it), and on the real KBs generic words stay generic.
#include "planning/domain_lexicon.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "planning/text.hpp"
#include "qaplan/eval/domain_build.hpp"
#include "qaplan/io.hpp"
#include "test_support.hpp"

namespace {

namespace fs = std::filesystem;
using namespace qaplan;
using internal::DomainLexicon;

fs::path data_dir() { return test::source_dir() / "tests" / "data" / "domain"; }

DomainBackground shipped_background() {
  const fs::path p = test::source_dir() / "config" / "domain" / "background.tsv";
  auto bg = parse_domain_background(test::slurp(p), "config/domain/background.tsv");
  EXPECT_TRUE(bg.ok()) << bg.error().to_string();
  return bg.ok() ? *bg : DomainBackground{};
}

DomainBackground tiny_background() {
  const std::string text =
      "# test\nqaplan-domain-background\t1\ndata\tx\ndocs\t1000\nword\tdf\n可以\t60\n怎么\t50\n"
      "信用卡\t1\n";
  auto bg = parse_domain_background(text, "tiny.tsv");
  EXPECT_TRUE(bg.ok()) << bg.error().to_string();
  return bg.ok() ? *bg : DomainBackground{};
}

Result<DomainLexiconFile> build_kb(const fs::path& dir, const std::string& name,
                                   const DomainBackground& bg, DomainBuildOptions o = {}) {
  DomainLexiconBuilder b;
  QAPLAN_ASSIGN_OR_RETURN(DomainProvenance p, add_domain_kb(dir, b));
  p.name = name;
  return b.finish(bg, p, o);
}

// term → (source name or "-", df)
std::map<std::string, std::pair<std::string, std::uint32_t>> terms_of(const DomainLexicon& lex) {
  std::map<std::string, std::pair<std::string, std::uint32_t>> out;
  for (std::uint32_t t = 0; t < lex.term_count(); ++t) {
    const int s = lex.term_source(t);
    out[std::string(lex.term_text(t))] = {s < 0 ? "-" : lex.sources()[static_cast<std::size_t>(s)],
                                          lex.term_df(t)};
  }
  return out;
}

DomainLexicon parse_ok(const std::string& text) {
  auto lex = DomainLexicon::parse(text, "t.qdl");
  EXPECT_TRUE(lex.ok()) << lex.error().to_string();
  return std::move(lex).value();
}

TEST(DomainBuild, FixtureKbTermsAndSources) {
  auto f = build_kb(data_dir() / "kb", "tests/data/domain/kb", tiny_background());
  ASSERT_TRUE(f.ok()) << f.error().to_string();
  EXPECT_EQ(f->docs, 13u);
  EXPECT_EQ(f->min_df, 1);  // auto: a KB under 200 documents
  EXPECT_EQ(f->sources, (std::vector<std::string>{"cards", "loans", "deposits", "app"}));
  const DomainLexicon lex = parse_ok(f->text);
  EXPECT_EQ(lex.sha256(), f->sha256);
  const auto terms = terms_of(lex);
  auto source_of = [&](const std::string& t) {
    const auto it = terms.find(t);
    return it == terms.end() ? std::string("(absent)") : it->second.first;
  };
  EXPECT_EQ(source_of("信用卡"), "cards");
  EXPECT_EQ(source_of("房贷"), "loans");
  EXPECT_EQ(source_of("招财宝"), "deposits");  // a product name: a word or a sticking pair
  EXPECT_EQ(source_of("app"), "app");          // ASCII terms are lower case
  EXPECT_EQ(source_of("账户"), "-");           // in every source: generic
  EXPECT_EQ(source_of("可以"), "(absent)");    // general chat uses it as much as the KB
  EXPECT_EQ(source_of("怎么"), "(absent)");
}

TEST(DomainBuild, PairsStickOnlyWhenTheyMakeUpTheirRarerPart) {
  // 招财宝 in every document; 申请年假 once among many 申请 and 年假 — not a term.
  DomainLexiconBuilder b;
  for (int i = 0; i < 6; ++i)
    ASSERT_TRUE(b.add("", {"招财宝产品说明", "年假需要申请", "申请年假", "年假天数"}).ok());
  ASSERT_TRUE(b.add("", {"申请报销", "年假"}).ok());
  auto f = b.finish(tiny_background(), {"kb", "x", std::string(64, '0')}, {});
  ASSERT_TRUE(f.ok()) << f.error().to_string();
  const auto terms = terms_of(parse_ok(f->text));
  EXPECT_TRUE(terms.count("招财宝")) << f->text;
}

TEST(DomainBuild, DeterministicBytes) {
  auto a = build_kb(data_dir() / "kb", "kb", tiny_background());
  auto b = build_kb(data_dir() / "kb", "kb", tiny_background());
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->text, b->text);
  EXPECT_EQ(a->sha256, b->sha256);
}

TEST(DomainBuild, CorpusWithOptionalSource) {
  DomainLexiconBuilder b;
  auto p = add_domain_corpus(data_dir() / "corpus.jsonl", b);
  ASSERT_TRUE(p.ok()) << p.error().to_string();
  EXPECT_EQ(p->kind, "corpus");
  EXPECT_EQ(b.docs(), 8u);
  auto f = b.finish(tiny_background(), *p, {});
  ASSERT_TRUE(f.ok()) << f.error().to_string();
  const auto terms = terms_of(parse_ok(f->text));
  ASSERT_TRUE(terms.count("app"));
  EXPECT_EQ(terms.at("app").first, "-");  // the app documents carry no source
  EXPECT_EQ(terms.at("app").second, 2u);
  EXPECT_EQ(terms.at("招财宝").first, "deposits");
}

TEST(DomainBuild, InputErrorsNameFileLineAndField) {
  const fs::path dir = fs::temp_directory_path() / "qaplan-domain-input-test";
  fs::create_directories(dir);
  ASSERT_TRUE(write_file_atomic(dir / "c.jsonl",
                                "{\"id\":\"a\",\"text\":\"x\"}\n"
                                "{\"id\":\"a\",\"text\":\"y\"}\n")
                  .ok());
  DomainLexiconBuilder b;
  auto r = add_domain_corpus(dir / "c.jsonl", b);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().line, 2);
  EXPECT_EQ(r.error().field, "id");
  ASSERT_TRUE(
      write_file_atomic(dir / "s.jsonl", "{\"id\":\"a\",\"text\":\"x\",\"source\":3}\n").ok());
  r = add_domain_corpus(dir / "s.jsonl", b);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().field, "source");
  EXPECT_EQ(r.error().line, 1);
  fs::create_directories(dir / "kb");
  r = add_domain_kb(dir / "kb", b);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("faq.jsonl"), std::string::npos);
  ASSERT_TRUE(
      write_file_atomic(dir / "kb" / "faq.jsonl", "{\"id\":\"f\",\"source\":\"x\"}\n").ok());
  r = add_domain_kb(dir / "kb", b);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().field, "question");
  EXPECT_NE(r.error().file.find("faq.jsonl"), std::string::npos);
  const Status idx = check_domain_index(dir);
  ASSERT_FALSE(idx.ok());
  EXPECT_EQ(idx.error().code, ErrorCode::kIo);
  ASSERT_TRUE(write_file_atomic(dir / "bm25.qidx", "x").ok());
  const Status idx2 = check_domain_index(dir);
  ASSERT_FALSE(idx2.ok());
  EXPECT_EQ(idx2.error().code, ErrorCode::kInvalidInput);
  EXPECT_NE(idx2.error().message.find("--corpus"), std::string::npos);
  fs::remove_all(dir);
}

TEST(DomainBuild, OptionsValidated) {
  DomainBuildOptions o;
  o.source_share = 0.5;
  EXPECT_EQ(o.validate().error().field, "source_share");
  o = {};
  o.max_terms = 0;
  EXPECT_EQ(o.validate().error().field, "max_terms");
  o = {};
  o.contrast = 0;
  EXPECT_EQ(o.validate().error().field, "contrast");
}

TEST(DomainBuild, MaxTermsKeepsHighestDf) {
  DomainBuildOptions o;
  o.max_terms = 2;
  auto f = build_kb(data_dir() / "kb", "kb", tiny_background(), o);
  ASSERT_TRUE(f.ok());
  const DomainLexicon lex = parse_ok(f->text);
  ASSERT_EQ(lex.term_count(), 2u);
  EXPECT_GT(f->capped, 0u);
  // The two kept are the two most frequent of the uncapped build.
  const DomainLexicon all = parse_ok(build_kb(data_dir() / "kb", "kb", tiny_background())->text);
  std::vector<std::uint32_t> dfs;
  for (std::uint32_t t = 0; t < all.term_count(); ++t) dfs.push_back(all.term_df(t));
  std::sort(dfs.rbegin(), dfs.rend());
  EXPECT_EQ(std::min(lex.term_df(0), lex.term_df(1)), dfs[1]);
  EXPECT_EQ(std::max(lex.term_df(0), lex.term_df(1)), dfs[0]);
}

// ---- loader ---------------------------------------------------------------------------------

const std::string kHeader =
    "qaplan-domain-lexicon\t1\n"
    "built_from\tkb\tx\t" +
    std::string(64, 'a') +
    "\n"
    "background\t" +
    std::string(64, 'b') +
    "\n"
    "docs\t10\nmin_df\t1\ncontrast\t8\nchat_common\t0.005\npair_share\t0.5\nsource_share\t0."
    "8\nsource_min_df\t2\n"
    "sources\tcards\tloans\n";

std::string lexicon_text(const std::string& terms_line, const std::string& rows) {
  return kHeader + terms_line + "term\tdf\tsource\tshare\n" + rows;
}

TEST(DomainLexiconLoad, Accepts) {
  const DomainLexicon lex = parse_ok(lexicon_text(
      "terms\t3\n", "app\t2\tloans\t0.9000\n信用卡\t5\tcards\t1.0000\n账户\t4\t-\t0.5000\n"));
  EXPECT_EQ(lex.term_count(), 3u);
  EXPECT_EQ(lex.doc_count(), 10u);
  EXPECT_EQ(lex.term_source(1), 0);
  EXPECT_EQ(lex.term_source(2), -1);
  EXPECT_FLOAT_EQ(lex.term_share(0), 0.9f);
  EXPECT_EQ(lex.term_df(1), 5u);
  EXPECT_EQ(lex.term_text(2), "账户");
  EXPECT_EQ(lex.term_text(3), "");  // out of range
  EXPECT_EQ(lex.describe().find("t.qdl sha256:"), 0u);
  EXPECT_NE(lex.describe().find("3 terms, 2 sources"), std::string::npos);
}

struct BadCase {
  const char* what;
  std::string text;
  int line;
};

TEST(DomainLexiconLoad, RefusesNamingFileAndLine) {
  const std::string ok_rows = "信用卡\t5\tcards\t1.0000\n账户\t4\t-\t0.5000\n";
  const std::vector<BadCase> cases = {
      {"bad magic", "qaplan-domain-lexicon\t2\n", 1},
      {"empty file", "", 1},
      {"bad hash", "qaplan-domain-lexicon\t1\nbuilt_from\tkb\tx\tnothex\n", 2},
      {"bad df", lexicon_text("terms\t2\n", "信用卡\tfive\tcards\t1.0000\n账户\t4\t-\t0.5\n"), 14},
      {"df over docs", lexicon_text("terms\t2\n", "信用卡\t11\tcards\t1.0000\n账户\t4\t-\t0.5\n"),
       14},
      {"unknown source", lexicon_text("terms\t2\n", "信用卡\t5\tbank\t1.0000\n账户\t4\t-\t0.5\n"),
       14},
      {"bad share", lexicon_text("terms\t2\n", "信用卡\t5\tcards\t1.5\n账户\t4\t-\t0.5\n"), 14},
      {"duplicate", lexicon_text("terms\t2\n", "账户\t5\t-\t1.0000\n账户\t4\t-\t0.5\n"), 15},
      {"upper case", lexicon_text("terms\t1\n", "App\t5\t-\t1.0000\n"), 14},
      {"out of order", lexicon_text("terms\t2\n", "账户\t4\t-\t0.5\n信用卡\t5\tcards\t1.0000\n"),
       15},
      {"too long", lexicon_text("terms\t1\n", std::string(65, 'a') + "\t5\t-\t1.0000\n"), 14},
      {"truncated rows", lexicon_text("terms\t3\n", ok_rows), 16},
      {"no final newline", lexicon_text("terms\t2\n", ok_rows.substr(0, ok_rows.size() - 1)), 15},
      {"extra rows", lexicon_text("terms\t1\n", ok_rows), 15},
      {"missing column line", kHeader + "terms\t0\n", 13},
      {"too few fields", lexicon_text("terms\t1\n", "信用卡\t5\tcards\n"), 14},
  };
  for (const BadCase& c : cases) {
    auto r = DomainLexicon::parse(c.text, "bad.qdl");
    ASSERT_FALSE(r.ok()) << c.what;
    EXPECT_EQ(r.error().code, ErrorCode::kInvalidInput) << c.what;
    EXPECT_EQ(r.error().file, "bad.qdl") << c.what;
    EXPECT_EQ(r.error().line, c.line) << c.what << ": " << r.error().to_string();
  }
  auto missing = DomainLexicon::load(data_dir() / "no-such.qdl");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().code, ErrorCode::kIo);
}

TEST(DomainLexiconScan, FindsTermsOnAsciiWordBoundaries) {
  const DomainLexicon lex = parse_ok(lexicon_text(
      "terms\t4\n",
      "app\t2\t-\t0.5000\nvpn\t2\t-\t0.5000\n信用\t5\t-\t0.5000\n信用卡\t5\tcards\t1.0000\n"));
  std::vector<DomainLexicon::Hit> hits;
  auto texts = [&](std::string_view q) {
    lex.scan(q, hits);
    std::vector<std::string> out;
    for (const auto& h : hits) out.emplace_back(q.substr(h.begin, h.end - h.begin));
    return out;
  };
  EXPECT_EQ(texts("信用卡额度怎么提升"), (std::vector<std::string>{"信用", "信用卡"}));
  EXPECT_EQ(texts("apple 好吃吗"), std::vector<std::string>{});
  EXPECT_EQ(texts("happ"), std::vector<std::string>{});
  EXPECT_EQ(texts("手机app登录"), std::vector<std::string>{"app"});
  EXPECT_EQ(texts("apps and vpn"), (std::vector<std::string>{"app", "vpn"}));
  EXPECT_EQ(texts("vpn2"), std::vector<std::string>{});
  lex.scan("", hits);
  EXPECT_TRUE(hits.empty());
}

TEST(DomainLexiconScan, MatchesNormalizedQuestions) {
  auto f = build_kb(data_dir() / "kb", "kb", tiny_background());
  ASSERT_TRUE(f.ok());
  const DomainLexicon lex = parse_ok(f->text);
  // Full-width, upper case and Traditional input find the same terms once normalized.
  auto q = internal::normalize_question("ＡＰＰ裡的信用卡額度", InputConfig{});
  ASSERT_TRUE(q.ok());
  std::vector<DomainLexicon::Hit> hits;
  lex.scan(q->text, hits);
  std::vector<std::string> found;
  for (const auto& h : hits) found.emplace_back(lex.term_text(h.term));
  EXPECT_NE(std::find(found.begin(), found.end(), "app"), found.end()) << q->text;
  EXPECT_NE(std::find(found.begin(), found.end(), "信用卡"), found.end()) << q->text;
}

// ---- background ----------------------------------------------------------------------------

TEST(DomainBackground, ParseErrors) {
  const std::vector<std::pair<std::string, int>> cases = {
      {"qaplan-domain-background\t2\n", 1},
      {"# c\nqaplan-domain-background\t1\ndata\tx\ndocs\t0\n", 4},
      {"qaplan-domain-background\t1\ndata\tx\ndocs\t5\nword\tdf\n好\t6\n", 5},
      {"qaplan-domain-background\t1\ndata\tx\ndocs\t5\nword\tdf\n好\t1\n好\t2\n", 6},
      {"qaplan-domain-background\t1\ndata\tx\ndocs\t5\nword\tdf\n好\t1", 5},
      {"qaplan-domain-background\t1\ndata\tx\n", 2},
  };
  for (const auto& [text, line] : cases) {
    auto r = parse_domain_background(text, "bg.tsv");
    ASSERT_FALSE(r.ok()) << text;
    EXPECT_EQ(r.error().file, "bg.tsv");
    EXPECT_EQ(r.error().line, line) << text << r.error().to_string();
  }
}

TEST(DomainBackground, ShippedFileIsWhatTheRouterDataBuilds) {
  const fs::path shipped = test::source_dir() / "config" / "domain" / "background.tsv";
  auto built = build_domain_background(test::source_dir() / "eval_sets" / "router");
  ASSERT_TRUE(built.ok()) << built.error().to_string();
  if (std::getenv("QAPLAN_UPDATE_GOLDEN") != nullptr)
    ASSERT_TRUE(write_file_atomic(shipped, *built).ok());
  EXPECT_TRUE(*built == test::slurp(shipped))
      << "config/domain/background.tsv is stale: QAPLAN_UPDATE_GOLDEN=1 rewrites it";
  const DomainBackground bg = shipped_background();
  EXPECT_GT(bg.docs, 5000u);
  EXPECT_GT(bg.df.at("谢谢"), 100u);
  EXPECT_NE(built->find("CC BY 4.0"), std::string::npos);  // licences in the header
}

// ---- shipped lexicon and the real KBs --------------------------------------------------------

TEST(DomainShipped, KbLexiconIsWhatEvalSetsKbBuilds) {
  const fs::path shipped = test::source_dir() / "config" / "domain" / "kb.qdl";
  const fs::path kb = test::source_dir() / "eval_sets" / "kb";
  auto f = build_kb(kb, "eval_sets/kb", shipped_background());
  ASSERT_TRUE(f.ok()) << f.error().to_string();
  if (std::getenv("QAPLAN_UPDATE_GOLDEN") != nullptr)
    ASSERT_TRUE(write_file_atomic(shipped, f->text).ok());
  EXPECT_TRUE(f->text == test::slurp(shipped))
      << "config/domain/kb.qdl is stale: QAPLAN_UPDATE_GOLDEN=1 rewrites it";
  auto lex = DomainLexicon::load(shipped);
  ASSERT_TRUE(lex.ok()) << lex.error().to_string();
  EXPECT_EQ(lex->sources(), (std::vector<std::string>{"finance", "hr", "it", "admin", "legal"}));
}

void expect_sources(const fs::path& kb, const std::map<std::string, std::string>& expected) {
  auto f = build_kb(kb, kb.string(), shipped_background());
  ASSERT_TRUE(f.ok()) << f.error().to_string();
  const auto terms = terms_of(parse_ok(f->text));
  for (const auto& [term, source] : expected) {
    const auto it = terms.find(term);
    ASSERT_NE(it, terms.end()) << kb << ": " << term << " is not a term";
    EXPECT_EQ(it->second.first, source)
        << kb << ": " << term << " (df " << it->second.second << ")";
  }
}

TEST(DomainShipped, EnterpriseKbGenericAndSourceTerms) {
  expect_sources(
      test::source_dir() / "eval_sets" / "kb",
      {{"员工", "-"}, {"公司", "-"}, {"年假", "hr"}, {"vpn", "it"}, {"会议室", "admin"}});
}

TEST(DomainShipped, BankAndSaasKbGenericAndSourceTerms) {
  const fs::path domains = test::source_dir() / "eval_sets" / "domains";
  if (!fs::exists(domains / "bank" / "faq.jsonl") || !fs::exists(domains / "saas" / "faq.jsonl"))
    GTEST_SKIP() << "eval_sets/domains/{bank,saas} not present";
  expect_sources(domains / "bank",
                 {{"账户", "-"}, {"系统", "-"}, {"信用卡", "cards"}, {"贷款", "loans"}});
  expect_sources(
      domains / "saas",
      {{"账户", "-"}, {"公司", "-"}, {"系统", "-"}, {"员工", "-"}, {"webhook", "integrations"}});
  // What the route and source stages will see: a bank question's terms and their source.
  auto f = build_kb(domains / "bank", "bank", shipped_background());
  ASSERT_TRUE(f.ok());
  const DomainLexicon lex = parse_ok(f->text);
  auto q = internal::normalize_question("我的信用卡账单怎么分期？", InputConfig{});
  ASSERT_TRUE(q.ok());
  std::vector<DomainLexicon::Hit> hits;
  lex.scan(q->text, hits);
  std::map<std::string, int> found;
  for (const auto& h : hits) found[std::string(lex.term_text(h.term))] = lex.term_source(h.term);
  ASSERT_TRUE(found.count("信用卡"));
  EXPECT_EQ(lex.sources()[static_cast<std::size_t>(found["信用卡"])], "cards");
  EXPECT_FALSE(found.count("怎么"));  // general chat: not domain evidence
}

}  // namespace
