// qaplan plan: prepare one question (or a JSONL batch) and print the plan and its analysis as
// JSON. qaplan rewrite: follow-up detection and the rewrite alone.
#include <cstring>
#include <ctime>
#include <iostream>

#include <unistd.h>

#include "analysis_options.hpp"
#include "vectors_file.hpp"
#include "cli.hpp"
#include "config_lookup.hpp"
#include <nlohmann/json.hpp>

#include "qaplan/engines/engines.hpp"
#include "qaplan/io.hpp"
#include "qaplan/planning/json.hpp"
#include "qaplan/planning/planner.hpp"

namespace qaplan::cli {
namespace {

struct PlanOptions {
  std::vector<std::string> words;  ///< the positional question; unquoted words are joined
  std::string question;
  std::vector<std::string> history;
  std::string scenario;
  std::string source;
  std::string config;
  std::string input;
  bool plan_only = false;
  bool timings = false;
  AnalysisOptions analysis;  ///< --now, --tz, --session-department, --session-user
  std::string engine;          ///< --engine: also print the engine requests
  std::string engine_version;  ///< --engine-version ("" = the config's)
  std::string vectors;         ///< --vectors: JSON array of query vectors, one per query text
  std::optional<engines::Engine> engine_kind;
  engines::EnginesConfig engines_config;
  std::vector<std::vector<float>> query_vectors;
};

// The plan, and unless --plan-only its analysis; an analysis error is the request's error.
Result<std::string> plan_json(const Planner& planner, const PrepareRequest& req,
                              const PlanOptions& o, const JsonOptions& jo) {
  QAPLAN_ASSIGN_OR_RETURN(Preparation prep, planner.prepare(req));
  if (o.plan_only) return to_json(prep, jo);
  QAPLAN_ASSIGN_OR_RETURN(QueryAnalysis a, planner.analyze(prep, analysis_context(o.analysis)));
  if (!o.engine_kind) return to_json(prep, a, jo);
  // --engine: the requests beside the plan and its analysis, as one more member.
  engines::EngineInputs in{o.engine_version, o.query_vectors};
  QAPLAN_ASSIGN_OR_RETURN(engines::EngineRequests r,
                          engines::to_engine(*o.engine_kind, prep, a, in, o.engines_config));
  auto doc = nlohmann::ordered_json::parse(to_json(prep, a, JsonOptions{false, jo.timings}));
  doc["engine_requests"] = nlohmann::ordered_json::parse(engines::to_json(r));
  return jo.pretty ? doc.dump(2) : doc.dump();
}

// `--input -` is stdin.
constexpr const char* kStdin = "-";

// A result line with the request's "id" first: `object` is compact JSON ("{...}").
std::string with_id(const std::optional<std::string>& id, const std::string& object) {
  if (!id || object.size() < 2 || object.front() != '{') return object;
  return "{\"id\":" + *id + (object.size() > 2 ? "," : "") + object.substr(1);
}

// One JSONL result per request line, in order; a bad line yields its error object (with its
// line number and id) and the run continues. Command-line --history/--scenario/--source are the
// defaults of every line that has none of its own.
int run_batch(const Planner& planner, const PlanOptions& o, const JsonOptions& jo) {
  auto input = LineInput::open(o.input, "--input");
  if (!input.ok()) return report(input.error());
  const std::string name = input->name();
  PrepareRequest defaults{"", o.history, o.scenario, std::nullopt};
  if (!o.source.empty()) defaults.source = o.source;
  std::string line;
  long n = 0;
  bool failed = false;
  for (;;) {
    auto more = input->next(line);
    if (!more.ok()) return report(more.error());
    if (!*more) break;
    ++n;
    if (n == 1 && line.starts_with("\xEF\xBB\xBF")) line.erase(0, 3);  // a UTF-8 BOM
    if (line.find_first_not_of(" \t") == std::string::npos) continue;  // blank lines separate nothing
    auto parsed = parse_batch_line(line);
    Result<std::string> out =
        parsed.ok() ? plan_json(planner, parsed->request(defaults), o, JsonOptions{false, jo.timings})
                    : Result<std::string>(parsed.error());
    const std::optional<std::string> id = parsed.ok() ? parsed->id : batch_line_id(line);
    if (out.ok()) {
      std::cout << with_id(id, *out) << '\n';
      if (!std::cout) return flush_stdout();  // nobody reads the rest: stop at once
      continue;
    }
    failed = true;
    Error e = out.error();
    std::cout << with_id(id, error_to_json(e, n)) << '\n';
    std::cerr << "qaplan: " << name << ":" << n << ": " << e.to_string() << '\n';
  }
  std::cout.flush();
  return failed ? kInvalid : kOk;
}

// The positional question: words joined in order with one space, as `echo` would print them.
void join_question(PlanOptions& o) {
  o.question.clear();
  for (const std::string& w : o.words) o.question += (o.question.empty() ? "" : " ") + w;
}

bool blank(const std::string& s) { return s.find_first_not_of(" \t\r\n\v\f") == std::string::npos; }

}  // namespace

Runner register_plan(CLI::App& app, GlobalOptions& g) {
  auto o = std::make_shared<PlanOptions>();
  auto* sub = app.add_subcommand("plan", "Prepare a question: route, intent, category, RetrievalPlan");
  sub->add_option("question", o->words,
                  "the user's question; quote it (unquoted words are joined with one space; no default: "
                  "give it or --input)");
  sub->add_option("--history", o->history,
                  "an earlier user turn (default: none; repeat the flag per turn, oldest first; with --input: "
                  "for every line without \"history\")")
      ->allow_extra_args(false);
  sub->add_option("--scenario", o->scenario,
                  "scenario from [scenarios] (default: default_scenario; with --input: for every "
                  "line without \"scenario\")");
  sub->add_option("--source", o->source,
                  "explicit source filter, overrides the suggested source (default: none; with "
                  "--input: for every line without \"source\")");
  sub->add_option("--config", o->config, "rules file (default: $QAPLAN_CONFIG, the checkout's config/rules.toml, ~/.config/qaplan, then the installed one; -v names it)");
  sub->add_option("--input", o->input,
                  "JSONL batch, - for stdin: one {question, history?, scenario?, source?, id?} per "
                  "line; prints one compact JSON result per line, \"id\" echoed (default: none, "
                  "one question from the command line)");
  sub->add_flag("--plan-only", o->plan_only,
                "stop after the RetrievalPlan (no \"analysis\": rewrite, variants, filters, routing, "
                "execution path, fallback, prompt profile, cost)");
  add_analysis_options(sub, o->analysis);
  sub->add_flag("--pretty", g.pretty, "indent the JSON (not with --input: batch output is JSONL)");
  sub->add_flag("--timings", o->timings, "add per-stage timings_us (non-deterministic)");
  sub->add_option("--engine", o->engine,
                  "also print the plan as requests for this engine: es | opensearch | milvus "
                  "([engines] in the rules file maps the fields; default: none)")
      ->check(CLI::IsMember({"es", "elasticsearch", "opensearch", "os", "milvus"}));
  sub->add_option("--engine-version", o->engine_version,
                  "server version, e.g. 8.14, 8.16, 2.10, 2.19, 3.1, 2.4, 2.5 (default: "
                  "[engines.<engine>] version)");
  sub->add_option("--vectors", o->vectors,
                  "JSON file [[…], …]: the host's query vector for each query text, main query "
                  "first (default: none: lexical legs only, reported)");
  auto* question = sub->get_option("question");
  return [o, &g, question] {
    const bool question_given = question->count() > 0;
    join_question(*o);
    if (question_given && !o->input.empty())
      return report(make_error(ErrorCode::kInvalidInput,
                               "give a question or --input FILE.jsonl, not both", "--input"));
    if (!question_given && o->input.empty())
      return report(make_error(ErrorCode::kInvalidInput,
                               "no question: give one in quotes, or --input FILE.jsonl", "plan"));
    if (question_given && blank(o->question))
      return report(make_error(ErrorCode::kInvalidInput, "is empty", "question"));
    if (g.pretty && !o->input.empty())
      return report(make_error(ErrorCode::kInvalidInput,
                               "cannot be used with --input: batch output is JSONL, one compact "
                               "object per line",
                               "--pretty"));
    if ((!o->engine_version.empty() || !o->vectors.empty()) && o->engine.empty())
      return report(make_error(ErrorCode::kInvalidInput, "needs --engine",
                               o->vectors.empty() ? "--engine-version" : "--vectors"));
    if (!o->engine.empty() && o->plan_only)
      return report(make_error(ErrorCode::kInvalidInput,
                               "cannot be used with --plan-only: the requests need the analysis",
                               "--engine"));
    auto cfg = load_cli_config(o->config);
    if (!cfg.ok()) return report(cfg.error());
    if (!o->engine.empty()) {
      auto kind = engines::parse_engine(o->engine);
      if (!kind.ok()) return report(kind.error());
      o->engine_kind = *kind;
      auto path = find_config(o->config);
      if (!path.ok()) return report(path.error());
      auto ec = engines::load_engines_config(*path);
      if (!ec.ok()) return report(ec.error());
      o->engines_config = std::move(ec).value();
      if (!o->vectors.empty()) {
        auto v = read_query_vectors(o->vectors);
        if (!v.ok()) return report(v.error());
        o->query_vectors = std::move(v).value();
      }
    }
    if (Status st = resolve_zone(o->analysis); !st.ok()) return report(st.error());
    auto planner = Planner::create(std::move(cfg).value());
    if (!planner.ok()) return report(planner.error());
    const JsonOptions jo{g.pretty, o->timings};
    if (!o->input.empty()) return run_batch(*planner, *o, jo);
    PrepareRequest req{o->question, o->history, o->scenario, std::nullopt};
    if (!o->source.empty()) req.source = o->source;
    auto out = plan_json(*planner, req, *o, jo);
    if (!out.ok()) return report(out.error());
    std::cout << *out << '\n';
    return static_cast<int>(kOk);
  };
}

Runner register_rewrite(CLI::App& app, GlobalOptions& g) {
  auto o = std::make_shared<PlanOptions>();
  auto* sub = app.add_subcommand(
      "rewrite", "Follow-up detection and the built-in rewrite alone (docs/rewrite.md)");
  sub->add_option("question", o->words,
                  "the user's question; quote it (unquoted words are joined with one space)")
      ->required();
  sub->add_option("--history", o->history, "an earlier turn (default: none; repeat the flag per turn, oldest first)")
      ->allow_extra_args(false);
  sub->add_option("--scenario", o->scenario, "scenario from [scenarios] (default: default_scenario)");
  sub->add_option("--config", o->config, "rules file (default: $QAPLAN_CONFIG, the checkout's config/rules.toml, ~/.config/qaplan, then the installed one; -v names it)");
  sub->add_flag("--pretty", g.pretty, "indent the JSON");
  return [o, &g] {
    join_question(*o);
    if (blank(o->question))
      return report(make_error(ErrorCode::kInvalidInput, "is empty", "question"));
    auto cfg = load_cli_config(o->config);
    if (!cfg.ok()) return report(cfg.error());
    // Hooks belong to hosts; the CLI shows the built-in rewrite.
    cfg->rewrite.hook.clear();
    auto planner = Planner::create(std::move(cfg).value());
    if (!planner.ok()) return report(planner.error());
    auto prep = planner->prepare(PrepareRequest{o->question, o->history, o->scenario, std::nullopt});
    if (!prep.ok()) return report(prep.error());
    AnalysisContext ctx;  // no time filters here: nothing in the rewrite depends on the clock
    auto a = planner->analyze(*prep, ctx);
    if (!a.ok()) return report(a.error());
    std::cout << rewrite_to_json(*prep, *a, JsonOptions{g.pretty, false}) << '\n';
    return static_cast<int>(kOk);
  };
}

}  // namespace qaplan::cli
