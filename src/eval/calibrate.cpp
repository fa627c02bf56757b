#include "qaplan/eval/calibrate.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace qaplan {
namespace {

// Exact comparison of two candidates by the seed's order. With P positives and N negatives,
// objective = (sp / P + nr / N) / 2, so comparing sp * N + nr * P is exact in integers.
bool better(const ThresholdCandidate& a, const ThresholdCandidate& b, std::size_t pos,
            std::size_t neg) {
  const std::size_t oa = a.supported_positives * neg + a.rejected_negatives * pos;
  const std::size_t ob = b.supported_positives * neg + b.rejected_negatives * pos;
  if (oa != ob) return oa > ob;
  if (a.rejected_negatives != b.rejected_negatives)
    return a.rejected_negatives > b.rejected_negatives;
  if (a.supported_positives != b.supported_positives)
    return a.supported_positives > b.supported_positives;
  if (a.returned_chunks != b.returned_chunks) return a.returned_chunks < b.returned_chunks;
  return a.threshold > b.threshold;
}

}  // namespace

Result<Calibration> calibrate_threshold(std::span<const JudgedQuery> dev) {
  Calibration cal;
  std::vector<double> thresholds{0.0};
  for (std::size_t q = 0; q < dev.size(); ++q) {
    (dev[q].positive() ? cal.positives : cal.negatives) += 1;
    const std::size_t top = std::min(kReturnedTopK, dev[q].ranking.size());
    for (std::size_t i = 0; i < top; ++i) {
      const double s = dev[q].ranking[i].score;
      if (!std::isfinite(s))
        return make_error(ErrorCode::kInvalidInput, "score is not finite",
                          "dev query " + std::to_string(q) + " rank " + std::to_string(i + 1));
      thresholds.push_back(std::nextafter(s, std::numeric_limits<double>::infinity()));
    }
  }
  if (cal.positives == 0 || cal.negatives == 0)
    return make_error(ErrorCode::kInvalidInput,
                      "calibration needs at least one positive and one negative dev query",
                      "calibrate_threshold");
  std::sort(thresholds.begin(), thresholds.end());
  thresholds.erase(std::unique(thresholds.begin(), thresholds.end()), thresholds.end());

  const double pos = static_cast<double>(cal.positives);
  const double neg = static_cast<double>(cal.negatives);
  for (const double t : thresholds) {
    ThresholdCandidate c;
    c.threshold = t;
    for (const JudgedQuery& q : dev) {
      const QueryOutcome o = evaluate_query(q, t);
      c.returned_chunks += o.returned;
      if (o.positive && o.accepted_sections > 0) ++c.supported_positives;
      if (!o.positive && o.returned == 0) ++c.rejected_negatives;
    }
    c.supported_positive_rate = static_cast<double>(c.supported_positives) / pos;
    c.negative_rejection_rate = static_cast<double>(c.rejected_negatives) / neg;
    c.objective = (c.supported_positive_rate + c.negative_rejection_rate) / 2.0;
    cal.candidates.push_back(c);
  }
  for (std::size_t i = 1; i < cal.candidates.size(); ++i)
    if (better(cal.candidates[i], cal.candidates[cal.chosen_index], cal.positives, cal.negatives))
      cal.chosen_index = i;
  cal.threshold = cal.candidates[cal.chosen_index].threshold;
  return cal;
}

}  // namespace qaplan
