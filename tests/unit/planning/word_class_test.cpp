// The rewriter's closed word classes (src/planning/analysis/phrases.hpp): time words and
// classifiers, read as whole words or whole characters, never as pieces of one.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "planning/analysis/phrases.hpp"
#include "planning/analysis/time_expr.hpp"

namespace {

using qaplan::internal::classifier;
using qaplan::internal::temporal;

TEST(WordClass, TemporalTakesPeriodsTimesOfDayAndWeekdays) {
  for (const char* w : {"今天", "上个月", "去年", "明年", "晚上", "工作日", "小时候", "周一", "星期六",
                        "礼拜天", "周天", "周日"})
    EXPECT_TRUE(temporal(w)) << w;
  for (const char* w : {"", "周", "星期", "周八", "星期一下午", "天", "明天见", "一月份的", "预算"})
    EXPECT_FALSE(temporal(w)) << w;
  // Every relative period and year the time filters read is one.
  for (const auto& t : qaplan::internal::time_words())
    if (t.kind == qaplan::internal::TimeWord::Kind::kRelative ||
        t.kind == qaplan::internal::TimeWord::Kind::kYear)
      EXPECT_TRUE(temporal(t.text)) << t.text;
}

TEST(WordClass, ClassifierIsOneWholeCharacter) {
  for (const char* c : {"个", "家", "条", "栋", "串", "笔"}) EXPECT_TRUE(classifier(c)) << c;
  // Not a classifier, two of them, a piece of one, nothing.
  for (std::string_view c : {"人", "个家", "", "a"}) EXPECT_FALSE(classifier(c)) << c;
  const std::string_view ge = "个";
  EXPECT_FALSE(classifier(ge.substr(1))) << "a cut UTF-8 sequence";
  EXPECT_FALSE(classifier(ge.substr(0, 2))) << "a cut UTF-8 sequence";
}

// The closed lists are held as packed integers (one comparison per entry, no memcmp): each
// predicate must answer as a search of its list of strings does — on every BMP character alone
// and opening a word, on two-character words, on ASCII and on nothing.
std::vector<std::string> probe_words() {
  std::vector<std::string> out = {"", "a", "ab", "%", "7", "一", "一共", "已经有", "又", "吗", "了吗"};
  for (char32_t c = 0x3000; c < 0xA000; ++c) {
    const std::string ch{static_cast<char>(0xE0 | (c >> 12)),
                         static_cast<char>(0x80 | ((c >> 6) & 0x3F)),
                         static_cast<char>(0x80 | (c & 0x3F))};
    out.push_back(ch);
    out.push_back(ch + "了");
    out.push_back("啊" + ch);
  }
  return out;
}

bool any_of_list(std::initializer_list<std::string_view> list, std::string_view w) {
  return std::find(list.begin(), list.end(), w) != list.end();
}

TEST(WordClass, PackedListsAnswerAsTheirStringLists) {
  using namespace qaplan::internal;
  const auto opens = [](std::initializer_list<std::string_view> list, std::string_view w) {
    return std::any_of(list.begin(), list.end(),
                       [&](std::string_view a) { return w.starts_with(a); });
  };
  for (const std::string& w : probe_words()) {
    EXPECT_EQ(suffix(w), any_of_list({"化", "性", "式", "型", "率", "度", "者", "级", "权", "费", "证", "卡",
                                      "额", "税", "险", "金", "室", "科", "本", "册", "箱", "盒", "袋", "瓶",
                                      "间", "表", "机", "器", "仪", "处", "厅", "场", "站", "馆", "品", "部",
                                      "组", "房", "肉", "店", "院", "厂", "楼", "区", "版", "类"}, w)) << w;
    EXPECT_EQ(demonstrative(w), any_of_list({"这", "那", "哪", "每", "某", "该"}, w)) << w;
    EXPECT_EQ(counting(w), opens({"一", "二", "两", "三", "四", "五", "六", "七", "八", "九", "十", "几"}, w))
        << w;
    EXPECT_EQ(opens_with_adverb(w),
              opens({"又", "还", "也", "都", "就", "才", "再", "刚", "已经", "一直", "总是", "经常",
                     "正在", "挺", "很", "太", "真", "最", "更", "不", "没", "一共", "总共", "分别",
                     "各自", "只有", "通常"}, w)) << w;
    std::string_view stripped = w;
    for (std::string_view p : {"吗", "呢", "吧", "呗", "啊", "呀", "哦", "嘛", "啦"})
      if (stripped == w && w.size() > p.size() && std::string_view(w).ends_with(p))
        stripped = std::string_view(w).substr(0, w.size() - p.size());
    EXPECT_EQ(without_closing_particle(w), stripped) << w;
  }
}

// last_clause reads back from the end once: the same clause as after each break's last
// occurrence, on texts of breaks, words and half characters.
TEST(WordClass, LastClauseIsAfterTheLastBreak) {
  const std::vector<std::string> pieces = {"，", ",", "；", ";", "。", "年假", " ", "a", "\xEF\xBC",
                                           "\x8C", "吗"};
  std::mt19937 rng(5);
  for (int i = 0; i < 5000; ++i) {
    std::string s;
    for (std::size_t n = rng() % 8; n > 0; --n) s += pieces[rng() % pieces.size()];
    std::size_t at = 0;
    for (std::string_view b : {"，", ",", "；", ";", "。"})
      if (const std::size_t p = std::string_view(s).rfind(b); p != std::string_view::npos)
        at = std::max(at, p + b.size());
    EXPECT_EQ(qaplan::internal::last_clause(s),
              qaplan::internal::trim_start(std::string_view(s).substr(at)))
        << s;
  }
}

}  // namespace
