// qaplan calibrate: FAQ direct-threshold candidates per band and a model_min_score candidate,
// chosen on dev, frozen, then scored on test (docs/evaluation.md).
// report.json + report.md + one chart per band; never edits the config.
#include <iostream>

#include "cli.hpp"
#include "chain_inputs.hpp"
#include "config_lookup.hpp"
#include "qaplan/eval/calibrate_band.hpp"

namespace qaplan::cli {
namespace fs = std::filesystem;
namespace {

struct CalibrateOptions {
  std::string dataset;
  std::string split;
  std::string kb;
  std::string eval_config;
  std::string router_data;
  std::string output;
  std::string config;
  bool compact = false;
};

int run_calibrate(const CalibrateOptions& o) {
  auto split = parse_split(o.split);
  if (!split) {
    Error e = split.error();
    e.field = "--split";
    return report(e);
  }
  if (*split != Split::kDev)
    return report(make_error(ErrorCode::kInvalidInput,
                             "calibration runs on dev only; test is scored after the candidates "
                             "are frozen",
                             "--split " + o.split));
  std::optional<fs::path> router;
  {
    auto reg = find_data_file(
        o.router_data.empty() ? "" : (fs::path(o.router_data) / "fingerprints.json").string(),
        "eval_sets/router/fingerprints.json", "--router-data");
    if (reg) router = reg->parent_path();
    else if (!o.router_data.empty()) return report(reg.error());
  }

  auto in = load_chain_inputs(o.dataset, o.kb, o.eval_config, o.config);
  if (!in) return report(in.error());
  auto rep = run_calibration(in->rules.config, in->rules.sha256, *in->kb, in->set, *split,
                             in->settings, router);
  if (!rep) return report(rep.error());

  std::vector<std::pair<std::string, std::string>> files = {
      {"report.json", calibration_report_json(*rep, !o.compact)},
      {"report.md", calibration_report_markdown(*rep)}};
  for (auto& chart : calibration_report_charts(*rep)) files.push_back(std::move(chart));
  std::vector<fs::path> inputs = in->files;
  if (router) inputs.push_back(*router / "fingerprints.json");
  if (Status st = publish_reports(o.output, files, inputs); !st) return report(st.error());
  for (const BandCandidate& b : rep->bands)
    std::cerr << "qaplan calibrate: " << b.config_key << " " << b.dev.current << " -> "
              << b.dev.threshold << " (dev " << b.dev.samples << " samples, " << b.dev.positives
              << " good)\n";
  if (rep->model_min_score.available)
    std::cerr << "qaplan calibrate: [intent_gateway] model_min_score " << rep->model_min_score.current
              << " -> " << rep->model_min_score.threshold << '\n';
  else
    std::cerr << "qaplan calibrate: model_min_score: " << rep->model_min_score.skipped << '\n';
  return kOk;
}

}  // namespace

Runner register_calibrate(CLI::App& app, GlobalOptions&) {
  auto o = std::make_shared<CalibrateOptions>();
  auto* sub = app.add_subcommand(
      "calibrate", "Propose FAQ direct thresholds per band and model_min_score from the dev "
                   "split; score test after freezing");
  sub->add_option("--dataset", o->dataset,
                  "chain set JSONL (default: --kb's questions/questions.jsonl from kb build, else "
                  "eval_sets/chain/chain-v1.jsonl)");
  sub->add_option("--split", o->split, "the split candidates are chosen on: dev")->required();
  sub->add_option("--kb", o->kb, "knowledge base directory (default: eval_sets/kb)");
  sub->add_option("--eval-config", o->eval_config,
                  "ceiling and grid (default: eval_sets/chain/eval-config.json)");
  sub->add_option("--router-data", o->router_data,
                  "router data directory for model_min_score (default: eval_sets/router when "
                  "present)");
  sub->add_option("--output", o->output, "directory for report.json, report.md and the charts")
      ->required();
  sub->add_option("--config", o->config, "rules file (default: the one `plan` uses)");
  sub->add_flag("--compact", o->compact, "write report.json without indentation");
  return [o] { return run_calibrate(*o); };
}

}  // namespace qaplan::cli
