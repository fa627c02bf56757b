// ISO-8601 dates, time points and policy versions of the frozen datasets (dataset.hpp).
// Calendar arithmetic is <chrono>'s (proleptic Gregorian, exact over the whole range).
#include <algorithm>
#include <chrono>

#include "qaplan/eval/dataset.hpp"

namespace qaplan {
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

chr::year_month_day to_ymd(const CivilDate& d) {
  return chr::year{d.year} / chr::month{static_cast<unsigned>(d.month)} /
         chr::day{static_cast<unsigned>(d.day)};
}

// Parses YYYY-MM-DD at the start of s (exactly 10 bytes used).
std::optional<CivilDate> date_prefix(std::string_view s) {
  if (s.size() < 10 || s[4] != '-' || s[7] != '-') return std::nullopt;
  const int y = read_digits(s, 0, 4), m = read_digits(s, 5, 2), d = read_digits(s, 8, 2);
  if (y < 1 || m < 1 || d < 1) return std::nullopt;
  const CivilDate date{y, m, d};
  if (!to_ymd(date).ok()) return std::nullopt;
  return date;
}

// Strips leading zeros of one version component (keeps one digit).
std::string_view strip_zeros(std::string_view c) {
  while (c.size() > 1 && c.front() == '0') c.remove_prefix(1);
  return c;
}

}  // namespace

Result<CivilDate> parse_iso_date(std::string_view text) {
  auto d = date_prefix(text);
  if (!d || text.size() != 10)
    return make_error(ErrorCode::kInvalidInput,
                      "not an ISO-8601 date YYYY-MM-DD: \"" + std::string(text) + "\"");
  return *d;
}

std::int64_t days_from_civil(const CivilDate& d) noexcept {
  return chr::sys_days(to_ymd(d)).time_since_epoch().count();
}

CivilDate TimePoint::local_date() const noexcept {
  const chr::sys_seconds local{chr::seconds(unix_seconds + std::int64_t{offset_minutes} * 60)};
  const chr::year_month_day ymd{chr::floor<chr::days>(local)};
  return CivilDate{static_cast<int>(ymd.year()), static_cast<int>(static_cast<unsigned>(ymd.month())),
                   static_cast<int>(static_cast<unsigned>(ymd.day()))};
}

Result<TimePoint> parse_iso_time_point(std::string_view text) {
  auto bad = [&] {
    return make_error(
        ErrorCode::kInvalidInput,
        "not an ISO-8601 time point YYYY-MM-DDThh:mm:ss(Z|+hh:mm): \"" + std::string(text) + "\"");
  };
  const auto date = date_prefix(text);
  if (!date || text.size() < 20 || text[10] != 'T' || text[13] != ':' || text[16] != ':')
    return bad();
  const int hh = read_digits(text, 11, 2), mm = read_digits(text, 14, 2),
            ss = read_digits(text, 17, 2);
  if (hh < 0 || hh > 23 || mm < 0 || mm > 59 || ss < 0 || ss > 59) return bad();
  std::size_t pos = 19;
  std::int32_t nanos = 0;
  if (text[pos] == '.') {
    ++pos;
    std::size_t n = 0;
    while (pos < text.size() && is_digit(text[pos])) {
      if (n == 9) return bad();
      nanos = nanos * 10 + (text[pos] - '0');
      ++n;
      ++pos;
    }
    if (n == 0) return bad();
    for (std::size_t k = n; k < 9; ++k) nanos *= 10;
  }
  std::int32_t offset = 0;
  if (pos < text.size() && text[pos] == 'Z') {
    ++pos;
  } else if (pos + 6 == text.size() && (text[pos] == '+' || text[pos] == '-') &&
             text[pos + 3] == ':') {
    const int oh = read_digits(text, pos + 1, 2), om = read_digits(text, pos + 4, 2);
    if (oh < 0 || oh > 23 || om < 0 || om > 59) return bad();
    offset = (oh * 60 + om) * (text[pos] == '-' ? -1 : 1);
    pos += 6;
  } else {
    return bad();
  }
  if (pos != text.size()) return bad();
  TimePoint tp;
  tp.unix_seconds =
      days_from_civil(*date) * 86400 + hh * 3600 + mm * 60 + ss - std::int64_t{offset} * 60;
  tp.nanos = nanos;
  tp.offset_minutes = offset;
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
