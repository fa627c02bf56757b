// The reports of the rewrite evaluation (docs/eval-rewrite.md): report.json and report.md of a
// RewriteEvalReport (include/qaplan/eval/rewrite_eval.hpp).
#include <string>

#include <nlohmann/json.hpp>

#include "common/json_reader.hpp"
#include "eval/report_util.hpp"
#include "qaplan/eval/rewrite_eval.hpp"

namespace qaplan {
using ordered_json = nlohmann::ordered_json;

namespace {

using internal::opt_num;

ordered_json ledger_json(const LedgerTotals& t) {
  ordered_json j;
  j["model_calls"] = t.model_calls;
  j["retrieval_calls"] = t.retrieval_calls;
  j["variant_paths"] = t.variant_paths;
  j["hook_failures"] = t.hook_failures;
  j["variants_rejected"] = t.variants_rejected;
  return j;
}

ordered_json arm_metrics_json(const ArmMetrics& m) {
  ordered_json j;
  j["questions"] = m.questions;
  j["items"] = m.items;
  for (std::size_t i = 0; i < kRewriteKs.size(); ++i) {
    const std::string k = std::to_string(kRewriteKs[i]);
    j["recall_at_" + k] = opt_num(m.recall(i));
    j["items_found_at_" + k] = m.items_found[i];
  }
  j["mrr_at_10"] = opt_num(m.mrr());
  j["errors"] = m.errors;
  j["cost"] = ledger_json(m.cost);
  return j;
}

ordered_json arms_json(const std::array<ArmMetrics, kRewriteArmCount>& arms) {
  ordered_json j = ordered_json::object();
  for (std::size_t a = 0; a < kRewriteArmCount; ++a)
    if (arms[a].questions > 0) j[std::string(to_string(static_cast<RewriteArm>(a)))] = arm_metrics_json(arms[a]);
  return j;
}

ordered_json collection_json(const CollectionMetrics& m) {
  ordered_json j;
  j["all"] = arms_json(m.all);
  ordered_json f = ordered_json::object();
  for (const auto& [name, arms] : m.by_family) f[name] = arms_json(arms);
  j["by_family"] = std::move(f);
  ordered_json rw;
  rw["all"] = m.rewritten;
  for (const auto& [name, n] : m.rewritten_by_family) rw[name] = n;
  j["rewritten"] = std::move(rw);
  return j;
}

ordered_json row_json(const RewriteRow& row) {
  ordered_json j;
  j["collection"] = row.collection;
  j["id"] = row.id;
  j["family"] = row.family;
  j["question"] = row.question;
  j["history"] = row.history;
  j["full_question"] = row.full_question.empty() ? ordered_json(nullptr) : ordered_json(row.full_question);
  j["items"] = row.items;
  j["intent"] = row.intent;
  j["rewritten"] = row.rewritten;
  j["rewrite_by"] = row.rewrite_by;
  j["rewrite_reasons"] = row.rewrite_reasons;
  j["variant_kinds"] = row.variant_kinds;
  j["shipped_plan_variants"] = row.shipped_plan_variants;
  ordered_json arms = ordered_json::object();
  for (std::size_t a = 0; a < kRewriteArmCount; ++a) {
    const ArmOutcome& o = row.arms[a];
    if (!o.ran) continue;
    ordered_json x;
    x["query"] = o.query;
    x["variants"] = o.variants;
    x["hit_type"] = o.hit_type.empty() ? ordered_json(nullptr) : ordered_json(o.hit_type);
    x["error"] = o.error.empty() ? ordered_json(nullptr) : ordered_json(o.error);
    ordered_json ranks = ordered_json::array();
    for (const auto& rk : o.ranks) ranks.push_back(rk ? ordered_json(*rk) : ordered_json(nullptr));
    x["ranks"] = std::move(ranks);
    for (std::size_t k : kRewriteKs)
      x["recall_at_" + std::to_string(k)] = row_recall(row, static_cast<RewriteArm>(a), k);
    x["reciprocal_rank"] = row_reciprocal_rank(row, static_cast<RewriteArm>(a));
    x["cost"] = ledger_json(o.cost);
    arms[std::string(to_string(static_cast<RewriteArm>(a)))] = std::move(x);
  }
  j["arms"] = std::move(arms);
  return j;
}

}  // namespace

std::string rewrite_report_json(const RewriteEvalReport& r, bool pretty) {
  ordered_json j;
  j["format"] = "qaplan-eval-rewrite-1";
  ordered_json fu;
  fu["name"] = r.followups_name;
  fu["version"] = r.followups_version;
  fu["sha256"] = r.followups_sha256;
  j["followups"] = std::move(fu);
  ordered_json kbj;
  kbj["version"] = r.kb_version;
  kbj["faq_sha256"] = r.kb_faq_sha256;
  kbj["docs_sha256"] = r.kb_docs_sha256;
  j["knowledge_base"] = std::move(kbj);
  if (!r.bench_name.empty()) {
    ordered_json b;
    b["name"] = r.bench_name;
    b["version"] = r.bench_version;
    b["dataset_sha256"] = r.bench_dataset_sha256;
    b["corpus_sha256"] = r.bench_corpus_sha256;
    b["scoped_chunks"] = r.bench_scoped_chunks;
    b["retrieval"] = "local-tfidf cosine + BM25 (untruncated), RRF k 60, per path; deduplicated by section";
    j["benchmark"] = std::move(b);
  } else {
    j["benchmark"] = nullptr;
  }
  ordered_json cfg;
  cfg["sha256"] = r.config_sha256;
  cfg["model"] = r.model;
  cfg["variants"] = "forced on in every plan of the evaluation planner (arm rewrite_variants)";
  j["config"] = std::move(cfg);
  ordered_json arms = ordered_json::array();
  for (std::size_t a = 0; a < kRewriteArmCount; ++a) arms.push_back(to_string(static_cast<RewriteArm>(a)));
  j["arms"] = std::move(arms);
  ordered_json gate;
  gate["metric"] = "recall_at_5(rewrite) / recall_at_5(full) on the follow-ups";
  gate["min_ratio"] = r.options.min_ratio;
  gate["rewrite_recall_at_5"] = opt_num(r.followups.all[1].recall(1));
  gate["full_recall_at_5"] = opt_num(r.followups.all[3].recall(1));
  gate["ratio"] = opt_num(r.ratio);
  gate["passed"] = r.gate_passed;
  j["gate"] = std::move(gate);
  ordered_json metrics;
  metrics["followups"] = collection_json(r.followups);
  metrics["benchmark"] = r.bench_name.empty() ? ordered_json(nullptr) : collection_json(r.benchmark);
  j["metrics"] = std::move(metrics);
  ordered_json rows = ordered_json::array();
  for (const RewriteRow& row : r.rows) rows.push_back(row_json(row));
  j["questions"] = std::move(rows);
  ordered_json timing;
  timing["total_ms"] = r.total_ms;
  j["timing"] = std::move(timing);
  return pretty ? j.dump(2) + "\n" : j.dump() + "\n";
}

namespace {

using internal::cell;
using internal::pct_or;

void arm_table(std::string& md, const std::array<ArmMetrics, kRewriteArmCount>& arms) {
  md += "| arm | questions | Recall@1 | Recall@5 | Recall@10 | MRR@10 | items found @5 | model calls | "
        "retrieval calls | variant paths | errors |\n|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (std::size_t a = 0; a < kRewriteArmCount; ++a) {
    const ArmMetrics& m = arms[a];
    if (m.questions == 0) continue;
    md += "| " + std::string(to_string(static_cast<RewriteArm>(a))) + " | " +
          std::to_string(m.questions) + " | " + pct_or(m.recall(0)) + " | " + pct_or(m.recall(1)) +
          " | " + pct_or(m.recall(2)) + " | " + internal::num_or(m.mrr(), "%.3f") + " | " +
          internal::count_text(m.items_found[1], m.items) + " | " +
          std::to_string(m.cost.model_calls) + " | " + std::to_string(m.cost.retrieval_calls) +
          " | " + std::to_string(m.cost.variant_paths) + " | " + std::to_string(m.errors) + " |\n";
  }
}

void family_table(std::string& md, const CollectionMetrics& m, bool with_full) {
  md += std::string("| family | questions | rewritten | raw R@5 | rewrite R@5 | rewrite+variants R@5 |") +
        (with_full ? " full R@5 | rewrite / full |" : "") + " rewrite MRR |\n|---|---|---|---|---|---|" +
        (with_full ? "---|---|" : "") + "---|\n";
  for (const auto& [name, arms] : m.by_family) {
    const auto rw = m.rewritten_by_family.find(name);
    md += "| " + cell(name) + " | " + std::to_string(arms[0].questions) + " | " +
          std::to_string(rw == m.rewritten_by_family.end() ? 0 : rw->second) + " | " +
          pct_or(arms[0].recall(1)) + " | " + pct_or(arms[1].recall(1)) + " | " +
          pct_or(arms[2].recall(1)) + " |";
    if (with_full) {
      std::optional<double> ratio;
      if (arms[1].recall(1) && arms[3].recall(1) && *arms[3].recall(1) > 0)
        ratio = *arms[1].recall(1) / *arms[3].recall(1);
      md += ' ';
      md += pct_or(arms[3].recall(1));
      md += " | ";
      md += pct_or(ratio);
      md += " |";
    }
    md += ' ';
    md += internal::num_or(arms[1].mrr(), "%.3f");
    md += " |\n";
  }
}

}  // namespace

std::string rewrite_report_markdown(const RewriteEvalReport& r) {
  std::string md = "# qaplan eval-rewrite\n\n";
  md += "Follow-ups `" + cell(r.followups_name) + "` (" + cell(r.followups_version) + ", sha256 `" +
        r.followups_sha256.substr(0, 12) + "…`) over knowledge base " + cell(r.kb_version);
  if (!r.bench_name.empty())
    md += "; benchmark `" + cell(r.bench_name) + "` (" + cell(r.bench_version) + ", " +
          std::to_string(r.bench_scoped_chunks) + " scoped chunks)";
  md += ". Config sha256 `" + r.config_sha256.substr(0, 12) + "…`, model " + cell(r.model) + ".\n\n";
  md += "## Gate\n\nRecall@5 of the rewritten follow-ups / Recall@5 of the same questions written out "
        "in full: **" + pct_or(r.ratio) + "** (" + pct_or(r.followups.all[1].recall(1)) + " / " +
        pct_or(r.followups.all[3].recall(1)) + "), threshold " + pct_or(r.options.min_ratio) +
        " — **" + (r.gate_passed ? "passed" : "FAILED") + "**.\n\n";
  md += "## Arms\n\n"
        "- `raw`: the follow-up as typed, no history, no variants;\n"
        "- `rewrite`: the built-in rewrite only (the history is used to rewrite, never searched);\n"
        "- `rewrite_variants`: what the executor searches — the rewrite plus the glossary and hook "
        "variants (never the fragment as typed), all lists fused by RRF, deduplicated by section; "
        "variants forced on;\n"
        "- `full`: the question written out in full, prepared on its own (the ceiling).\n\n"
        "An evidence item is an expected chunk (found when its section is among the first k "
        "document hits) or the expected FAQ (among the first k FAQ hits); Recall@k = found / items "
        "per question, averaged over questions; MRR@10 = 1 / best rank of any item within 10. "
        "Cost = cost-ledger totals (retrieval calls = paths × collections searched).\n\n";
  md += "## Follow-ups\n\n";
  arm_table(md, r.followups.all);
  md += "\n### By family (Recall@5)\n\n";
  family_table(md, r.followups, true);
  if (!r.bench_name.empty()) {
    md += "\n## Benchmark (single turn)\n\nGrounded queries only. A single-turn question is not "
          "rewritten, so `rewrite` equals `raw` unless the planner treats it as a follow-up; only "
          "variants can change the ranking.\n\n";
    arm_table(md, r.benchmark.all);
  }
  md += "\n## Follow-ups the rewrite misses (Recall@5 of `rewrite` below `full`)\n\n"
        "| id | family | intent | question | rewrite | rewrite R@5 | full R@5 |\n"
        "|---|---|---|---|---|---|---|\n";
  std::size_t shown = 0;
  for (const RewriteRow& row : r.rows) {
    if (row.collection != "followups") continue;
    const double rw = row_recall(row, RewriteArm::kRewrite, 5);
    const double full = row_recall(row, RewriteArm::kFull, 5);
    if (rw + 1e-12 >= full) continue;
    ++shown;
    md += "| " + cell(row.id) + " | " + cell(row.family) + " | " + cell(row.intent) + " | " +
          cell(row.question) + " | " + (row.rewritten ? cell(row.arms[1].query) : "(not rewritten)") + " | " + pct_or(rw) + " | " + pct_or(full) + " |\n";
  }
  if (shown == 0) md += "| — | | | | | | |\n";
  md += "\nPer-question rows with every arm's ranks are in report.json.\n";
  return md;
}

}  // namespace qaplan
