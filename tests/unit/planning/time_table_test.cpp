// One table of time expressions anchored at instants near a month, quarter and
// year end, each read in two zones (Asia/Shanghai, America/New_York), with the exact [from, to).
// The instants are chosen so the two zones disagree on the calendar day — the case --tz exists
// for — and two more pin New York's DST rules (a fixed −05:00 would name another day).
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "planning/analysis/filters.hpp"
#include "planning/text.hpp"
#include "qaplan/planning/config.hpp"
#include "test_support.hpp"

namespace {

using qaplan::AnalysisContext;
using qaplan::Filters;
using qaplan::FiltersConfig;

const FiltersConfig& shipped_filters() {
  static const FiltersConfig c = [] {
    auto cfg = qaplan::load_config(qaplan::test::shipped_config());
    EXPECT_TRUE(cfg.ok()) << cfg.error().to_string();
    return cfg.ok() ? cfg->filters : FiltersConfig{};
  }();
  return c;
}

std::string norm_time(std::string_view raw) {
  auto n = qaplan::internal::normalize_question(raw, qaplan::InputConfig{});
  EXPECT_TRUE(n.ok()) << raw;
  return n.ok() ? n->text : std::string(raw);
}

std::string joined_time(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += x + "; ";
  return s;
}

// Month and quarter end: Shanghai is at 2026-04-01 00:30 (Wed, Q2), New York at 03-31 12:30 (Tue,
// Q1, EDT).
constexpr const char* kMonthEnd = "2026-03-31T16:30:00Z";
// Year end: Shanghai is at 2027-01-01 12:59 (Fri), New York at 2026-12-31 23:59 (Thu, EST).
constexpr const char* kYearEnd = "2026-12-31T23:59:00-05:00";
// Half-year end: Shanghai is at 2026-07-01 00:30 (Wed, H2, Q3), New York at 06-30 12:30 (Tue).
constexpr const char* kHalfEnd = "2026-06-30T16:30:00Z";
constexpr const char* kSH = "Asia/Shanghai";
constexpr const char* kNY = "America/New_York";

struct Row {
  const char* question;
  const char* now;
  const char* zone;
  const char* from;
  const char* to;
};

const std::vector<Row>& table() {
  static const std::vector<Row> rows = {
      // days
      {"今天的值班表", kMonthEnd, kSH, "2026-04-01", "2026-04-02"},
      {"今天的值班表", kMonthEnd, kNY, "2026-03-31", "2026-04-01"},
      {"昨天发的通知", kMonthEnd, kSH, "2026-03-31", "2026-04-01"},
      {"昨天发的通知", kMonthEnd, kNY, "2026-03-30", "2026-03-31"},
      {"前天的会议纪要", kMonthEnd, kSH, "2026-03-30", "2026-03-31"},
      {"前天的会议纪要", kMonthEnd, kNY, "2026-03-29", "2026-03-30"},
      {"今日", kYearEnd, kSH, "2027-01-01", "2027-01-02"},
      {"今日", kYearEnd, kNY, "2026-12-31", "2027-01-01"},
      {"昨日的报销", kYearEnd, kSH, "2026-12-31", "2027-01-01"},
      {"today", kHalfEnd, kSH, "2026-07-01", "2026-07-02"},
      {"today", kHalfEnd, kNY, "2026-06-30", "2026-07-01"},
      {"yesterday", kHalfEnd, kSH, "2026-06-30", "2026-07-01"},
      // weeks (Monday start): the zones fall in the same week here
      {"本周的排班", kMonthEnd, kSH, "2026-03-30", "2026-04-06"},
      {"本周的排班", kMonthEnd, kNY, "2026-03-30", "2026-04-06"},
      {"上周的周报", kMonthEnd, kSH, "2026-03-23", "2026-03-30"},
      {"上上周", kMonthEnd, kNY, "2026-03-16", "2026-03-23"},
      {"这周", kYearEnd, kSH, "2026-12-28", "2027-01-04"},
      {"上个星期", kYearEnd, kNY, "2026-12-21", "2026-12-28"},
      {"last week", kHalfEnd, kNY, "2026-06-22", "2026-06-29"},
      {"this week", kHalfEnd, kSH, "2026-06-29", "2026-07-06"},
      // months
      {"本月的考勤", kMonthEnd, kSH, "2026-04-01", "2026-05-01"},
      {"本月的考勤", kMonthEnd, kNY, "2026-03-01", "2026-04-01"},
      {"上个月的报销", kMonthEnd, kSH, "2026-03-01", "2026-04-01"},
      {"上个月的报销", kMonthEnd, kNY, "2026-02-01", "2026-03-01"},
      {"上上个月", kMonthEnd, kSH, "2026-02-01", "2026-03-01"},
      {"上上个月", kMonthEnd, kNY, "2026-01-01", "2026-02-01"},
      {"上月", kYearEnd, kSH, "2026-12-01", "2027-01-01"},
      {"上月", kYearEnd, kNY, "2026-11-01", "2026-12-01"},
      {"这个月", kHalfEnd, kSH, "2026-07-01", "2026-08-01"},
      {"这个月", kHalfEnd, kNY, "2026-06-01", "2026-07-01"},
      {"last month", kMonthEnd, kSH, "2026-03-01", "2026-04-01"},
      {"this month", kYearEnd, kNY, "2026-12-01", "2027-01-01"},
      // quarters
      {"本季度的目标", kMonthEnd, kSH, "2026-04-01", "2026-07-01"},
      {"本季度的目标", kMonthEnd, kNY, "2026-01-01", "2026-04-01"},
      {"上季度的销售数据", kMonthEnd, kSH, "2026-01-01", "2026-04-01"},
      {"上季度的销售数据", kMonthEnd, kNY, "2025-10-01", "2026-01-01"},
      {"上个季度", kYearEnd, kSH, "2026-10-01", "2027-01-01"},
      {"上个季度", kYearEnd, kNY, "2026-07-01", "2026-10-01"},
      {"这个季度", kHalfEnd, kSH, "2026-07-01", "2026-10-01"},
      {"this quarter", kHalfEnd, kNY, "2026-04-01", "2026-07-01"},
      {"last quarter", kHalfEnd, kSH, "2026-04-01", "2026-07-01"},
      {"Q3", kHalfEnd, kNY, "2026-07-01", "2026-10-01"},
      {"今年第三季度", kYearEnd, kSH, "2027-07-01", "2027-10-01"},
      {"今年第三季度", kYearEnd, kNY, "2026-07-01", "2026-10-01"},
      {"一季度", kMonthEnd, kSH, "2026-01-01", "2026-04-01"},
      {"去年第三季度的差旅费报销制度", kMonthEnd, kSH, "2025-07-01", "2025-10-01"},
      {"去年Q4", kYearEnd, kSH, "2026-10-01", "2027-01-01"},
      {"去年Q4", kYearEnd, kNY, "2025-10-01", "2026-01-01"},
      {"今年前三季度", kYearEnd, kSH, "2027-01-01", "2027-10-01"},
      {"今年前三季度", kYearEnd, kNY, "2026-01-01", "2026-10-01"},
      // halves and years
      {"上半年", kHalfEnd, kSH, "2026-01-01", "2026-07-01"},
      {"今年下半年的计划", kYearEnd, kSH, "2027-07-01", "2028-01-01"},
      {"今年下半年的计划", kYearEnd, kNY, "2026-07-01", "2027-01-01"},
      {"去年上半年", kYearEnd, kSH, "2026-01-01", "2026-07-01"},
      {"h2 of last year", kYearEnd, kNY, "2025-07-01", "2026-01-01"},
      {"今年", kYearEnd, kSH, "2027-01-01", "2028-01-01"},
      {"今年", kYearEnd, kNY, "2026-01-01", "2027-01-01"},
      {"去年的年报", kYearEnd, kSH, "2026-01-01", "2027-01-01"},
      {"去年的年报", kYearEnd, kNY, "2025-01-01", "2026-01-01"},
      {"前年", kYearEnd, kSH, "2025-01-01", "2026-01-01"},
      {"前年", kYearEnd, kNY, "2024-01-01", "2025-01-01"},
      {"本年度", kMonthEnd, kNY, "2026-01-01", "2027-01-01"},
      {"上年度", kYearEnd, kSH, "2026-01-01", "2027-01-01"},
      {"this year", kYearEnd, kSH, "2027-01-01", "2028-01-01"},
      {"last year", kYearEnd, kNY, "2025-01-01", "2026-01-01"},
      // months of the year, days
      {"三月份", kMonthEnd, kSH, "2026-03-01", "2026-04-01"},
      // On 1 January (Shanghai) a year-less 十二月 is the December just ended, not the one eleven
      // months ahead; 一月 is this January there and last January in New York (still 31 Dec).
      {"十二月", kYearEnd, kSH, "2026-12-01", "2027-01-01"},
      {"十二月", kYearEnd, kNY, "2026-12-01", "2027-01-01"},
      {"一月", kYearEnd, kSH, "2027-01-01", "2027-02-01"},
      {"一月", kYearEnd, kNY, "2027-01-01", "2027-02-01"},  // without a year: the one just ahead
      {"今年一月", kYearEnd, kNY, "2026-01-01", "2026-02-01"},
      {"12月31日", kYearEnd, kNY, "2026-12-31", "2027-01-01"},
      {"1-3月", kMonthEnd, kNY, "2026-01-01", "2026-04-01"},
      {"去年12月", kYearEnd, kSH, "2026-12-01", "2027-01-01"},
      {"in march", kMonthEnd, kSH, "2026-03-01", "2026-04-01"},
      // rolling windows: up to today inclusive, so the zone moves both ends
      {"最近7天", kMonthEnd, kSH, "2026-03-26", "2026-04-02"},
      {"最近7天", kMonthEnd, kNY, "2026-03-25", "2026-04-01"},
      {"近30天", kMonthEnd, kSH, "2026-03-03", "2026-04-02"},
      {"近30天", kMonthEnd, kNY, "2026-03-02", "2026-04-01"},
      {"过去2周", kMonthEnd, kSH, "2026-03-19", "2026-04-02"},
      {"近三个月", kMonthEnd, kSH, "2026-01-02", "2026-04-02"},
      {"近三个月", kMonthEnd, kNY, "2026-01-01", "2026-04-01"},
      {"近半年", kMonthEnd, kNY, "2025-10-01", "2026-04-01"},
      {"最近一年", kYearEnd, kSH, "2026-01-02", "2027-01-02"},
      {"最近一年", kYearEnd, kNY, "2026-01-01", "2027-01-01"},
      {"最近一个季度", kHalfEnd, kNY, "2026-04-01", "2026-07-01"},
      {"past 7 days", kHalfEnd, kSH, "2026-06-25", "2026-07-02"},
      {"last 3 months", kHalfEnd, kNY, "2026-04-01", "2026-07-01"},
      // since …: to today inclusive
      {"今年以来的报销", kYearEnd, kSH, "2027-01-01", "2027-01-02"},
      {"今年以来的报销", kYearEnd, kNY, "2026-01-01", "2027-01-01"},
      {"本月以来", kMonthEnd, kSH, "2026-04-01", "2026-04-02"},
      {"本月以来", kMonthEnd, kNY, "2026-03-01", "2026-04-01"},
      {"2026年以来", kHalfEnd, kSH, "2026-01-01", "2026-07-02"},
      {"since 2025", kHalfEnd, kNY, "2025-01-01", "2026-07-01"},
      // absolute dates: the zone does not matter
      {"2025年", kYearEnd, kSH, "2025-01-01", "2026-01-01"},
      {"2024年度审计报告", kYearEnd, kNY, "2024-01-01", "2025-01-01"},
      {"2024年3月的合同", kMonthEnd, kNY, "2024-03-01", "2024-04-01"},
      {"2025-12-31", kYearEnd, kSH, "2025-12-31", "2026-01-01"},
      {"2024/2/29", kMonthEnd, kSH, "2024-02-29", "2024-03-01"},
      {"2025年Q2", kHalfEnd, kNY, "2025-04-01", "2025-07-01"},
      {"2025年下半年", kHalfEnd, kSH, "2025-07-01", "2026-01-01"},
      {"2025年1月至3月", kMonthEnd, kNY, "2025-01-01", "2025-04-01"},
      {"march 2025", kMonthEnd, kSH, "2025-03-01", "2025-04-01"},
      {"q3 2025", kHalfEnd, kNY, "2025-07-01", "2025-10-01"},
      // the Spring Festival of the zone's year (2027: the shipped override 02-06; 2026: 02-17)
      {"春节前的值班安排", kYearEnd, kSH, "2027-01-07", "2027-02-06"},
      {"春节前的值班安排", kYearEnd, kNY, "2027-01-07", "2027-02-06"},  // the coming one
      {"今年春节前的值班安排", kYearEnd, kNY, "2026-01-18", "2026-02-17"},
      {"春节后", kMonthEnd, kSH, "2026-02-17", "2026-03-19"},
      // a verb complement before the time word
      {"帮我查一下去年第三季度的差旅费报销制度", kMonthEnd, kSH, "2025-07-01", "2025-10-01"},
      {"看下去年的年报", kYearEnd, kSH, "2026-01-01", "2027-01-01"},
      {"我想看一下去年的审计报告", kYearEnd, kNY, "2025-01-01", "2026-01-01"},
      {"了解一下上个月的考勤", kMonthEnd, kNY, "2026-02-01", "2026-03-01"},
      {"问一下本季度的预算", kHalfEnd, kSH, "2026-07-01", "2026-10-01"},
      // more of each kind
      {"本周", kYearEnd, kNY, "2026-12-28", "2027-01-04"},
      {"上上月", kMonthEnd, kSH, "2026-02-01", "2026-03-01"},
      {"去年下半年", kYearEnd, kNY, "2025-07-01", "2026-01-01"},
      {"近两年", kHalfEnd, kSH, "2024-07-02", "2026-07-02"},
      {"2026年第二季度", kHalfEnd, kNY, "2026-04-01", "2026-07-01"},
      {"去年3月", kMonthEnd, kSH, "2025-03-01", "2025-04-01"},
  };
  return rows;
}

TEST(TimeTable, ExactRangesNearMonthQuarterAndYearEndsInTwoZones) {
  std::set<std::string> expressions;
  for (const Row& r : table()) {
    SCOPED_TRACE(std::string(r.question) + " @ " + r.now + " in " + r.zone);
    expressions.insert(r.question);
    AnalysisContext ctx;
    ctx.now = r.now;
    ctx.timezone = r.zone;
    const Filters f = qaplan::internal::extract_filters(norm_time(r.question), shipped_filters(), ctx);
    ASSERT_TRUE(f.time.has_value()) << joined_time(f.reasons);
    EXPECT_EQ(f.time->from, r.from) << joined_time(f.reasons);
    EXPECT_EQ(f.time->to, r.to) << joined_time(f.reasons);
    EXPECT_EQ(f.time->anchor, r.now);
    EXPECT_EQ(f.time->timezone, r.zone);
    EXPECT_EQ(f.time_ranges.size(), 1u);
    EXPECT_FALSE(f.uncertain);
  }
  EXPECT_GE(expressions.size(), 80u);
}

// New York's DST: an IANA zone is not a fixed offset. 04:30Z is 00:30 EDT on 11-01 (DST ends at
// 06:00Z that day) and 00:30 EDT on 07-01; a fixed −05:00 puts both an hour earlier, the day
// before.
TEST(TimeTable, NewYorkDaylightSavingDecidesTheDay) {
  struct DstRow {
    const char* question;
    const char* now;
    const char* zone;
    const char* from;
    const char* to;
  };
  const DstRow rows[] = {
      {"今天", "2026-11-01T04:30:00Z", kNY, "2026-11-01", "2026-11-02"},
      {"今天", "2026-11-01T04:30:00Z", "-05:00", "2026-10-31", "2026-11-01"},
      {"上个月", "2026-11-01T04:30:00Z", kNY, "2026-10-01", "2026-11-01"},
      {"上个月", "2026-11-01T04:30:00Z", "UTC-5", "2026-09-01", "2026-10-01"},
      {"本季度", "2026-07-01T04:30:00Z", kNY, "2026-07-01", "2026-10-01"},
      {"本季度", "2026-07-01T04:30:00Z", "-05:00", "2026-04-01", "2026-07-01"},
      {"今天", "2026-01-15T04:30:00Z", kNY, "2026-01-14", "2026-01-15"},  // winter: EST
      // the user's report: 23:30Z on 03-31 is already April 1 in Shanghai
      {"上个月", "2026-03-31T23:30:00Z", kSH, "2026-03-01", "2026-04-01"},
      {"上个月", "2026-03-31T23:30:00Z", "+08:00", "2026-03-01", "2026-04-01"},
      {"上个月", "2026-03-31T23:30:00Z", "UTC", "2026-02-01", "2026-03-01"},
  };
  for (const DstRow& r : rows) {
    SCOPED_TRACE(std::string(r.question) + " @ " + r.now + " in " + r.zone);
    AnalysisContext ctx;
    ctx.now = r.now;
    ctx.timezone = r.zone;
    const Filters f = qaplan::internal::extract_filters(norm_time(r.question), shipped_filters(), ctx);
    ASSERT_TRUE(f.time.has_value()) << joined_time(f.reasons);
    EXPECT_EQ(f.time->from, r.from) << joined_time(f.reasons);
    EXPECT_EQ(f.time->to, r.to) << joined_time(f.reasons);
  }
}

}  // namespace
