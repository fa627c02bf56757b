#pragma once
// Time expressions of a question (docs/guide.md#time-filters): found in one linear pass, then
// anchored at the request's `now` into an absolute [from, to) of local calendar days. The grammar
// is built in (it is the language, not a deployment's vocabulary); its fixed words go into the
// filters automaton (filters.cpp) beside the configured cues, so a question is scanned once.
//
// What the forms mean (today = now's local date; W = the configured week start):
//   今天/昨天/前天, today, yesterday        that day
//   本周/上周/上上周, this/last week        the calendar week (W .. W+6) containing today, −1, −2
//   本月/上个月/上上个月, this/last month   the calendar month, −1, −2
//   本季度/上季度, this/last quarter        the calendar quarter, −1 (Q1's previous is last Q4)
//   今年/去年/前年, this/last year          the calendar year, −1, −2
//   上半年/下半年, H1/H2, first/second half Jan–Jun / Jul–Dec of this year (or the named year)
//   Q1–Q4, 第一季度, 3季度                  that quarter of this year (or the named year)
//   最近/近/过去 N 天|周|个月|季度|年,       the last N units up to today inclusive:
//   past/last N days|weeks|months|years    [tomorrow − N units, tomorrow); 近半年 = 6 months
//   2024年, in 2024                        that year; 2024年3月, March 2024, 2024-03: that month
//   3月, 三月份 (this year), 1-3月           that month (those months); 3月5日, 2024-03-05: that day
//   去年Q3, 2024年上半年, q3 2024            a year followed (or in English preceded) by a part
//   去年前三季度, 2024年前两个月              months 1 .. 9 / 1 .. 2 of that year (alone: nothing)
//   春节前/春节后 (去年春节前 …)             [festival − N days, festival) / [festival, festival + N)
//                                          of that Gregorian year's Spring Festival (N from config)
// Edges: …以来/至今/起/开始, since …  → the range runs to today (inclusive); …之前/以前/前/之后/
// 以后/后, 截至/截止/直到 …, before/after/until … → open-ended, so no time filter at all.
// Several expressions: the two ends of one range (2024年1月至3月, 从去年到今年: joined by 至/到/-/~/
// to) are one period, their span; any other pair (去年和今年, 今年比去年, 对比…, vs) are separate
// periods, one range each (a comparison is never merged into one span). All or nothing.
// Which date a range constrains (DateKind): a verb next to the expression — 上个月发布的 (发布,
// 印发, 公布 …: published), 去年签署的 (签署, 签订 …: signed), 生效/施行 or no verb: in force.
// A verb complement (看一下, 查下, 对比一下 …) binds its 下 to the verb: 一下去年 keeps 去年
// (the guard below would otherwise read 下去 as a word).
// Not time: durations without 最近/近/过去 (试用期三个月), a bare number (2000元), an English month
// without a year or "in" (may I …), and a time word whose first character belongs to the word
// before it (目前|年假, 马上|年底, 线上|周报, 成本|月度, 统一|月度).
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/dates.hpp"

namespace qaplan::internal {

enum class TimeUnit : std::uint8_t { kDay, kWeek, kMonth, kQuarter, kYear };

/// Which date of a document a range constrains.
enum class DateKind : std::uint8_t {
  kEffective,  ///< in force during the range (the default: 上个月的制度)
  kPublished,  ///< published / issued in it (上个月发布的, 今年印发的)
  kSigned,     ///< signed in it (去年签署的合同)
  kUpdated,    ///< updated / revised in it (最近7天更新的, 今年修订的)
};
/// "effective", "published", "signed", "updated" (TimeRange::date).
std::string_view to_string(DateKind k) noexcept;

/// One fixed word of the built-in time vocabulary.
struct TimeWord {
  enum class Kind : std::uint8_t {
    kRelative,     // a = unit, b = offset (上个月: month, −1)
    kYear,         // a = offset from this year (去年: −1)
    kHalf,         // a = 1 | 2
    kQuarter,      // a = 1..4
    kMonth,        // a = 1..12 (三月, 十二月)
    kEnMonth,      // a = 1..12 (march): only with a year or after "in"
    kFestival,     // a = −1 before | +1 after
    kHoliday,      // a = Holiday (国庆, 春节那几天: the public holiday's days)
    kRollPrefix,   // 最近, 近, 过去; past, last: a count and a unit follow
  };
  std::string_view text;
  Kind kind;
  std::int8_t a = 0;
  std::int8_t b = 0;
};

/// Character tests of the time reader (time_expr.cpp, time_words.cpp) on normalized text.
namespace time_text {
inline bool is_digit(char c) { return c >= '0' && c <= '9'; }
inline bool is_alpha(char c) { return c >= 'a' && c <= 'z'; }  // normalized: ASCII is lower case
inline bool is_alnum(char c) { return is_digit(c) || is_alpha(c) || (c >= 'A' && c <= 'Z'); }
inline bool at(std::string_view t, std::size_t i, std::string_view w) {
  return i <= t.size() && t.substr(i).starts_with(w);
}
inline bool ends_at(std::string_view t, std::size_t i, std::string_view w) {
  return i <= t.size() && t.substr(0, i).ends_with(w);
}
inline bool digit_at(std::string_view t, std::size_t i) { return i < t.size() && is_digit(t[i]); }
inline bool alnum_at(std::string_view t, std::size_t i) { return i < t.size() && is_alnum(t[i]); }
inline bool is_english(std::string_view w) { return !w.empty() && is_alpha(w.front()); }
}  // namespace time_text

/// The built-in time words (normalized form: lower-case ASCII).
std::span<const TimeWord> time_words() noexcept;

/// Where a count read from text[i] ends (digits, Chinese numerals such as 两 or 一百二十, 半, an
/// English number word), or i when none starts there. The rewriter reads counts with it too.
std::size_t count_end(std::string_view text, std::size_t i);

/// A time word's ASCII edges must be word edges (`today` not in `todays`); q1–q4 and h1/h2
/// may follow digits (2024q3).
bool time_word_at_boundaries(std::string_view text, const TimeWord& w, std::uint32_t begin,
                             std::uint32_t end) noexcept;

/// A time word found in the text: time_words()[word] at bytes [begin, end).
struct TimeWordHit {
  std::uint32_t word = 0;
  std::uint32_t begin = 0;
  std::uint32_t end = 0;
};

/// A time expression before anchoring.
struct TimeMention {
  enum class Form : std::uint8_t { kRelative, kRolling, kCalendar };
  enum class Year : std::uint8_t { kCurrent, kRelative, kAbsolute };
  enum class Part : std::uint8_t {
    kYear, kHalf, kQuarter, kMonth, kMonths, kDay, kFestival, kHoliday
  };
  /// Public holidays of mainland China (Part::kHoliday, `a`), and two days of the Spring Festival.
  enum Holiday : int {
    kNewYear = 1, kSpringFestival, kNewYearsEve, kFirstDay, kQingming, kLabourDay, kDragonBoat,
    kMidAutumn, kNationalDay
  };
  enum class Edge : std::uint8_t { kNone, kToToday, kOpen };
  std::uint32_t begin = 0, end = 0;  ///< bytes of the expression in the text
  Form form = Form::kCalendar;
  TimeUnit unit = TimeUnit::kDay;  ///< kRelative, kRolling
  int offset = 0;                  ///< kRelative: 0 = the current unit, −1 = the previous …
  int count = 0;                   ///< kRolling: how many units (近半年 = 6 months)
  Year year_kind = Year::kCurrent;  ///< kCalendar
  int year = 0;                     ///< absolute year, or the offset from this year
  Part part = Part::kYear;
  int a = 0;  ///< half, quarter or month; festival side (−1 before, +1 after); a relative
              ///< week's day (ISO 1–7, 8 its weekend, 0 the whole week)
  int b = 0;  ///< kDay: the day; kMonths: the last month
  Edge edge = Edge::kNone;
  /// The text since the previous mention (至, 到, -, ~, to) makes the two one range's ends.
  bool joins_previous = false;
  DateKind date = DateKind::kEffective;  ///< from a verb next to the expression
  /// A year-less date read as last year's (−1) or next year's (+1) (place_year_less).
  int year_moved = 0;
  std::string_view date_word;            ///< that verb ("发布"), empty for the default
  /// True when anchoring needs today (relative words, a year-less date, "…以来").
  bool needs_now() const noexcept {
    return form != Form::kCalendar || year_kind != Year::kAbsolute || edge == Edge::kToToday;
  }
};

/// Appends the time expressions of `text` to `out`, given the time words found in it (sorted by
/// begin, non-overlapping). One pass; numbers and dates are read by hand (no regex).
void find_time_mentions(std::string_view text, std::span<const TimeWordHit> words,
                        std::vector<TimeMention>& out);

/// How mentions are anchored.
struct TimeAnchor {
  std::optional<dates::Day> today;  ///< now's local date; nullopt without `now`
  int week_start = 1;               ///< 1 = Monday … 7 = Sunday
  int festival_days = 30;
  int max_window_days = 3660;
  int year_less_ahead_days = 92;  ///< place_year_less: how far ahead a year-less date may be
  int holiday_ahead_days = 150;   ///< … for a public holiday
  bool names_plan = false;        ///< the question names a plan: a quarter may be next year's
  /// (year, date) pairs that override ICU's Spring Festival, sorted by year.
  std::span<const std::pair<int, dates::Day>> festival_overrides;
};

/// An anchored mention: [from, to) or why it could not be (`problem` is a short phrase such as
/// "no such date", "open-ended", "longer than max_window_days").
struct AnchoredTime {
  std::optional<std::pair<dates::Day, dates::Day>> range;
  std::string problem;
};

/// Anchors one mention. Without `today`, a mention that needs it has problem "needs now".
AnchoredTime anchor_time(const TimeMention& m, const TimeAnchor& anchor);

/// Gives the months, days, quarters and halves of a question named without a year (12月, 8月到10月,
/// 三季度, 下半年) their years, all together, when every mention is such a one: a range whose far
/// end comes before its near end crosses New Year (its far end is next year's); the lot is the
/// occurrence under way, else the next one when it begins within `anchor.year_less_ahead_days`,
/// else the last one (12月 asked in March: the December just past, not one nine months away;
/// 4月的排班表 asked in March: the coming April; 1月 asked in late December: the coming January).
/// A knowledge base holds the past and what is about to happen; a date moved far into the
/// future filters its documents away. Those moved get `year_moved`.
void place_year_less(std::vector<TimeMention>& mentions, const TimeAnchor& anchor);

/// The Spring Festival of Gregorian `year`: an override when present, else ICU's.
std::optional<dates::Day> festival_date(int year, const TimeAnchor& anchor);

}  // namespace qaplan::internal
