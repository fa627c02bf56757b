// The rewriter's closed word classes (src/planning/analysis/phrases.hpp): time words and
// classifiers, read as whole words or whole characters, never as pieces of one.
#include <gtest/gtest.h>

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

}  // namespace
