#pragma once
// Calendar dates and ISO-8601 time points, shared by the eval room (dataset dates, policy scope)
// and the planning room (anchored query filters). One implementation: <chrono>'s proleptic
// Gregorian calendar, exact over the whole range. Pure functions, thread-safe; nothing here
// reads the clock.
#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace qaplan::internal::dates {

/// A proleptic Gregorian calendar date.
struct Day {
  int year = 1970;
  int month = 1;  // 1..12
  int day = 1;    // 1..days in month
  friend bool operator==(const Day&, const Day&) = default;
  friend auto operator<=>(const Day&, const Day&) = default;
};

/// True when y-m-d names a real day (any year <chrono> represents).
bool is_valid(int year, int month, int day) noexcept;
/// Days since 1970-01-01 (negative before). `d` must be valid.
std::int64_t to_days(const Day& d) noexcept;
/// The inverse of to_days().
Day from_days(std::int64_t days) noexcept;
/// ISO weekday of a day number: 1 = Monday … 7 = Sunday.
int iso_weekday(std::int64_t days) noexcept;
/// `d` moved by whole months; the day is clamped to the target month's length (01-31 + 1 month =
/// 02-28 or 02-29), the usual calendar-month arithmetic.
Day add_months(const Day& d, int months) noexcept;
/// "YYYY-MM-DD" (years 1..9999; others are printed with as many digits as they need).
std::string format(const Day& d);
/// "+08:00", "-05:30", "+00:00".
std::string format_offset(int offset_minutes);

/// Exactly `YYYY-MM-DD` at the start of `s` (10 bytes; what follows is not looked at), year
/// 0001..9999, a real day of that month.
std::optional<Day> parse_date_prefix(std::string_view s) noexcept;
/// Exactly `YYYY-MM-DD`, nothing before or after it.
inline bool is_iso_date(std::string_view s) noexcept {
  return s.size() == 10 && parse_date_prefix(s).has_value();
}

/// An instant plus the UTC offset it was written with.
struct Instant {
  std::int64_t unix_seconds = 0;
  std::int32_t nanos = 0;
  std::int32_t offset_minutes = 0;
};
/// `YYYY-MM-DDThh:mm:ss[.f{1,9}](Z|±hh:mm)`: the offset is required (a local time without one
/// is ambiguous). Seconds 00..59, offsets up to ±23:59. nullopt when malformed.
std::optional<Instant> parse_time_point(std::string_view text) noexcept;
/// The local calendar day of an instant in its own offset.
Day local_day(const Instant& t) noexcept;

/// A time zone: an IANA name ICU knows ("Asia/Shanghai", "America/New_York", "UTC") or a fixed
/// UTC offset. `id` is the canonical spelling recorded with a range: ICU's canonical ID for a
/// name ("asia/shanghai" → "Asia/Shanghai", "PRC" → "Asia/Shanghai"), "+08:00" for an offset.
struct Zone {
  std::string id;
  std::optional<int> fixed_minutes;  ///< set for an offset: no ICU lookup per instant
  friend bool operator==(const Zone&, const Zone&) = default;
};
/// Resolves `name`: an offset `±hh:mm`, `±hhmm`, `±h[h]`, optionally after `UTC`/`GMT`
/// ("+08:00", "UTC+8", "GMT-05:30"; at most ±14:00), else an IANA name through ICU (its
/// time-zone data, so DST rules apply). nullopt when neither (ICU's "Etc/Unknown").
/// Thread-safe; a name is looked up in ICU once per process and cached.
std::optional<Zone> resolve_zone(std::string_view name);
/// The zone's UTC offset in minutes at an instant (daylight saving included).
int zone_offset_minutes(const Zone& zone, std::int64_t unix_seconds);
/// The calendar day of an instant in `zone` (not in the offset it was written with).
Day local_day(const Instant& t, const Zone& zone);
/// Local midnight at the start of `d` in `zone`, as Unix seconds (the offset in force then).
std::int64_t local_midnight(const Day& d, const Zone& zone);

/// The first day of the first month of the Chinese calendar (春节, the Spring Festival) in
/// Gregorian year `year` (1901..2100), by ICU's Chinese calendar; nullopt outside that range or
/// when ICU fails. Each year is computed once per process (ICU takes ~20 µs) and cached.
/// ICU 72's astronomy puts a few near-midnight new moons on the wrong day (2027, 2030): callers
/// that need the official date keep an override table (config [filters]).
std::optional<Day> spring_festival(int year);

/// Day `day` of month `month` (1..12, not a leap month) of the Chinese year that begins in
/// Gregorian year `year` (1901..2100): 端午 is (5, 5), 中秋 (8, 15). nullopt outside that range, for
/// a day the month lacks, or when ICU fails. Each date found is computed once per process (ICU
/// takes ~20 µs) and cached; a failure is not cached.
std::optional<Day> chinese_calendar_day(int year, int month, int day);

}  // namespace qaplan::internal::dates
