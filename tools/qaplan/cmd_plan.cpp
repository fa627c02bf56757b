// qaplan plan: prepare one question (or a JSONL batch) and print the plan as JSON.
#include <fstream>
#include <iostream>

#include "cli.hpp"
#include "config_lookup.hpp"
#include "qaplan/planning/json.hpp"
#include "qaplan/planning/planner.hpp"

namespace qaplan::cli {
namespace {

struct PlanOptions {
  std::string question;
  std::vector<std::string> history;
  std::string scenario;
  std::string source;
  std::string config;
  std::string input;
  bool plan_only = false;
  bool timings = false;
};

int run_batch(const Planner& planner, const PlanOptions& o, const JsonOptions& jo) {
  std::ifstream in(o.input, std::ios::binary);
  if (!in) return report(make_error(ErrorCode::kIo, "cannot read input file", o.input));
  std::string line;
  long n = 0;
  bool failed = false;
  while (std::getline(in, line)) {
    ++n;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.find_first_not_of(" \t") == std::string::npos) continue;  // blank lines separate nothing
    auto req = parse_prepare_request(line);
    Result<Preparation> prep = req.ok() ? planner.prepare(*req) : Result<Preparation>(req.error());
    if (prep.ok()) {
      std::cout << to_json(*prep, JsonOptions{false, jo.timings}) << '\n';
      continue;
    }
    failed = true;
    Error e = prep.error();
    std::cout << error_to_json(e, n) << '\n';
    std::cerr << "qaplan: " << o.input << ":" << n << ": " << e.to_string() << '\n';
  }
  if (in.bad()) return report(make_error(ErrorCode::kIo, "read failed", o.input));
  std::cout.flush();
  return failed ? kInvalid : kOk;
}

}  // namespace

Runner register_plan(CLI::App& app, GlobalOptions& g) {
  auto o = std::make_shared<PlanOptions>();
  auto* sub = app.add_subcommand("plan", "Prepare a question: route, intent, category, RetrievalPlan");
  sub->add_option("question", o->question, "the user's question");
  sub->add_option("--history", o->history, "an earlier user turn (repeat, oldest first)");
  sub->add_option("--scenario", o->scenario, "scenario from [scenarios] (default: default_scenario)");
  sub->add_option("--source", o->source, "explicit source filter (overrides the suggested source)");
  sub->add_option("--config", o->config, "rules file (default: $QAPLAN_CONFIG, then the shipped one)");
  sub->add_option("--input", o->input, "JSONL batch: one {question, history, scenario, source} per line");
  sub->add_flag("--plan-only", o->plan_only,
                "stop after the RetrievalPlan (the rewrite stage is not built yet, so this is "
                "currently the only mode)");
  sub->add_flag("--pretty", g.pretty, "indent the JSON");
  sub->add_flag("--timings", o->timings, "add per-stage timings_us (non-deterministic)");
  return [o, &g] {
    if (o->input.empty() == o->question.empty())
      return report(make_error(ErrorCode::kInvalidInput,
                               "give either a question or --input FILE.jsonl (not both)", "plan"));
    auto cfg = load_cli_config(o->config);
    if (!cfg.ok()) return report(cfg.error());
    auto planner = Planner::create(std::move(cfg).value());
    if (!planner.ok()) return report(planner.error());
    const JsonOptions jo{g.pretty, o->timings};
    if (!o->input.empty()) return run_batch(*planner, *o, jo);
    PrepareRequest req{o->question, o->history, o->scenario, std::nullopt};
    if (!o->source.empty()) req.source = o->source;
    auto prep = planner->prepare(req);
    if (!prep.ok()) return report(prep.error());
    std::cout << to_json(*prep, jo) << '\n';
    return static_cast<int>(kOk);
  };
}

}  // namespace qaplan::cli
