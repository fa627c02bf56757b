#pragma once
// Report helpers shared by the eval-chain, eval-rewrite, calibrate and recommend reports: every
// percentage with its counts, "n/a" instead of a JSON null, table cells that cannot break a table.
// Text only: JSON's null for an undefined metric is opt_num (common/json_reader.hpp).
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>

namespace qaplan::internal {

// A table cell: `|` escaped, line breaks flattened.
inline std::string cell(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '|')
      out += "\\|";
    else if (c == '\n' || c == '\r')
      out += ' ';
    else
      out += c;
  }
  return out;
}

// Shortest readable form of a number (%.6g): 0.72, 24, 0.0327869.
inline std::string num_text(double v) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

inline std::string num_or(const std::optional<double>& v, const char* fmt) {
  if (!v) return "n/a";
  char buf[48];
  std::snprintf(buf, sizeof buf, fmt, *v);
  return buf;
}

inline std::string pct_or(const std::optional<double>& v) {
  if (!v) return "n/a";
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.1f %%", *v * 100.0);
  return buf;
}

inline std::string count_text(std::size_t num, std::size_t den) {
  return std::to_string(num) + "/" + std::to_string(den);
}

// "71.4 % (195/273)", or "n/a (0/0)".
inline std::string rate_text(const std::optional<double>& v, std::size_t num, std::size_t den) {
  return pct_or(v) + " (" + count_text(num, den) + ")";
}

// An average with how many items it averages: "82.3 % (n = 150 positives)".
inline std::string pct_of(const std::optional<double>& v, std::size_t n, std::string_view what) {
  return pct_or(v) + " (n = " + std::to_string(n) + " " + std::string(what) + ")";
}

/// n / d, 0 when d is 0.
inline double share_of(int n, int d) { return d == 0 ? 0.0 : static_cast<double>(n) / d; }

/// "12.5 % (1/8)".
inline std::string pct_count(int n, int d) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.1f %% (%d/%d)", 100.0 * share_of(n, d), n, d);
  return buf;
}

}  // namespace qaplan::internal
