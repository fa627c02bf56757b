// eval-chain: every question of a chain set through the planner and the in-process retrieval,
// judged against its expected evidence, and the run's configuration.
#include "qaplan/eval/chain_eval.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <nlohmann/json.hpp>
#include <set>

#include "common/json_reader.hpp"
#include "common/sha256.hpp"
#include "eval/evidence_rank.hpp"
#include "eval/report_util.hpp"
#include "qaplan/io.hpp"
#include "qaplan/version.hpp"

namespace qaplan {
namespace {

namespace js = internal::json;
using Clock = std::chrono::steady_clock;

}  // namespace

ThresholdBand threshold_band(const RetrievalPlan& plan, const PlanTrace& trace) {
  ThresholdBand b;
  b.value = plan.knobs().faq_direct_threshold;
  if (plan.knobs().faq_direct_exact_only) {
    b.id = "exact_only";
    return b;
  }
  b.id = "defaults";
  const auto knob = find_knob("faq_direct_threshold");
  for (const FiredPatch& p : trace.fired)
    for (const PlanChange& c : p.changes)
      if (knob && c.knob == *knob && c.after != c.before) {
        b.id = p.id;
        b.tag = p.tag;
        b.op = std::string(to_string(c.op));
      }
  return b;
}

std::string_view decision_band(double s) noexcept {
  return s < 0.70 ? "low" : s < 0.82 ? "medium" : "high";
}

// Wrong scope: the plan searches only `effective_sources` (empty = every source), and every
// expected FAQ and chunk lies elsewhere — no ranking can find the answer then. (Evidence split over
// two sources, one of them searched, still answers.)
void judge_scope(const KnowledgeBase& kb, const ChainQuestion& q, ChainResult& r) {
  std::vector<std::string> sources;
  if (q.expected_faq_id)
    for (const FaqEntry& f : kb.faqs)
      if (f.id == *q.expected_faq_id) sources.push_back(f.source);
  for (const std::string& id : q.expected_chunk_ids)
    for (const DocChunk& c : kb.docs)
      if (c.id == id) sources.push_back(c.source);
  r.scope_judged = !sources.empty() && r.route != "direct_answer" && r.route != "error";
  if (!r.scope_judged || r.effective_sources.empty()) return;
  const auto& allowed = r.effective_sources;
  r.wrong_scope = std::none_of(sources.begin(), sources.end(), [&](const std::string& s) {
    return std::find(allowed.begin(), allowed.end(), s) != allowed.end();
  });
}

ChainResult run_chain_question(const Planner& planner, const KbIndex& kb, const ChainSet& set,
                               std::size_t qi) {
  const ChainQuestion& q = set.questions[qi];
  ChainResult r;
  r.question = qi;
  PrepareRequest req{q.question, q.history, q.scenario.value_or(""), q.source_filter};
  const auto t0 = Clock::now();
  auto prep = planner.prepare(req);
  r.prepare_ns =
      std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - t0).count();
  if (!prep.ok()) {
    r.route = "error";
    r.error = prep.error().to_string();
  } else {
    r.route = std::string(to_string(prep->route.route));
    r.route_reason = std::string(to_string(prep->route.reason));
    r.effective_sources = prep->effective_sources;
    ExecutionInputs inputs;
    if (prep->intent) {
      r.intent = std::string(to_string(prep->intent->intent));
      r.decision_policy = std::string(to_string(prep->intent->decision_policy));
      r.decision_score = prep->intent->confidence;
    }
    if (prep->plan) {
      r.plan_reason = prep->plan->reason();
      r.predicted_category = std::string(to_string(prep->plan->question_category()));
      r.predicted_prefer_table = prep->plan->knobs().prefer_table;
      if (prep->plan_trace) r.band = threshold_band(*prep->plan, *prep->plan_trace);
    }
    if (prep->route.route != Route::kDirectAnswer) {
      // The analysis stage: the follow-up's rewrite, the variants and the filters it derives
      // (no `now`: relative dates are no filter).
      const auto ta = Clock::now();
      auto an = planner.analyze(*prep);
      r.analyze_ns =
          std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - ta).count();
      if (!an.ok()) {
        r.error = an.error().to_string();
      } else {
        inputs = execution_inputs(*an);
        r.filters = inputs.filters;
        if (inputs.query) r.rewrite = inputs.query;
        r.rewrite_by = an->rewrite.by;
      }
    }
    if (r.error.empty()) {
      auto ex = execute_plan(*prep, kb, inputs);
      if (!ex.ok())
        r.error = ex.error().to_string();
      else
        r.execution = std::move(ex).value();
    }
  }
  r.predicted = r.error.empty() ? r.execution.hit_type : HitType::kNoEvidence;
  const Execution& e = r.execution;
  // Judgement.
  if (q.expected_faq_id) r.faq_rank = internal::faq_rank(e, *q.expected_faq_id);
  std::set<std::string> in_context;
  for (const ContextItem& c : e.contexts)
    for (const std::string& id : c.chunk_ids) in_context.insert(id);
  for (const std::string& c : q.expected_chunk_ids) {
    r.chunk_ranks.push_back(internal::chunk_rank(kb, e, c));
    r.chunks_in_context += in_context.count(c);
  }
  for (const std::string& kw : q.keywords) {
    bool found = e.answer.find(kw) != std::string::npos;
    for (const ContextItem& c : e.contexts) found = found || c.text.find(kw) != std::string::npos;
    r.keywords_found += found;
  }
  const bool right_faq = e.faq_direct && q.expected_faq_id && e.faq_direct->faq_id == *q.expected_faq_id;
  const bool answered_direct = r.error.empty() && r.predicted == HitType::kFaqDirect;
  r.false_direct = answered_direct && !(q.expected_hit_type == HitType::kFaqDirect && right_faq);
  judge_scope(kb.kb(), q, r);
  r.missed_direct = q.expected_hit_type == HitType::kFaqDirect && !answered_direct;
  r.hit_type_correct = r.error.empty() && r.predicted == q.expected_hit_type &&
                       (q.expected_hit_type != HitType::kFaqDirect || right_faq);
  return r;
}

Result<ChainEvalConfig> parse_chain_eval_config(const NamedText& file) {
  return js::read_json(file.name, 0, [&] {
    const js::Json root = js::parse_strict(file.text);
    js::expect_keys(root, "", {"format", "regression", "calibration", "recommend"});
    if (root.at("format") != "qaplan-chain-eval-config-1")
      js::fail("format", "must be \"qaplan-chain-eval-config-1\"");
    ChainEvalConfig c;
    c.name = file.name;
    c.sha256 = internal::sha256_hex(file.text);
    auto number = [](const js::Json& o, const std::string& path, const char* key, double lo,
                     double hi) {
      const js::Json& v = o.at(key);
      if (!v.is_number() || v.get<double>() < lo || v.get<double>() > hi)
        js::fail(js::join(path, key), "must be a number in [" + internal::num_text(lo) + ", " +
                                          internal::num_text(hi) + "]");
      return v.get<double>();
    };
    auto count = [&](const js::Json& o, const std::string& path, const char* key) {
      const double v = number(o, path, key, 0, 1e9);
      if (v != std::floor(v)) js::fail(js::join(path, key), "must be an integer");
      return static_cast<std::size_t>(v);
    };
    const js::Json& reg = root.at("regression");
    js::expect_keys(reg, "regression", {"split", "dataset", "kb", "baselines"});
    auto split = parse_split(js::req_string(reg, "regression", "split"));
    if (!split) js::fail("regression.split", split.error().message);
    c.regression_split = *split;
    c.regression_dataset = js::req_string(reg, "regression", "dataset");
    c.regression_kb = js::req_string(reg, "regression", "kb");
    const js::Json& baselines = reg.at("baselines");
    if (!baselines.is_object() || baselines.empty())
      js::fail("regression.baselines", "must be a non-empty object");
    for (const auto& [model, metrics] : baselines.items()) {
      const std::string bpath = "regression.baselines." + model;
      const bool sha = model.size() == 7 + 64 && model.rfind("sha256:", 0) == 0 &&
                       model.find_first_not_of("0123456789abcdef", 7) == std::string::npos;
      if (model != "off" && !sha)
        js::fail(bpath, "the key must be \"off\" or \"sha256:<64 lower-case hex>\" (the model file)");
      if (!metrics.is_object() || metrics.empty()) js::fail(bpath, "must be a non-empty object");
      std::vector<RegressionMetric>& out = c.baselines[model];
      for (const auto& [name, m] : metrics.items()) {
        const std::string path = bpath + "." + name;
        if (!metric_higher_is_better(name)) js::fail(path, "unknown metric");
        js::expect_keys(m, path, {"baseline", "tolerance"});
        out.push_back(
            {name, number(m, path, "baseline", 0, 1), number(m, path, "tolerance", 0, 1)});
      }
    }
    const js::Json& cal = root.at("calibration");
    js::expect_keys(cal, "calibration", {"false_direct_ceiling", "grid_step", "min_threshold"});
    c.false_direct_ceiling = number(cal, "calibration", "false_direct_ceiling", 0, 1);
    c.grid_step = number(cal, "calibration", "grid_step", 0.001, 0.5);
    c.min_threshold = number(cal, "calibration", "min_threshold", 0, 1);
    const js::Json& rec = root.at("recommend");
    js::expect_keys(rec, "recommend",
                    {"min_band_samples", "min_band_positives", "min_gain", "noise_rate",
                     "latency_p95_budget_us"});
    c.min_band_samples = count(rec, "recommend", "min_band_samples");
    c.min_band_positives = count(rec, "recommend", "min_band_positives");
    c.min_gain = count(rec, "recommend", "min_gain");
    c.noise_rate = number(rec, "recommend", "noise_rate", 0, 1);
    c.latency_p95_budget_us = number(rec, "recommend", "latency_p95_budget_us", 0, 1e9);
    return c;
  });
}

Result<ChainEvalConfig> read_chain_eval_config(const std::filesystem::path& file) {
  QAPLAN_ASSIGN_OR_RETURN(std::string text, read_file(file, "eval config"));
  return parse_chain_eval_config({file.filename().string(), std::move(text)});
}

Result<RulesFile> read_rules_file(const std::filesystem::path& path) {
  QAPLAN_ASSIGN_OR_RETURN(std::string text, read_file(path, "config file"));
  QAPLAN_ASSIGN_OR_RETURN(Config c, load_config(path));
  return RulesFile{std::move(c), internal::sha256_hex(text)};
}

namespace {

struct Split3 {
  ChainMetrics dev, test, all;
};

Split3 run_all(const Planner& planner, const KbIndex& kb, const ChainSet& set,
               std::vector<ChainResult>* keep) {
  Split3 s;
  for (std::size_t i = 0; i < set.questions.size(); ++i) {
    ChainResult r = run_chain_question(planner, kb, set, i);
    const ChainQuestion& q = set.questions[i];
    accumulate(q.split == Split::kDev ? s.dev : s.test, q, r);
    accumulate(s.all, q, r);
    if (keep) keep->push_back(std::move(r));
  }
  return s;
}

// Why the run is not gated ("" when it is): a baseline measured on other data or with another
// router model is never compared — a host's own KB and questions have none until it commits one.
std::string regression_note(const ChainEvalConfig& ec, const ChainSet& set, const KbIndex& kb,
                            const std::string& key, const Config& config, const Planner& planner) {
  if (ec.regression_dataset != set.version || ec.regression_kb != kb.kb().version)
    return "the baseline in " + ec.name + " was measured on " + ec.regression_dataset + " / " +
           ec.regression_kb + ", this run evaluates " + set.version + " / " + kb.kb().version +
           "; measure and commit a baseline for it";
  if (!ec.baselines.count(key))
    return "no baseline in " + ec.name + " under the key \"" + key + "\" (" +
           (config.model.enabled ? "router model " + planner.model_description()
                                 : std::string("[model] enabled = false")) +
           "); a baseline is measured per model: run eval-chain with this config and commit its "
           "figures under that key";
  return {};
}

void check_regression(const std::vector<RegressionMetric>& baseline, const ChainMetrics& gate,
                      ChainReport& r) {
  for (const RegressionMetric& m : baseline) {
    RegressionCheck c;
    c.name = m.name;
    c.baseline = m.baseline;
    c.tolerance = m.tolerance;
    c.higher_is_better = metric_higher_is_better(m.name).value_or(true);
    c.current = gate.get(m.name);
    // A tiny epsilon so a figure equal to the rounded baseline never flips the gate.
    const double eps = 1e-9;
    c.regressed = !c.current || (c.higher_is_better ? *c.current < m.baseline - m.tolerance - eps
                                                    : *c.current > m.baseline + m.tolerance + eps);
    r.regression_failed |= c.regressed;
    r.regression.push_back(c);
  }
}

}  // namespace

std::string regression_baseline_key(const Config& config) {
  return config.model.enabled ? "sha256:" + config.model.sha256 : "off";
}

Result<ChainReport> run_eval_chain(const Config& config, std::string_view config_sha256,
                                   const KbIndex& kb, const ChainSet& set,
                                   const ChainEvalConfig& ec) {
  const auto t0 = Clock::now();
  QAPLAN_TRY(check_chain_against_kb(set, kb));
  QAPLAN_ASSIGN_OR_RETURN(Planner planner, Planner::create(config));
  ChainReport r;
  r.baseline_key = regression_baseline_key(config);
  r.regression_note = regression_note(ec, set, kb, r.baseline_key, config, planner);
  r.set = &set;
  r.dataset_name = set.name;
  r.dataset_version = set.version;
  r.dataset_sha256 = set.sha256;
  r.kb_version = kb.kb().version;
  r.kb_faq_sha256 = kb.kb().faq_sha256;
  r.kb_docs_sha256 = kb.kb().docs_sha256;
  r.kb_faqs = kb.kb().faqs.size();
  r.kb_chunks = kb.kb().docs.size();
  r.kb_sections = kb.sections();
  r.faq_dimensions = kb.faq_dimensions();
  r.doc_dimensions = kb.doc_dimensions();
  r.config_origin = config.origin;
  r.config_sha256 = std::string(config_sha256);
  r.model = planner.model_description();
  r.eval_config_name = ec.name;
  r.eval_config_sha256 = ec.sha256;
  Split3 main = run_all(planner, kb, set, &r.results);
  r.dev = main.dev;
  r.test = main.test;
  r.all = main.all;
  for (const ChainResult& res : r.results) {
    const ChainQuestion& q = set.questions[res.question];
    const std::string cat(to_string(q.category));
    accumulate(r.all_by_category[cat], q, res);
    if (q.split == Split::kTest) accumulate(r.test_by_category[cat], q, res);
    const std::string turn = q.history.empty() ? "single turn" : "follow-up";
    accumulate(r.all_by_turn[turn], q, res);
    if (q.split == Split::kTest) accumulate(r.test_by_turn[turn], q, res);
  }
  const ChainMetrics& gate = ec.regression_split == Split::kDev ? r.dev : r.test;
  if (r.regression_note.empty()) check_regression(ec.baselines.at(r.baseline_key), gate, r);
  // What-ifs: the first step against missing evidence (widen the pool; docs/evaluation.md).
  struct Step {
    const char* knob;
    int delta;
  };
  for (const Step step : {Step{"doc_top_k", 4}, Step{"final_context_top_n", 1}}) {
    Config c2 = config;
    const KnobId id = *find_knob(step.knob);
    const double from = get_knob(c2.retrieval_strategy.defaults, id);
    set_knob(c2.retrieval_strategy.defaults, id, from + step.delta);
    QAPLAN_ASSIGN_OR_RETURN(Planner p2, Planner::create(std::move(c2)));
    Split3 s = run_all(p2, kb, set, nullptr);
    r.what_ifs.push_back({"[retrieval_strategy.defaults] " + std::string(step.knob), from,
                          from + step.delta, s.dev, s.test});
  }
  r.total_ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  return r;
}

}  // namespace qaplan
