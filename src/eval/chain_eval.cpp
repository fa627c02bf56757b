// Core-chain evaluation (chain_eval.hpp): the chain set, the chain run, its metrics and reports.
#include "qaplan/eval/chain_eval.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <set>

#include "common/json_reader.hpp"
#include "common/percentile.hpp"
#include "common/sha256.hpp"
#include "eval/jsonl_lines.hpp"
#include "eval/report_util.hpp"
#include "qaplan/eval/svg.hpp"
#include "qaplan/io.hpp"
#include "qaplan/version.hpp"

namespace qaplan {
namespace {

namespace js = internal::json;
using nlohmann::json;
using nlohmann::ordered_json;
using Clock = std::chrono::steady_clock;
using internal::cell;
using internal::count_text;
using internal::pct_of;
using internal::rate_text;

bool has_number(const json& j) {
  if (j.is_number()) return true;
  if (j.is_array() || j.is_object())
    for (const auto& v : j) if (has_number(v)) return true;
  return false;
}

std::optional<double> ratio(double num, std::size_t den) {
  if (den == 0) return std::nullopt;
  return num / static_cast<double>(den);
}

std::vector<std::string> string_list(const js::Json& o, const char* key) {
  return internal::string_array(o, "", key, false);
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Data
// ---------------------------------------------------------------------------------------------

Result<std::string> canonical_jsonl_sha256(std::string_view text, std::string_view name) {
  json all = json::array();
  QAPLAN_TRY(internal::for_each_jsonl_line(text, name, [&](const js::Json& o, int) {
    if (has_number(o)) js::fail("", "numbers are not allowed in a chain set (canonical form)");
    all.push_back(o);
  }));
  return internal::sha256_hex(all.dump(-1, ' ', false, json::error_handler_t::strict));
}

Result<RegisteredFile> verify_chain_file(const NamedText& file, const NamedText& registry) {
  QAPLAN_ASSIGN_OR_RETURN(
      auto entries, js::read_json(registry.name, 0, [&] {
        const js::Json root = js::parse_strict(registry.text);
        js::expect_keys(root, "", {"format", "files"});
        if (root.at("format") != "qaplan-chain-fingerprints-1")
          js::fail("format", "must be \"qaplan-chain-fingerprints-1\"");
        const js::Json& files = root.at("files");
        if (!files.is_object() || files.empty()) js::fail("files", "must be a non-empty object");
        std::map<std::string, RegisteredFile> out;
        for (const auto& [n, e] : files.items()) {
          const std::string path = js::join("files", n);
          js::expect_keys(e, path, {"version", "kb", "sha256"});
          RegisteredFile r{js::req_string(e, path, "version"), js::req_string(e, path, "kb"),
                           js::req_string(e, path, "sha256")};
          if (r.sha256.size() != 64 ||
              r.sha256.find_first_not_of("0123456789abcdef") != std::string::npos)
            js::fail(js::join(path, "sha256"), "must be 64 lower-case hex digits");
          out.emplace(n, std::move(r));
        }
        return out;
      }));
  const auto it = entries.find(file.name);
  if (it == entries.end())
    return make_file_error(ErrorCode::kFingerprintMismatch,
                           "\"" + file.name + "\" is not registered (a new chain set version needs "
                                              "a new entry)",
                           registry.name);
  QAPLAN_ASSIGN_OR_RETURN(std::string sha, canonical_jsonl_sha256(file.text, file.name));
  if (sha != it->second.sha256)
    return make_file_error(ErrorCode::kFingerprintMismatch,
                           "\"" + file.name + "\" (" + it->second.version + "): registered " +
                               it->second.sha256 + ", actual " + sha +
                               "; changed labels need a new version",
                           registry.name);
  return it->second;
}

Result<ChainSet> load_chain_set(const NamedText& file, const NamedText& registry) {
  QAPLAN_ASSIGN_OR_RETURN(RegisteredFile reg, verify_chain_file(file, registry));
  ChainSet set;
  set.name = file.name;
  set.version = reg.version;
  set.kb_version = reg.kb_version;
  set.sha256 = reg.sha256;
  std::map<std::string, int> ids;
  QAPLAN_TRY(internal::for_each_jsonl_line(file.text, file.name, [&](const js::Json& o, int line) {
    js::expect_keys(o, "",
                    {"id", "question", "history", "scenario", "source_filter", "expected_hit_type",
                     "expected_faq_id", "expected_chunk_ids", "keywords", "category",
                     "prefer_table", "split"});
    ChainQuestion q;
    q.id = js::req_string(o, "", "id");
    if (auto [it, fresh] = ids.emplace(q.id, line); !fresh)
      js::fail("id", "duplicate id \"" + q.id + "\" (first on line " + std::to_string(it->second) +
                         ")");
    q.question = js::req_string(o, "", "question");
    q.history = string_list(o, "history");
    q.scenario = js::opt_string(o, "", "scenario");
    q.source_filter = js::opt_string(o, "", "source_filter");
    auto ht = parse_hit_type(js::req_string(o, "", "expected_hit_type"));
    if (!ht) js::fail("expected_hit_type", ht.error().message);
    q.expected_hit_type = *ht;
    q.expected_faq_id = js::opt_string(o, "", "expected_faq_id");
    q.expected_chunk_ids = string_list(o, "expected_chunk_ids");
    q.keywords = string_list(o, "keywords");
    auto cat = parse_question_category(js::req_string(o, "", "category"));
    if (!cat) js::fail("category", cat.error().message);
    q.category = *cat;
    if (!o.at("prefer_table").is_boolean()) js::fail("prefer_table", "must be a boolean");
    q.prefer_table = o.at("prefer_table").get<bool>();
    auto split = parse_split(js::req_string(o, "", "split"));
    if (!split) js::fail("split", split.error().message);
    q.split = *split;
    if (q.expected_hit_type == HitType::kFaqDirect && !q.expected_faq_id)
      js::fail("expected_faq_id", "a faq_direct question needs expected_faq_id");
    set.questions.push_back(std::move(q));
  }));
  if (set.questions.empty())
    return make_file_error(ErrorCode::kInvalidInput, "no question", file.name);
  return set;
}

Result<ChainSet> read_chain_set(const std::filesystem::path& file) {
  QAPLAN_ASSIGN_OR_RETURN(std::string text, read_file(file, "chain set"));
  const std::filesystem::path reg = file.parent_path() / "fingerprints.json";
  QAPLAN_ASSIGN_OR_RETURN(std::string reg_text, read_file(reg, "chain fingerprint registry"));
  return load_chain_set({file.filename().string(), std::move(text)},
                        {reg.filename().string(), std::move(reg_text)});
}

Status check_chain_against_kb(const ChainSet& set, const KbIndex& kb) {
  if (set.kb_version != kb.kb().version)
    return make_error(ErrorCode::kFingerprintMismatch,
                      set.version + " labels refer to knowledge base " + set.kb_version +
                          ", but the knowledge base is " + kb.kb().version,
                      set.name);
  for (const ChainQuestion& q : set.questions) {
    if (q.expected_faq_id && !kb.faq_index(*q.expected_faq_id))
      return make_file_error(ErrorCode::kInvalidInput, "unknown FAQ id " + *q.expected_faq_id,
                             set.name, 0, q.id + " expected_faq_id");
    for (const std::string& c : q.expected_chunk_ids)
      if (!kb.section_of_chunk(c))
        return make_file_error(ErrorCode::kInvalidInput, "unknown chunk id " + c, set.name, 0,
                               q.id + " expected_chunk_ids");
  }
  return {};
}

// ---------------------------------------------------------------------------------------------
// One question
// ---------------------------------------------------------------------------------------------

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
  if (q.expected_faq_id)
    for (std::size_t i = 0; i < e.faq_hits.size(); ++i)
      if (e.faq_hits[i].id == *q.expected_faq_id) {
        r.faq_rank = i + 1;
        break;
      }
  std::set<std::string> in_context;
  for (const ContextItem& c : e.contexts)
    for (const std::string& id : c.chunk_ids) in_context.insert(id);
  for (const std::string& c : q.expected_chunk_ids) {
    std::optional<std::size_t> rank;
    if (auto s = kb.section_of_chunk(c))
      for (std::size_t i = 0; i < e.doc_hits.size(); ++i)
        if (e.doc_hits[i].item == *s) {
          rank = i + 1;
          break;
        }
    r.chunk_ranks.push_back(rank);
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

// ---------------------------------------------------------------------------------------------
// Metrics
// ---------------------------------------------------------------------------------------------

void accumulate(ChainMetrics& m, const ChainQuestion& q, const ChainResult& r) {
  const auto e = static_cast<std::size_t>(q.expected_hit_type);
  const auto p = static_cast<std::size_t>(r.predicted);
  ++m.questions;
  ++m.expected[e];
  ++m.confusion[e][p];
  m.hit_type_correct += r.hit_type_correct;
  m.errors += !r.error.empty();
  bool positive = false;
  if (q.expected_hit_type == HitType::kFaqDirect && q.expected_faq_id) {
    positive = true;
    ++m.faq_questions;
    for (std::size_t k = 0; k < kChainKs.size(); ++k) {
      const double hit = r.faq_rank && *r.faq_rank <= kChainKs[k] ? 1.0 : 0.0;
      m.faq_hits[k] += hit;
      m.evidence_recall_sum[k] += hit;
    }
    if (r.faq_rank && *r.faq_rank <= 10) m.faq_rr_sum += 1.0 / static_cast<double>(*r.faq_rank);
  } else if (q.expected_hit_type == HitType::kRag && !q.expected_chunk_ids.empty()) {
    positive = true;
    ++m.rag_questions;
    const double n = static_cast<double>(q.expected_chunk_ids.size());
    std::size_t best = 0;
    for (const auto& rank : r.chunk_ranks)
      if (rank && (best == 0 || *rank < best)) best = *rank;
    for (std::size_t k = 0; k < kChainKs.size(); ++k) {
      std::size_t found = 0;
      for (const auto& rank : r.chunk_ranks) found += rank && *rank <= kChainKs[k];
      m.doc_recall_sum[k] += static_cast<double>(found) / n;
      m.evidence_recall_sum[k] += static_cast<double>(found) / n;
    }
    if (best > 0 && best <= 10) m.doc_rr_sum += 1.0 / static_cast<double>(best);
    m.expected_chunks += q.expected_chunk_ids.size();
    m.chunks_in_context += r.chunks_in_context;
  }
  if (positive) {
    ++m.positives;
    if (!q.keywords.empty()) {
      ++m.keyword_questions;
      m.keyword_coverage_sum +=
          static_cast<double>(r.keywords_found) / static_cast<double>(q.keywords.size());
      m.keywords += q.keywords.size();
      m.keywords_found += r.keywords_found;
    }
    m.false_refusals += r.predicted == HitType::kNoEvidence;
  }
  if (r.predicted == HitType::kFaqDirect) {
    ++m.directs;
    m.false_directs += r.false_direct;
  }
  m.missed_directs += r.missed_direct;
  m.scope_questions += r.scope_judged;
  m.wrong_scopes += r.wrong_scope;
  m.no_evidence_answers += r.predicted == HitType::kNoEvidence;
  m.correct_refusals +=
      q.expected_hit_type == HitType::kNoEvidence && r.predicted == HitType::kNoEvidence;
}

std::optional<double> ChainMetrics::hit_type_accuracy() const {
  return ratio(static_cast<double>(hit_type_correct), questions);
}
std::optional<double> ChainMetrics::evidence_recall(std::size_t k) const {
  return ratio(evidence_recall_sum[k], positives);
}
std::optional<double> ChainMetrics::faq_hit(std::size_t k) const {
  return ratio(faq_hits[k], faq_questions);
}
std::optional<double> ChainMetrics::doc_recall(std::size_t k) const {
  return ratio(doc_recall_sum[k], rag_questions);
}
std::optional<double> ChainMetrics::faq_mrr() const { return ratio(faq_rr_sum, faq_questions); }
std::optional<double> ChainMetrics::doc_mrr() const { return ratio(doc_rr_sum, rag_questions); }
std::optional<double> ChainMetrics::evidence_mrr() const {
  return ratio(faq_rr_sum + doc_rr_sum, positives);
}
std::optional<double> ChainMetrics::context_recall() const {
  return ratio(static_cast<double>(chunks_in_context), expected_chunks);
}
std::optional<double> ChainMetrics::keyword_coverage() const {
  return ratio(keyword_coverage_sum, keyword_questions);
}
std::optional<double> ChainMetrics::false_direct_rate() const {
  return ratio(static_cast<double>(false_directs), directs);
}
std::optional<double> ChainMetrics::wrong_scope_rate() const {
  return ratio(static_cast<double>(wrong_scopes), scope_questions);
}
std::optional<double> ChainMetrics::missed_direct_rate() const {
  return ratio(static_cast<double>(missed_directs), expected[1]);
}
std::optional<double> ChainMetrics::no_evidence_rate() const {
  return ratio(static_cast<double>(no_evidence_answers), questions);
}
std::optional<double> ChainMetrics::correct_refusal_rate() const {
  return ratio(static_cast<double>(correct_refusals), expected[3]);
}
std::optional<double> ChainMetrics::false_refusal_rate() const {
  return ratio(static_cast<double>(false_refusals), positives);
}

namespace {

struct MetricDef {
  std::string_view name;
  bool higher_is_better;
  std::optional<double> (*get)(const ChainMetrics&);
};

#define QAPLAN_K_METRIC(prefix, fn, k)                                          \
  MetricDef {                                                                   \
    prefix #k, true, [](const ChainMetrics& m) { return m.fn(k_index(k)); } \
  }

constexpr std::size_t k_index(std::size_t k) {
  for (std::size_t i = 0; i < kChainKs.size(); ++i)
    if (kChainKs[i] == k) return i;
  return 0;
}

const std::vector<MetricDef>& metric_defs() {
  static const std::vector<MetricDef> defs = {
      {"hit_type_accuracy", true, [](const ChainMetrics& m) { return m.hit_type_accuracy(); }},
      QAPLAN_K_METRIC("evidence_recall_at_", evidence_recall, 1),
      QAPLAN_K_METRIC("evidence_recall_at_", evidence_recall, 3),
      QAPLAN_K_METRIC("evidence_recall_at_", evidence_recall, 5),
      QAPLAN_K_METRIC("evidence_recall_at_", evidence_recall, 10),
      QAPLAN_K_METRIC("faq_hit_at_", faq_hit, 1),
      QAPLAN_K_METRIC("faq_hit_at_", faq_hit, 3),
      QAPLAN_K_METRIC("faq_hit_at_", faq_hit, 5),
      QAPLAN_K_METRIC("faq_hit_at_", faq_hit, 10),
      QAPLAN_K_METRIC("doc_recall_at_", doc_recall, 1),
      QAPLAN_K_METRIC("doc_recall_at_", doc_recall, 3),
      QAPLAN_K_METRIC("doc_recall_at_", doc_recall, 5),
      QAPLAN_K_METRIC("doc_recall_at_", doc_recall, 10),
      {"evidence_mrr_at_10", true, [](const ChainMetrics& m) { return m.evidence_mrr(); }},
      {"faq_mrr_at_10", true, [](const ChainMetrics& m) { return m.faq_mrr(); }},
      {"doc_mrr_at_10", true, [](const ChainMetrics& m) { return m.doc_mrr(); }},
      {"context_recall", true, [](const ChainMetrics& m) { return m.context_recall(); }},
      {"keyword_coverage", true, [](const ChainMetrics& m) { return m.keyword_coverage(); }},
      {"false_direct_rate", false, [](const ChainMetrics& m) { return m.false_direct_rate(); }},
      {"wrong_scope_rate", false, [](const ChainMetrics& m) { return m.wrong_scope_rate(); }},
      {"missed_direct_rate", false, [](const ChainMetrics& m) { return m.missed_direct_rate(); }},
      {"no_evidence_rate", false, [](const ChainMetrics& m) { return m.no_evidence_rate(); }},
      {"correct_refusal_rate", true,
       [](const ChainMetrics& m) { return m.correct_refusal_rate(); }},
      {"false_refusal_rate", false, [](const ChainMetrics& m) { return m.false_refusal_rate(); }},
  };
  return defs;
}
#undef QAPLAN_K_METRIC

}  // namespace

std::optional<double> ChainMetrics::get(std::string_view name) const {
  for (const MetricDef& d : metric_defs())
    if (d.name == name) return d.get(*this);
  return std::nullopt;
}

std::optional<bool> metric_higher_is_better(std::string_view name) {
  for (const MetricDef& d : metric_defs())
    if (d.name == name) return d.higher_is_better;
  return std::nullopt;
}

// ---------------------------------------------------------------------------------------------
// Settings and the run
// ---------------------------------------------------------------------------------------------

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

}  // namespace

std::string regression_baseline_key(const Config& config) {
  return config.model.enabled ? "sha256:" + config.model.sha256 : "off";
}

Result<ChainReport> run_eval_chain(const Config& config, std::string_view config_sha256,
                                   const KbIndex& kb, const ChainSet& set,
                                   const ChainEvalConfig& ec) {
  const auto t0 = Clock::now();
  QAPLAN_TRY(check_chain_against_kb(set, kb));
  if (ec.regression_dataset != set.version || ec.regression_kb != kb.kb().version)
    return make_file_error(ErrorCode::kInvalidInput,
                           "the baseline was measured on " + ec.regression_dataset + " / " +
                               ec.regression_kb + ", this run evaluates " + set.version + " / " +
                               kb.kb().version + "; measure and commit a new baseline",
                           ec.name, 0, "regression.dataset");
  QAPLAN_ASSIGN_OR_RETURN(Planner planner, Planner::create(config));
  ChainReport r;
  r.baseline_key = regression_baseline_key(config);
  if (!ec.baselines.count(r.baseline_key))
    return make_file_error(ErrorCode::kInvalidInput,
                           "no regression baseline under the key \"" + r.baseline_key +
                               "\" (" +
                               (config.model.enabled ? "router model " + planner.model_description()
                                                     : std::string("[model] enabled = false")) +
                               "); a baseline is measured per model: run eval-chain with this "
                               "config and commit its figures under that key",
                           ec.name, 0, "regression.baselines");
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
  for (const RegressionMetric& m : ec.baselines.at(r.baseline_key)) {
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
  // What-ifs: the seed's first step against missing evidence (widen the pool).
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

// ---------------------------------------------------------------------------------------------
// Reports
// ---------------------------------------------------------------------------------------------

namespace {

using internal::opt_num;

ordered_json metrics_json(const ChainMetrics& m) {
  ordered_json j;
  j["questions"] = m.questions;
  ordered_json exp = ordered_json::object();
  for (std::size_t i = 0; i < 4; ++i) exp[std::string(to_string(static_cast<HitType>(i)))] = m.expected[i];
  j["expected"] = std::move(exp);
  j["hit_type_accuracy"] = opt_num(m.hit_type_accuracy());
  for (std::size_t k = 0; k < kChainKs.size(); ++k)
    j["evidence_recall_at_" + std::to_string(kChainKs[k])] = opt_num(m.evidence_recall(k));
  for (std::size_t k = 0; k < kChainKs.size(); ++k)
    j["faq_hit_at_" + std::to_string(kChainKs[k])] = opt_num(m.faq_hit(k));
  for (std::size_t k = 0; k < kChainKs.size(); ++k)
    j["doc_recall_at_" + std::to_string(kChainKs[k])] = opt_num(m.doc_recall(k));
  j["evidence_mrr_at_10"] = opt_num(m.evidence_mrr());
  j["faq_mrr_at_10"] = opt_num(m.faq_mrr());
  j["doc_mrr_at_10"] = opt_num(m.doc_mrr());
  j["context_recall"] = opt_num(m.context_recall());
  j["keyword_coverage"] = opt_num(m.keyword_coverage());
  j["false_direct_rate"] = opt_num(m.false_direct_rate());
  j["wrong_scope_rate"] = opt_num(m.wrong_scope_rate());
  j["missed_direct_rate"] = opt_num(m.missed_direct_rate());
  j["no_evidence_rate"] = opt_num(m.no_evidence_rate());
  j["correct_refusal_rate"] = opt_num(m.correct_refusal_rate());
  j["false_refusal_rate"] = opt_num(m.false_refusal_rate());
  ordered_json conf = ordered_json::object();
  for (std::size_t e = 0; e < 4; ++e) {
    ordered_json row = ordered_json::object();
    for (std::size_t p = 0; p < 4; ++p)
      row[std::string(to_string(static_cast<HitType>(p)))] = m.confusion[e][p];
    conf[std::string(to_string(static_cast<HitType>(e)))] = std::move(row);
  }
  j["confusion"] = std::move(conf);
  j["counts"] = {{"hit_type_correct", m.hit_type_correct},
                 {"positives", m.positives},
                 {"faq_direct_questions", m.faq_questions},
                 {"rag_questions_with_chunks", m.rag_questions},
                 {"expected_chunks", m.expected_chunks},
                 {"expected_chunks_in_context", m.chunks_in_context},
                 {"keyword_questions", m.keyword_questions},
                 {"keywords", m.keywords},
                 {"keywords_found", m.keywords_found},
                 {"direct_answers", m.directs},
                 {"false_direct_answers", m.false_directs},
                 {"missed_direct_answers", m.missed_directs},
                 {"scope_questions", m.scope_questions},
                 {"wrong_scopes", m.wrong_scopes},
                 {"no_evidence_answers", m.no_evidence_answers},
                 {"correct_refusals", m.correct_refusals},
                 {"false_refusals", m.false_refusals},
                 {"errors", m.errors}};
  return j;
}

ordered_json hit_json(const LegHit& h) {
  return {{"id", h.id},
          {"fused", h.fused},
          {"cosine", h.cosine},
          {"bm25", h.bm25 ? ordered_json(*h.bm25) : ordered_json(nullptr)},
          {"cosine_rank", h.cosine_rank ? ordered_json(*h.cosine_rank) : ordered_json(nullptr)},
          {"bm25_rank", h.bm25_rank ? ordered_json(*h.bm25_rank) : ordered_json(nullptr)}};
}

ordered_json result_json(const ChainQuestion& q, const ChainResult& r) {
  const Execution& e = r.execution;
  ordered_json j;
  j["id"] = q.id;
  j["split"] = std::string(to_string(q.split));
  j["question"] = q.question;
  j["history"] = q.history;
  j["expected"] = {{"hit_type", std::string(to_string(q.expected_hit_type))},
                   {"faq_id", q.expected_faq_id ? ordered_json(*q.expected_faq_id) : ordered_json(nullptr)},
                   {"chunk_ids", q.expected_chunk_ids},
                   {"keywords", q.keywords},
                   {"category", std::string(to_string(q.category))},
                   {"prefer_table", q.prefer_table}};
  j["route"] = r.route;
  j["route_reason"] = r.route_reason;
  j["intent"] = r.intent;
  j["decision_policy"] = r.decision_policy;
  j["decision_score"] = r.decision_score;
  j["plan_reason"] = r.plan_reason;
  j["predicted_category"] = r.predicted_category;
  j["threshold_band"] = r.band.id;
  j["effective_sources"] = r.effective_sources;
  {
    const ExecutionFilters& f = r.filters;
    ordered_json fj = ordered_json::object();
    if (!f.date_from.empty()) fj["date_from"] = f.date_from;
    if (!f.date_to.empty()) fj["date_to"] = f.date_to;
    if (f.department) fj["department"] = *f.department;
    if (!f.tags.empty()) fj["tags"] = f.tags;
    if (f.path_prefix) fj["path_prefix"] = *f.path_prefix;
    if (f.is_signed) fj["is_signed"] = *f.is_signed;
    j["filters"] = std::move(fj);
  }
  j["query"] = e.query;
  j["rewrite"] = r.rewrite ? ordered_json(*r.rewrite) : ordered_json(nullptr);
  j["rewrite_by"] = r.rewrite ? ordered_json(r.rewrite_by) : ordered_json(nullptr);
  j["error"] = r.error.empty() ? ordered_json(nullptr) : ordered_json(r.error);
  j["hit_type"] = std::string(to_string(r.predicted));
  j["hit_type_correct"] = r.hit_type_correct;
  j["reasons"] = e.reasons;
  if (e.faq_direct) {
    const FaqDirectDecision& d = *e.faq_direct;
    j["faq_direct"] = {{"candidate", d.has_candidate ? ordered_json(d.faq_id) : ordered_json(nullptr)},
                       {"score", d.score},
                       {"exact", d.exact},
                       {"threshold", d.threshold},
                       {"exact_only", d.exact_only},
                       {"answered", d.answered}};
  } else {
    j["faq_direct"] = nullptr;
  }
  ordered_json fh = ordered_json::array(), dh = ordered_json::array(), ctx = ordered_json::array();
  for (std::size_t i = 0; i < e.faq_hits.size() && i < 5; ++i) fh.push_back(hit_json(e.faq_hits[i]));
  for (std::size_t i = 0; i < e.doc_hits.size() && i < 5; ++i) dh.push_back(hit_json(e.doc_hits[i]));
  for (const ContextItem& c : e.contexts)
    ctx.push_back({{"kind", c.kind},
                   {"id", c.id},
                   {"chunk_ids", c.chunk_ids},
                   {"score", c.score},
                   {"chars", c.chars},
                   {"truncated", c.truncated}});
  j["faq_hits"] = std::move(fh);
  j["doc_hits"] = std::move(dh);
  j["contexts"] = std::move(ctx);
  j["faq_rank"] = r.faq_rank ? ordered_json(*r.faq_rank) : ordered_json(nullptr);
  ordered_json ranks = ordered_json::array();
  for (const auto& x : r.chunk_ranks) ranks.push_back(x ? ordered_json(*x) : ordered_json(nullptr));
  j["chunk_ranks"] = std::move(ranks);
  j["chunks_in_context"] = r.chunks_in_context;
  j["keywords_found"] = r.keywords_found;
  j["false_direct"] = r.false_direct;
  j["wrong_scope"] = r.wrong_scope;
  j["missed_direct"] = r.missed_direct;
  j["timing"] = {{"prepare_us", static_cast<double>(r.prepare_ns) / 1e3},
                 {"analyze_us", static_cast<double>(r.analyze_ns) / 1e3},
                 {"execute_us", static_cast<double>(e.timings.total_ns) / 1e3}};
  return j;
}

struct StageSamples {
  std::string name;
  std::vector<double> us;
};

std::vector<StageSamples> stage_samples(const ChainReport& r) {
  std::vector<StageSamples> s = {{"prepare", {}}, {"analyze", {}}, {"query", {}},
                                 {"faq", {}},     {"doc", {}},     {"context", {}},
                                 {"execute", {}}, {"chain", {}}};
  for (const ChainResult& x : r.results) {
    if (!x.error.empty()) continue;
    const ExecutionTimings& t = x.execution.timings;
    const bool retrieval = x.route == "retrieval";
    s[0].us.push_back(static_cast<double>(x.prepare_ns) / 1e3);
    if (retrieval) {
      s[1].us.push_back(static_cast<double>(x.analyze_ns) / 1e3);
      s[2].us.push_back(static_cast<double>(t.query_ns) / 1e3);
      s[3].us.push_back(static_cast<double>(t.faq_ns) / 1e3);
      s[4].us.push_back(static_cast<double>(t.doc_ns) / 1e3);
      s[5].us.push_back(static_cast<double>(t.context_ns) / 1e3);
      s[6].us.push_back(static_cast<double>(t.total_ns) / 1e3);
    }
    s[7].us.push_back(static_cast<double>(x.prepare_ns + x.analyze_ns + t.total_ns) / 1e3);
  }
  return s;
}

const char* kDefinitions[][2] = {
    {"hit-type accuracy", "questions whose hit type equals the expected one (faq_direct also needs the expected FAQ) / questions"},
    {"positive", "a question whose expected hit type is faq_direct, or rag with expected chunks"},
    {"evidence recall@k", "per positive: faq_direct → 1 if the expected FAQ is among the first k FAQ hits; rag → expected chunks whose section is among the first k document hits / expected chunks; averaged over positives"},
    {"FAQ hit@k", "faq_direct questions whose expected FAQ is among the first k FAQ hits / faq_direct questions"},
    {"document recall@k", "the rag half of evidence recall@k, averaged over rag questions with expected chunks"},
    {"MRR@10", "1 / rank of the expected FAQ (faq_direct) or of the first expected section (rag) within the first 10 hits, else 0; averaged"},
    {"context recall", "expected chunks that reached the final context / expected chunks (rag questions)"},
    {"keyword coverage", "keywords found verbatim in the answer or context texts / keywords, averaged over positives with keywords"},
    {"false-direct rate", "FAQ answers given directly that are wrong (not a faq_direct question, or another FAQ) / FAQ answers given directly"},
    {"missed-direct rate", "faq_direct questions not answered directly / faq_direct questions"},
    {"no-evidence rate", "questions answered no_evidence / questions"},
    {"correct refusals", "no_evidence questions answered no_evidence / no_evidence questions"},
    {"false refusals", "positives answered no_evidence / positives"},
    {"latency", "nearest-rank p50 / p95 of per-question wall time in µs, one thread; prepare = Planner::prepare, analyze = Planner::analyze, execute = execute_plan (query, faq, doc, context stages), chain = all three"},
};

}  // namespace

std::string chain_report_json(const ChainReport& r, bool pretty) {
  ordered_json j;
  j["schema_version"] = 1;
  j["report"] = "qaplan core-chain evaluation";
  j["qaplan_version"] = QAPLAN_VERSION_STRING;
  j["dataset"] = {{"name", r.dataset_name}, {"version", r.dataset_version}, {"sha256", r.dataset_sha256}};
  j["knowledge_base"] = {{"version", r.kb_version},
                         {"faq_sha256", r.kb_faq_sha256},
                         {"docs_sha256", r.kb_docs_sha256},
                         {"faqs", r.kb_faqs},
                         {"chunks", r.kb_chunks},
                         {"sections", r.kb_sections}};
  j["vectors"] = {{"model", "local-tfidf"},
                  {"faq_dimensions", r.faq_dimensions},
                  {"doc_dimensions", r.doc_dimensions},
                  {"note", "built-in offline TF-IDF embedder fitted on each collection; exact "
                           "sparse cosine; a lexical proxy, not a semantic embedding"}};
  j["config"] = {{"origin", r.config_origin}, {"sha256", r.config_sha256}, {"model", r.model}};
  j["eval_config"] = {{"name", r.eval_config_name}, {"sha256", r.eval_config_sha256}};
  j["analysis"] = "Planner::analyze: a follow-up is searched as its rewrite; variants and filters "
                 "as the analysis gives them (no `now`: relative dates set no filter)";
  ordered_json defs = ordered_json::object();
  for (const auto& d : kDefinitions) defs[d[0]] = d[1];
  j["definitions"] = std::move(defs);
  j["metrics"] = {{"test", metrics_json(r.test)}, {"dev", metrics_json(r.dev)}, {"all", metrics_json(r.all)}};
  ordered_json cats = ordered_json::object();
  for (const auto& [c, m] : r.test_by_category) cats[c] = metrics_json(m);
  ordered_json cats_all = ordered_json::object();
  for (const auto& [c, m] : r.all_by_category) cats_all[c] = metrics_json(m);
  j["by_category"] = {{"test", std::move(cats)}, {"all", std::move(cats_all)}};
  nlohmann::json turns, turns_all;
  for (const auto& [t, m] : r.test_by_turn) turns[t] = metrics_json(m);
  for (const auto& [t, m] : r.all_by_turn) turns_all[t] = metrics_json(m);
  j["by_turn"] = {{"test", std::move(turns)}, {"all", std::move(turns_all)}};
  ordered_json reg = ordered_json::array();
  for (const RegressionCheck& c : r.regression)
    reg.push_back({{"metric", c.name},
                   {"baseline", c.baseline},
                   {"tolerance", c.tolerance},
                   {"current", opt_num(c.current)},
                   {"higher_is_better", c.higher_is_better},
                   {"regressed", c.regressed}});
  j["regression"] = {{"baseline", r.baseline_key},
                     {"failed", r.regression_failed},
                     {"checks", std::move(reg)}};
  ordered_json wi = ordered_json::array();
  for (const WhatIf& w : r.what_ifs)
    wi.push_back({{"parameter", w.parameter},
                  {"from", w.from},
                  {"to", w.to},
                  {"dev", metrics_json(w.dev)},
                  {"test", metrics_json(w.test)}});
  j["what_if"] = std::move(wi);
  ordered_json qs = ordered_json::array();
  for (const ChainResult& res : r.results) qs.push_back(result_json(r.set->questions[res.question], res));
  j["questions"] = std::move(qs);
  ordered_json lat = ordered_json::object();
  for (const StageSamples& s : stage_samples(r))
    lat[s.name] = {{"samples", s.us.size()},
                   {"p50_us", opt_num(internal::nearest_rank_percentile(s.us, 50))},
                   {"p95_us", opt_num(internal::nearest_rank_percentile(s.us, 95))}};
  j["timing"] = {{"stages", std::move(lat)}, {"total_ms", r.total_ms}};
  return j.dump(pretty ? 2 : -1, ' ', false, ordered_json::error_handler_t::strict) + "\n";
}

std::string chain_report_markdown(const ChainReport& r) {
  std::string md = "# Core-chain evaluation — " + r.dataset_version + " on " + r.kb_version + "\n\n";
  md += "Every labelled question goes through `Planner::prepare` (route → intent → plan) and "
        "`execute_plan` over the knowledge base (FAQ and document collections, BM25 + local-tfidf "
        "cosine + RRF, FAQ direct answers, context limits); the outcome is judged against its "
        "labels. Definitions are at the end.\n\n";
  md += "| | |\n|---|---|\n";
  md += "| dataset | `" + cell(r.dataset_name) + "` (" + r.dataset_version + ", SHA-256 `" +
        r.dataset_sha256.substr(0, 16) + "…`), " + std::to_string(r.all.questions) +
        " questions: " + std::to_string(r.dev.questions) + " dev, " +
        std::to_string(r.test.questions) + " test |\n";
  md += "| knowledge base | " + r.kb_version + ": " + std::to_string(r.kb_faqs) + " FAQs, " +
        std::to_string(r.kb_chunks) + " chunks in " + std::to_string(r.kb_sections) +
        " sections (faq SHA-256 `" + r.kb_faq_sha256.substr(0, 16) + "…`, docs `" +
        r.kb_docs_sha256.substr(0, 16) + "…`) |\n";
  md += "| vectors | `local-tfidf`, the built-in offline TF-IDF embedder (" +
        std::to_string(r.faq_dimensions) + " FAQ / " + std::to_string(r.doc_dimensions) +
        " document dimensions), exact cosine: a lexical proxy, not a semantic embedding |\n";
  md += "| config | `" + cell(r.config_origin) + "` (SHA-256 `" + r.config_sha256.substr(0, 16) +
        "…`), model " + cell(r.model) + " |\n";
  md += "| analysis | `Planner::analyze` on every retrieval question: a follow-up is searched as "
        "its rewrite, with the variants and filters the analysis derives (no `now` is given, so "
        "relative dates set no filter) |\n\n";

  auto row = [&](const std::string& label, auto&& f) {
    md += "| " + label + " | " + f(r.test) + " | " + f(r.dev) + " | " + f(r.all) + " |\n";
  };
  md += "## Summary\n\n| metric | test | dev | all |\n|---|---|---|---|\n";
  row("hit-type accuracy", [](const ChainMetrics& m) {
    return rate_text(m.hit_type_accuracy(), m.hit_type_correct, m.questions);
  });
  for (std::size_t k = 0; k < kChainKs.size(); ++k)
    row("evidence recall@" + std::to_string(kChainKs[k]), [k](const ChainMetrics& m) {
      return pct_of(m.evidence_recall(k), m.positives, "positives");
    });
  for (std::size_t k : {std::size_t{0}, std::size_t{2}})
    row("FAQ hit@" + std::to_string(kChainKs[k]), [k](const ChainMetrics& m) {
      return rate_text(m.faq_hit(k), static_cast<std::size_t>(m.faq_hits[k]), m.faq_questions);
    });
  for (std::size_t k : {std::size_t{0}, std::size_t{2}})
    row("document recall@" + std::to_string(kChainKs[k]), [k](const ChainMetrics& m) {
      return pct_of(m.doc_recall(k), m.rag_questions, "rag questions");
    });
  row("MRR@10 (FAQ / documents)", [](const ChainMetrics& m) {
    return internal::num_or(m.faq_mrr(), "%.3f") + " / " + internal::num_or(m.doc_mrr(), "%.3f") +
           " (" + std::to_string(m.faq_questions) + " / " + std::to_string(m.rag_questions) + ")";
  });
  row("wrong scope (evidence outside the searched sources)", [](const ChainMetrics& m) {
    return rate_text(m.wrong_scope_rate(), m.wrong_scopes, m.scope_questions);
  });
  row("context recall", [](const ChainMetrics& m) {
    return rate_text(m.context_recall(), m.chunks_in_context, m.expected_chunks);
  });
  row("keyword coverage", [](const ChainMetrics& m) {
    return pct_of(m.keyword_coverage(), m.keyword_questions, "questions") + ", " +
           count_text(m.keywords_found, m.keywords) + " keywords";
  });
  row("false-direct rate", [](const ChainMetrics& m) {
    return rate_text(m.false_direct_rate(), m.false_directs, m.directs);
  });
  row("missed-direct rate", [](const ChainMetrics& m) {
    return rate_text(m.missed_direct_rate(), m.missed_directs, m.expected[1]);
  });
  row("no-evidence rate", [](const ChainMetrics& m) {
    return rate_text(m.no_evidence_rate(), m.no_evidence_answers, m.questions);
  });
  row("correct refusals", [](const ChainMetrics& m) {
    return rate_text(m.correct_refusal_rate(), m.correct_refusals, m.expected[3]);
  });
  row("false refusals", [](const ChainMetrics& m) {
    return rate_text(m.false_refusal_rate(), m.false_refusals, m.positives);
  });
  md += "\n";

  md += "## Regression gate (" + std::string(r.regression.empty() ? "none" : "test split") + ")\n\n";
  if (r.regression.empty()) {
    md += "No metric is gated.\n\n";
  } else {
    md += std::string("Baseline and tolerances from `") + cell(r.eval_config_name) +
          "` (baseline `" + cell(r.baseline_key) + "`: measured with router model " +
          cell(r.model) + "); a metric regresses when it is worse than the baseline by more than its tolerance. "
          "Result: **" + (r.regression_failed ? "FAILED" : "passed") + "**.\n\n";
    md += "| metric | baseline | tolerance | current | better | status |\n|---|---|---|---|---|---|\n";
    for (const RegressionCheck& c : r.regression)
      md += "| " + c.name + " | " + internal::num_text(c.baseline) + " | " +
            internal::num_text(c.tolerance) + " | " + internal::num_or(c.current, "%.4f") + " | " +
            (c.higher_is_better ? "higher" : "lower") + " | " +
            (c.regressed ? "**regressed**" : "ok") + " |\n";
    md += "\n";
  }

  md += "## Hit types (test)\n\nRows: expected; columns: what the chain did.\n\n"
        "| expected \\ got | direct_answer | faq_direct | rag | no_evidence | total |\n"
        "|---|---|---|---|---|---|\n";
  for (std::size_t e = 0; e < 4; ++e) {
    md += "| " + std::string(to_string(static_cast<HitType>(e)));
    for (std::size_t p = 0; p < 4; ++p) md += " | " + std::to_string(r.test.confusion[e][p]);
    md += " | " + std::to_string(r.test.expected[e]) + " |\n";
  }
  md += "\n";

  md += "## Evidence recall by category (test)\n\n![evidence recall@k by category](recall-by-category.svg)\n\n";
  md += "| category | positives | recall@1 | recall@3 | recall@5 | recall@10 | hit-type accuracy |\n"
        "|---|---|---|---|---|---|---|\n";
  for (const auto& [c, m] : r.test_by_category) {
    md += "| " + c + " | " + std::to_string(m.positives);
    for (std::size_t k = 0; k < kChainKs.size(); ++k)
      md += " | " + internal::pct_or(m.evidence_recall(k));
    md += " | " + rate_text(m.hit_type_accuracy(), m.hit_type_correct, m.questions) + " |\n";
  }
  md += "\n";

  md += "## Follow-ups and single turns (test)\n\nA follow-up (a question with history) is searched "
        "as its rewrite; this is the rewrite's effect on the whole chain.\n\n"
        "| turn | questions | positives | recall@1 | recall@5 | recall@10 | hit-type accuracy |\n"
        "|---|---|---|---|---|---|---|\n";
  for (const auto& [t, m] : r.test_by_turn) {
    md += "| " + t + " | " + std::to_string(m.questions) + " | " + std::to_string(m.positives);
    for (std::size_t k : {std::size_t{0}, std::size_t{2}, std::size_t{3}})
      md += " | " + internal::pct_or(m.evidence_recall(k));
    md += " | " + rate_text(m.hit_type_accuracy(), m.hit_type_correct, m.questions) + " |\n";
  }
  md += "\n";

  // FAQ direct answers per threshold band.
  struct BandRow {
    double threshold = 0;
    std::size_t questions = 0, directs = 0, false_directs = 0, expected = 0, missed = 0;
  };
  std::map<std::string, BandRow> bands;
  for (const ChainResult& x : r.results) {
    const ChainQuestion& q = r.set->questions[x.question];
    if (q.split != Split::kTest || x.route != "retrieval" || x.band.id.empty()) continue;
    BandRow& b = bands[x.band.id];
    b.threshold = x.band.value;
    ++b.questions;
    b.directs += x.predicted == HitType::kFaqDirect;
    b.false_directs += x.false_direct;
    b.expected += q.expected_hit_type == HitType::kFaqDirect;
    b.missed += x.missed_direct;
  }
  md += "## FAQ direct answers by threshold band (test)\n\nA band is the config key that set the "
        "plan's `faq_direct_threshold` (`exact_only`: plans that only answer exact matches).\n\n"
        "| band | threshold | retrieval questions | direct answers | false directs | faq_direct "
        "questions | missed |\n|---|---|---|---|---|---|---|\n";
  for (const auto& [id, b] : bands)
    md += "| " + id + " | " + (id == "exact_only" ? std::string("exact match") : internal::num_text(b.threshold)) +
          " | " + std::to_string(b.questions) + " | " + std::to_string(b.directs) + " | " +
          count_text(b.false_directs, b.directs) + " | " + std::to_string(b.expected) + " | " +
          count_text(b.missed, b.expected) + " |\n";
  md += "\n";

  md += "## What-ifs (the seed's first step against missing evidence)\n\nThe same questions with "
        "one default changed (a new Planner from an edited copy of the config).\n\n"
        "| change | split | evidence recall@5 | context recall | keyword coverage | hit-type accuracy |\n"
        "|---|---|---|---|---|---|\n";
  auto wrow = [&](const std::string& change, const char* split, const ChainMetrics& m) {
    md += "| " + change + " | " + split + " | " + pct_of(m.evidence_recall(2), m.positives, "positives") +
          " | " + rate_text(m.context_recall(), m.chunks_in_context, m.expected_chunks) + " | " +
          pct_of(m.keyword_coverage(), m.keyword_questions, "questions") + " | " +
          rate_text(m.hit_type_accuracy(), m.hit_type_correct, m.questions) + " |\n";
  };
  wrow("current config", "test", r.test);
  for (const WhatIf& w : r.what_ifs)
    wrow("`" + w.parameter + "` " + internal::num_text(w.from) + " → " + internal::num_text(w.to),
         "test", w.test);
  md += "\n";

  md += "## Latency (timing: differs between runs)\n\n![latency distribution](latency.svg)\n\n"
        "| stage | samples | p50 µs | p95 µs |\n|---|---|---|---|\n";
  for (const StageSamples& s : stage_samples(r))
    md += "| " + s.name + " | " + std::to_string(s.us.size()) + " | " +
          internal::num_or(internal::nearest_rank_percentile(s.us, 50), "%.1f") + " | " +
          internal::num_or(internal::nearest_rank_percentile(s.us, 95), "%.1f") + " |\n";
  md += "\n";

  md += "## Wrong outcomes (test)\n\n";
  std::string rows;
  std::size_t wrong = 0;
  for (const ChainResult& x : r.results) {
    const ChainQuestion& q = r.set->questions[x.question];
    if (q.split != Split::kTest || x.hit_type_correct) continue;
    ++wrong;
    std::string detail;
    if (!x.error.empty()) detail = x.error;
    if (x.execution.faq_direct && x.execution.faq_direct->has_candidate) {
      const FaqDirectDecision& d = *x.execution.faq_direct;
      detail += "FAQ " + d.faq_id + " score " + internal::num_text(d.score) +
                (d.exact_only ? " (exact only)" : " vs " + internal::num_text(d.threshold));
    }
    if (q.expected_faq_id) detail += "; expected " + *q.expected_faq_id;
    rows += "| " + q.id + " | " + cell(q.question) + " | " + std::string(to_string(q.expected_hit_type)) +
            " | " + std::string(to_string(x.predicted)) + " | " + cell(x.plan_reason.empty() ? x.route_reason : x.plan_reason) +
            " | " + cell(detail) + " |\n";
  }
  if (wrong == 0) {
    md += "None.\n\n";
  } else {
    md += std::to_string(wrong) + " of " + std::to_string(r.test.questions) + " test questions.\n\n"
          "| id | question | expected | got | plan reason | FAQ decision |\n|---|---|---|---|---|---|\n" +
          rows + "\n";
  }

  md += "## Definitions\n\n";
  for (const auto& d : kDefinitions) md += "- **" + std::string(d[0]) + "**: " + d[1] + ".\n";
  md += "- Rates show their counts as (numerator/denominator); averages show how many questions "
        "they average over (n = …); \"n/a\" means the denominator is 0.\n";
  return md;
}

std::vector<std::pair<std::string, std::string>> chain_report_charts(const ChainReport& r) {
  BarChart bars;
  bars.title = "Evidence recall@k by category (test, " + r.dataset_version + ")";
  bars.y_label = "evidence recall";
  bars.y_max = 1.0;
  for (std::size_t k : kChainKs) bars.series.push_back("recall@" + std::to_string(k));
  for (const auto& [c, m] : r.test_by_category) {
    if (m.positives == 0) continue;
    BarChart::Group g;
    g.label = c;
    g.note = "n = " + std::to_string(m.positives);
    for (std::size_t k = 0; k < kChainKs.size(); ++k) g.values.push_back(m.evidence_recall(k).value_or(NAN));
    bars.groups.push_back(std::move(g));
  }
  LineChart lat;
  lat.title = "Latency distribution per question (all " + std::to_string(r.all.questions) + " questions)";
  lat.x_label = "microseconds (one thread)";
  lat.y_label = "share of questions at or below";
  lat.y_min = 0;
  lat.y_max = 1;
  for (const StageSamples& s : stage_samples(r)) {
    if (s.name != "prepare" && s.name != "analyze" && s.name != "execute" && s.name != "chain")
      continue;
    std::vector<double> v = s.us;
    std::sort(v.begin(), v.end());
    ChartSeries ser;
    ser.name = s.name + " (n = " + std::to_string(v.size()) + ")";
    ser.step = true;
    for (std::size_t i = 0; i < v.size(); ++i)
      ser.points.emplace_back(v[i], static_cast<double>(i + 1) / static_cast<double>(v.size()));
    lat.series.push_back(std::move(ser));
  }
  // A few slow outliers would squash the body of the distribution: the axis ends at twice the
  // chain's p95 (slower questions sit on the right edge).
  for (const StageSamples& s : stage_samples(r))
    if (s.name == "chain")
      if (auto p95 = internal::nearest_rank_percentile(s.us, 95)) {
        lat.x_max = 2 * *p95;
        lat.x_label = "microseconds per question, one thread (axis cut at 2 × chain p95 = " +
                      internal::num_or(2 * *p95, "%.0f") + " µs)";
      }
  lat.x_min = 0;
  return {{"recall-by-category.svg", render_bar_chart(bars)}, {"latency.svg", render_line_chart(lat)}};
}

}  // namespace qaplan
