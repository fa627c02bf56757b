#pragma once
// Nearest-rank percentiles, the one definition used by reports, `search --rounds` and benchmarks.
#include <algorithm>
#include <cmath>
#include <optional>
#include <span>
#include <vector>

namespace qaplan::internal {

/// The value at 1-based rank ceil(p / 100 · n) of the sorted values (rank ≥ 1); nullopt when
/// empty. `p` is clamped to [0, 100].
inline std::optional<double> nearest_rank_percentile(std::span<const double> values, double p) {
  if (values.empty()) return std::nullopt;
  std::vector<double> v(values.begin(), values.end());
  std::sort(v.begin(), v.end());
  const double n = static_cast<double>(v.size());
  // p * n first: for integral p the product is exact, so e.g. 95 * 20 / 100 is exactly 19 (the
  // other order gives 19.000000000000004 and the wrong rank).
  double rank = std::ceil(std::clamp(p, 0.0, 100.0) * n / 100.0);
  if (rank < 1) rank = 1;
  return v[std::min(v.size(), static_cast<std::size_t>(rank)) - 1];
}

}  // namespace qaplan::internal
