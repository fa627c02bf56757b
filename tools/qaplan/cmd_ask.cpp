// qaplan ask: a question to ranked passages with their text over a saved index, in one step
// (include/qaplan/retrieval/ask.hpp): the plan's route, rewrite, variants, filters and limits applied.
#include <iostream>

#include "analysis_options.hpp"
#include "cli.hpp"
#include "config_lookup.hpp"
#include "vectors_file.hpp"
#include "qaplan/retrieval/ask.hpp"

namespace qaplan::cli {
namespace {

struct AskOptions {
  std::vector<std::string> words;
  std::vector<std::string> history;
  std::string scenario, source, index, config, vectors;
  AnalysisOptions analysis;
  bool explain = false;
  bool pretty = false;
};

int run_ask(AskOptions& o) {
  std::string question;
  for (const std::string& w : o.words) question += (question.empty() ? "" : " ") + w;
  if (question.find_first_not_of(" \t\r\n") == std::string::npos)
    return report(make_error(ErrorCode::kInvalidInput, "is empty", "question"));
  auto cfg = load_cli_config(o.config);
  if (!cfg) return report(cfg.error());
  auto ranking = load_cli_ranking_config(o.config);
  if (!ranking) return report(ranking.error());
  if (Status st = resolve_zone(o.analysis); !st) return report(st.error());
  auto planner = Planner::create(std::move(cfg).value());
  if (!planner) return report(planner.error());
  std::vector<std::vector<float>> query_vectors;
  if (!o.vectors.empty()) {
    auto v = read_query_vectors(o.vectors);
    if (!v) return report(v.error());
    query_vectors = std::move(*v);
  }
  auto index =
      CollectionIndex::open(o.index, !query_vectors.empty(), true, ranking->load == "memory");
  if (!index) return report(index.error());
  auto store = DocStore::open(*index);  // the index's generation, not CURRENT read again
  if (!store) return report(store.error());
  PrepareRequest req{question, o.history, o.scenario, std::nullopt};
  if (!o.source.empty()) req.source = o.source;
  auto r = ask_index(*planner, req, analysis_context(o.analysis), *index, *store, ranking->rrf,
                     query_vectors);
  if (!r) return report(r.error());
  std::cout << ask_to_json(*r, o.explain, o.pretty) << '\n';
  return flush_stdout();
}

}  // namespace

Runner register_ask(CLI::App& app, GlobalOptions& g) {
  auto o = std::make_shared<AskOptions>();
  auto* sub = app.add_subcommand(
      "ask", "A question to ranked passages with their text over a saved index (prepare, "
             "analyze, BM25 with the plan's rewrite, variants, filters and limits)");
  sub->add_option("question", o->words, "the user's question; quote it")->required();
  sub->add_option("--index", o->index, "index directory from `qaplan index build`")->required();
  sub->add_option("--history", o->history,
                  "an earlier user turn (default: none; repeat the flag per turn, oldest first)")
      ->allow_extra_args(false);
  sub->add_option("--scenario", o->scenario, "scenario from [scenarios] (default: default_scenario)");
  sub->add_option("--source", o->source, "explicit source filter (default: none)");
  sub->add_option("--config", o->config,
                  "rules file (default: $QAPLAN_CONFIG, the checkout's config/rules.toml, "
                  "~/.config/qaplan, then the installed one; -v names it)");
  sub->add_option("--vectors", o->vectors,
                  "JSON file [[…], …]: your embedding of each query text, the main query first "
                  "(`--explain` lists them); with an index built with --vectors each adds a cosine "
                  "leg (default: none: lexical only)");
  add_analysis_options(sub, o->analysis);
  sub->add_flag("--explain", o->explain, "add the plan and its analysis with every reason");
  sub->add_flag("--pretty", o->pretty, "indent the JSON");
  return [o, &g] {
    if (g.pretty) o->pretty = true;
    return run_ask(*o);
  };
}

}  // namespace qaplan::cli
