// qaplan eval-chain: the core-chain evaluation (docs/evaluation.md).
// Labelled questions go through prepare + execute_plan over the shipped knowledge base;
// report.json + report.md + charts; with --fail-on-regression a metric worse than the committed
// baseline by more than its tolerance exits 3.
#include <iostream>

#include "cli.hpp"
#include "chain_inputs.hpp"
#include "config_lookup.hpp"
#include "qaplan/eval/chain_eval.hpp"

namespace qaplan::cli {
namespace fs = std::filesystem;
namespace {

struct EvalChainOptions {
  std::string dataset;
  std::string kb;
  std::string eval_config;
  std::string output;
  std::string config;
  bool fail_on_regression = false;
  bool compact = false;
};

int run_eval_chain_cmd(const EvalChainOptions& o) {
  auto in = load_chain_inputs(o.dataset, o.kb, o.eval_config, o.config);
  if (!in) return report(in.error());
  auto rep = run_eval_chain(in->rules.config, in->rules.sha256, *in->kb, in->set, in->settings);
  if (!rep) return report(rep.error());

  // The gate was asked for and cannot run: an error before anything is written, never a pass.
  if (o.fail_on_regression && !rep->regression_note.empty())
    return report(make_file_error(ErrorCode::kInvalidInput,
                                  "--fail-on-regression: " + rep->regression_note,
                                  in->settings_path.string(), 0, "regression"));
  std::vector<std::pair<std::string, std::string>> files = {
      {"report.json", chain_report_json(*rep, !o.compact)},
      {"report.md", chain_report_markdown(*rep)}};
  for (auto& chart : chain_report_charts(*rep)) files.push_back(std::move(chart));
  if (Status st = publish_reports(o.output, files, in->files); !st) return report(st.error());
  const auto pct = [](std::optional<double> v) {
    return v ? std::to_string(static_cast<int>(*v * 1000 + 0.5) / 10.0).substr(0, 4) + "%"
             : std::string("n/a");
  };
  std::cerr << "qaplan eval-chain: test hit-type accuracy " << pct(rep->test.hit_type_accuracy())
            << " (" << rep->test.hit_type_correct << "/" << rep->test.questions
            << "), evidence recall@5 " << pct(rep->test.evidence_recall(2))
            << ", false-direct " << rep->test.false_directs << "/" << rep->test.directs
            << "; regression gate "
            << (!rep->regression_note.empty() ? "not run" : rep->regression_failed ? "FAILED" : "passed")
            << '\n';
  if (!rep->regression_note.empty())
    std::cerr << "qaplan eval-chain: not gated: " << rep->regression_note << '\n';
  if (rep->regression_failed)
    for (const RegressionCheck& c : rep->regression)
      if (c.regressed)
        std::cerr << "qaplan eval-chain: regressed: " << c.name << " "
                  << (c.current ? std::to_string(*c.current) : std::string("n/a"))
                  << " vs baseline " << c.baseline << " ± " << c.tolerance << '\n';
  if (o.fail_on_regression && rep->regression_failed) return kGateFailed;
  return kOk;
}

}  // namespace

Runner register_eval_chain(CLI::App& app, GlobalOptions&) {
  auto o = std::make_shared<EvalChainOptions>();
  auto* sub = app.add_subcommand(
      "eval-chain", "Run labelled questions through prepare + execute over the knowledge base and "
                    "score hit types, recall@k, MRR, keywords, false directs, latency");
  sub->add_option("--dataset", o->dataset,
                  "chain set JSONL (default: --kb's questions/questions.jsonl from kb build, else "
                  "eval_sets/chain/chain-v1.jsonl; its registry is fingerprints.json beside it)");
  sub->add_option("--kb", o->kb,
                  "knowledge base directory with faq.jsonl, docs.jsonl, fingerprints.json "
                  "(default: eval_sets/kb)");
  sub->add_option("--eval-config", o->eval_config,
                  "baseline, tolerances, calibration and recommendation settings (default: "
                  "eval_sets/chain/eval-config.json)");
  sub->add_option("--output", o->output, "directory for report.json, report.md and the charts")
      ->required();
  sub->add_option("--config", o->config, "rules file (default: the one `plan` uses)");
  sub->add_flag("--fail-on-regression", o->fail_on_regression,
                "exit 3 when a gated metric is worse than the baseline beyond its tolerance");
  sub->add_flag("--compact", o->compact, "write report.json without indentation");
  sub->footer("Exit 0 for a complete run; 2 invalid input; 3 regression with --fail-on-regression.");
  return [o] { return run_eval_chain_cmd(*o); };
}

}  // namespace qaplan::cli
