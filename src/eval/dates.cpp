// ISO-8601 dates, time points and policy versions of the frozen datasets (dataset.hpp).
// Dates and time points are the common calendar module's (common/dates.hpp, shared with the
// planning room's query filters); this file adapts them to the public types and errors.
#include <algorithm>

#include "common/dates.hpp"
#include "qaplan/eval/dataset.hpp"

namespace qaplan {
namespace {

namespace dates = internal::dates;

bool is_digit(char c) { return c >= '0' && c <= '9'; }

CivilDate to_civil(const dates::Day& d) { return CivilDate{d.year, d.month, d.day}; }

// Strips leading zeros of one version component (keeps one digit).
std::string_view strip_zeros(std::string_view c) {
  while (c.size() > 1 && c.front() == '0') c.remove_prefix(1);
  return c;
}

}  // namespace

Result<CivilDate> parse_iso_date(std::string_view text) {
  auto d = dates::parse_date_prefix(text);
  if (!d || text.size() != 10)
    return make_error(ErrorCode::kInvalidInput,
                      "not an ISO-8601 date YYYY-MM-DD: \"" + std::string(text) + "\"");
  return to_civil(*d);
}

std::int64_t days_from_civil(const CivilDate& d) noexcept {
  return dates::to_days(dates::Day{d.year, d.month, d.day});
}

CivilDate TimePoint::local_date() const noexcept {
  return to_civil(dates::local_day(dates::Instant{unix_seconds, nanos, offset_minutes}));
}

Result<TimePoint> parse_iso_time_point(std::string_view text) {
  const auto t = dates::parse_time_point(text);
  if (!t)
    return make_error(
        ErrorCode::kInvalidInput,
        "not an ISO-8601 time point YYYY-MM-DDThh:mm:ss(Z|+hh:mm): \"" + std::string(text) + "\"");
  TimePoint tp;
  tp.unix_seconds = t->unix_seconds;
  tp.nanos = t->nanos;
  tp.offset_minutes = t->offset_minutes;
  return tp;
}

bool is_valid_policy_version(std::string_view text) noexcept {
  if (text.empty()) return false;
  bool need_digit = true;
  for (char c : text) {
    if (is_digit(c)) {
      need_digit = false;
    } else if (c == '.' && !need_digit) {
      need_digit = true;
    } else {
      return false;
    }
  }
  return !need_digit;
}

int compare_policy_versions(std::string_view a, std::string_view b) noexcept {
  // Component-wise numeric comparison on digit strings, so no component can overflow.
  while (!a.empty() || !b.empty()) {
    const std::size_t ea = std::min(a.find('.'), a.size());
    const std::size_t eb = std::min(b.find('.'), b.size());
    const std::string_view ca = strip_zeros(a.empty() ? "0" : a.substr(0, ea));
    const std::string_view cb = strip_zeros(b.empty() ? "0" : b.substr(0, eb));
    if (ca.size() != cb.size()) return ca.size() < cb.size() ? -1 : 1;
    if (const int c = ca.compare(cb); c != 0) return c < 0 ? -1 : 1;
    a = ea < a.size() ? a.substr(ea + 1) : std::string_view{};
    b = eb < b.size() ? b.substr(eb + 1) : std::string_view{};
  }
  return 0;
}

}  // namespace qaplan
