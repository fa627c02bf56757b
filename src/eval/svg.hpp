#pragma once
/// Small SVG charts for reports, written by hand so reports need no plotting
/// dependency: a line chart (curves, step curves, vertical markers) and a grouped bar chart.
///
/// Output is a complete, standalone SVG 1.1 document (XML declaration, `xmlns`, `viewBox`) that
/// parses as well-formed XML: every text is escaped (`& < > " '`), every number is written with a
/// fixed number of decimals, so the same chart always gives the same bytes. Non-finite values are
/// dropped from series. Pure functions; thread-safe.
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "qaplan/export.hpp"

namespace qaplan {

/// `s` with & < > " ' replaced by entities, and control characters other than tab/LF/CR removed
/// (XML 1.0 forbids them).
QAPLAN_API std::string xml_escape(std::string_view s);

struct ChartSeries {
  std::string name;
  std::vector<std::pair<double, double>> points;  ///< (x, y), drawn in the given order
  bool step = false;    ///< draw as a step function (horizontal, then vertical)
  bool dashed = false;
  std::string color;    ///< "" = the palette colour of its position
};

/// A vertical line at x with a label (e.g. the chosen threshold).
struct ChartMarker {
  double x = 0.0;
  std::string label;
  std::string color;  ///< "" = dark grey
  bool dashed = true;
};

struct LineChart {
  std::string title;
  std::string x_label;
  std::string y_label;
  std::vector<ChartSeries> series;
  std::vector<ChartMarker> markers;
  std::optional<double> x_min, x_max, y_min, y_max;  ///< default: the data's range (y from 0)
  int width = 720;
  int height = 400;
};

QAPLAN_API std::string render_line_chart(const LineChart& chart);

/// Groups of bars (e.g. one group per category, one bar per k).
struct BarChart {
  std::string title;
  std::string y_label;
  std::vector<std::string> series;  ///< bar names within a group (legend)
  struct Group {
    std::string label;          ///< under the group
    std::vector<double> values; ///< one per series (NaN = no bar)
    std::string note;           ///< second line under the group, e.g. "n = 12"
  };
  std::vector<Group> groups;
  std::optional<double> y_max;  ///< default: the largest value
  int width = 720;
  int height = 400;
};

QAPLAN_API std::string render_bar_chart(const BarChart& chart);

}  // namespace qaplan
