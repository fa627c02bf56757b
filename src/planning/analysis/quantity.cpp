#include "planning/analysis/quantity.hpp"

#include <cctype>

namespace qaplan::internal {

namespace {

bool digit(char c) { return c >= '0' && c <= '9'; }

// The end of the number opening `s` at `at` (digits, one decimal point inside), or `at`.
std::size_t number_end(std::string_view s, std::size_t at) {
  std::size_t i = at;
  while (i < s.size() && digit(s[i])) ++i;
  if (i > at && i + 1 < s.size() && s[i] == '.' && digit(s[i + 1]))
    for (++i; i < s.size() && digit(s[i]);) ++i;
  return i;
}

// The unit: after an optional space, no digit in it and at most a few characters (公斤, 万元,
// kg); a longer tail is a phrase of its own (5个工作日内能到吗), not a unit.
bool unit_like(std::string_view u) {
  if (u.empty() || u.size() > 12) return false;
  for (char c : u)
    if (digit(c) || c == ' ' || c == '.') return false;
  return true;
}

}  // namespace

std::optional<std::string> requantified(std::string_view prev, std::string_view frag) {
  const std::size_t n = number_end(frag, 0);
  if (n == 0) return std::nullopt;
  const std::string_view number = frag.substr(0, n);
  std::string_view unit = frag.substr(n);
  if (unit.starts_with(' ')) unit.remove_prefix(1);
  if (!unit_like(unit)) return std::nullopt;
  std::size_t found = std::string_view::npos, found_end = 0;
  for (std::size_t i = 0; i < prev.size();) {
    if (!digit(prev[i])) {
      ++i;
      continue;
    }
    const std::size_t e = number_end(prev, i);
    std::string_view after = prev.substr(e);
    if (after.starts_with(' ')) after.remove_prefix(1);
    // A letter or digit glued before the number makes it part of a code (VPN-1001, A3).
    const bool coded = i > 0 && (std::isalnum(static_cast<unsigned char>(prev[i - 1])) ||
                                 prev[i - 1] == '-' || prev[i - 1] == '.');
    if (!coded && after.starts_with(unit)) {
      if (found != std::string_view::npos) return std::nullopt;  // two: which one is not known
      found = i;
      found_end = e;
    }
    i = e;
  }
  if (found == std::string_view::npos || prev.substr(found, found_end - found) == number)
    return std::nullopt;
  std::string out(prev.substr(0, found));
  out += number;
  out += prev.substr(found_end);
  return out;
}

}  // namespace qaplan::internal
