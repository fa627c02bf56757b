// qaplan eval-rewrite: retrieval with and without the analysis stage's rewrite and variants
// (docs/eval-rewrite.md) on the follow-up collection (over the knowledge base) and the frozen
// single-turn benchmark; report.json + report.md; with --fail-on-gate a rewrite that reaches
// less than --min-ratio of the full questions' Recall@5 exits 3.
#include <cstdio>
#include <iostream>

#include "cli.hpp"
#include "config_lookup.hpp"
#include "qaplan/eval/chain_eval.hpp"
#include "qaplan/eval/dataset.hpp"
#include "qaplan/eval/rewrite_eval.hpp"

namespace qaplan::cli {
namespace fs = std::filesystem;
namespace {

struct EvalRewriteOptions {
  std::string dataset;
  std::string kb;
  std::string bench;
  bool no_bench = false;
  std::string output;
  std::string config;
  double min_ratio = 0.90;
  bool fail_on_gate = false;
  bool compact = false;
};

std::string pct(const std::optional<double>& v) {
  if (!v) return "n/a";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", *v * 100.0);
  return buf;
}

int run_eval_rewrite_cmd(const EvalRewriteOptions& o) {
  auto ds_path = find_data_file(o.dataset, "eval_sets/chain/followups-v1.jsonl", "--dataset");
  if (!ds_path) return report(ds_path.error());
  auto faq_path = find_data_file(o.kb.empty() ? "" : (fs::path(o.kb) / "faq.jsonl").string(),
                                 "eval_sets/kb/faq.jsonl", "--kb");
  if (!faq_path) return report(faq_path.error());
  std::optional<fs::path> bench_path;
  if (!o.no_bench) {
    auto b = find_data_file(o.bench, "eval_sets/policy-retrieval-v1.json", "--bench");
    if (!b) return report(b.error());
    bench_path = *b;
  }
  auto cfg_path = find_config(o.config);
  if (!cfg_path) return report(cfg_path.error());

  auto set = read_followup_set(*ds_path);
  if (!set) return report(set.error());
  NamedText bench, bench_reg;
  if (bench_path) {
    auto text = read_file(*bench_path, "benchmark dataset");
    if (!text) return report(text.error());
    const fs::path reg = fingerprint_registry_path(*bench_path);
    auto reg_text = read_file(reg, "benchmark fingerprint registry");
    if (!reg_text) return report(reg_text.error());
    bench = {bench_path->filename().string(), std::move(text).value()};
    bench_reg = {reg.filename().string(), std::move(reg_text).value()};
  }
  auto kb = read_knowledge_base(faq_path->parent_path());
  if (!kb) return report(kb.error());
  auto rules = read_rules_file(*cfg_path);
  if (!rules) return report(rules.error());
  auto index = KbIndex::create(std::move(kb).value());
  if (!index) return report(index.error());
  RewriteEvalOptions opts;
  opts.min_ratio = o.min_ratio;
  auto rep = run_eval_rewrite(rules->config, rules->sha256, *index, *set,
                              bench_path ? &bench : nullptr, bench_path ? &bench_reg : nullptr,
                              opts);
  if (!rep) return report(rep.error());

  const std::vector<std::pair<std::string, std::string>> files = {
      {"report.json", rewrite_report_json(*rep, !o.compact)},
      {"report.md", rewrite_report_markdown(*rep)}};
  std::vector<fs::path> inputs{*ds_path, ds_path->parent_path() / "fingerprints.json", *faq_path,
                               faq_path->parent_path() / "docs.jsonl",
                               faq_path->parent_path() / "fingerprints.json", *cfg_path};
  if (bench_path) {
    inputs.push_back(*bench_path);
    inputs.push_back(fingerprint_registry_path(*bench_path));
  }
  if (Status st = publish_reports(o.output, files, inputs); !st) return report(st.error());
  std::cerr << "qaplan eval-rewrite: follow-ups Recall@5 raw " << pct(rep->followups.all[0].recall(1))
            << ", rewrite " << pct(rep->followups.all[1].recall(1)) << ", rewrite+variants "
            << pct(rep->followups.all[2].recall(1)) << ", full " << pct(rep->followups.all[3].recall(1))
            << "; ratio rewrite/full " << pct(rep->ratio) << " (min " << pct(rep->options.min_ratio)
            << "): gate " << (rep->gate_passed ? "passed" : "FAILED") << '\n';
  if (o.fail_on_gate && !rep->gate_passed) return kGateFailed;
  return kOk;
}

}  // namespace

Runner register_eval_rewrite(CLI::App& app, GlobalOptions&) {
  auto o = std::make_shared<EvalRewriteOptions>();
  auto* sub = app.add_subcommand(
      "eval-rewrite",
      "Compare retrieval with and without the rewrite and variants (raw, rewrite, "
      "rewrite+variants, full question) on follow-ups and the single-turn benchmark: Recall@k, "
      "MRR, per family, cost-ledger totals");
  sub->add_option("--dataset", o->dataset,
                  "follow-up set JSONL (default: eval_sets/chain/followups-v1.jsonl; its registry "
                  "is fingerprints.json beside it)");
  sub->add_option("--kb", o->kb,
                  "knowledge base directory with faq.jsonl, docs.jsonl, fingerprints.json "
                  "(default: eval_sets/kb)");
  sub->add_option("--bench", o->bench,
                  "single-turn benchmark dataset (default: eval_sets/policy-retrieval-v1.json; its "
                  "registry is fingerprints.json beside it)");
  sub->add_flag("--no-bench", o->no_bench, "evaluate the follow-up collection only");
  sub->add_option("--output", o->output, "directory for report.json and report.md")->required();
  sub->add_option("--config", o->config, "rules file (default: the one `plan` uses)");
  sub->add_option("--min-ratio", o->min_ratio,
                  "gate: Recall@5 of the rewrite / Recall@5 of the full questions (default 0.90)")
      ->check(CLI::Range(0.0, 1.0));
  sub->add_flag("--fail-on-gate", o->fail_on_gate,
                "exit 3 when the rewrite reaches less than --min-ratio of the full questions' "
                "Recall@5");
  sub->add_flag("--compact", o->compact, "write report.json without indentation");
  sub->footer("Exit 0 for a complete run; 2 invalid input; 3 gate failed with --fail-on-gate.");
  return [o] { return run_eval_rewrite_cmd(*o); };
}

}  // namespace qaplan::cli
