// Time expressions → anchored [from, to) ranges (docs/guide.md, time filters), through
// extract_filters with the shipped [filters] section, plus the shared calendar module
// (common/dates.hpp).
#include "planning/analysis/time_expr.hpp"

#include <gtest/gtest.h>

#include "common/dates.hpp"
#include "planning/analysis/filters.hpp"
#include "planning/text.hpp"
#include "qaplan/planning/config.hpp"
#include "test_support.hpp"

namespace {

using qaplan::AnalysisContext;
using qaplan::Filters;
using qaplan::FiltersConfig;
namespace dates = qaplan::internal::dates;

const FiltersConfig& shipped_expr() {
  static const FiltersConfig c = [] {
    auto cfg = qaplan::load_config(qaplan::test::shipped_config());
    EXPECT_TRUE(cfg.ok()) << cfg.error().to_string();
    return cfg.ok() ? cfg->filters : FiltersConfig{};
  }();
  return c;
}

// The planner's normalization, so cases can be written as a user types them (Ｑ３, 最近７天).
std::string norm_expr(std::string_view raw) {
  auto n = qaplan::internal::normalize_question(raw, qaplan::InputConfig{});
  EXPECT_TRUE(n.ok()) << raw;
  return n.ok() ? n->text : std::string(raw);
}

Filters run_expr(std::string_view q, std::string now, const FiltersConfig& c = shipped_expr()) {
  AnalysisContext ctx;
  ctx.now = std::move(now);
  ctx.timezone = "Asia/Shanghai";
  return qaplan::internal::extract_filters(norm_expr(q), c, ctx);
}

std::string joined_expr(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += x + "; ";
  return s;
}

struct RangeCase {
  const char* question;
  const char* now;
  const char* from;  // nullptr: no time filter
  const char* to;
};

// Anchors used below: 2026-11-30 is a Monday; 2026-01-02 a Friday (week across the year);
// 2024-03-01 follows a leap day; 2025-03-01 follows a non-leap February.
constexpr const char* kNov30 = "2026-11-30T10:00:00+08:00";
constexpr const char* kJan02 = "2026-01-02T09:00:00+08:00";
constexpr const char* kLeap = "2024-03-01T08:00:00+08:00";
constexpr const char* kLeapDay = "2024-02-29T12:00:00+08:00";
constexpr const char* kMar01 = "2025-03-01T08:00:00+08:00";
constexpr const char* kMar31 = "2026-03-31T08:00:00+08:00";

void expect_ranges(const std::vector<RangeCase>& cases) {
  for (const RangeCase& c : cases) {
    SCOPED_TRACE(std::string(c.question) + " @ " + c.now);
    const Filters f = run_expr(c.question, c.now);
    if (!c.from) {
      EXPECT_FALSE(f.time.has_value()) << f.time->from << " " << f.time->to << " | "
                                       << joined_expr(f.reasons);
      continue;
    }
    ASSERT_TRUE(f.time.has_value()) << joined_expr(f.reasons);
    EXPECT_EQ(f.time->from, c.from) << joined_expr(f.reasons);
    EXPECT_EQ(f.time->to, c.to) << joined_expr(f.reasons);
    EXPECT_EQ(f.time->anchor, c.now);
    EXPECT_EQ(f.time->timezone, "Asia/Shanghai");
    EXPECT_FALSE(f.uncertain);
  }
}

TEST(TimeExpr, DaysWeeksMonthsAcrossBoundaries) {
  expect_ranges({
      {"今天的会议纪要", kNov30, "2026-11-30", "2026-12-01"},  // month end: to = next month
      {"昨天的通知", kNov30, "2026-11-29", "2026-11-30"},
      {"前天的通知", kNov30, "2026-11-28", "2026-11-29"},
      {"今日", kNov30, "2026-11-30", "2026-12-01"},
      {"昨天", kLeap, "2024-02-29", "2024-03-01"},  // leap day
      {"昨天", kMar01, "2025-02-28", "2025-03-01"},
      {"前天", kJan02, "2025-12-31", "2026-01-01"},  // across the year
      {"本周的值班表", kNov30, "2026-11-30", "2026-12-07"},  // Monday: the week starts today
      {"这周", kNov30, "2026-11-30", "2026-12-07"},
      {"上周的周报", kNov30, "2026-11-23", "2026-11-30"},
      {"上个星期", kNov30, "2026-11-23", "2026-11-30"},
      {"上上周", kNov30, "2026-11-16", "2026-11-23"},
      {"本周", kJan02, "2025-12-29", "2026-01-05"},  // a week across the new year
      {"上周", kJan02, "2025-12-22", "2025-12-29"},
      {"本月", kNov30, "2026-11-01", "2026-12-01"},
      {"这个月的考勤", kNov30, "2026-11-01", "2026-12-01"},
      {"上个月的报销", kNov30, "2026-10-01", "2026-11-01"},
      {"上月", kNov30, "2026-10-01", "2026-11-01"},
      {"上上个月", kNov30, "2026-09-01", "2026-10-01"},
      {"上个月", kJan02, "2025-12-01", "2026-01-01"},  // January's previous month
      {"上个月", kLeap, "2024-02-01", "2024-03-01"},   // February of a leap year
      {"上个月", kMar31, "2026-02-01", "2026-03-01"},  // from the 31st
  });
}

// The coming day, week, month, quarter and year (下周的值班表排好了吗: the schedule of next week);
// 下 or 明 ending the word before (以下|周期, 看一下|周末, 说明|年限, 一下|月度) opens none.
TEST(TimeExpr, TheComingUnits) {
  expect_ranges({
      {"明天门诊开吗", kNov30, "2026-12-01", "2026-12-02"},
      {"下周的值班表排好了吗", kNov30, "2026-12-07", "2026-12-14"},
      {"下个星期", kJan02, "2026-01-05", "2026-01-12"},
      {"下个月的排班", kNov30, "2026-12-01", "2027-01-01"},
      {"下季度的预算", kNov30, "2027-01-01", "2027-04-01"},  // across the year
      {"明年的招聘计划", kNov30, "2027-01-01", "2028-01-01"},
      {"以下周期的数据", kNov30, nullptr, nullptr},
      {"看一下周末排班", kNov30, nullptr, nullptr},
      {"说明年限要求", kNov30, nullptr, nullptr},
      {"对比一下月度报表", kNov30, nullptr, nullptr},
  });
}

// A day of the week named after a week word is that day (上周五, 下个星期一), 末 its weekend; a
// count or another word after it is no day (上周三次 is last week, 下周一起 next week).
TEST(TimeExpr, ADayOfANamedWeek) {
  expect_ranges({
      {"上周五的会议纪要", kNov30, "2026-11-27", "2026-11-28"},  // Monday: last Friday
      {"下个星期一开会吗", kNov30, "2026-12-07", "2026-12-08"},
      {"这周日门诊开吗", kNov30, "2026-12-06", "2026-12-07"},
      {"上周末的值班记录", kNov30, "2026-11-28", "2026-11-30"},
      {"上周三次迟到怎么处理", kNov30, "2026-11-23", "2026-11-30"},
      {"下周一起吃饭吗", kNov30, "2026-12-07", "2026-12-14"},
      {"下周一下午开会吗", kNov30, "2026-12-07", "2026-12-08"},  // 下午 after the day
  });
}

TEST(TimeExpr, QuartersHalvesYears) {
  expect_ranges({
      {"本季度", kNov30, "2026-10-01", "2027-01-01"},  // Q4 ends at next year's Jan 1
      {"上季度的销售数据", kNov30, "2026-07-01", "2026-10-01"},
      {"上季度", kJan02, "2025-10-01", "2026-01-01"},  // across the year
      {"Q1的预算", kNov30, "2027-01-01", "2027-04-01"},     // a plan, 32 days ahead: the coming Q1
      {"Q1的销售数据", kNov30, "2026-01-01", "2026-04-01"},  // else a quarter stays in its year
      {"q2", kNov30, "2026-04-01", "2026-07-01"},
      {"Ｑ３的目标", kNov30, "2026-07-01", "2026-10-01"},  // full-width, normalized
      {"Q4", kNov30, "2026-10-01", "2027-01-01"},
      {"去年Q3", kNov30, "2025-07-01", "2025-10-01"},
      {"去年Q4", kJan02, "2025-10-01", "2026-01-01"},
      {"2024年Q4", kNov30, "2024-10-01", "2025-01-01"},
      {"2024Q1", kNov30, "2024-01-01", "2024-04-01"},
      {"第三季度", kNov30, "2026-07-01", "2026-10-01"},
      {"2025年第一季度", kNov30, "2025-01-01", "2025-04-01"},
      {"今年第2季度", kNov30, "2026-04-01", "2026-07-01"},
      {"去年前三季度", kNov30, "2025-01-01", "2025-10-01"},
      {"上半年", kNov30, "2026-01-01", "2026-07-01"},
      {"下半年的计划", kNov30, "2026-07-01", "2027-01-01"},
      {"去年上半年", kNov30, "2025-01-01", "2025-07-01"},
      {"2024年下半年", kNov30, "2024-07-01", "2025-01-01"},
      {"今年", kNov30, "2026-01-01", "2027-01-01"},
      {"本年度", kNov30, "2026-01-01", "2027-01-01"},
      {"去年的年报", kNov30, "2025-01-01", "2026-01-01"},
      {"去年", kMar01, "2024-01-01", "2025-01-01"},  // a leap year, from 2025-03-01
      {"前年", kNov30, "2024-01-01", "2025-01-01"},
  });
}

TEST(TimeExpr, RollingWindows) {
  expect_ranges({
      {"最近7天", kNov30, "2026-11-24", "2026-12-01"},  // seven days including today
      {"近7天", kNov30, "2026-11-24", "2026-12-01"},
      {"过去7天", kNov30, "2026-11-24", "2026-12-01"},
      {"最近７天", kNov30, "2026-11-24", "2026-12-01"},
      {"最近 7 天", kNov30, "2026-11-24", "2026-12-01"},
      {"最近三天", kNov30, "2026-11-28", "2026-12-01"},
      {"近十天", kNov30, "2026-11-21", "2026-12-01"},
      {"近十五天", kNov30, "2026-11-16", "2026-12-01"},
      {"最近三十天", kNov30, "2026-11-01", "2026-12-01"},  // November has 30 days
      {"最近两周", kNov30, "2026-11-17", "2026-12-01"},
      {"过去2周", kNov30, "2026-11-17", "2026-12-01"},
      {"最近一周", kNov30, "2026-11-24", "2026-12-01"},
      {"近三个月", kNov30, "2026-09-01", "2026-12-01"},
      {"最近3个月", kNov30, "2026-09-01", "2026-12-01"},
      {"近3月", kNov30, "2026-09-01", "2026-12-01"},  // a count of months, not March
      {"近半年", kNov30, "2026-06-01", "2026-12-01"},
      {"近一年", kNov30, "2025-12-01", "2026-12-01"},
      {"近两年", kNov30, "2024-12-01", "2026-12-01"},
      {"过去1个月", kLeapDay, "2024-02-01", "2024-03-01"},
      {"近一年", kLeapDay, "2023-03-01", "2024-03-01"},
      {"最近1个月", kMar31, "2026-03-01", "2026-04-01"},
      {"最近7天", kLeap, "2024-02-24", "2024-03-02"},
  });
}

TEST(TimeExpr, AbsoluteDatesNeedNoNowButYearlessOnesDo) {
  expect_ranges({
      {"2024年3月的合同", kNov30, "2024-03-01", "2024-04-01"},
      {"2024年03月", kNov30, "2024-03-01", "2024-04-01"},
      {"2024年12月", kNov30, "2024-12-01", "2025-01-01"},
      {"2024年", kNov30, "2024-01-01", "2025-01-01"},
      {"2024年度审计报告", kNov30, "2024-01-01", "2025-01-01"},
      {"3月5日的会议", kNov30, "2026-03-05", "2026-03-06"},
      {"3月5号", kNov30, "2026-03-05", "2026-03-06"},
      {"三月份", kNov30, "2027-03-01", "2027-04-01"},  // no year, 91 days ahead: the coming one
      {"四月份", kNov30, "2026-04-01", "2026-05-01"},  // 122 days ahead: the last one
      {"十二月", kNov30, "2026-12-01", "2027-01-01"},
      {"今年3月", kNov30, "2026-03-01", "2026-04-01"},
      {"去年12月", kNov30, "2025-12-01", "2026-01-01"},
      {"1-3月", kNov30, "2027-01-01", "2027-04-01"},
      {"Q1的数据", kNov30, "2026-01-01", "2026-04-01"},  // a quarter stays in its year
      {"2024年1至3月", kNov30, "2024-01-01", "2024-04-01"},
      {"2024年1月至3月", kNov30, "2024-01-01", "2024-04-01"},  // the second end takes 2024
      {"2024-03-05", kNov30, "2024-03-05", "2024-03-06"},
      {"2024/3/5", kNov30, "2024-03-05", "2024-03-06"},
      {"2024.03.05", kNov30, "2024-03-05", "2024-03-06"},
      {"2024-03", kNov30, "2024-03-01", "2024-04-01"},
      {"2024年2月29日", kNov30, "2024-02-29", "2024-03-01"},
      {"2月29日", kLeap, "2024-02-29", "2024-03-01"},
      {"2025年2月29日", kNov30, nullptr, nullptr},  // no such day
      {"2月30日", kNov30, nullptr, nullptr},
  });
  // Absolute dates resolve without `now` (and record no anchor).
  AnalysisContext none;
  const Filters f = qaplan::internal::extract_filters("2024年3月的合同", shipped_expr(), none);
  ASSERT_TRUE(f.time.has_value()) << joined_expr(f.reasons);
  EXPECT_EQ(f.time->from, "2024-03-01");
  EXPECT_EQ(f.time->to, "2024-04-01");
  EXPECT_EQ(f.time->anchor, "");
  EXPECT_FALSE(f.uncertain);
}

TEST(TimeExpr, SpringFestivalFromTheChineseCalendar) {
  // 2026's festival is 02-17, 2025's 01-29; 2027's is the shipped override 02-06 (ICU: 02-07).
  expect_ranges({
      // Without a year: the coming one, 68 days ahead (within year_less_holiday_ahead_days).
      {"春节前的值班安排", kNov30, "2027-01-07", "2027-02-06"},
      {"春节后", kNov30, "2027-02-06", "2027-03-08"},
      {"今年春节前的值班安排", kNov30, "2026-01-18", "2026-02-17"},
      {"今年春节后", kNov30, "2026-02-17", "2026-03-19"},
      {"去年春节前", kNov30, "2024-12-30", "2025-01-29"},
      {"2027年春节前", kNov30, "2027-01-07", "2027-02-06"},
      {"2024年春节之后", kNov30, "2024-02-10", "2024-03-11"},
  });
  EXPECT_EQ(dates::spring_festival(2024), (dates::Day{2024, 2, 10}));
  EXPECT_EQ(dates::spring_festival(2023), (dates::Day{2023, 1, 22}));
  EXPECT_EQ(dates::spring_festival(2026), (dates::Day{2026, 2, 17}));
  EXPECT_EQ(dates::spring_festival(2033), (dates::Day{2033, 1, 31}));
  EXPECT_FALSE(dates::spring_festival(1800).has_value());
  // The window is configurable.
  FiltersConfig c = shipped_expr();
  c.spring_festival_days = 7;
  const Filters f = run_expr("今年春节前", kNov30, c);
  ASSERT_TRUE(f.time.has_value());
  EXPECT_EQ(f.time->from, "2026-02-10");
  EXPECT_EQ(f.time->to, "2026-02-17");
}

// Public holidays are the days of their longest official break, so the days meant are inside
// whatever a year's arrangement (国庆 2025 ran to 10-08; 春节 2026's break began on 02-15, the eve's
// eve); lunar ones from ICU's Chinese calendar (中秋 2026-09-25, 端午 2026-06-19). Without a year,
// the one under way, else the coming one within year_less_holiday_ahead_days (150), else the
// last. A holiday's name in a place, a wish or its food, or in a rule about every year, is none.
TEST(TimeExpr, PublicHolidaysAreTheirLongestBreak) {
  constexpr const char* kSep20 = "2026-09-20T10:00:00+08:00";
  expect_ranges({
      {"国庆值班表", kSep20, "2026-09-29", "2026-10-09"},
      {"十一黄金周的客流", kSep20, "2026-09-29", "2026-10-09"},
      {"中秋节放假安排", kSep20, "2026-09-23", "2026-09-28"},
      {"端午节的工单", kSep20, "2026-06-17", "2026-06-22"},   // passed, the next 9 months away
      {"五一期间的销售额", kSep20, "2026-05-01", "2026-05-06"},
      {"清明假期的门诊量", kSep20, "2026-04-02", "2026-04-08"},
      {"春节期间营业时间怎么调整", kNov30, "2027-02-04", "2027-02-14"},  // 2027-02-06, the override
      {"元旦值班安排", kNov30, "2026-12-30", "2027-01-04"},
      {"除夕值班有补贴吗", kNov30, "2027-02-05", "2027-02-06"},
      {"去年国庆的客流", kSep20, "2025-09-29", "2025-10-09"},
      {"2025年中秋的销售额", kSep20, "2025-10-04", "2025-10-09"},
      {"五一路支行几点开门", kSep20, nullptr, nullptr},
      {"国庆北路社区服务中心", kSep20, nullptr, nullptr},
      {"中秋节快乐", kSep20, nullptr, nullptr},
      {"端午粽子礼盒怎么买", kSep20, nullptr, nullptr},
      {"元旦是不是每年只放一天", kSep20, nullptr, nullptr},
      {"法定节假日加班工资怎么算，春节和国庆一样吗", kSep20, nullptr, nullptr},
      {"十一点下班", kSep20, nullptr, nullptr},
  });
  // Inside other words or numbers (the review): no holiday.
  expect_ranges({
      {"超过年度预算怎么办", kSep20, nullptr, nullptr},
      {"请过年假的人还能请病假吗", kSep20, nullptr, nullptr},
      {"张国庆的电话是多少", kSep20, nullptr, nullptr},
      {"全国庆祝活动安排", kSep20, nullptr, nullptr},
      {"三十五一个月的套餐", kSep20, nullptr, nullptr},
      {"五一二地震纪念馆", kSep20, nullptr, nullptr},
      {"清明上河图在哪个展厅", kSep20, nullptr, nullptr},
      {"五一支行电话", kSep20, nullptr, nullptr},
      {"国庆社区的电话", kSep20, nullptr, nullptr},
  });
  // Side by side, a year is shared (去年中秋国庆); a list's items are placed each on its own
  // (国庆和春节 asked in March: last October, this February); a rule's 一般 leaves 今年 standing.
  const Filters pair = run_expr("去年中秋国庆期间的销量", kSep20);
  ASSERT_EQ(pair.time_ranges.size(), 2u) << joined_expr(pair.reasons);
  for (const auto& r : pair.time_ranges) EXPECT_TRUE(r.from.starts_with("2025-")) << r.from;
  const Filters list = run_expr("国庆和春节的销量对比", "2026-03-15T10:00:00+08:00");
  ASSERT_EQ(list.time_ranges.size(), 2u) << joined_expr(list.reasons);
  EXPECT_EQ(list.time_ranges[0].from, "2025-09-29");
  EXPECT_EQ(list.time_ranges[1].from, "2026-02-15");
  expect_ranges({{"今年国庆一般放几天", kSep20, "2026-09-29", "2026-10-09"}});
  EXPECT_EQ(dates::chinese_calendar_day(2026, 8, 15), (dates::Day{2026, 9, 25}));
  EXPECT_EQ(dates::chinese_calendar_day(2026, 5, 5), (dates::Day{2026, 6, 19}));
  EXPECT_FALSE(dates::chinese_calendar_day(1800, 8, 15).has_value());
}

TEST(TimeExpr, English) {
  expect_ranges({
      {"today", kNov30, "2026-11-30", "2026-12-01"},
      {"policies in force yesterday", kNov30, "2026-11-29", "2026-11-30"},
      {"this week", kNov30, "2026-11-30", "2026-12-07"},
      {"last week", kNov30, "2026-11-23", "2026-11-30"},
      {"this month", kNov30, "2026-11-01", "2026-12-01"},
      {"Last Month's expenses", kNov30, "2026-10-01", "2026-11-01"},
      {"this quarter", kNov30, "2026-10-01", "2027-01-01"},
      {"last quarter", kJan02, "2025-10-01", "2026-01-01"},
      {"Q3 report", kNov30, "2026-07-01", "2026-10-01"},
      {"q3 2024", kNov30, "2024-07-01", "2024-10-01"},
      {"H1", kNov30, "2026-01-01", "2026-07-01"},
      {"h2 of last year", kNov30, "2025-07-01", "2026-01-01"},
      {"first half of 2024", kNov30, "2024-01-01", "2024-07-01"},
      {"this year", kNov30, "2026-01-01", "2027-01-01"},
      {"last year", kMar01, "2024-01-01", "2025-01-01"},
      {"past 7 days", kNov30, "2026-11-24", "2026-12-01"},
      {"in the past two weeks", kNov30, "2026-11-17", "2026-12-01"},
      {"past week", kNov30, "2026-11-24", "2026-12-01"},
      {"last 3 months", kNov30, "2026-09-01", "2026-12-01"},
      {"March 2024", kNov30, "2024-03-01", "2024-04-01"},
      {"in march", kNov30, "2027-03-01", "2027-04-01"},
      {"in april", kNov30, "2026-04-01", "2026-05-01"},
      {"contracts in 2024", kNov30, "2024-01-01", "2025-01-01"},
  });
}

TEST(TimeExpr, EdgesAndSeveralExpressions) {
  expect_ranges({
      {"2024年以来", kNov30, "2024-01-01", "2026-12-01"},
      {"今年以来的报销", kNov30, "2026-01-01", "2026-12-01"},
      {"2024年3月起", kNov30, "2024-03-01", "2026-12-01"},
      {"since 2024", kNov30, "2024-01-01", "2026-12-01"},
      {"2024年之前的合同", kNov30, nullptr, nullptr},  // open-ended: no filter
      {"截至2024年3月", kNov30, nullptr, nullptr},
      {"上个月以后", kNov30, nullptr, nullptr},
      {"before 2024", kNov30, nullptr, nullptr},
      {"上个月起草的合同", kNov30, "2026-10-01", "2026-11-01"},  // 起草 drafts, not 起
      {"2024年3月1日到2024年3月15日", kNov30, "2024-03-01", "2024-03-16"},  // one range
      {"从去年到今年", kNov30, "2025-01-01", "2027-01-01"},
  });
  const Filters f = run_expr("2024年3月1日到2024年3月15日", kNov30);
  ASSERT_TRUE(f.time.has_value());
  EXPECT_EQ(f.time->expression, "2024年3月1日到2024年3月15日");
  EXPECT_EQ(f.time_ranges.size(), 1u);
  const Filters open = run_expr("2024年之前的合同", kNov30);
  EXPECT_NE(joined_expr(open.reasons).find("time:skipped 2024年之前"), std::string::npos)
      << joined_expr(open.reasons);
}

TEST(TimeExpr, WordsThatAreNotTimeFilters) {
  expect_ranges({
      {"报销2000元需要谁审批", kNov30, nullptr, nullptr},
      {"试用期三个月", kNov30, nullptr, nullptr},  // a duration
      {"三个月内提交", kNov30, nullptr, nullptr},
      {"提前天数怎么算", kNov30, nullptr, nullptr},  // 前天 inside 提前天 (ignore_within)
      {"接近三个月没发工资", kNov30, nullptr, nullptr},
      {"最近一次体检", kNov30, nullptr, nullptr},
      {"最近的打印机在哪", kNov30, nullptr, nullptr},
      {"v2024.1版本", kNov30, nullptr, nullptr},
      {"订单号20240305001", kNov30, nullptr, nullptr},
      {"may i ask about leave", kNov30, nullptr, nullptr},
      {"faq3", kNov30, nullptr, nullptr},
      {"h1b visa", kNov30, nullptr, nullptr},
      {"last login failed", kNov30, nullptr, nullptr},
      {"todays", kNov30, nullptr, nullptr},
      {"前三个月的试用期", kNov30, nullptr, nullptr},  // needs a year to be one
      {"最近99999天", kNov30, nullptr, nullptr},
      {"过去100年", kNov30, nullptr, nullptr},  // longer than max_window_days
      // A time word's first character that belongs to the word before it.
      {"可以提前年假吗", kNov30, nullptr, nullptr},
      {"目前年假还剩几天", kNov30, nullptr, nullptr},
      {"马上年底了要交什么", kNov30, nullptr, nullptr},
      {"以上月份的数据", kNov30, nullptr, nullptr},
      {"线上周报怎么写", kNov30, nullptr, nullptr},
      {"成本月度报表", kNov30, nullptr, nullptr},
      {"如今年轻人", kNov30, nullptr, nullptr},
      {"除去年终奖还有什么", kNov30, nullptr, nullptr},
      {"统一月度考核", kNov30, nullptr, nullptr},
      {"一月一次的例会", kNov30, nullptr, nullptr},
      {"这周期间", kNov30, nullptr, nullptr},
      {"附近三天的酒店", kNov30, nullptr, nullptr},
  });
}

// Two periods compared are two ranges, never their span and never one dropped.
TEST(TimeExpr, ComparedPeriodsAreTwoRanges) {
  struct Cmp {
    const char* question;
    const char* a_from;
    const char* a_to;
    const char* b_from;
    const char* b_to;
  };
  const Cmp cases[] = {
      {"对比一下去年和今年的报销标准", "2025-01-01", "2026-01-01", "2026-01-01", "2027-01-01"},
      {"去年和今年的营收对比", "2025-01-01", "2026-01-01", "2026-01-01", "2027-01-01"},
      {"今年比去年多了哪些福利", "2026-01-01", "2027-01-01", "2025-01-01", "2026-01-01"},
      {"比较一下上个月和这个月的考勤", "2026-10-01", "2026-11-01", "2026-11-01", "2026-12-01"},
      {"2024年相比2023年的差旅标准", "2024-01-01", "2025-01-01", "2023-01-01", "2024-01-01"},
      {"今年和去年比有什么变化", "2026-01-01", "2027-01-01", "2025-01-01", "2026-01-01"},
      {"去年Q3 vs 今年Q3", "2025-07-01", "2025-10-01", "2026-07-01", "2026-10-01"},
      {"last year vs this year", "2025-01-01", "2026-01-01", "2026-01-01", "2027-01-01"},
      {"2024年3月和2025年3月的考勤制度", "2024-03-01", "2024-04-01", "2025-03-01", "2025-04-01"},
      {"去年上半年和下半年", "2025-01-01", "2025-07-01", "2025-07-01", "2026-01-01"},  // 2025's
      {"2024年3月和5月", "2024-03-01", "2024-04-01", "2024-05-01", "2024-06-01"},
  };
  for (const Cmp& c : cases) {
    SCOPED_TRACE(c.question);
    const Filters f = run_expr(c.question, kNov30);
    EXPECT_FALSE(f.time.has_value()) << "a comparison is not one range: " << joined_expr(f.reasons);
    ASSERT_EQ(f.time_ranges.size(), 2u) << joined_expr(f.reasons);
    EXPECT_EQ(f.time_ranges[0].from, c.a_from);
    EXPECT_EQ(f.time_ranges[0].to, c.a_to);
    EXPECT_EQ(f.time_ranges[1].from, c.b_from);
    EXPECT_EQ(f.time_ranges[1].to, c.b_to);
    for (const auto& t : f.time_ranges) {
      EXPECT_EQ(t.anchor, kNov30);
      EXPECT_EQ(t.timezone, "Asia/Shanghai");
      EXPECT_EQ(t.date, "effective");
    }
    EXPECT_NE(joined_expr(f.reasons).find("time:2 periods"), std::string::npos) << joined_expr(f.reasons);
  }
  // One side unresolved: none, with the reason (never one side alone).
  const Filters half =
      qaplan::internal::extract_filters(norm_expr("2024年和上个月的对比"), shipped_expr(), AnalysisContext{});
  EXPECT_FALSE(half.time.has_value());
  EXPECT_TRUE(half.time_ranges.empty());
  EXPECT_NE(joined_expr(half.reasons).find("not every expression resolved"), std::string::npos);
  const Filters bad = run_expr("对比2025年2月30日和今年", kNov30);
  EXPECT_TRUE(bad.time_ranges.empty()) << joined_expr(bad.reasons);
  // The same period twice is one; five periods are too many to be a filter.
  const Filters same = run_expr("今年的差旅标准和今年的报销标准", kNov30);
  ASSERT_TRUE(same.time.has_value()) << joined_expr(same.reasons);
  EXPECT_EQ(same.time_ranges.size(), 1u);
  const Filters many = run_expr("2021年、2022年、2023年、2024年和2025年的年报", kNov30);
  EXPECT_TRUE(many.time_ranges.empty());
  EXPECT_NE(joined_expr(many.reasons).find("5 periods, at most 4"), std::string::npos)
      << joined_expr(many.reasons);
}

// A verb complement (一下, 看下 …) never swallows the time word after it; the
// words the guards protect (统一|月度, 目前|年假 …) stay protected.
TEST(TimeExpr, VerbComplementKeepsTheTimeWord) {
  constexpr const char* kMar15 = "2026-03-15T10:00:00+08:00";
  expect_ranges({
      {"帮我查一下去年第三季度的差旅费报销制度", kMar15, "2025-07-01", "2025-10-01"},
      {"看下去年的年报", kMar15, "2025-01-01", "2026-01-01"},
      {"看一下去年的年报", kMar15, "2025-01-01", "2026-01-01"},
      {"我想看一下去年的审计报告", kMar15, "2025-01-01", "2026-01-01"},
      {"查一下去年的预算", kMar15, "2025-01-01", "2026-01-01"},
      {"查下去年的预算", kMar15, "2025-01-01", "2026-01-01"},
      {"了解一下去年的政策", kMar15, "2025-01-01", "2026-01-01"},
      {"问一下去年年终奖", kMar15, "2025-01-01", "2026-01-01"},
      {"说下去年的情况", kMar15, "2025-01-01", "2026-01-01"},
      {"找下去年的合同", kMar15, "2025-01-01", "2026-01-01"},
      {"介绍一下去年上半年的业绩", kMar15, "2025-01-01", "2025-07-01"},
      {"看一下上个月的报销", kMar15, "2026-02-01", "2026-03-01"},
      {"查一下前年的审计", kMar15, "2024-01-01", "2025-01-01"},
      {"看一下今年的计划", kMar15, "2026-01-01", "2027-01-01"},
      {"看一下近三个月的", kMar15, "2025-12-16", "2026-03-16"},
      {"查一下本月的考勤", kMar15, "2026-03-01", "2026-04-01"},
      {"看一下一月的排班", kMar15, "2026-01-01", "2026-02-01"},
      {"看下下半年的计划", kMar15, "2026-07-01", "2027-01-01"},
      // the guards still hold where no complement is involved
      {"统一月度考核", kMar15, nullptr, nullptr},
      {"目前年假还剩几天", kMar15, nullptr, nullptr},
      {"马上年底了要交什么", kMar15, nullptr, nullptr},
      {"线上周报怎么写", kMar15, nullptr, nullptr},
      {"成本月度报表", kMar15, nullptr, nullptr},
      {"除去年终奖还有什么", kMar15, nullptr, nullptr},
      {"这样下去年假会作废吗", kMar15, nullptr, nullptr},  // 下去 is a word here: no verb before 下
  });
  const Filters cmp = run_expr("对比一下去年和今年的报销标准", kMar15);
  ASSERT_EQ(cmp.time_ranges.size(), 2u) << joined_expr(cmp.reasons);
  EXPECT_EQ(cmp.time_ranges[0].from, "2025-01-01");
  EXPECT_EQ(cmp.time_ranges[1].from, "2026-01-01");
}

// The verb next to the expression says which date it constrains.
TEST(TimeExpr, PublishedSignedAndEffectiveDates) {
  struct DateCase {
    const char* question;
    const char* date;
    const char* field;
  };
  const DateCase cases[] = {
      {"上个月发布的制度", "published", "published_on"},
      {"上个月新发布的通知", "published", "published_on"},
      {"今年印发的文件", "published", "published_on"},
      {"发布于2024年的政策", "published", "published_on"},
      {"policies published last month", "published", "published_on"},
      {"去年签署的合同", "signed", "signed_on"},
      {"上个月签的合同", "signed", "signed_on"},
      {"contracts signed in 2024", "signed", "signed_on"},
      {"最近7天更新的IT公告", "updated", "updated_at"},
      {"今年修订的考勤制度", "updated", "updated_at"},
      {"上个月新修改的报销标准", "updated", "updated_at"},
      {"manuals revised in 2024", "updated", "updated_at"},
      {"去年生效的制度", "effective", ""},
      {"今年施行的考勤制度", "effective", ""},
      {"上个月的报销制度", "effective", ""},
  };
  FiltersConfig dated = shipped_expr();  // documents that carry both dates
  dated.published_date_field = "published_on";
  dated.signed_date_field = "signed_on";
  dated.updated_date_field = "updated_at";
  for (const DateCase& c : cases) {
    SCOPED_TRACE(c.question);
    const Filters f = run_expr(c.question, kNov30, dated);
    ASSERT_TRUE(f.time.has_value()) << joined_expr(f.reasons);
    EXPECT_EQ(f.time->date, c.date);
    EXPECT_EQ(f.time->field, c.field);
  }
  const Filters f = run_expr("上个月发布的制度", kNov30, dated);
  EXPECT_EQ(f.time->from, "2026-10-01");
  EXPECT_NE(joined_expr(f.reasons).find("time:date published (发布)→published_on"), std::string::npos)
      << joined_expr(f.reasons);
  // One verb for a comparison speaks for both periods.
  const Filters both = run_expr("去年和今年发布的制度", kNov30, dated);
  ASSERT_EQ(both.time_ranges.size(), 2u) << joined_expr(both.reasons);
  EXPECT_EQ(both.time_ranges[0].date, "published");
  EXPECT_EQ(both.time_ranges[1].date, "published");
  // The shipped KB has no publication, signing or update date: no filter at all, never the
  // validity range instead; in force still filters.
  for (auto [q, key] : {std::pair{"上个月发布的制度", "published_date_field"},
                        std::pair{"去年签署的合同", "signed_date_field"},
                        std::pair{"最近7天更新的IT公告", "updated_date_field"}}) {
    SCOPED_TRACE(q);
    const Filters g = run_expr(q, kNov30);
    EXPECT_FALSE(g.time.has_value());
    EXPECT_TRUE(g.time_ranges.empty());
    EXPECT_NE(joined_expr(g.reasons).find(std::string("needs [filters] ") + key), std::string::npos)
        << joined_expr(g.reasons);
  }
  EXPECT_TRUE(run_expr("去年生效的制度", kNov30).time.has_value());
}

TEST(TimeExpr, WeekStartIsConfigurable) {
  FiltersConfig c = shipped_expr();
  c.week_start = 7;  // Sunday: 2026-11-30 (Mon) belongs to the week of Sunday 11-29
  Filters f = run_expr("本周", kNov30, c);
  ASSERT_TRUE(f.time.has_value());
  EXPECT_EQ(f.time->from, "2026-11-29");
  EXPECT_EQ(f.time->to, "2026-12-06");
  f = run_expr("上周", kNov30, c);
  ASSERT_TRUE(f.time.has_value());
  EXPECT_EQ(f.time->from, "2026-11-22");
  c.week_start = 2;  // Tuesday: Monday is the last day of the week that began 11-24
  f = run_expr("本周", kNov30, c);
  ASSERT_TRUE(f.time.has_value());
  EXPECT_EQ(f.time->from, "2026-11-24");
  EXPECT_EQ(f.time->to, "2026-12-01");
}

TEST(TimeExpr, TheLocalDateIsTheZonesElseNowsOwnOffset) {
  // One instant, two offsets: 20:00Z on 11-30 is already 12-01 in Shanghai.
  Filters f = run_expr("今天", "2026-11-30T20:00:00Z");
  ASSERT_TRUE(f.time.has_value());
  EXPECT_EQ(f.time->from, "2026-12-01");
  f = run_expr("今天", "2026-12-01T04:00:00+08:00");
  ASSERT_TRUE(f.time.has_value());
  EXPECT_EQ(f.time->from, "2026-12-01");
  f = run_expr("今天", "2026-11-30T23:30:00-05:00");  // 12:30 on 12-01 in Shanghai
  ASSERT_TRUE(f.time.has_value());
  EXPECT_EQ(f.time->from, "2026-12-01");
  // Without a zone, now's own offset decides.
  AnalysisContext own;
  own.now = "2026-11-30T23:30:00-05:00";
  f = qaplan::internal::extract_filters("今天", shipped_expr(), own);
  ASSERT_TRUE(f.time.has_value());
  EXPECT_EQ(f.time->from, "2026-11-30");
  EXPECT_EQ(f.time->timezone, "-05:00");
  // An unknown zone is no guess: no filter, uncertain.
  own.timezone = "Mars/Olympus";
  f = qaplan::internal::extract_filters("今天", shipped_expr(), own);
  EXPECT_FALSE(f.time.has_value());
  EXPECT_TRUE(f.uncertain);
  EXPECT_NE(joined_expr(f.reasons).find("\"Mars/Olympus\" not a known zone"), std::string::npos)
      << joined_expr(f.reasons);
  // No timezone label: the offset is recorded.
  AnalysisContext ctx;
  ctx.now = "2026-11-30T10:00:00+08:00";
  f = qaplan::internal::extract_filters("上个月", shipped_expr(), ctx);
  ASSERT_TRUE(f.time.has_value());
  EXPECT_EQ(f.time->timezone, "+08:00");
  EXPECT_EQ(f.time->anchor, ctx.now);
  EXPECT_EQ(f.time->expression, "上个月");
  EXPECT_EQ(f.reasons, (std::vector<std::string>{"time:上个月→[2026-10-01,2026-11-01)"}));
  EXPECT_EQ(f.time_ranges, (std::vector<qaplan::TimeRange>{*f.time}));
}

TEST(TimeExpr, WithoutNowRelativeTimeIsUncertainNotGuessed) {
  for (const char* q : {"上个月的报销", "最近7天", "Q3", "3月5日", "今年以来", "春节前"}) {
    SCOPED_TRACE(q);
    AnalysisContext ctx;
    const Filters f = qaplan::internal::extract_filters(norm_expr(q), shipped_expr(), ctx);
    EXPECT_FALSE(f.time.has_value());
    EXPECT_TRUE(f.uncertain);
    ASSERT_FALSE(f.reasons.empty());
    EXPECT_NE(f.reasons.front().find("uncertain:"), std::string::npos) << joined_expr(f.reasons);
    EXPECT_NE(f.reasons.front().find("without now"), std::string::npos) << joined_expr(f.reasons);
  }
  AnalysisContext bad;
  bad.now = "2026-11-30 10:00";  // no offset: refused, never guessed
  const Filters f = qaplan::internal::extract_filters("上个月", shipped_expr(), bad);
  EXPECT_FALSE(f.time.has_value());
  EXPECT_TRUE(f.uncertain);
  EXPECT_NE(joined_expr(f.reasons).find("not ISO-8601"), std::string::npos) << joined_expr(f.reasons);
  // A relative and an absolute expression together: all or nothing.
  const Filters mixed =
      qaplan::internal::extract_filters("2024年和上个月", shipped_expr(), AnalysisContext{});
  EXPECT_FALSE(mixed.time.has_value());
  EXPECT_TRUE(mixed.uncertain);
}

TEST(CommonDates, CalendarArithmetic) {
  EXPECT_EQ(dates::add_months({2026, 1, 31}, 1), (dates::Day{2026, 2, 28}));
  EXPECT_EQ(dates::add_months({2024, 1, 31}, 1), (dates::Day{2024, 2, 29}));
  EXPECT_EQ(dates::add_months({2024, 2, 29}, -12), (dates::Day{2023, 2, 28}));
  EXPECT_EQ(dates::add_months({2026, 1, 15}, -1), (dates::Day{2025, 12, 15}));
  EXPECT_EQ(dates::add_months({2026, 11, 1}, 14), (dates::Day{2028, 1, 1}));
  EXPECT_EQ(dates::iso_weekday(dates::to_days({2026, 11, 30})), 1);
  EXPECT_EQ(dates::iso_weekday(dates::to_days({2026, 11, 29})), 7);
  EXPECT_EQ(dates::from_days(dates::to_days({2024, 2, 29}) + 1), (dates::Day{2024, 3, 1}));
  EXPECT_EQ(dates::format({2024, 3, 5}), "2024-03-05");
  EXPECT_EQ(dates::format_offset(480), "+08:00");
  EXPECT_EQ(dates::format_offset(-330), "-05:30");
  EXPECT_FALSE(dates::is_valid(2025, 2, 29));
  EXPECT_TRUE(dates::is_valid(2000, 2, 29));
  const auto t = dates::parse_time_point("2026-11-30T20:00:00Z");
  ASSERT_TRUE(t.has_value());
  EXPECT_EQ(dates::local_day(*t), (dates::Day{2026, 11, 30}));
  EXPECT_FALSE(dates::parse_time_point("2026-11-30T20:00:00").has_value());
}

}  // namespace
