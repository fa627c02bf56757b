// qaplan eval-policy: the intent-policy gate (docs/evaluation.md). Every labelled
// sample goes through the planner; report.json + report.md; with --fail-on-critical a failed
// critical sample exits 3.
#include <iostream>

#include "cli.hpp"
#include "config_lookup.hpp"
#include "qaplan/eval/policy_eval.hpp"

namespace qaplan::cli {
namespace {

struct EvalPolicyOptions {
  std::string dataset;
  std::string output;
  std::string config;
  bool fail_on_critical = false;
};

int run_eval_policy(const EvalPolicyOptions& o) {
  auto path = find_data_file(o.dataset, "eval_sets/intent_policy.json", "--dataset");
  if (!path) return report(path.error());
  auto text = read_file(*path, "dataset");
  if (!text) return report(text.error());
  auto dataset = parse_policy_dataset(*text, path->string());
  if (!dataset) return report(dataset.error());
  auto planner = load_cli_planner(o.config);
  if (!planner) return report(planner.error());
  const PolicyReport rep =
      evaluate_policy(*planner, *dataset, path->filename().string(), planner->model_description());
  if (Status st = publish_reports(o.output,
                                  {{"report.json", policy_report_json(rep)},
                                   {"report.md", policy_report_markdown(rep)}},
                                  {*path});
      !st)
    return report(st.error());
  std::cerr << "qaplan eval-policy: critical failed " << rep.critical_failed << "/"
            << rep.critical_samples << ", warnings failed " << rep.warning_failed << "/"
            << rep.warning_samples << '\n';
  if (o.fail_on_critical && rep.critical_failed > 0) return kGateFailed;
  return kOk;
}

}  // namespace

Runner register_eval_policy(CLI::App& app, GlobalOptions&) {
  auto o = std::make_shared<EvalPolicyOptions>();
  auto* sub = app.add_subcommand(
      "eval-policy", "Check labelled samples against route, intent, source, rewrite, policy, "
                     "scores and plan (the intent-policy gate)");
  add_planner_report_flags(
      *sub, o->dataset, o->output, o->config,
      "samples JSON (default: eval_sets/intent_policy.json, found like the config)");
  sub->add_flag("--fail-on-critical", o->fail_on_critical,
                "exit 3 when any critical sample fails");
  return [o] { return run_eval_policy(*o); };
}

}  // namespace qaplan::cli
