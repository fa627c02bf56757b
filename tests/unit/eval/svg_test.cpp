// The report charts are well-formed, deterministic SVG documents (docs/evaluation.md).
#include <gtest/gtest.h>

#include <cmath>

#include "qaplan/eval/calibrate.hpp"
#include "eval/svg.hpp"
#include "support/xml_check.hpp"

namespace {

using qaplan::test::xml_error;

TEST(XmlCheck, AcceptsWellFormedAndRejectsBrokenDocuments) {
  // The checker must be able to fail, or the chart tests below prove nothing.
  EXPECT_EQ(xml_error("<?xml version=\"1.0\"?>\n<svg a=\"1\"><g><t>x &amp; y</t></g></svg>\n"), "");
  EXPECT_NE(xml_error("<svg><g></svg>"), "");                 // mismatched end tag
  EXPECT_NE(xml_error("<svg><g/>"), "");                      // unclosed root
  EXPECT_NE(xml_error("<svg a=1/>"), "");                     // unquoted attribute
  EXPECT_NE(xml_error("<svg a=\"1\" a=\"2\"/>"), "");         // duplicate attribute
  EXPECT_NE(xml_error("<svg><t>a & b</t></svg>"), "");        // bare ampersand
  EXPECT_NE(xml_error("<svg><t>a < b</t></svg>"), "");        // raw <
  EXPECT_NE(xml_error("<svg t=\"&nbsp;\"/>"), "");            // undefined entity
  EXPECT_NE(xml_error("<svg/><svg/>"), "");                   // two roots
  EXPECT_NE(xml_error("text<svg/>"), "");                     // text outside the root
  EXPECT_NE(xml_error(std::string("<svg>\x01</svg>")), "");   // control character
  EXPECT_NE(xml_error(std::string("<svg>\xff</svg>")), "");   // invalid UTF-8
}

TEST(Svg, EscapesEverySpecialCharacter) {
  EXPECT_EQ(qaplan::xml_escape("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&apos;");
  EXPECT_EQ(qaplan::xml_escape(std::string("x\x01y\tz")), "xy\tz");
  EXPECT_EQ(qaplan::xml_escape("误直出"), "误直出");
}

qaplan::LineChart nasty_line_chart() {
  qaplan::LineChart c;
  c.title = "Threshold <band> & \"quotes\" '误直出'";
  c.x_label = "x < 1";
  c.y_label = "y & z";
  c.series.push_back({"correct <direct>", {{0.3, 5}, {0.5, 3}, {1.0, 1}}, true, false, ""});
  c.series.push_back({"false & missed", {{0.3, 2}, {NAN, 1}, {0.6, INFINITY}, {1.0, 0}}, false, true, ""});
  c.series.push_back({"empty", {}, false, false, ""});
  c.markers.push_back({0.72, "current 0.72 <old>", "", true});
  c.markers.push_back({0.58, "candidate", "#000000", false});
  return c;
}

TEST(Svg, LineChartIsWellFormedAndDeterministic) {
  const std::string svg = qaplan::render_line_chart(nasty_line_chart());
  EXPECT_EQ(xml_error(svg), "") << svg;
  EXPECT_EQ(svg, qaplan::render_line_chart(nasty_line_chart()));
  EXPECT_NE(svg.find("xmlns=\"http://www.w3.org/2000/svg\""), std::string::npos);
  EXPECT_NE(svg.find("Threshold &lt;band&gt; &amp; &quot;quotes&quot;"), std::string::npos);
  EXPECT_EQ(svg.find("nan"), std::string::npos);
  EXPECT_EQ(svg.find("inf"), std::string::npos);
  // Two polylines with points, markers drawn.
  EXPECT_NE(svg.find("candidate"), std::string::npos);
}

TEST(Svg, DegenerateChartsStayValid) {
  qaplan::LineChart empty;
  EXPECT_EQ(xml_error(qaplan::render_line_chart(empty)), "");
  qaplan::LineChart flat;
  flat.series.push_back({"one point", {{0.5, 0}}, false, false, ""});
  EXPECT_EQ(xml_error(qaplan::render_line_chart(flat)), "");
  qaplan::BarChart bars;
  EXPECT_EQ(xml_error(qaplan::render_bar_chart(bars)), "");
}

TEST(Svg, BarChartIsWellFormed) {
  qaplan::BarChart b;
  b.title = "Recall@k by category <test>";
  b.y_label = "recall";
  b.series = {"recall@1", "recall@5"};
  b.groups.push_back({"pricing & fees", {0.5, 0.75}, "n = 12"});
  b.groups.push_back({"合规", {NAN, 1.0}, ""});
  const std::string svg = qaplan::render_bar_chart(b);
  EXPECT_EQ(xml_error(svg), "") << svg;
  EXPECT_NE(svg.find("pricing &amp; fees"), std::string::npos);
  // Three bars (one value is NaN).
  std::size_t rects = 0;
  for (std::size_t p = 0; (p = svg.find("<rect ", p)) != std::string::npos; ++p) ++rects;
  EXPECT_EQ(rects, 1u + 3u);  // background + bars
}

TEST(Svg, BenchCalibrationCurveIsWellFormed) {
  qaplan::Calibration c;
  c.positives = 2;
  c.negatives = 1;
  c.candidates = {{0.0, 2, 0, 6, 1.0, 0.0, 0.5}, {0.5, 1, 1, 1, 0.5, 1.0, 0.75}};
  c.chosen_index = 1;
  c.threshold = 0.5;
  const std::string svg = qaplan::calibration_curve_svg(c, "rrf", "rrf score");
  EXPECT_EQ(xml_error(svg), "") << svg;
  EXPECT_NE(svg.find("chosen 0.5"), std::string::npos);
}

}  // namespace
