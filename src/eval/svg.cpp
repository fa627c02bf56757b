// Hand-written SVG charts (svg.hpp).
#include "eval/svg.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace qaplan {
namespace {

constexpr const char* kPalette[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
                                    "#9467bd", "#8c564b", "#e377c2", "#17becf"};
constexpr int kLeft = 64, kRight = 24, kTop = 64, kBottom = 64;

std::string fmt(double v, int decimals = 2) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

// A "nice" tick step (1, 2 or 5 × 10^n) giving about `target` intervals over `span`.
double nice_step(double span, int target) {
  if (!(span > 0)) return 1.0;
  const double raw = span / target;
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  const double f = raw / mag;
  return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
}

int tick_decimals(double step) {
  int d = 0;
  while (d < 6 && std::fabs(step * std::pow(10.0, d) - std::round(step * std::pow(10.0, d))) > 1e-9)
    ++d;
  return d;
}

std::string header(int w, int h, const std::string& title) {
  std::string s = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  s += "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"" + std::to_string(w) +
       "\" height=\"" + std::to_string(h) + "\" viewBox=\"0 0 " + std::to_string(w) + " " +
       std::to_string(h) + "\" font-family=\"sans-serif\" font-size=\"12\">\n";
  s += "<title>" + xml_escape(title) + "</title>\n";
  s += "<rect x=\"0\" y=\"0\" width=\"" + std::to_string(w) + "\" height=\"" + std::to_string(h) +
       "\" fill=\"#ffffff\"/>\n";
  s += "<text x=\"" + std::to_string(w / 2) +
       "\" y=\"22\" text-anchor=\"middle\" font-size=\"15\" font-weight=\"bold\">" +
       xml_escape(title) + "</text>\n";
  return s;
}

struct Frame {
  double x0, x1, y0, y1;  // data range
  int pw, ph;             // plot size
  double px(double x) const { return kLeft + (x1 > x0 ? (x - x0) / (x1 - x0) : 0.5) * pw; }
  double py(double y) const { return kTop + ph - (y1 > y0 ? (y - y0) / (y1 - y0) : 0.5) * ph; }
};

std::string axes(const Frame& f, const std::string& x_label, const std::string& y_label,
                 bool x_ticks) {
  std::string s;
  // Horizontal grid lines and y ticks.
  const double ys = nice_step(f.y1 - f.y0, 5);
  const int yd = tick_decimals(ys);
  for (double y = std::ceil(f.y0 / ys) * ys; y <= f.y1 + ys * 1e-9; y += ys) {
    const std::string py = fmt(f.py(y));
    s += "<line x1=\"" + std::to_string(kLeft) + "\" y1=\"" + py + "\" x2=\"" +
         std::to_string(kLeft + f.pw) + "\" y2=\"" + py + "\" stroke=\"#e0e0e0\"/>\n";
    s += "<text x=\"" + std::to_string(kLeft - 6) + "\" y=\"" + fmt(f.py(y) + 4) +
         "\" text-anchor=\"end\">" + fmt(y, yd) + "</text>\n";
  }
  if (x_ticks) {
    const double xs = nice_step(f.x1 - f.x0, 8);
    const int xd = tick_decimals(xs);
    for (double x = std::ceil(f.x0 / xs) * xs; x <= f.x1 + xs * 1e-9; x += xs) {
      const std::string px = fmt(f.px(x));
      s += "<line x1=\"" + px + "\" y1=\"" + std::to_string(kTop + f.ph) + "\" x2=\"" + px +
           "\" y2=\"" + std::to_string(kTop + f.ph + 5) + "\" stroke=\"#333333\"/>\n";
      s += "<text x=\"" + px + "\" y=\"" + std::to_string(kTop + f.ph + 18) +
           "\" text-anchor=\"middle\">" + fmt(x, xd) + "</text>\n";
    }
  }
  s += "<line x1=\"" + std::to_string(kLeft) + "\" y1=\"" + std::to_string(kTop + f.ph) +
       "\" x2=\"" + std::to_string(kLeft + f.pw) + "\" y2=\"" + std::to_string(kTop + f.ph) +
       "\" stroke=\"#333333\"/>\n";
  s += "<line x1=\"" + std::to_string(kLeft) + "\" y1=\"" + std::to_string(kTop) + "\" x2=\"" +
       std::to_string(kLeft) + "\" y2=\"" + std::to_string(kTop + f.ph) +
       "\" stroke=\"#333333\"/>\n";
  s += "<text x=\"" + std::to_string(kLeft + f.pw / 2) + "\" y=\"" +
       std::to_string(kTop + f.ph + 38) + "\" text-anchor=\"middle\">" + xml_escape(x_label) +
       "</text>\n";
  s += "<text x=\"16\" y=\"" + std::to_string(kTop + f.ph / 2) +
       "\" text-anchor=\"middle\" transform=\"rotate(-90 16 " + std::to_string(kTop + f.ph / 2) +
       ")\">" + xml_escape(y_label) + "</text>\n";
  return s;
}

// Approximate rendered width of a label at font-size 12: CJK and other wide characters count
// double (a layout estimate; the SVG stays valid whatever the font).
int text_width(std::string_view s) {
  int w = 0;
  for (std::size_t i = 0; i < s.size();) {
    const auto b = static_cast<unsigned char>(s[i]);
    const std::size_t len = b < 0x80 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4;
    w += len >= 3 ? 12 : 7;
    i += len;
  }
  return w;
}

// One row of legend entries under the title (wraps to a second row when needed).
std::string legend(const std::vector<std::pair<std::string, std::string>>& items, int width,
                   const std::vector<bool>& dashed = {}) {
  std::string s;
  int x = kLeft, y = 40;
  for (std::size_t i = 0; i < items.size(); ++i) {
    const int w = 24 + text_width(items[i].first) + 18;
    if (x + w > width - kRight && x > kLeft) {
      x = kLeft;
      y += 14;
    }
    const bool d = i < dashed.size() && dashed[i];
    s += "<line x1=\"" + std::to_string(x) + "\" y1=\"" + std::to_string(y) + "\" x2=\"" +
         std::to_string(x + 18) + "\" y2=\"" + std::to_string(y) + "\" stroke=\"" +
         items[i].second + "\" stroke-width=\"3\"" + (d ? " stroke-dasharray=\"5,3\"" : "") +
         "/>\n";
    s += "<text x=\"" + std::to_string(x + 24) + "\" y=\"" + std::to_string(y + 4) + "\">" +
         xml_escape(items[i].first) + "</text>\n";
    x += w;
  }
  return s;
}

}  // namespace

std::string xml_escape(std::string_view in) {
  std::string out;
  out.reserve(in.size());
  for (char c : in) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r') break;
        out += c;
    }
  }
  return out;
}

std::string render_line_chart(const LineChart& c) {
  double x0 = INFINITY, x1 = -INFINITY, y0 = 0.0, y1 = -INFINITY;
  for (const ChartSeries& s : c.series)
    for (const auto& [x, y] : s.points) {
      if (!std::isfinite(x) || !std::isfinite(y)) continue;
      x0 = std::min(x0, x);
      x1 = std::max(x1, x);
      y0 = std::min(y0, y);
      y1 = std::max(y1, y);
    }
  for (const ChartMarker& m : c.markers)
    if (std::isfinite(m.x)) {
      x0 = std::min(x0, m.x);
      x1 = std::max(x1, m.x);
    }
  if (!std::isfinite(x0)) x0 = 0, x1 = 1;
  if (!std::isfinite(y1) || y1 <= y0) y1 = y0 + 1;
  Frame f{c.x_min.value_or(x0), c.x_max.value_or(x1), c.y_min.value_or(y0), c.y_max.value_or(y1),
          c.width - kLeft - kRight, c.height - kTop - kBottom};
  if (f.x1 <= f.x0) f.x1 = f.x0 + 1;
  if (f.y1 <= f.y0) f.y1 = f.y0 + 1;
  std::string s = header(c.width, c.height, c.title);
  s += axes(f, c.x_label, c.y_label, true);
  std::vector<std::pair<std::string, std::string>> names;
  std::vector<bool> dashed;
  for (std::size_t i = 0; i < c.series.size(); ++i) {
    const ChartSeries& ser = c.series[i];
    const std::string color = ser.color.empty() ? kPalette[i % std::size(kPalette)] : ser.color;
    names.emplace_back(ser.name, color);
    dashed.push_back(ser.dashed);
    std::string pts;
    bool first = true;
    double prev_y = 0;
    for (const auto& [x, y] : ser.points) {
      if (!std::isfinite(x) || !std::isfinite(y)) continue;
      const double cx = std::clamp(x, f.x0, f.x1), cy = std::clamp(y, f.y0, f.y1);
      if (ser.step && !first) pts += fmt(f.px(cx)) + "," + fmt(f.py(prev_y)) + " ";
      pts += fmt(f.px(cx)) + "," + fmt(f.py(cy)) + " ";
      prev_y = cy;
      first = false;
    }
    if (!pts.empty()) pts.pop_back();
    s += "<polyline fill=\"none\" stroke=\"" + color + "\" stroke-width=\"2\"" +
         (ser.dashed ? " stroke-dasharray=\"6,4\"" : "") + " points=\"" + pts + "\"/>\n";
  }
  for (std::size_t i = 0; i < c.markers.size(); ++i) {
    const ChartMarker& m = c.markers[i];
    if (!std::isfinite(m.x)) continue;
    const std::string color = m.color.empty() ? "#444444" : m.color;
    const std::string px = fmt(f.px(std::clamp(m.x, f.x0, f.x1)));
    s += "<line x1=\"" + px + "\" y1=\"" + std::to_string(kTop) + "\" x2=\"" + px + "\" y2=\"" +
         std::to_string(kTop + f.ph) + "\" stroke=\"" + color + "\" stroke-width=\"1.5\"" +
         (m.dashed ? " stroke-dasharray=\"4,3\"" : "") + "/>\n";
    s += "<text x=\"" + fmt(f.px(std::clamp(m.x, f.x0, f.x1)) + 4) + "\" y=\"" +
         std::to_string(kTop + 14 + 14 * static_cast<int>(i)) + "\" fill=\"" + color + "\">" +
         xml_escape(m.label) + "</text>\n";
  }
  s += legend(names, c.width, dashed);
  s += "</svg>\n";
  return s;
}

std::string render_bar_chart(const BarChart& c) {
  double ymax = 0;
  for (const auto& g : c.groups)
    for (double v : g.values)
      if (std::isfinite(v)) ymax = std::max(ymax, v);
  Frame f{0, 1, 0, c.y_max.value_or(ymax > 0 ? ymax : 1), c.width - kLeft - kRight,
          c.height - kTop - kBottom};
  std::string s = header(c.width, c.height, c.title);
  s += axes(f, "", c.y_label, false);
  const std::size_t groups = std::max<std::size_t>(c.groups.size(), 1);
  const double gw = static_cast<double>(f.pw) / static_cast<double>(groups);
  const std::size_t nser = std::max<std::size_t>(c.series.size(), 1);
  const double bw = gw * 0.8 / static_cast<double>(nser);
  for (std::size_t g = 0; g < c.groups.size(); ++g) {
    const auto& grp = c.groups[g];
    const double gx = kLeft + gw * static_cast<double>(g) + gw * 0.1;
    for (std::size_t i = 0; i < grp.values.size() && i < nser; ++i) {
      const double v = grp.values[i];
      if (!std::isfinite(v)) continue;
      const double top = f.py(std::clamp(v, f.y0, f.y1));
      s += "<rect x=\"" + fmt(gx + bw * static_cast<double>(i)) + "\" y=\"" + fmt(top) +
           "\" width=\"" + fmt(bw * 0.92) + "\" height=\"" + fmt(kTop + f.ph - top) +
           "\" fill=\"" + kPalette[i % std::size(kPalette)] + "\"><title>" +
           xml_escape(grp.label + " " + (i < c.series.size() ? c.series[i] : "") + ": " +
                      fmt(v, 3)) +
           "</title></rect>\n";
    }
    const std::string cx = fmt(kLeft + gw * (static_cast<double>(g) + 0.5));
    s += "<text x=\"" + cx + "\" y=\"" + std::to_string(kTop + f.ph + 18) +
         "\" text-anchor=\"middle\">" + xml_escape(grp.label) + "</text>\n";
    if (!grp.note.empty())
      s += "<text x=\"" + cx + "\" y=\"" + std::to_string(kTop + f.ph + 34) +
           "\" text-anchor=\"middle\" fill=\"#666666\">" + xml_escape(grp.note) + "</text>\n";
  }
  std::vector<std::pair<std::string, std::string>> names;
  for (std::size_t i = 0; i < c.series.size(); ++i)
    names.emplace_back(c.series[i], kPalette[i % std::size(kPalette)]);
  s += legend(names, c.width);
  s += "</svg>\n";
  return s;
}

}  // namespace qaplan
