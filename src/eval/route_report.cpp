// The route evaluation's report.json and report.md (route_eval.hpp).
#include <nlohmann/json.hpp>

#include "eval/report_util.hpp"
#include "qaplan/eval/route_eval.hpp"

namespace qaplan {

using ordered_json = nlohmann::ordered_json;

std::string route_report_json(const RouteReport& r) {
  ordered_json j;
  j["dataset"] = r.dataset;
  j["model"] = r.model;
  j["gate"] = {{"split", r.gate.split},
               {"max_question_direct", r.gate.max_question_direct},
               {"min_social_direct", r.gate.min_social_direct},
               {"passed", r.gate_passed},
               {"failures", r.gate_failures}};
  ordered_json cells = ordered_json::array();
  for (const RouteCell& c : r.cells)
    cells.push_back({{"domain", c.domain},
                     {"split", c.split},
                     {"questions", c.questions},
                     {"questions_direct", c.questions_direct},
                     {"question_direct_rate", internal::share_of(c.questions_direct, c.questions)},
                     {"social", c.social},
                     {"social_direct", c.social_direct},
                     {"social_direct_rate", internal::share_of(c.social_direct, c.social)},
                     {"social_same_act", c.social_same_act},
                     {"question_errors", c.question_errors},
                     {"social_errors", c.social_errors}});
  j["cells"] = std::move(cells);
  return j.dump(2) + "\n";
}

std::string route_report_markdown(const RouteReport& r) {
  std::string md = "# Route evaluation\n\nDataset `" + r.dataset + "`, model " + r.model +
                   ".\n\nGate on `" + r.gate.split + "`: questions answered directly ≤ " +
                   internal::num_text(100 * r.gate.max_question_direct) +
                   " %, social messages answered directly ≥ " +
                   internal::num_text(100 * r.gate.min_social_direct) + " % — **" +
                   (r.gate_passed ? "passed" : "failed") + "**.\n\n";
  for (const std::string& f : r.gate_failures) md += "- " + internal::cell(f) + "\n";
  md +=
      "\n| domain | split | questions answered directly | social answered directly | "
      "social with the labelled act |\n|---|---|---|---|---|\n";
  for (const RouteCell& c : r.cells)
    md += "| " + c.domain + " | " + c.split + " | " +
          internal::pct_count(c.questions_direct, c.questions) + " | " +
          internal::pct_count(c.social_direct, c.social) + " | " +
          internal::pct_count(c.social_same_act, c.social) + " |\n";
  md += "\n## Errors\n\n";
  for (const RouteCell& c : r.cells) {
    if (c.domain == "all") continue;
    for (const auto& e : c.question_errors)
      md += "- question answered directly: " + internal::cell(e) + "\n";
    for (const auto& e : c.social_errors) md += "- social retrieved: " + internal::cell(e) + "\n";
  }
  return md;
}

}  // namespace qaplan
