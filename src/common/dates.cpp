#include "common/dates.hpp"

#include <unicode/calendar.h>
#include <unicode/locid.h>
#include <unicode/strenum.h>
#include <unicode/timezone.h>
#include <unicode/uchar.h>
#include <unicode/unistr.h>

#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <map>
#include <memory>
#include <mutex>
#include <tuple>

namespace qaplan::internal::dates {
namespace {

namespace chr = std::chrono;

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Reads exactly n ASCII digits at s[pos]; -1 when any is not a digit.
int read_digits(std::string_view s, std::size_t pos, std::size_t n) {
  if (pos + n > s.size()) return -1;
  int v = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (!is_digit(s[pos + i])) return -1;
    v = v * 10 + (s[pos + i] - '0');
  }
  return v;
}

chr::year_month_day to_ymd(const Day& d) {
  return chr::year{d.year} / chr::month{static_cast<unsigned>(d.month)} /
         chr::day{static_cast<unsigned>(d.day)};
}

Day from_ymd(const chr::year_month_day& ymd) {
  return Day{static_cast<int>(ymd.year()), static_cast<int>(static_cast<unsigned>(ymd.month())),
             static_cast<int>(static_cast<unsigned>(ymd.day()))};
}

void two_digits(std::string& out, int v) {
  out += static_cast<char>('0' + v / 10);
  out += static_cast<char>('0' + v % 10);
}

}  // namespace

bool is_valid(int year, int month, int day) noexcept {
  if (month < 1 || month > 12 || day < 1 || day > 31) return false;
  if (year < static_cast<int>(chr::year::min()) || year > static_cast<int>(chr::year::max()))
    return false;
  return to_ymd(Day{year, month, day}).ok();
}

std::int64_t to_days(const Day& d) noexcept {
  return chr::sys_days(to_ymd(d)).time_since_epoch().count();
}

Day from_days(std::int64_t days) noexcept {
  return from_ymd(chr::year_month_day{chr::sys_days{chr::days{days}}});
}

int iso_weekday(std::int64_t days) noexcept {
  return static_cast<int>(chr::weekday{chr::sys_days{chr::days{days}}}.iso_encoding());
}

Day add_months(const Day& d, int months) noexcept {
  const chr::year_month ym = chr::year{d.year} / chr::month{static_cast<unsigned>(d.month)} +
                             chr::months{months};
  const unsigned last = static_cast<unsigned>((ym / chr::last).day());
  return from_ymd(ym / chr::day{std::min(static_cast<unsigned>(d.day), last)});
}

std::string format(const Day& d) {
  std::string out;
  if (d.year >= 1 && d.year <= 9999) {
    out += static_cast<char>('0' + d.year / 1000);
    out += static_cast<char>('0' + d.year / 100 % 10);
    two_digits(out, d.year % 100);
  } else {
    out = std::to_string(d.year);
  }
  out += '-';
  two_digits(out, d.month);
  out += '-';
  two_digits(out, d.day);
  return out;
}

std::string format_offset(int offset_minutes) {
  std::string out(1, offset_minutes < 0 ? '-' : '+');
  const int m = std::abs(offset_minutes);
  two_digits(out, m / 60 % 100);
  out += ':';
  two_digits(out, m % 60);
  return out;
}

std::optional<Day> parse_date_prefix(std::string_view s) noexcept {
  if (s.size() < 10 || s[4] != '-' || s[7] != '-') return std::nullopt;
  const int y = read_digits(s, 0, 4), m = read_digits(s, 5, 2), d = read_digits(s, 8, 2);
  if (y < 1 || m < 1 || d < 1) return std::nullopt;
  const Day date{y, m, d};
  if (!to_ymd(date).ok()) return std::nullopt;
  return date;
}

std::optional<Instant> parse_time_point(std::string_view text) noexcept {
  const auto date = parse_date_prefix(text);
  if (!date || text.size() < 20 || text[10] != 'T' || text[13] != ':' || text[16] != ':')
    return std::nullopt;
  const int hh = read_digits(text, 11, 2), mm = read_digits(text, 14, 2),
            ss = read_digits(text, 17, 2);
  if (hh < 0 || hh > 23 || mm < 0 || mm > 59 || ss < 0 || ss > 59) return std::nullopt;
  std::size_t pos = 19;
  std::int32_t nanos = 0;
  if (text[pos] == '.') {
    ++pos;
    std::size_t n = 0;
    while (pos < text.size() && is_digit(text[pos])) {
      if (n == 9) return std::nullopt;
      nanos = nanos * 10 + (text[pos] - '0');
      ++n;
      ++pos;
    }
    if (n == 0) return std::nullopt;
    for (std::size_t k = n; k < 9; ++k) nanos *= 10;
  }
  std::int32_t offset = 0;
  if (pos < text.size() && text[pos] == 'Z') {
    ++pos;
  } else if (pos + 6 == text.size() && (text[pos] == '+' || text[pos] == '-') &&
             text[pos + 3] == ':') {
    const int oh = read_digits(text, pos + 1, 2), om = read_digits(text, pos + 4, 2);
    if (oh < 0 || oh > 23 || om < 0 || om > 59) return std::nullopt;
    offset = (oh * 60 + om) * (text[pos] == '-' ? -1 : 1);
    pos += 6;
  } else {
    return std::nullopt;
  }
  if (pos != text.size()) return std::nullopt;
  Instant t;
  t.unix_seconds =
      to_days(*date) * 86400 + hh * 3600 + mm * 60 + ss - std::int64_t{offset} * 60;
  t.nanos = nanos;
  t.offset_minutes = offset;
  return t;
}

Day local_day(const Instant& t) noexcept {
  const chr::sys_seconds local{chr::seconds(t.unix_seconds + std::int64_t{t.offset_minutes} * 60)};
  return from_ymd(chr::year_month_day{chr::floor<chr::days>(local)});
}

namespace {

// "UTC+8", "+08:00", "GMT-0530": minutes east of UTC, or nullopt when `s` is not an offset.
std::optional<int> parse_offset(std::string_view s) {
  for (std::string_view p : {"UTC", "utc", "GMT", "gmt"})
    if (s.starts_with(p)) {
      s.remove_prefix(p.size());
      break;
    }
  if (s.size() < 2 || (s[0] != '+' && s[0] != '-')) return std::nullopt;
  const int sign = s[0] == '-' ? -1 : 1;
  s.remove_prefix(1);
  std::size_t n = 0;
  while (n < s.size() && is_digit(s[n])) ++n;
  int h = -1, m = 0;
  if (n == 1 || n == 2) {
    h = read_digits(s, 0, n);
    if (n < s.size()) {
      if (s[n] != ':' || s.size() != n + 3) return std::nullopt;
      m = read_digits(s, n + 1, 2);
    }
  } else if (n == 4 && s.size() == 4) {
    h = read_digits(s, 0, 2);
    m = read_digits(s, 2, 2);
  }
  if (h < 0 || m < 0 || m > 59 || h * 60 + m > 14 * 60) return std::nullopt;
  return sign * (h * 60 + m);
}

// ICU zones by canonical ID. createTimeZone parses ICU's zoneinfo each time (~10 µs), so each
// name is resolved once; the map only grows by names that resolved, and hosts use a handful.
struct ZoneCache {
  std::mutex mu;
  std::map<std::string, std::shared_ptr<const icu::TimeZone>, std::less<>> by_id;
  std::map<std::string, std::string, std::less<>> canonical;  // name as given → canonical ID
};
ZoneCache& zone_cache() {
  static ZoneCache c;
  return c;
}
constexpr std::size_t kMaxCachedNames = 256;  // a host passing arbitrary junk cannot grow it

// ICU's canonical ID of a name, matched case-insensitively (ICU's own IDs are case-sensitive;
// users type asia/shanghai). "" when ICU does not know the name.
std::string icu_canonical(std::string_view name) {
  if (name.empty() || name.size() > 64) return "";
  for (char ch : name)
    if (static_cast<unsigned char>(ch) <= 0x20 || static_cast<unsigned char>(ch) >= 0x7F)
      return "";
  const icu::UnicodeString id = icu::UnicodeString::fromUTF8(
      icu::StringPiece(name.data(), static_cast<std::int32_t>(name.size())));
  UErrorCode st = U_ZERO_ERROR;
  icu::UnicodeString canonical;
  UBool system = false;
  icu::TimeZone::getCanonicalID(id, canonical, system, st);
  if (U_FAILURE(st) || canonical.isEmpty() || canonical == UNICODE_STRING_SIMPLE("Etc/Unknown")) {
    // Case-insensitive fallback: one scan of ICU's ID list, only for names not found as typed.
    st = U_ZERO_ERROR;
    std::unique_ptr<icu::StringEnumeration> all(icu::TimeZone::createEnumeration(st));
    if (U_FAILURE(st) || !all) return "";
    const icu::UnicodeString* cand;
    bool found = false;
    while ((cand = all->snext(st)) != nullptr && U_SUCCESS(st))
      if (cand->caseCompare(id, U_FOLD_CASE_DEFAULT) == 0) {
        st = U_ZERO_ERROR;
        icu::TimeZone::getCanonicalID(*cand, canonical, system, st);
        found = U_SUCCESS(st) && !canonical.isEmpty();
        break;
      }
    if (!found) return "";
  }
  std::string out;
  canonical.toUTF8String(out);
  return out;
}

std::shared_ptr<const icu::TimeZone> icu_zone(const std::string& id) {
  ZoneCache& c = zone_cache();
  std::lock_guard<std::mutex> lock(c.mu);
  if (auto it = c.by_id.find(id); it != c.by_id.end()) return it->second;
  std::shared_ptr<const icu::TimeZone> tz(
      icu::TimeZone::createTimeZone(icu::UnicodeString::fromUTF8(id)));
  if (!tz || *tz == icu::TimeZone::getUnknown()) return nullptr;
  if (c.by_id.size() < kMaxCachedNames) c.by_id.emplace(id, tz);
  return tz;
}

}  // namespace

std::optional<Zone> resolve_zone(std::string_view name) {
  if (auto off = parse_offset(name)) return Zone{format_offset(*off), *off};
  ZoneCache& c = zone_cache();
  std::string id;
  {
    std::lock_guard<std::mutex> lock(c.mu);
    if (auto it = c.canonical.find(name); it != c.canonical.end()) id = it->second;
  }
  if (id.empty()) {
    id = icu_canonical(name);
    if (id.empty() || !icu_zone(id)) return std::nullopt;
    std::lock_guard<std::mutex> lock(c.mu);
    if (c.canonical.size() < kMaxCachedNames) c.canonical.emplace(std::string(name), id);
  }
  return Zone{id, std::nullopt};
}

int zone_offset_minutes(const Zone& zone, std::int64_t unix_seconds) {
  if (zone.fixed_minutes) return *zone.fixed_minutes;
  const auto tz = icu_zone(zone.id);
  if (!tz) return 0;  // resolve_zone() made this zone, so ICU knew it: not reached
  std::int32_t raw = 0, dst = 0;
  UErrorCode st = U_ZERO_ERROR;
  // A const TimeZone is safe to share between threads (ICU's thread-safety rule for const use).
  tz->getOffset(static_cast<UDate>(unix_seconds) * 1000.0, false, raw, dst, st);
  if (U_FAILURE(st)) return 0;
  return (raw + dst) / 60000;
}

Day local_day(const Instant& t, const Zone& zone) {
  Instant in_zone = t;
  in_zone.offset_minutes = zone_offset_minutes(zone, t.unix_seconds);
  return local_day(in_zone);
}

std::int64_t local_midnight(const Day& d, const Zone& zone) {
  const std::int64_t wall = to_days(d) * 86400;
  if (zone.fixed_minutes) return wall - std::int64_t{*zone.fixed_minutes} * 60;
  // The offset at the instant the wall time names, refined once: exact unless midnight itself
  // falls in a DST gap (then the first instant of the day after the gap is near enough).
  const std::int64_t guess = wall - std::int64_t{zone_offset_minutes(zone, wall)} * 60;
  return wall - std::int64_t{zone_offset_minutes(zone, guess)} * 60;
}

namespace {

constexpr int kFirstFestivalYear = 1901, kLastFestivalYear = 2100;

// ICU's Chinese calendar in UTC, so getTime() / one day is the Gregorian day number of the
// Chinese date (ICU anchors its astronomy at China's UTC+8 internally). nullopt on ICU failure
// or when the month has no such day (ICU would roll it into the next month).
std::optional<std::int64_t> icu_chinese_day(int year, int month, int day) {
  static std::mutex mu;  // one Calendar, not thread-safe: a question asks this rarely
  static std::unique_ptr<icu::Calendar> cal;
  std::lock_guard<std::mutex> lock(mu);
  UErrorCode st = U_ZERO_ERROR;
  if (!cal) {
    cal.reset(icu::Calendar::createInstance(icu::TimeZone::createTimeZone("Etc/GMT"),
                                            icu::Locale("zh_CN@calendar=chinese"), st));
    if (U_FAILURE(st) || !cal) {
      cal.reset();
      return std::nullopt;
    }
  }
  cal->clear();
  // ICU's Chinese extended year N starts in Gregorian year N - 2637.
  cal->set(UCAL_EXTENDED_YEAR, year + 2637);
  cal->set(UCAL_MONTH, month - 1);
  cal->set(UCAL_IS_LEAP_MONTH, 0);
  cal->set(UCAL_DATE, day);
  const UDate ms = cal->getTime(st);
  if (U_FAILURE(st) || cal->get(UCAL_DATE, st) != day || U_FAILURE(st)) return std::nullopt;
  return static_cast<std::int64_t>(std::floor(ms / 86400000.0));
}

std::optional<std::int64_t> icu_spring_festival(int year) { return icu_chinese_day(year, 1, 1); }

}  // namespace

std::optional<Day> spring_festival(int year) {
  if (year < kFirstFestivalYear || year > kLastFestivalYear) return std::nullopt;
  // 0 = not computed yet (1970-01-01 is never a Spring Festival).
  static std::array<std::atomic<std::int64_t>, kLastFestivalYear - kFirstFestivalYear + 1> cache{};
  auto& slot = cache[static_cast<std::size_t>(year - kFirstFestivalYear)];
  std::int64_t days = slot.load(std::memory_order_acquire);
  if (days == 0) {
    const auto computed = icu_spring_festival(year);
    if (!computed) return std::nullopt;
    days = *computed;
    slot.store(days, std::memory_order_release);
  }
  const Day d = from_days(days);
  if (d.year != year) return std::nullopt;  // not a festival of this year: ICU misbehaved
  return d;
}

std::optional<Day> chinese_calendar_day(int year, int month, int day) {
  if (year < kFirstFestivalYear || year > kLastFestivalYear || month < 1 || month > 12 ||
      day < 1 || day > 30)
    return std::nullopt;
  // Each date once per process: ICU takes ~20 µs, a year-less holiday asks for three years.
  static std::mutex mu;
  static std::map<std::tuple<int, int, int>, std::int64_t> cache;
  const std::tuple key{year, month, day};
  {
    std::lock_guard<std::mutex> lock(mu);
    if (auto it = cache.find(key); it != cache.end()) return from_days(it->second);
  }
  const auto days = icu_chinese_day(year, month, day);  // its own lock: this one is not held
  if (!days) return std::nullopt;
  std::lock_guard<std::mutex> lock(mu);
  cache.emplace(key, *days);
  return from_days(*days);
}

}  // namespace qaplan::internal::dates
