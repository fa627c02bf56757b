// The word break's dictionary path (src/planning/cjk_dictionary.hpp) must give exactly ICU's
// break iterator's tokens wherever it answers: on every text of the repository's data sets, on
// random texts of the characters it handles, and it must answer for most real questions (else
// it would pass by always handing over to the iterator).
#include <gtest/gtest.h>
#include <unicode/ucharstrie.h>
#include <unicode/unistr.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "common/utf8.hpp"
#include "planning/analysis/constraints.hpp"
#include "planning/cjk_dictionary.hpp"
#include "planning/domain_lexicon.hpp"
#include "planning/matcher.hpp"
#include "planning/segment.hpp"
#include "support/planners.hpp"
#include "test_support.hpp"

namespace {

using namespace qaplan::internal;
namespace fs = std::filesystem;

std::string show(const std::string& text, const std::vector<Token>& t) {
  std::string out;
  for (const Token& k : t) out += "[" + std::string(k.text(text)) + "]";
  return out;
}

struct SegmentTally {
  std::size_t texts = 0, answered = 0, differ = 0;
};

// Compares the two paths on `text`; records the first few differences as failures.
void compare(const std::string& text, SegmentTally& tally) {
  ++tally.texts;
  const auto fast = segment_words_by_dictionary(text);
  if (!fast) return;
  ++tally.answered;
  const std::vector<Token> icu = segment_words_by_iterator(text);
  const bool same = fast->size() == icu.size() &&
                    std::equal(icu.begin(), icu.end(), fast->begin(), [](const Token& a, const Token& b) {
                      return a.begin == b.begin && a.end == b.end && a.word == b.word &&
                             a.single_han == b.single_han && a.ascii == b.ascii;
                    });
  if (!same && ++tally.differ <= 40)
    ADD_FAILURE() << text << "\n  ICU:        " << show(text, icu) << "\n  dictionary: " << show(text, *fast);
}

void strings_of(const nlohmann::json& j, std::vector<std::string>& out) {
  if (j.is_string()) out.push_back(j.get<std::string>());
  if (j.is_array() || j.is_object())
    for (const auto& v : j) strings_of(v, out);
}

// Every string value of every .jsonl line under `dir`.
std::vector<std::string> texts_under(const fs::path& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (e.path().extension() != ".jsonl") continue;
    std::ifstream in(e.path());
    for (std::string line; std::getline(in, line);) {
      if (line.empty()) continue;
      const auto j = nlohmann::json::parse(line, nullptr, false);
      if (!j.is_discarded()) strings_of(j, out);
    }
  }
  return out;
}

TEST(SegmentDictionary, AgreesWithIcuOnEveryTextOfTheDataSets) {
  SegmentTally tally;
  for (const char* dir : {"tests/data", "eval_sets"})
    for (const std::string& t : texts_under(qaplan::test::source_dir() / dir))
      if (is_valid_utf8(t)) compare(t, tally);
  EXPECT_EQ(tally.differ, 0u) << "of " << tally.answered << " texts";
  EXPECT_GT(tally.texts, 10000u);
  // Most questions are ideographs and punctuation: the dictionary path must take them.
  EXPECT_GT(tally.answered * 10, tally.texts * 7) << tally.answered << " of " << tally.texts;
}

// Random texts of the characters the dictionary path takes, with the ones that make it hand
// over (decimal points between digits, kana, a combining mark) mixed in.
TEST(SegmentDictionary, AgreesWithIcuOnRandomTexts) {
  const std::vector<std::string> pieces = {
      "年", "假", "怎", "么", "申", "请", "报", "销", "差", "旅", "费", "门", "禁", "卡", "丢", "了",
      "的", "是", "不", "在", "中", "华", "人", "民", "共", "和", "国", "研", "究", "生", "命", "起",
      "源", "发", "展", "经", "理", "员", "工", "标", "准", "多", "少", "钱", "吗", "呢", "那", "个",
      "㐀", "䶿", "鿿", "一", "二", "线", "城", "市", "高", "铁", "票", "机", "A", "b", "Z", "0",
      "7", "9", " ", "　", "，", "。", "？", "！", "、", "；", "：", "“", "”", "‘", "’", "（",
      "）", "《", "》", "【", "】", "…", "—", "～", "·", ".", ",", ";", ":", "'", "\"", "!",
      "?", "-", "/", "%", "\n", "\t", "_", "あ", "カ", "々", "\u0301", "😀", "１"};
  std::mt19937 rng(20261205);
  std::uniform_int_distribution<std::size_t> len(1, 24), pick(0, pieces.size() - 1);
  SegmentTally tally;
  for (int i = 0; i < 30000; ++i) {
    std::string text;
    for (std::size_t n = len(rng); n > 0; --n) text += pieces[pick(rng)];
    compare(text, tally);
  }
  EXPECT_EQ(tally.differ, 0u) << "of " << tally.answered << " texts";
  EXPECT_GT(tally.answered, 3000u);
}

// Every BMP character in the contexts where a word-break rule could join it to a neighbour.
TEST(SegmentDictionary, AgreesWithIcuOnEveryBmpCharacterInContext) {
  SegmentTally tally;
  for (char32_t c = 1; c < 0x10000; ++c) {
    if (c >= 0xD800 && c <= 0xDFFF) continue;
    std::string ch;
    icu::UnicodeString(static_cast<UChar32>(c)).toUTF8String(ch);
    for (const std::string& text : {ch + ch, ch + ch + ch, "年" + ch + "假", "a" + ch + "b", "1" + ch + "2",
                                    ch + "年", "年" + ch, " " + ch + " ", "a" + ch, ch + "1"})
      compare(text, tally);
  }
  EXPECT_EQ(tally.differ, 0u) << "of " << tally.answered << " texts";
  EXPECT_GT(tally.answered, 100000u);
}

// The split walks ICU's trie itself: on every word of the dictionary, alone, cut short and
// followed by other characters, it must read the words ICU's UCharsTrie reads.
TEST(SegmentDictionary, TheTrieWalkReadsWhatIcusTrieReads) {
  if (!cjk_dictionary_available()) GTEST_SKIP() << "SKIPPED LOUDLY: no ICU dictionary";
  std::mt19937 rng(20261206);
  std::uniform_int_distribution<int> han(0x4E00, 0x9FFF), extra(0, 3);
  std::size_t words = 0, differ = 0;
  auto check = [&](const std::u16string& s) {
    const auto mine = dictionary_words_at(s.data(), s.size());
    const auto icu = dictionary_words_by_icu(s.data(), s.size());
    if (mine != icu && ++differ <= 20) {
      std::string utf8;
      icu::UnicodeString(false, s.data(), static_cast<int32_t>(s.size())).toUTF8String(utf8);
      ADD_FAILURE() << utf8 << ": " << mine.size() << " words, ICU " << icu.size();
    }
  };
  for_each_dictionary_word([&](std::u16string_view w) {
    ++words;
    std::u16string s(w);
    check(s);
    if (s.size() > 1) check(s.substr(0, s.size() - 1));
    for (int k = extra(rng); k > 0; --k) s.push_back(static_cast<char16_t>(han(rng)));
    check(s);
    if (words % 7 == 0) check(s.substr(1));
  });
  EXPECT_EQ(differ, 0u) << "of " << words << " words";
  EXPECT_GT(words, 100000u);
}

// And the split over runs of random ideographs, common and rare, short and long.
TEST(SegmentDictionary, TheTrieWalkReadsWhatIcusTrieReadsOnRandomRuns) {
  if (!cjk_dictionary_available()) GTEST_SKIP() << "SKIPPED LOUDLY: no ICU dictionary";
  const std::u16string common = u"年假怎么申请报销差旅费门禁卡丢了的是不在中华人民共和国研究生命起源"
                                u"发展经理员工标准多少钱吗呢那个一二线城市高铁票机";
  std::mt19937 rng(20261207);
  std::uniform_int_distribution<int> any(0x3400, 0x9FFF), len(1, 30), coin(0, 3);
  std::uniform_int_distribution<std::size_t> pick(0, common.size() - 1);
  std::size_t differ = 0;
  for (int i = 0; i < 20000; ++i) {
    std::u16string s;
    for (int n = len(rng); n > 0; --n)
      s.push_back(coin(rng) == 0 ? static_cast<char16_t>(any(rng)) : common[pick(rng)]);
    for (std::size_t k = 0; k < s.size(); ++k)
      if (dictionary_words_at(s.data() + k, s.size() - k) !=
              dictionary_words_by_icu(s.data() + k, s.size() - k) &&
          ++differ <= 20)
        ADD_FAILURE() << "run " << i << " at " << k;
  }
  EXPECT_EQ(differ, 0u);
}

// The shipped vocabulary as analyze() puts it in scope: the glossary's terms and aliases, and
// the domain lexicon.
struct ShippedVocabulary {
  qaplan::Config config = qaplan::test::rules_only();
  PatternMatcher glossary;
  std::optional<DomainLexicon> lexicon;
  ShippedVocabulary() {
    for (const auto& [source, terms] : config.glossary.terms)
      for (const qaplan::GlossaryTerm& t : terms) {
        glossary.add(t.standard, 0);
        for (const std::string& a : t.aliases) glossary.add(a, 0);
      }
    glossary.build();
    auto l = DomainLexicon::load(qaplan::test::source_dir() / "config" / config.domain.lexicon);
    if (l.ok()) lexicon = std::move(l).value();
  }
};

// extract_constraints joins the vocabulary's terms only when ICU's own words hold a run of lone
// characters (a term can only break such a run): on every text of the data sets, under the
// shipped vocabulary, its constraints are those read off segment_words() (the text kept by the
// word break's cache, so the joined words are used).
TEST(SegmentDictionary, NamesAreReadAsFromTheJoinedWords) {
  const ShippedVocabulary v;
  ASSERT_TRUE(v.lexicon);
  const ScopedTerms scope(WordTerms{&*v.lexicon, &v.glossary});
  const WordSet fw(v.config.rewrite.function_words);
  std::size_t texts = 0, differ = 0, names = 0;
  for (const char* dir : {"tests/data", "eval_sets"})
    for (const std::string& t : texts_under(qaplan::test::source_dir() / dir)) {
      if (!is_valid_utf8(t) || t.size() > 300) continue;
      ++texts;
      const Constraints lazy = extract_constraints(t, fw);
      (void)segment_words(t);  // kept: the next call reads the joined words
      const Constraints joined = extract_constraints(t, fw);
      names += joined.entities.size();
      if (lazy.entities != joined.entities && ++differ <= 20) ADD_FAILURE() << t;
    }
  EXPECT_EQ(differ, 0u) << "of " << texts << " texts";
  EXPECT_GT(names, 100u);
}

// The word break finds the vocabulary's terms with one walk of a trie of both vocabularies: the
// spans must be those of the domain lexicon's scan (terms at word boundaries) and the glossary's
// (anywhere), on every text of the data sets and on random texts of their terms, letters and
// digits run together.
TEST(SegmentDictionary, OneTrieFindsTheTermsBothScansFind) {
  const ShippedVocabulary v;
  ASSERT_TRUE(v.lexicon);
  std::vector<std::string> pieces = {"a", "b", "1", " ", "-", "的", "了", "，", "是"};
  for (std::uint32_t i = 0; i < v.lexicon->term_count(); i += 7)
    pieces.emplace_back(v.lexicon->term_text(i));
  v.glossary.for_each_pattern([&](std::string_view p) { pieces.emplace_back(p); });
  std::vector<std::string> texts;
  for (const char* dir : {"tests/data", "eval_sets"})
    for (const std::string& t : texts_under(qaplan::test::source_dir() / dir))
      if (is_valid_utf8(t) && t.size() <= 300) texts.push_back(t);
  std::mt19937 rng(20261208);
  std::uniform_int_distribution<std::size_t> len(1, 12), pick(0, pieces.size() - 1);
  for (int i = 0; i < 5000; ++i) {
    std::string t;
    for (std::size_t n = len(rng); n > 0; --n) t += pieces[pick(rng)];
    texts.push_back(t);
  }
  for (const bool with_lexicon : {true, false}) {
    const ScopedTerms scope(WordTerms{with_lexicon ? &*v.lexicon : nullptr, &v.glossary});
    std::size_t differ = 0, spans = 0;
    for (const std::string& t : texts) {
      const auto one = term_spans_of(t, true);
      spans += one.size();
      if (one != term_spans_of(t, false) && ++differ <= 20) ADD_FAILURE() << t;
    }
    EXPECT_EQ(differ, 0u) << "with the lexicon: " << with_lexicon;
    EXPECT_GT(spans, 5000u);
  }
}

// The analysis hands extract_constraints the IDs its routing read from the same text: the
// constraints must be those read from the text alone.
TEST(SegmentDictionary, ConstraintsGivenTheirIdsAreTheConstraintsOfTheText) {
  const ShippedVocabulary v;
  ASSERT_TRUE(v.lexicon);
  const ScopedTerms scope(WordTerms{&*v.lexicon, &v.glossary});
  const WordSet fw(v.config.rewrite.function_words);
  std::size_t texts = 0, differ = 0, ids = 0;
  for (const char* dir : {"tests/data", "eval_sets"})
    for (const std::string& t : texts_under(qaplan::test::source_dir() / dir)) {
      if (!is_valid_utf8(t) || t.size() > 300) continue;
      ++texts;
      const Constraints alone = extract_constraints(t, fw);
      const Constraints given = extract_constraints(t, fw, id_shapes(t));
      ids += given.ids.size();
      if ((alone.numbers != given.numbers || alone.ids != given.ids ||
           alone.entities != given.entities) &&
          ++differ <= 20)
        ADD_FAILURE() << t;
    }
  EXPECT_EQ(differ, 0u) << "of " << texts << " texts";
  EXPECT_GT(ids, 50u);
}

// The planner builds the vocabulary's trie when it is created: the spans read through a trie
// built ahead are those of the two scans it stands for.
TEST(SegmentDictionary, ATrieBuiltAheadFindsTheTermsBothScansFind) {
  const ShippedVocabulary v;
  ASSERT_TRUE(v.lexicon);
  const WordTerms terms{&*v.lexicon, &v.glossary};
  build_term_trie(terms);
  build_term_trie(terms);  // a second build of the same vocabulary finds the first
  const ScopedTerms scope(terms);
  std::size_t texts = 0, differ = 0, spans = 0;
  for (const std::string& t : texts_under(qaplan::test::source_dir() / "eval_sets")) {
    if (!is_valid_utf8(t) || t.size() > 300) continue;
    ++texts;
    const auto one = term_spans_of(t, true);
    spans += one.size();
    if (one != term_spans_of(t, false) && ++differ <= 20) ADD_FAILURE() << t;
  }
  EXPECT_EQ(differ, 0u) << "of " << texts << " texts";
  EXPECT_GT(spans, 1000u);
}

TEST(SegmentDictionary, HandsOverWhereTheIteratorsRulesDecide) {
  EXPECT_TRUE(segment_words_by_dictionary("年假怎么申请？"));
  EXPECT_TRUE(segment_words_by_dictionary("SPD系统 A4纸 5000元"));
  EXPECT_FALSE(segment_words_by_dictionary("3.5天"));      // WB11/12 join the number
  EXPECT_FALSE(segment_words_by_dictionary("カード丢了"));  // kana: dictionary and rules
  EXPECT_FALSE(segment_words_by_dictionary("年假😀"));      // emoji sequences
  EXPECT_FALSE(segment_words_by_dictionary("3，5天"));     // a fullwidth comma is MidNum too
  EXPECT_TRUE(segment_words_by_dictionary("年假，5天"));   // …but alone when not between digits
}

TEST(SegmentDictionary, AgreesWithIcuOnCmrcPassagesExternal) {
  const fs::path p = qaplan::test::shared_dir() / "external" / "cmrc2018" / "cmrc2018_dev.json";
  if (!fs::exists(p)) GTEST_SKIP() << "SKIPPED LOUDLY: " << p << " is absent (../shared)";
  const auto doc = nlohmann::json::parse(qaplan::test::slurp(p));
  SegmentTally tally;
  for (const auto& article : doc.at("data"))
    for (const auto& para : article.at("paragraphs")) {
      compare(para.at("context").get<std::string>(), tally);
      for (const auto& qa : para.at("qas")) compare(qa.at("question").get<std::string>(), tally);
    }
  EXPECT_EQ(tally.differ, 0u) << "of " << tally.answered << " texts";
  EXPECT_GT(tally.answered, 1000u);
}

}  // namespace
