// The intent-policy gate's report.json and report.md (policy_eval.hpp).
#include <cstdio>

#include "common/json_reader.hpp"
#include "qaplan/eval/policy_eval.hpp"

namespace qaplan {

using nlohmann::ordered_json;

std::string policy_report_json(const PolicyReport& r, bool pretty) {
  ordered_json j;
  j["report"] = "intent-policy";
  j["dataset"] = {
      {"name", r.dataset_name}, {"version", r.dataset_version}, {"sha256", r.dataset_sha256}};
  j["config"] = r.config_origin;
  j["model"] = r.model;
  j["summary"] = {{"critical", {{"samples", r.critical_samples}, {"failed", r.critical_failed}}},
                  {"warning", {{"samples", r.warning_samples}, {"failed", r.warning_failed}}}};
  ordered_json dims = ordered_json::object();
  for (const auto& d : r.dimensions)
    dims[d.name] = {{"checked", d.checked},
                    {"passed", d.passed},
                    {"accuracy", d.checked ? ordered_json(static_cast<double>(d.passed) /
                                                          static_cast<double>(d.checked))
                                           : ordered_json(nullptr)}};
  j["accuracy"] = std::move(dims);
  ordered_json samples = ordered_json::array();
  for (const auto& s : r.samples) {
    ordered_json checks = ordered_json::array();
    for (const auto& c : s.checks)
      checks.push_back({{"dimension", c.dimension},
                        {"field", c.field},
                        {"passed", c.passed},
                        {"expected", c.expected},
                        {"actual", c.actual}});
    samples.push_back({{"id", s.id},
                       {"severity", s.critical ? "critical" : "warning"},
                       {"question", s.question},
                       {"history", s.history},
                       {"passed", s.passed},
                       {"error", s.error.empty() ? ordered_json(nullptr) : ordered_json(s.error)},
                       {"checks", std::move(checks)}});
  }
  j["samples"] = std::move(samples);
  return j.dump(pretty ? 2 : -1, ' ', false, ordered_json::error_handler_t::replace) + "\n";
}

std::string policy_report_markdown(const PolicyReport& r) {
  std::string md = "# Intent policy evaluation\n\n";
  md += "Dataset `" + r.dataset_name + "` (" + r.dataset_version + ", sha256 `" +
        r.dataset_sha256.substr(0, 12) + "…`), config `" + r.config_origin + "`, model " + r.model +
        ".\n\n";
  md +=
      "Each sample goes through the planner (normalize → route → intent → gateway → plan); a "
      "dimension counts a sample when the sample states an expectation on it, and passes it "
      "when every such expectation holds.\n\n";
  md += "| dimension | passed / checked | accuracy |\n|---|---|---|\n";
  for (const auto& d : r.dimensions) {
    char acc[32] = "n/a";
    if (d.checked)
      std::snprintf(acc, sizeof acc, "%.1f %%",
                    100.0 * static_cast<double>(d.passed) / static_cast<double>(d.checked));
    md += "| " + d.name + " | " + std::to_string(d.passed) + " / " + std::to_string(d.checked) +
          " | " + acc + " |\n";
  }
  md += "\nCritical samples failed: **" + std::to_string(r.critical_failed) + " of " +
        std::to_string(r.critical_samples) +
        "**; warnings failed: " + std::to_string(r.warning_failed) + " of " +
        std::to_string(r.warning_samples) + ".\n";
  bool any = false;
  for (const auto& s : r.samples) {
    if (s.passed) continue;
    if (!any)
      md +=
          "\n## Failed samples\n\n| id | severity | question | what differs |\n|---|---|---|---|\n";
    any = true;
    std::string diff = s.error;
    for (const auto& c : s.checks)
      if (!c.passed)
        diff +=
            (diff.empty() ? "" : "; ") + c.field + ": expected " + c.expected + ", got " + c.actual;
    std::string q = s.question;
    for (char& ch : q)
      if (ch == '|' || ch == '\n') ch = ' ';
    md += "| " + s.id + " | " + (s.critical ? "critical" : "warning") + " | " + q + " | " + diff +
          " |\n";
  }
  if (!any) md += "\nEvery sample passed.\n";
  return md;
}

}  // namespace qaplan
