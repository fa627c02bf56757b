// qaplan recommend: calibration + core-chain evaluation + intent-policy gate → per parameter
// apply_candidate_after_review or keep_current, with the reason and the config diff it would make
// (docs/evaluation.md). Never edits the config: the diff goes
// to stdout and into DIR/config.diff beside report.json and report.md.
#include <iostream>

#include "cli.hpp"
#include "config_lookup.hpp"
#include "qaplan/eval/recommend.hpp"

namespace qaplan::cli {
namespace fs = std::filesystem;
namespace {

struct RecommendOptions {
  std::string calibration;
  std::string evaluation;
  std::string policy;
  std::string eval_config;
  std::string output;
  std::string config;
  bool compact = false;
};

Result<NamedText> load(const fs::path& p, const char* what) {
  auto text = read_file(p, what);
  if (!text) return std::move(text).error();
  // Shown in the report and the diff header: relative to the working directory when inside it.
  std::error_code ec;
  const fs::path rel = fs::relative(p, fs::current_path(), ec);
  const bool inside = !ec && !rel.empty() && rel.begin()->string() != "..";
  return NamedText{(inside ? rel : p).string(), std::move(*text)};
}

int run_recommend(const RecommendOptions& o) {
  auto cfg_path = find_config(o.config);
  if (!cfg_path) return report(cfg_path.error());
  auto ec_path = find_data_file(o.eval_config, "eval_sets/chain/eval-config.json", "--eval-config");
  if (!ec_path) return report(ec_path.error());
  auto cal = load(o.calibration, "calibration report");
  if (!cal) return report(cal.error());
  auto ev = load(o.evaluation, "evaluation report");
  if (!ev) return report(ev.error());
  auto pol = load(o.policy, "policy report");
  if (!pol) return report(pol.error());
  auto cfg = load(*cfg_path, "config file");
  if (!cfg) return report(cfg.error());
  auto settings = read_chain_eval_config(*ec_path);
  if (!settings) return report(settings.error());
  auto rep = recommend(*cal, *ev, *pol, *cfg, *settings);
  if (!rep) return report(rep.error());
  const std::vector<fs::path> inputs{o.calibration, o.evaluation, o.policy, *cfg_path, *ec_path};
  if (Status st = write_files_atomic(o.output,
                                     {{"report.json", recommend_report_json(*rep, !o.compact)},
                                      {"report.md", recommend_report_markdown(*rep)},
                                      {"config.diff", rep->config_diff}},
                                     inputs);
      !st)
    return report(st.error());
  std::cout << rep->config_diff;
  std::size_t apply = 0;
  for (const Recommendation& r : rep->items) apply += r.action == "apply_candidate_after_review";
  std::cerr << "qaplan recommend: " << apply << " of " << rep->items.size()
            << " parameters to apply after review; the config was not edited; reports in "
            << o.output << '\n';
  return kOk;
}

}  // namespace

Runner register_recommend(CLI::App& app, GlobalOptions&) {
  auto o = std::make_shared<RecommendOptions>();
  auto* sub = app.add_subcommand(
      "recommend", "Merge calibration, evaluation and the intent-policy gate into apply/keep "
                   "decisions per parameter; print the config diff (never edits the config)");
  sub->add_option("--calibration", o->calibration, "report.json of `qaplan calibrate`")->required();
  sub->add_option("--evaluation", o->evaluation, "report.json of `qaplan eval-chain`")->required();
  sub->add_option("--policy", o->policy, "report.json of `qaplan eval-policy`")->required();
  sub->add_option("--output", o->output, "directory for report.json, report.md, config.diff")
      ->required();
  sub->add_option("--config", o->config,
                  "the rules file the calibration ran with; the diff is against it (default: "
                  "the one `plan` uses)");
  sub->add_option("--eval-config", o->eval_config,
                  "decision settings (default: eval_sets/chain/eval-config.json)");
  sub->add_flag("--compact", o->compact, "write report.json without indentation");
  sub->footer("Prints the config diff on stdout (empty when nothing should change). Exit 0 "
              "whatever the decisions; 2 for invalid or mismatched reports.");
  return [o] { return run_recommend(*o); };
}

}  // namespace qaplan::cli
