// qaplan eval-route: how labelled messages of domains the planner was not built for are routed
// (docs/routing.md) — real questions answered directly vs social messages retrieved, per domain
// and split; report.json + report.md; with --fail-on-gate a missed gate exits 3.
#include <iostream>

#include "cli.hpp"
#include "config_lookup.hpp"
#include "qaplan/eval/route_eval.hpp"

namespace qaplan::cli {
namespace {

struct EvalRouteOptions {
  std::string dataset;
  std::string output;
  std::string config;
  RouteGate gate;
  bool fail_on_gate = false;
};

int run_eval_route(const EvalRouteOptions& o) {
  // The default is a folder; the lookup finds files, so it looks for the folder's README.
  auto path = o.dataset.empty() ? find_data_file("", "eval_sets/ood/README.md", "--dataset")
                                : find_data_file(o.dataset, "eval_sets/ood", "--dataset");
  if (!path) return report(path.error());
  if (o.dataset.empty()) path = path->parent_path();
  auto samples = read_route_samples(*path);
  if (!samples) return report(samples.error());
  auto planner = load_cli_planner(o.config);
  if (!planner) return report(planner.error());
  const RouteReport rep = evaluate_routes(*planner, *samples, o.gate, path->filename().string());
  if (Status st = publish_reports(o.output,
                                  {{"report.json", route_report_json(rep)},
                                   {"report.md", route_report_markdown(rep)}},
                                  {*path});
      !st)
    return report(st.error());
  for (const RouteCell& c : rep.cells)
    if (c.domain == "all")
      std::cerr << "qaplan eval-route: " << c.split << ": questions answered directly "
                << c.questions_direct << "/" << c.questions << ", social answered directly "
                << c.social_direct << "/" << c.social << '\n';
  for (const std::string& f : rep.gate_failures) std::cerr << "gate: " << f << '\n';
  if (o.fail_on_gate && !rep.gate_passed) return kGateFailed;
  return kOk;
}

}  // namespace

Runner register_eval_route(CLI::App& app, GlobalOptions&) {
  auto o = std::make_shared<EvalRouteOptions>();
  auto* sub = app.add_subcommand(
      "eval-route", "Route labelled messages of other domains: real questions answered directly "
                    "and social messages retrieved, per domain and split");
  add_planner_report_flags(
      *sub, o->dataset, o->output, o->config,
      "JSONL file or folder of them (default: eval_sets/ood, found like the config)");
  sub->add_option("--split", o->gate.split, "split the gate reads (default: test)")
      ->check(CLI::IsMember({"dev", "test"}));
  sub->add_option("--max-question-direct", o->gate.max_question_direct,
                  "gate: highest share of questions answered directly (default: 0.005)")
      ->check(CLI::Range(0.0, 1.0));
  sub->add_option("--min-social-direct", o->gate.min_social_direct,
                  "gate: lowest share of social messages answered directly (default: 0.9)")
      ->check(CLI::Range(0.0, 1.0));
  sub->add_flag("--fail-on-gate", o->fail_on_gate, "exit 3 when the gate is missed");
  return [o] { return run_eval_route(*o); };
}

}  // namespace qaplan::cli
