// The rewrite evaluation (docs/eval-rewrite.md): see include/qaplan/eval/rewrite_eval.hpp.
#include "qaplan/eval/rewrite_eval.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "common/json_reader.hpp"
#include "eval/evidence_rank.hpp"
#include "eval/labels_check.hpp"
#include "eval/report_util.hpp"
#include "qaplan/eval/chain_eval.hpp"
#include "qaplan/eval/dataset.hpp"
#include "qaplan/eval/scope.hpp"
#include "qaplan/io.hpp"
#include "qaplan/planning/plan.hpp"
#include "qaplan/ranking/bm25.hpp"
#include "qaplan/ranking/fusion.hpp"
#include "qaplan/ranking/tokenizer.hpp"
#include "retrieval/fusion.hpp"
#include "retrieval/tfidf_cosine.hpp"

namespace qaplan {
namespace js = internal::json;
using ordered_json = nlohmann::ordered_json;
using Clock = std::chrono::steady_clock;

std::string_view to_string(RewriteArm arm) noexcept {
  switch (arm) {
    case RewriteArm::kRaw: return "raw";
    case RewriteArm::kRewrite: return "rewrite";
    case RewriteArm::kRewriteVariants: return "rewrite_variants";
    case RewriteArm::kFull: return "full";
  }
  return "raw";
}

// ---------------------------------------------------------------------------------------------
// Loading
// ---------------------------------------------------------------------------------------------

Result<FollowupSet> load_followup_set(const NamedText& file, const NamedText& registry) {
  FollowupSet set;
  set.name = file.name;
  std::map<std::string, int> ids;
  QAPLAN_TRY(internal::for_each_jsonl_line(file.text, file.name, [&](const js::Json& o, int line) {
    js::expect_keys(o, "", {"id", "history", "question", "full_question", "expected_chunk_ids",
                            "expected_faq_id", "family"});
    FollowupQuestion q;
    q.id = js::req_string(o, "", "id");
    if (auto [it, fresh] = ids.emplace(q.id, line); !fresh)
      js::fail("id", "duplicate id \"" + q.id + "\" (first on line " + std::to_string(it->second) +
                         ")");
    q.history = internal::string_array(o, "", "history", true);
    if (q.history.size() > 3) js::fail("history", "at most 3 earlier turns");
    q.question = js::req_string(o, "", "question");
    q.full_question = js::req_string(o, "", "full_question");
    q.expected_chunk_ids = internal::string_array(o, "", "expected_chunk_ids", false);
    q.expected_faq_id = js::opt_string(o, "", "expected_faq_id");
    if (q.expected_chunk_ids.empty() && !q.expected_faq_id)
      js::fail("expected_chunk_ids", "no evidence: neither expected_chunk_ids nor expected_faq_id");
    q.family = js::req_string(o, "", "family");
    if (std::find(std::begin(kFollowupFamilies), std::end(kFollowupFamilies), q.family) ==
        std::end(kFollowupFamilies))
      js::fail("family", "unknown family \"" + q.family +
                             "\" (pronoun|ellipsis|comparison|continuation|conditional)");
    set.questions.push_back(std::move(q));
  }));
  if (set.questions.empty()) return make_file_error(ErrorCode::kInvalidInput, "no question", file.name);
  QAPLAN_ASSIGN_OR_RETURN(RegisteredFile reg, verify_chain_file(file, registry));
  set.version = reg.version;
  set.kb_version = reg.kb_version;
  set.sha256 = reg.sha256;
  return set;
}

Result<FollowupSet> read_followup_set(const std::filesystem::path& file) {
  QAPLAN_ASSIGN_OR_RETURN(std::string text, read_file(file, "follow-up set"));
  const std::filesystem::path reg = file.parent_path() / "fingerprints.json";
  QAPLAN_ASSIGN_OR_RETURN(std::string reg_text, read_file(reg, "chain fingerprint registry"));
  return load_followup_set({file.filename().string(), std::move(text)},
                           {reg.filename().string(), std::move(reg_text)});
}

// ---------------------------------------------------------------------------------------------
// Metrics
// ---------------------------------------------------------------------------------------------

std::optional<double> ArmMetrics::recall(std::size_t k_index) const {
  if (questions == 0) return std::nullopt;
  return recall_sum[k_index] / static_cast<double>(questions);
}
std::optional<double> ArmMetrics::mrr() const {
  if (questions == 0) return std::nullopt;
  return rr_sum / static_cast<double>(questions);
}

double row_recall(const RewriteRow& row, RewriteArm arm, std::size_t k) {
  const ArmOutcome& a = row.arms[static_cast<std::size_t>(arm)];
  if (row.items.empty()) return 0.0;
  std::size_t found = 0;
  for (const auto& r : a.ranks) found += r && *r <= k;
  return static_cast<double>(found) / static_cast<double>(row.items.size());
}

double row_reciprocal_rank(const RewriteRow& row, RewriteArm arm) {
  const ArmOutcome& a = row.arms[static_cast<std::size_t>(arm)];
  std::optional<std::size_t> best;
  for (const auto& r : a.ranks)
    if (r && (!best || *r < *best)) best = r;
  return best && *best <= 10 ? 1.0 / static_cast<double>(*best) : 0.0;
}

namespace {

void add_ledger(LedgerTotals& t, const LedgerTotals& x) {
  t.model_calls += x.model_calls;
  t.retrieval_calls += x.retrieval_calls;
  t.variant_paths += x.variant_paths;
  t.hook_failures += x.hook_failures;
  t.variants_rejected += x.variants_rejected;
}

void accumulate(ArmMetrics& m, const RewriteRow& row, RewriteArm arm) {
  const ArmOutcome& a = row.arms[static_cast<std::size_t>(arm)];
  if (!a.ran) return;
  ++m.questions;
  m.items += row.items.size();
  for (std::size_t i = 0; i < kRewriteKs.size(); ++i) {
    for (const auto& r : a.ranks) m.items_found[i] += r && *r <= kRewriteKs[i];
    m.recall_sum[i] += row_recall(row, arm, kRewriteKs[i]);
  }
  m.rr_sum += row_reciprocal_rank(row, arm);
  m.errors += !a.error.empty();
  add_ledger(m.cost, a.cost);
}

LedgerTotals ledger_of(const CostLedger& c) {
  return {c.model_calls, c.retrieval_calls, c.variant_paths, c.hook_failures, c.variants_rejected};
}

// A single search path costs one retrieval per collection the plan searches.
LedgerTotals single_path(const Preparation& prep) {
  LedgerTotals t;
  if (!prep.plan) return t;
  t.variant_paths = 1;
  t.retrieval_calls = int{prep.plan->knobs().run_faq} + int{prep.plan->knobs().run_doc};
  return t;
}

// The evaluation planner's config: query variants on in every plan.
Config variants_forced(Config c) {
  const KnobId id = *find_knob("use_query_variants");
  set_knob(c.retrieval_strategy.defaults, id, 1.0);
  for (PlanPatchConfig& p : c.retrieval_strategy.patches)
    for (PatchChange& ch : p.changes)
      if (ch.knob == id) {
        ch.op = PatchOp::kSet;
        ch.value = 1.0;
      }
  return c;
}

// ---------------------------------------------------------------------------------------------
// Follow-ups over the knowledge base
// ---------------------------------------------------------------------------------------------

void judge(const KbIndex& kb, const FollowupQuestion& q, const Execution& e, ArmOutcome& a) {
  a.ranks.clear();
  if (q.expected_faq_id) a.ranks.push_back(internal::faq_rank(e, *q.expected_faq_id));
  for (const std::string& c : q.expected_chunk_ids)
    a.ranks.push_back(internal::chunk_rank(kb, e, c));
}

void run_arm(const Preparation& prep, const KbIndex& kb, const FollowupQuestion& q,
             ExecutionInputs inputs, ArmOutcome& a) {
  a.ran = true;
  auto ex = execute_plan(prep, kb, inputs);
  if (!ex.ok()) {
    a.error = ex.error().to_string();
    a.ranks.assign((q.expected_faq_id ? 1 : 0) + q.expected_chunk_ids.size(), std::nullopt);
    return;
  }
  a.query = ex->query;
  a.variants = ex->variants;
  a.hit_type = std::string(to_string(ex->hit_type));
  judge(kb, q, *ex, a);
}

RewriteRow run_followup(const Planner& planner, const Planner& shipped, const KbIndex& kb,
                        const FollowupQuestion& q) {
  RewriteRow row;
  row.collection = "followups";
  row.id = q.id;
  row.family = q.family;
  row.question = q.question;
  row.history = q.history;
  row.full_question = q.full_question;
  if (q.expected_faq_id) row.items.push_back("faq:" + *q.expected_faq_id);
  for (const std::string& c : q.expected_chunk_ids) row.items.push_back("chunk:" + c);
  const auto fail_all = [&](const std::string& err) {
    for (ArmOutcome& a : row.arms) {
      a.ran = true;
      a.error = err;
      a.ranks.assign(row.items.size(), std::nullopt);
    }
  };
  auto prep = planner.prepare(PrepareRequest{q.question, q.history, "", std::nullopt});
  if (!prep.ok()) {
    fail_all(prep.error().to_string());
    return row;
  }
  if (auto sp = shipped.prepare(PrepareRequest{q.question, q.history, "", std::nullopt});
      sp.ok() && sp->plan)
    row.shipped_plan_variants = sp->plan->knobs().use_query_variants;
  if (prep->intent) row.intent = std::string(to_string(prep->intent->intent));
  auto an = planner.analyze(*prep);
  if (!an.ok()) {
    fail_all(an.error().to_string());
    return row;
  }
  row.rewritten = an->rewrite.rewritten;
  row.rewrite_by = an->rewrite.by;
  row.rewrite_reasons = an->rewrite.reasons;
  for (const QueryVariant& v : an->variants) row.variant_kinds.push_back(v.kind);
  const std::string& rq = an->rewrite.query;

  ArmOutcome& raw = row.arms[0];
  run_arm(*prep, kb, q, ExecutionInputs{prep->normalized.text, {}, {}}, raw);
  raw.cost = single_path(*prep);

  ArmOutcome& rw = row.arms[1];
  run_arm(*prep, kb, q, ExecutionInputs{rq, {}, {}}, rw);
  rw.cost = single_path(*prep);

  ArmOutcome& rv = row.arms[2];
  // What execute_plan(prep, analysis) searches — the rewrite and the other variants, never the
  // fragment as typed — without the analysis' filters, which no other arm has either.
  ExecutionInputs vin = execution_inputs(*an);
  vin.query = rq;
  vin.filters = {};
  run_arm(*prep, kb, q, vin, rv);
  rv.cost = ledger_of(an->cost);

  ArmOutcome& full = row.arms[3];
  auto fprep = planner.prepare(PrepareRequest{q.full_question, {}, "", std::nullopt});
  if (!fprep.ok()) {
    full.ran = true;
    full.error = fprep.error().to_string();
    full.ranks.assign(row.items.size(), std::nullopt);
  } else {
    run_arm(*fprep, kb, q, ExecutionInputs{}, full);
    full.cost = single_path(*fprep);
  }
  return row;
}

// ---------------------------------------------------------------------------------------------
// The single-turn benchmark over its scoped chunks
// ---------------------------------------------------------------------------------------------

// The benchmark's one collection: BM25 and the exact local-tfidf cosine over its scoped chunks,
// the same legs the knowledge base runs (retrieval/tfidf_cosine.hpp).
struct BenchSearch {
  ScopeResult scope;
  Tokenizer tok;
  Bm25Index bm25;
  internal::TfidfCosine cosine;
  std::vector<std::uint32_t> parent_of;  // doc → (source, section) group
  RrfOptions rrf;
};

// Every path adds its cosine and BM25 lists (untruncated); the fused list keeps the best chunk
// per section.
Result<RankedList> bench_search(const BenchSearch& s, const std::vector<std::string>& paths) {
  std::vector<RankedList> lists;
  std::vector<double> acc;
  for (const std::string& p : paths) {
    // A path that does not tokenize has two empty lists, like one without a vocabulary token.
    auto t = s.tok.tokenize(p);
    lists.push_back(t.ok() ? s.cosine.search(s.cosine.weigh(*t), acc) : RankedList{});
    lists.push_back(t.ok() ? s.bm25.search(*t, 0) : RankedList{});
  }
  const internal::FuseCut by_section{internal::kKeepAll,
                                     [&](std::uint32_t doc) { return s.parent_of[doc]; }};
  QAPLAN_ASSIGN_OR_RETURN(std::vector<FusedHit> fused,
                          internal::fuse_legs(lists, s.rrf, by_section));
  return internal::fused_scores(fused);
}

void judge_bench(const RankedList& hits, const std::vector<std::uint32_t>& relevant,
                 ArmOutcome& a) {
  a.ranks.clear();
  for (std::uint32_t d : relevant) {
    std::optional<std::size_t> rank;
    for (std::size_t i = 0; i < hits.size(); ++i)
      if (hits[i].doc == d) {
        rank = i + 1;
        break;
      }
    a.ranks.push_back(rank);
  }
}

Status run_bench_collection(const Planner& planner, const Planner& shipped,
                            const NamedText& dataset, const NamedText& registry,
                            RewriteEvalReport& r) {
  QAPLAN_ASSIGN_OR_RETURN(Dataset ds, parse_dataset(dataset.text, dataset.name));
  QAPLAN_ASSIGN_OR_RETURN(Fingerprints fp, verify_fingerprints(ds, registry.text, registry.name));
  r.bench_name = dataset.name;
  r.bench_version = ds.version;
  r.bench_dataset_sha256 = fp.dataset_sha256;
  r.bench_corpus_sha256 = fp.corpus_sha256;
  ScopeResult scope = select_policy_scope(ds);
  QAPLAN_TRY(check_labels_in_scope(ds, scope));
  r.bench_scoped_chunks = scope.chunks.size();
  QAPLAN_ASSIGN_OR_RETURN(Tokenizer tok, Tokenizer::create());
  std::vector<std::vector<std::string>> doc_tokens;
  std::vector<std::string> texts;
  std::vector<std::uint32_t> parent_of;
  std::map<std::pair<std::string, std::string>, std::uint32_t> parents;
  for (const Chunk& c : scope.chunks) {
    QAPLAN_ASSIGN_OR_RETURN(std::vector<std::string> t, tok.tokenize(c.text));
    doc_tokens.push_back(std::move(t));
    texts.push_back(c.text);
    parent_of.push_back(
        parents.emplace(std::pair{c.source, c.section}, static_cast<std::uint32_t>(parents.size()))
            .first->second);
  }
  QAPLAN_ASSIGN_OR_RETURN(Bm25Index bm25, Bm25Index::create(doc_tokens));
  QAPLAN_ASSIGN_OR_RETURN(internal::TfidfCosine cosine,
                          internal::TfidfCosine::fit(texts, doc_tokens));
  // Every chunk needs a vector: a chunk without a vocabulary token is refused, as embedding it
  // would be.
  for (std::size_t i = 0; i < doc_tokens.size(); ++i)
    if (doc_tokens[i].empty())
      return make_error(ErrorCode::kInvalidInput, "chunk has no token in the corpus vocabulary",
                        "chunk " + scope.chunks[i].id);
  BenchSearch s{std::move(scope), std::move(tok), std::move(bm25), std::move(cosine),
                std::move(parent_of), RrfOptions{}};

  for (const Query& q : ds.queries) {
    if (!q.grounded()) continue;  // recall needs evidence; negatives have none
    RewriteRow row;
    row.collection = "benchmark";
    row.id = q.id;
    row.family = "single_turn";
    row.question = q.text;
    for (const SectionRef& ref : q.relevant)
      row.items.push_back("section:" + ref.source + "/" + ref.section);
    const std::vector<std::uint32_t> relevant = relevant_docs(s.scope, q);
    row.arms[3].ran = false;
    const auto fail_all = [&](const std::string& err) {
      for (std::size_t i = 0; i < 3; ++i) {
        row.arms[i].ran = true;
        row.arms[i].error = err;
        row.arms[i].ranks.assign(row.items.size(), std::nullopt);
      }
    };
    auto prep = planner.prepare(PrepareRequest{q.text, {}, "", std::nullopt});
    if (!prep.ok()) {
      fail_all(prep.error().to_string());
      r.rows.push_back(std::move(row));
      continue;
    }
    if (auto sp = shipped.prepare(PrepareRequest{q.text, {}, "", std::nullopt}); sp.ok() && sp->plan)
      row.shipped_plan_variants = sp->plan->knobs().use_query_variants;
    if (prep->intent) row.intent = std::string(to_string(prep->intent->intent));
    auto an = planner.analyze(*prep);
    if (!an.ok()) {
      fail_all(an.error().to_string());
      r.rows.push_back(std::move(row));
      continue;
    }
    row.rewritten = an->rewrite.rewritten;
    row.rewrite_by = an->rewrite.by;
    row.rewrite_reasons = an->rewrite.reasons;
    for (const QueryVariant& v : an->variants) row.variant_kinds.push_back(v.kind);
    const std::string rq = an->rewrite.query;
    // Every arm searches both lists of its paths (the benchmark has one collection).
    const auto one = [](std::size_t paths) {
      LedgerTotals t;
      t.variant_paths = static_cast<long>(paths);
      t.retrieval_calls = static_cast<long>(paths);
      return t;
    };
    std::vector<std::vector<std::string>> arm_paths(3);
    arm_paths[0] = {prep->normalized.text};
    arm_paths[1] = {rq};
    arm_paths[2] = {rq};
    for (const QueryVariant& v : an->variants)
      if (v.text != rq) arm_paths[2].push_back(v.text);
    for (std::size_t i = 0; i < 3; ++i) {
      ArmOutcome& a = row.arms[i];
      a.ran = true;
      a.query = arm_paths[i].front();
      a.variants.assign(arm_paths[i].begin() + 1, arm_paths[i].end());
      a.cost = one(arm_paths[i].size());
      if (i == 2) {
        a.cost.model_calls = an->cost.model_calls;
        a.cost.hook_failures = an->cost.hook_failures;
        a.cost.variants_rejected = an->cost.variants_rejected;
      }
      auto hits = bench_search(s, arm_paths[i]);
      if (!hits.ok()) {
        a.error = hits.error().to_string();
        a.ranks.assign(row.items.size(), std::nullopt);
        continue;
      }
      judge_bench(*hits, relevant, a);
    }
    r.rows.push_back(std::move(row));
  }
  return {};
}

void summarize(const std::vector<RewriteRow>& rows, std::string_view collection,
               CollectionMetrics& m) {
  for (const RewriteRow& row : rows) {
    if (row.collection != collection) continue;
    auto& fam = m.by_family[row.family];
    m.rewritten += row.rewritten;
    m.rewritten_by_family[row.family] += row.rewritten;
    for (std::size_t a = 0; a < kRewriteArmCount; ++a) {
      accumulate(m.all[a], row, static_cast<RewriteArm>(a));
      accumulate(fam[a], row, static_cast<RewriteArm>(a));
    }
  }
}

}  // namespace

Result<RewriteEvalReport> run_eval_rewrite(const Config& config, std::string_view config_sha256,
                                           const KbIndex& kb, const FollowupSet& set,
                                           const NamedText* bench_dataset,
                                           const NamedText* bench_registry,
                                           const RewriteEvalOptions& options) {
  const auto t0 = Clock::now();
  QAPLAN_TRY(internal::check_labels_against_kb(set, kb));
  if (!(options.min_ratio > 0.0 && options.min_ratio <= 1.0))
    return make_error(ErrorCode::kInvalidConfig, "must be in (0, 1]", "min_ratio");
  QAPLAN_ASSIGN_OR_RETURN(Planner shipped, Planner::create(config));
  QAPLAN_ASSIGN_OR_RETURN(Planner planner, Planner::create(variants_forced(config)));

  RewriteEvalReport r;
  r.followups_name = set.name;
  r.followups_version = set.version;
  r.followups_sha256 = set.sha256;
  r.kb_version = kb.kb().version;
  r.kb_faq_sha256 = kb.kb().faq_sha256;
  r.kb_docs_sha256 = kb.kb().docs_sha256;
  r.config_sha256 = std::string(config_sha256);
  r.model = shipped.model_description();
  r.options = options;
  for (const FollowupQuestion& q : set.questions)
    r.rows.push_back(run_followup(planner, shipped, kb, q));
  if (bench_dataset && bench_registry)
    QAPLAN_TRY(run_bench_collection(planner, shipped, *bench_dataset, *bench_registry, r));
  summarize(r.rows, "followups", r.followups);
  summarize(r.rows, "benchmark", r.benchmark);
  const auto rw = r.followups.all[1].recall(1);
  const auto full = r.followups.all[3].recall(1);
  if (rw && full && *full > 0) r.ratio = *rw / *full;
  // A tiny epsilon so a ratio equal to the threshold up to rounding never flips the gate.
  r.gate_passed = r.ratio && *r.ratio >= options.min_ratio - 1e-12;
  r.total_ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  return r;
}

}  // namespace qaplan
