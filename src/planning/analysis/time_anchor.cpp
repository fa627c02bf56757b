// Anchoring a time mention (time_expr.hpp) to days: the half-open range of days it names, given
// today in the host's zone, the week start, the Spring Festival dates and the longest window.
#include "planning/analysis/time_expr.hpp"

#include <algorithm>
#include <span>
#include <string>

namespace qaplan::internal {
namespace {

using Form = TimeMention::Form;
using Part = TimeMention::Part;
using Year = TimeMention::Year;
using Edge = TimeMention::Edge;

}  // namespace

std::optional<dates::Day> festival_date(int y, const TimeAnchor& anchor) {
  const auto& o = anchor.festival_overrides;
  auto it = std::lower_bound(o.begin(), o.end(), y,
                             [](const std::pair<int, dates::Day>& p, int v) { return p.first < v; });
  if (it != o.end() && it->first == y) return it->second;
  return dates::spring_festival(y);
}

namespace {

// A mention's half-open range of days before the final checks, or why it has none.
struct DayRange {
  dates::Day from, to;
  std::string problem;
};

dates::Day add_days(const dates::Day& d, std::int64_t n) {
  return dates::from_days(dates::to_days(d) + n);
}

// 上个月, 下周, 今年: the whole unit, `offset` units from today's.
DayRange relative_range(const TimeMention& m, const dates::Day& today, int week_start) {
  using dates::Day;
  const std::int64_t t0 = dates::to_days(today);
  DayRange r;
  switch (m.unit) {
    case TimeUnit::kDay:
      r.from = dates::from_days(t0 + m.offset);
      r.to = add_days(r.from, 1);
      break;
    case TimeUnit::kWeek: {
      const int back = (dates::iso_weekday(t0) - week_start + 7) % 7;
      r.from = dates::from_days(t0 - back + 7 * m.offset);
      r.to = add_days(r.from, 7);
      if (m.a >= 1 && m.a <= 8) {  // its day (上周五) or its weekend, Saturday and Sunday (下周末)
        const int day = m.a == 8 ? 6 : m.a;
        r.from = add_days(r.from, (day - week_start + 7) % 7);
        r.to = add_days(r.from, m.a == 8 ? 2 : 1);
      }
      break;
    }
    case TimeUnit::kMonth:
      r.from = dates::add_months(Day{today.year, today.month, 1}, m.offset);
      r.to = dates::add_months(r.from, 1);
      break;
    case TimeUnit::kQuarter:
      r.from = dates::add_months(Day{today.year, (today.month - 1) / 3 * 3 + 1, 1}, 3 * m.offset);
      r.to = dates::add_months(r.from, 3);
      break;
    case TimeUnit::kYear:
      r.from = Day{today.year + m.offset, 1, 1};
      r.to = Day{today.year + m.offset + 1, 1, 1};
      break;
  }
  return r;
}

// 最近7天, 近三个月: `count` units up to and including today.
DayRange rolling_range(const TimeMention& m, const dates::Day& today) {
  const std::int64_t t0 = dates::to_days(today);
  DayRange r;
  r.to = dates::from_days(t0 + 1);
  const std::int64_t n = m.count;
  switch (m.unit) {
    case TimeUnit::kDay: r.from = dates::from_days(t0 + 1 - n); break;
    case TimeUnit::kWeek: r.from = dates::from_days(t0 + 1 - 7 * n); break;
    case TimeUnit::kMonth: r.from = dates::add_months(r.to, -m.count); break;
    case TimeUnit::kQuarter: r.from = dates::add_months(r.to, -3 * m.count); break;
    case TimeUnit::kYear: r.from = dates::add_months(r.to, -12 * m.count); break;
  }
  return r;
}

// A public holiday of year `y`: the days of its longest official break, so that whatever the
// year's arrangement, the days meant are inside (a wider range costs a few documents; a narrower
// one loses the answer). 国庆 may merge with 中秋 (2025: 10-01 … 10-08; 2023: 09-29 … 10-06);
// 春节's break has begun on 除夕's eve and ended on 初八; 清明's has run Apr 2 – 4 (2016) to
// Apr 5 – 7 (2019); 端午 and 中秋 take three days around their day.
DayRange holiday_range(int h, int y, const TimeAnchor& anchor) {
  using dates::Day;
  DayRange r;
  auto around = [&](std::optional<Day> d, int before, int after) {
    if (!d) {
      r.problem = "no calendar day for " + std::to_string(y);
      return;
    }
    r.from = add_days(*d, -before);
    r.to = add_days(*d, after + 1);
  };
  switch (h) {
    case TimeMention::kNewYear: around(Day{y, 1, 1}, 2, 2); break;
    case TimeMention::kSpringFestival: around(festival_date(y, anchor), 2, 7); break;
    case TimeMention::kNewYearsEve: around(festival_date(y, anchor), 1, -1); break;
    case TimeMention::kFirstDay: around(festival_date(y, anchor), 0, 0); break;
    case TimeMention::kQingming: around(Day{y, 4, 4}, 2, 3); break;  // Apr 2 – 7
    case TimeMention::kLabourDay: around(Day{y, 5, 1}, 0, 4); break;
    case TimeMention::kDragonBoat: around(dates::chinese_calendar_day(y, 5, 5), 2, 2); break;
    case TimeMention::kMidAutumn: around(dates::chinese_calendar_day(y, 8, 15), 2, 2); break;
    default: around(Day{y, 10, 1}, 2, 7); break;  // kNationalDay: Sep 29 (2023) – Oct 8
  }
  return r;
}

// 2025年第三季度, 去年3月, 春节前: a part of a calendar year.
DayRange calendar_range(const TimeMention& m, const dates::Day& today, const TimeAnchor& anchor) {
  using dates::Day;
  DayRange r;
  const int y = m.year_kind == Year::kAbsolute ? m.year
                : m.year_kind == Year::kRelative ? today.year + m.year
                                                 : today.year;
  if (y < 1 || y > 9998) {
    r.problem = "year out of range";
    return r;
  }
  switch (m.part) {
    case Part::kYear:
      r.from = Day{y, 1, 1};
      r.to = Day{y + 1, 1, 1};
      break;
    case Part::kHalf:
      r.from = Day{y, m.a == 1 ? 1 : 7, 1};
      r.to = dates::add_months(r.from, 6);
      break;
    case Part::kQuarter:
      r.from = Day{y, 3 * m.a - 2, 1};
      r.to = dates::add_months(r.from, 3);
      break;
    case Part::kMonth:
      r.from = Day{y, m.a, 1};
      r.to = dates::add_months(r.from, 1);
      break;
    case Part::kMonths:
      r.from = Day{y, m.a, 1};
      r.to = dates::add_months(Day{y, m.b, 1}, 1);
      break;
    case Part::kDay:
      if (!dates::is_valid(y, m.a, m.b)) {
        r.problem = "no such date";
        return r;
      }
      r.from = Day{y, m.a, m.b};
      r.to = add_days(r.from, 1);
      break;
    case Part::kHoliday: return holiday_range(m.a, y, anchor);
    case Part::kFestival: {
      const auto f = festival_date(y, anchor);
      if (!f) {
        r.problem = "no Spring Festival date for " + std::to_string(y);
        return r;
      }
      r.from = m.a < 0 ? add_days(*f, -anchor.festival_days) : *f;
      r.to = m.a < 0 ? *f : add_days(*f, anchor.festival_days);
      break;
    }
  }
  return r;
}

}  // namespace

AnchoredTime anchor_time(const TimeMention& m, const TimeAnchor& anchor) {
  AnchoredTime r;
  if (m.edge == Edge::kOpen) {
    r.problem = "open-ended";
    return r;
  }
  if (m.needs_now() && !anchor.today) {
    r.problem = "needs now";
    return r;
  }
  const dates::Day today = anchor.today.value_or(dates::Day{});
  DayRange d;
  switch (m.form) {
    case Form::kRelative: d = relative_range(m, today, anchor.week_start); break;
    case Form::kRolling: d = rolling_range(m, today); break;
    case Form::kCalendar: d = calendar_range(m, today, anchor); break;
  }
  if (!d.problem.empty()) {
    r.problem = std::move(d.problem);
    return r;
  }
  if (m.edge == Edge::kToToday) d.to = dates::from_days(dates::to_days(today) + 1);
  if (d.from >= d.to) {
    r.problem = "starts after today";
    return r;
  }
  if (d.from.year < 1 || d.to.year > 9999) {
    r.problem = "year out of range";
    return r;
  }
  if (dates::to_days(d.to) - dates::to_days(d.from) > anchor.max_window_days) {
    r.problem = "longer than max_window_days";
    return r;
  }
  r.range = std::pair{d.from, d.to};
  return r;
}

namespace {

bool year_less(const TimeMention& m) {
  return m.form == TimeMention::Form::kCalendar && m.year_kind == TimeMention::Year::kCurrent &&
         m.edge != TimeMention::Edge::kOpen && m.part != Part::kYear;
}

// `m` read `offset` years from this one (0: as it is).
TimeMention moved(const TimeMention& m, int offset) {
  if (offset == 0) return m;
  TimeMention x = m;
  x.year_kind = TimeMention::Year::kRelative;
  x.year = offset;
  return x;
}

// Which year's the lot a year-less question names means, as an offset from this year's: the one
// under way; else the next when it begins within `ahead_days`; else the last one that ended.
// Next year's only when `next_year`: 上半年 or 一季度 asked in December is this year's, unless a
// plan is named (一季度的预算). `span(k)` is the lot's days k years on (a lunar holiday moves
// within the Gregorian year), nullopt when it has none.
template <typename Span>
int year_to_read(const Span& span, const dates::Day& today, int ahead_days, bool next_year) {
  const std::int64_t t = dates::to_days(today);
  const int last = next_year ? 1 : 0;
  std::optional<std::pair<std::int64_t, std::int64_t>> at[3];
  for (int k = -1; k <= last; ++k) at[k + 1] = span(k);
  for (int k = -1; k <= last; ++k)
    if (at[k + 1] && at[k + 1]->first <= t && t < at[k + 1]->second) return k;
  for (int k = -1; k <= last; ++k)
    if (at[k + 1] && at[k + 1]->first > t) {
      if (at[k + 1]->first - t <= ahead_days) return k;
      break;
    }
  for (int k = last; k >= -1; --k)  // the latest one that ended (2月29日 has none some years)
    if (at[k + 1] && at[k + 1]->second <= t) return k;
  return 0;
}

}  // namespace

namespace {

// One period's mentions (an item, or a range's two ends) placed together.
void place_period(std::span<TimeMention> mentions, const TimeAnchor& anchor) {
  if (!std::all_of(mentions.begin(), mentions.end(), year_less)) return;
  const dates::Day today = *anchor.today;
  std::vector<int> offset(mentions.size(), 0);
  std::vector<DayRange> r(mentions.size());
  for (std::size_t i = 0; i < mentions.size(); ++i) {
    r[i] = calendar_range(mentions[i], today, anchor);
    if (!r[i].problem.empty()) return;
    // A range whose far end comes before its near end crosses New Year (11月到2月).
    if (i > 0 && r[i].from < r[i - 1].from) {
      offset[i] = offset[i - 1] + 1;
      r[i] = calendar_range(moved(mentions[i], offset[i]), today, anchor);
      if (!r[i].problem.empty()) return;
    }
  }
  // The period's first and last day k years on.
  auto span = [&](int k) -> std::optional<std::pair<std::int64_t, std::int64_t>> {
    std::int64_t from = 0, to = 0;
    for (std::size_t i = 0; i < mentions.size(); ++i) {
      const DayRange x =
          k == 0 ? r[i] : calendar_range(moved(mentions[i], offset[i] + k), today, anchor);
      if (!x.problem.empty()) return std::nullopt;
      from = i == 0 ? dates::to_days(x.from) : std::min(from, dates::to_days(x.from));
      to = i == 0 ? dates::to_days(x.to) : std::max(to, dates::to_days(x.to));
    }
    return std::pair{from, to};
  };
  auto all = [&](auto pred) { return std::all_of(mentions.begin(), mentions.end(), pred); };
  // 9月1号至今 began in the past: the latest one begun.
  const bool to_today =
      !all([](const TimeMention& m) { return m.edge != TimeMention::Edge::kToToday; });
  const bool holidays = all([](const TimeMention& m) {
    return m.part == Part::kHoliday || m.part == Part::kFestival;
  });
  const bool days = holidays || all([](const TimeMention& m) {
    return m.part == Part::kMonth || m.part == Part::kMonths || m.part == Part::kDay;
  });
  // A holiday is asked about for its arrangements well ahead (春节期间营业时间怎么调整 in November).
  const int ahead = to_today   ? 0
                    : holidays ? std::max(anchor.year_less_ahead_days, anchor.holiday_ahead_days)
                               : anchor.year_less_ahead_days;
  const int move = year_to_read(span, today, ahead, days || anchor.names_plan);
  for (std::size_t i = 0; i < mentions.size(); ++i) {
    mentions[i] = moved(mentions[i], offset[i] + move);
    mentions[i].year_moved = offset[i] + move;
  }
}

}  // namespace

void place_year_less(std::vector<TimeMention>& mentions, const TimeAnchor& anchor) {
  if (!anchor.today) return;
  // Each period on its own (国庆和春节的销量, 12月和1月的考勤): a range's ends (至, 到) together.
  for (std::size_t b = 0; b < mentions.size();) {
    std::size_t e = b + 1;
    while (e < mentions.size() && mentions[e].joins_previous) ++e;
    place_period(std::span<TimeMention>(mentions).subspan(b, e - b), anchor);
    b = e;
  }
}

}  // namespace qaplan::internal
