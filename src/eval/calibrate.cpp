#include "qaplan/eval/calibrate.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "eval/svg.hpp"

namespace qaplan {
namespace {

// Exact comparison of two candidates by the calibration's order. With P positives and N negatives,
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

std::string calibration_curve_svg(const Calibration& c, std::string_view method,
                                  std::string_view score_name) {
  LineChart chart;
  chart.title = "Calibration on dev — " + std::string(method) + " (" +
                std::to_string(c.positives) + " positives, " + std::to_string(c.negatives) +
                " negatives)";
  chart.x_label = "threshold on the " + std::string(score_name) + " (accept score >= threshold)";
  chart.y_label = "rate on dev";
  chart.y_min = 0;
  chart.y_max = 1;
  ChartSeries sp{"supported positive rate", {}, true, false, ""};
  ChartSeries nr{"negative rejection rate", {}, true, false, ""};
  ChartSeries ob{"objective (mean of both)", {}, true, true, ""};
  for (const ThresholdCandidate& t : c.candidates) {
    sp.points.emplace_back(t.threshold, t.supported_positive_rate);
    nr.points.emplace_back(t.threshold, t.negative_rejection_rate);
    ob.points.emplace_back(t.threshold, t.objective);
  }
  chart.series = {sp, nr, ob};
  if (!c.candidates.empty()) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "chosen %.6g", c.threshold);
    chart.markers.push_back({c.threshold, buf, "#000000", true});
  }
  return render_line_chart(chart);
}

std::optional<double> DirectCurvePoint::false_direct_rate() const {
  const std::size_t answered = correct + false_direct;
  if (answered == 0) return std::nullopt;
  return static_cast<double>(false_direct) / static_cast<double>(answered);
}

DirectCurvePoint evaluate_direct_threshold(std::span<const DirectSample> samples,
                                           double threshold, double ceiling) {
  DirectCurvePoint p;
  p.threshold = threshold;
  for (const DirectSample& s : samples) {
    const bool answered = s.score >= threshold;
    if (s.good) {
      (answered ? p.correct : p.missed) += 1;
    } else if (answered) {
      ++p.false_direct;
    }
  }
  // false / (correct + false) <= ceiling, without dividing.
  p.feasible = static_cast<double>(p.false_direct) <=
               ceiling * static_cast<double>(p.correct + p.false_direct) + 1e-12;
  return p;
}

Result<DirectCalibration> calibrate_direct_threshold(std::span<const DirectSample> dev,
                                                     double current, double ceiling,
                                                     double grid_step, double min_threshold) {
  auto unit = [](double v) { return v >= 0.0 && v <= 1.0; };
  if (!(grid_step > 0.0 && grid_step <= 0.5))
    return make_error(ErrorCode::kInvalidInput, "grid step must be in (0, 0.5]", "grid_step");
  if (!unit(min_threshold) || !unit(current) || !unit(ceiling))
    return make_error(ErrorCode::kInvalidInput,
                      "min_threshold, current and ceiling must be in [0, 1]", "calibration");
  DirectCalibration cal;
  cal.current = current;
  cal.ceiling = ceiling;
  for (std::size_t i = 0; i < dev.size(); ++i) {
    if (!unit(dev[i].score))
      return make_error(ErrorCode::kInvalidInput, "direct score outside [0, 1]",
                        "sample " + std::to_string(i));
    ++cal.samples;
    cal.positives += dev[i].good;
  }
  std::vector<double> grid;
  for (std::size_t i = 0;; ++i) {
    const double t = std::round((min_threshold + static_cast<double>(i) * grid_step) * 1e6) / 1e6;
    if (t > 1.0 + 1e-12) break;
    grid.push_back(std::min(t, 1.0));
  }
  grid.push_back(current);
  std::sort(grid.begin(), grid.end());
  grid.erase(std::unique(grid.begin(), grid.end()), grid.end());
  for (std::size_t i = 0; i < grid.size(); ++i) {
    cal.curve.push_back(evaluate_direct_threshold(dev, grid[i], ceiling));
    if (grid[i] == current) cal.current_index = i;
  }
  // Most correct among feasible; ties: nearest the current value, then higher.
  std::optional<std::size_t> best;
  for (std::size_t i = 0; i < cal.curve.size(); ++i) {
    const DirectCurvePoint& p = cal.curve[i];
    if (!p.feasible) continue;
    if (!best) {
      best = i;
      continue;
    }
    const DirectCurvePoint& b = cal.curve[*best];
    const double dp = std::fabs(p.threshold - current), db = std::fabs(b.threshold - current);
    if (p.correct != b.correct ? p.correct > b.correct
                               : (dp != db ? dp < db : p.threshold > b.threshold))
      best = i;
  }
  // The top of the grid (t = 1) answers only exact matches and perfect cosines; if even that is
  // infeasible, keep the current value (the report says so).
  cal.chosen_index = best.value_or(cal.current_index);
  cal.threshold = cal.curve[cal.chosen_index].threshold;
  return cal;
}

}  // namespace qaplan
