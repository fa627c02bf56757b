// The time filters of a question (time_filters.hpp): its mentions anchored at the request's now
// and zone, grouped into periods, one TimeRange each, every step with its reason.
#include "planning/analysis/time_filters.hpp"

#include <algorithm>
#include <optional>

#include "common/utf8.hpp"

namespace qaplan::internal {

// A value from the request echoed in a reason only when it is one short printable line.
std::string echo(const std::string& v) {
  const bool ok = v.size() <= 64 && is_valid_utf8(v) &&
                  std::none_of(v.begin(), v.end(), [](char ch) {
                    return static_cast<unsigned char>(ch) < 0x20 || ch == 0x7F;
                  });
  // Appended, not "…" + std::string: GCC 12 warns falsely on that (-Wrestrict) once inlined.
  std::string out = ok ? "\"" : "(";
  out += ok ? v : std::to_string(v.size()) + " bytes, not shown";
  out += ok ? "\"" : ")";
  return out;
}

namespace {

std::string range_text(const dates::Day& from, const dates::Day& to) {
  std::string out = "[";
  out += dates::format(from);
  out += ",";
  out += dates::format(to);
  out += ")";
  return out;
}

// One period of a question: a mention, or the two ends of a range (2024年1月至3月) as one.
struct Period {
  dates::Day from, to;
  std::uint32_t begin = 0, end = 0;  // bytes of its words
  DateKind date = DateKind::kEffective;
  std::string_view date_word;  // the verb that set `date` ("" = the default)
};

constexpr std::size_t kMaxPeriods = 4;  // 今年、去年、前年和2023年 still; a list of ten is not a filter

// A plan or schedule named (下半年的计划): a year-less date may lie further ahead. The words are
// few and short: a scan per word stays linear in the question.
bool names_a_plan(std::string_view text, const FiltersConfig& c) {
  return std::any_of(c.plan_words.begin(), c.plan_words.end(),
                     [&](const std::string& w) { return text.find(w) != std::string_view::npos; });
}

// Why a date named without its year was read as another year's (place_year_less).
const char* year_moved_note(int moved) {
  if (moved < 0) return " (no year: last year's; this year's is still far ahead)";
  if (moved > 0) return " (no year: next year's)";
  return "";
}

// Periods from anchored mentions; false (with reasons) unless every mention anchored.
bool anchor_periods(std::string_view text, std::span<const TimeMention> mentions,
                    const TimeAnchor& anchor, const AnalysisContext& context, Filters& f,
                    std::vector<Period>& periods) {
  bool all = true;
  std::vector<TimeMention> placed(mentions.begin(), mentions.end());
  place_year_less(placed, anchor);
  for (const TimeMention& m : placed) {
    const std::string expr(text.substr(m.begin, m.end - m.begin));
    const AnchoredTime a = anchor_time(m, anchor);
    if (!a.range) {
      all = false;
      if (a.problem == "needs now") {
        f.uncertain = true;
        f.reasons.push_back(context.now.empty()
                                ? "uncertain:" + expr + " without now"
                                : "uncertain:" + expr + " with now " + echo(context.now) +
                                      " not ISO-8601");
      } else {
        f.reasons.push_back("time:skipped " + expr + " (" + a.problem + ")");
      }
      continue;
    }
    f.reasons.push_back("time:" + expr + "→" + range_text(a.range->first, a.range->second) +
                        year_moved_note(m.year_moved));
    if (m.joins_previous && !periods.empty()) {  // the far end of a range: one period
      Period& p = periods.back();
      p.from = std::min(p.from, a.range->first);
      p.to = std::max(p.to, a.range->second);
      p.end = m.end;
      if (p.date_word.empty()) {
        p.date = m.date;
        p.date_word = m.date_word;
      }
      continue;
    }
    periods.push_back(Period{a.range->first, a.range->second, m.begin, m.end, m.date, m.date_word});
  }
  if (!all && !periods.empty()) f.reasons.push_back("time:no filter (not every expression resolved)");
  return all;
}

// 去年和今年发布的: one verb speaks for every period when the periods name no other.
void share_date_kind(std::vector<Period>& periods) {
  const Period* named = nullptr;
  for (const Period& p : periods) {
    if (p.date_word.empty()) continue;
    if (named && named->date != p.date) return;  // two different dates: each keeps its own
    named = &p;
  }
  if (!named) return;
  const Period source = *named;
  for (Period& p : periods)
    if (p.date_word.empty()) p.date = source.date;
}

// The metadata field of a period's date, or nullopt (with a reason) when none is configured.
std::optional<std::string> date_field_of(const Period& p, const FiltersConfig& c, Filters& f) {
  if (p.date == DateKind::kEffective) return std::string();
  const std::string& field = p.date == DateKind::kPublished ? c.published_date_field
                             : p.date == DateKind::kSigned  ? c.signed_date_field
                                                            : c.updated_date_field;
  const std::string word = p.date_word.empty() ? std::string(to_string(p.date))
                                               : std::string(p.date_word);
  if (field.empty()) {
    f.reasons.push_back("time:no filter (" + word + " needs [filters] " +
                        std::string(to_string(p.date)) + "_date_field" +
                        "; never the validity range instead)");
    return std::nullopt;
  }
  f.reasons.push_back("time:date " + std::string(to_string(p.date)) + " (" + word + ")→" + field);
  return field;
}

// The time filters: every mention anchored, grouped into periods, one TimeRange each.
}  // namespace

void time_filters(std::string_view text, std::span<const TimeMention> mentions,
                  const FiltersConfig& config,
                  std::span<const std::pair<int, dates::Day>> festival_overrides,
                  const AnalysisContext& context, Filters& f) {
  std::optional<dates::Instant> now;
  if (!context.now.empty()) now = dates::parse_time_point(context.now);
  std::optional<dates::Zone> zone;
  if (!context.timezone.empty()) {
    zone = dates::resolve_zone(context.timezone);
    if (!zone) {  // analyze() refuses this request first; a direct caller gets no guess
      f.uncertain = true;
      f.reasons.push_back("uncertain:time with timezone " + echo(context.timezone) +
                          " not a known zone");
      return;
    }
  }
  TimeAnchor anchor;
  if (now) anchor.today = zone ? dates::local_day(*now, *zone) : dates::local_day(*now);
  anchor.week_start = config.week_start;
  anchor.festival_days = config.spring_festival_days;
  anchor.max_window_days = config.max_window_days;
  anchor.names_plan = names_a_plan(text, config);
  anchor.holiday_ahead_days = config.year_less_holiday_ahead_days;
  anchor.year_less_ahead_days =
      anchor.names_plan ? config.year_less_plan_ahead_days : config.year_less_ahead_days;
  anchor.festival_overrides = festival_overrides;
  std::vector<Period> periods;
  if (!anchor_periods(text, mentions, anchor, context, f, periods) || periods.empty()) return;
  // The same period named twice (今年的A和今年的B) is one.
  std::vector<Period> unique;
  for (const Period& p : periods)
    if (std::none_of(unique.begin(), unique.end(), [&](const Period& u) {
          return u.from == p.from && u.to == p.to && u.date == p.date;
        }))
      unique.push_back(p);
  share_date_kind(unique);
  if (unique.size() > kMaxPeriods) {
    f.reasons.push_back("time:no filter (" + std::to_string(unique.size()) + " periods, at most " +
                        std::to_string(kMaxPeriods) + ")");
    return;
  }
  std::vector<TimeRange> ranges;
  std::string names;
  for (const Period& p : unique) {
    auto field = date_field_of(p, config, f);
    if (!field) return;  // all or nothing
    TimeRange t;
    t.from = dates::format(p.from);
    t.to = dates::format(p.to);
    t.expression = text.substr(p.begin, p.end - p.begin);
    if (now) t.anchor = context.now;
    t.timezone = zone ? zone->id : now ? dates::format_offset(now->offset_minutes) : "";
    t.date = to_string(p.date);
    t.field = std::move(*field);
    names += (names.empty() ? "" : "|") + t.expression;
    ranges.push_back(std::move(t));
  }
  if (ranges.size() == 1) {
    if (mentions.size() > 1)
      f.reasons.push_back("time:" + ranges[0].expression + "→" + range_text(unique[0].from, unique[0].to));
    f.time = ranges[0];
  } else {
    f.reasons.push_back("time:" + std::to_string(ranges.size()) + " periods " + names +
                        " (one range each, never their span)");
  }
  f.time_ranges = std::move(ranges);
}


}  // namespace qaplan::internal
