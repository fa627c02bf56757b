// report.json and report.md of the policy-retrieval benchmark (bench.hpp). nlohmann_json stays in
// this file; its number output is the shortest round-trip form, so equal runs give equal bytes.
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "qaplan/eval/bench.hpp"
#include "qaplan/version.hpp"

namespace qaplan {
namespace {

using nlohmann::ordered_json;

template <class T>
ordered_json opt(const std::optional<T>& v) {
  return v ? ordered_json(*v) : ordered_json(nullptr);
}

ordered_json metrics_json(const RetrievalMetrics& m) {
  ordered_json j;
  j["queries"] = m.queries;
  j["positives"] = m.positives;
  j["negatives"] = m.negatives;
  j["raw_recall_at_1"] = opt(m.raw_recall_at_1);
  j["raw_recall_at_3"] = opt(m.raw_recall_at_3);
  j["raw_mrr_at_3"] = opt(m.raw_mrr_at_3);
  j["accepted_recall_at_3"] = opt(m.accepted_recall_at_3);
  j["evidence_precision"] = opt(m.evidence_precision);
  j["supported_positive_rate"] = opt(m.supported_positive_rate);
  j["false_reject_rate"] = opt(m.false_reject_rate);
  j["ood_rejection"] = opt(m.ood_rejection);
  j["counts"] = {{"returned_chunks", m.returned_chunks},
                 {"relevant_returned_chunks", m.relevant_returned_chunks},
                 {"supported_positives", m.supported_positives},
                 {"rejected_positives", m.rejected_positives},
                 {"rejected_negatives", m.rejected_negatives},
                 {"review_cases", m.review_cases}};
  return j;
}

ordered_json latency_json(const LatencySummary& s) {
  return {
      {"samples", s.samples}, {"p50_ranking_ms", opt(s.p50_ms)}, {"p95_ranking_ms", opt(s.p95_ms)}};
}

ordered_json calibration_json(const Calibration& c) {
  ordered_json rows = ordered_json::array();
  for (const ThresholdCandidate& t : c.candidates)
    rows.push_back({{"threshold", t.threshold},
                    {"supported_positives", t.supported_positives},
                    {"rejected_negatives", t.rejected_negatives},
                    {"returned_chunks", t.returned_chunks},
                    {"supported_positive_rate", t.supported_positive_rate},
                    {"negative_rejection_rate", t.negative_rejection_rate},
                    {"objective", t.objective}});
  return {{"split", "dev"},
          {"objective", "(supported_positive_rate + negative_rejection_rate) / 2"},
          {"tie_breaks",
           {"higher negative_rejection_rate", "higher supported_positive_rate",
            "fewer returned_chunks", "higher threshold"}},
          {"positives", c.positives},
          {"negatives", c.negatives},
          {"chosen_index", c.chosen_index},
          {"candidates", std::move(rows)}};
}

ordered_json hit_json(const BenchHit& h) {
  return {{"rank", h.rank},
          {"chunk_id", h.chunk_id},
          {"source", h.source},
          {"section", h.section},
          {"score", h.score},
          {"cosine", opt(h.cosine)},
          {"bm25", opt(h.bm25)},
          {"fused", opt(h.fused)},
          {"vector_rank", opt(h.vector_rank)},
          {"bm25_rank", opt(h.bm25_rank)},
          {"relevant", h.relevant},
          {"accepted", h.accepted}};
}

std::string pct(const std::optional<double>& v) {
  if (!v) return "null";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", *v * 100.0);
  return buf;
}

std::string num(const std::optional<double>& v, const char* fmt = "%.3f") {
  if (!v) return "–";
  char buf[48];
  std::snprintf(buf, sizeof buf, fmt, *v);
  return buf;
}

std::string threshold_text(double t) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.6g", t);
  return buf;
}

// Markdown table cells must not break the table.
std::string cell(std::string s) {
  std::string out;
  for (char c : s) {
    if (c == '|')
      out += "\\|";
    else if (c == '\n' || c == '\r')
      out += ' ';
    else
      out += c;
  }
  return out;
}

}  // namespace

std::string bench_report_json(const BenchRun& run, bool pretty) {
  ordered_json j;
  j["schema_version"] = 1;
  j["report"] = "qaplan policy-retrieval benchmark";
  j["qaplan_version"] = QAPLAN_VERSION_STRING;
  j["dataset"] = {{"name", run.dataset_name},
                  {"version", run.dataset_version},
                  {"time_point", run.time_point},
                  {"dataset_sha256", run.dataset_sha256},
                  {"corpus_sha256", run.corpus_sha256}};
  j["tokenizer_version"] = run.tokenizer_version;
  j["backend"] = std::string(to_string(run.backend));
  ordered_json vec = {{"model", run.vector_model}, {"dimensions", run.dimensions}};
  if (run.backend == VectorBackend::kCached) {
    vec["query_vectors"] = run.query_vectors_name;
    vec["index_vectors"] = run.index_vectors_name;
    vec["index_sha256"] = run.index_sha256;
    vec["provenance"] = run.vector_provenance;
  } else {
    vec["note"] =
        "local-tfidf: TF-IDF term vectors fitted on the in-scope chunk bodies only; a proxy that "
        "tests the cosine/BM25/RRF/threshold machinery, not a deployed semantic embedding";
  }
  j["vectors"] = std::move(vec);
  j["parameters"] = {{"bm25",
                      {{"k1", run.options.bm25.k1},
                       {"b", run.options.bm25.b},
                       {"norms", std::string(to_string(run.options.bm25.norms))}}},
                     {"hnsw",
                      {{"m", run.options.hnsw.m},
                       {"ef_construction", run.options.hnsw.ef_construction},
                       {"ef_search", run.options.hnsw.ef_search},
                       {"seed", run.options.hnsw.seed}}},
                     {"rrf", {{"k", run.options.rrf_k}}},
                     {"returned_top_k", kReturnedTopK},
                     {"acceptance", "score >= threshold, among the top 3"}};
  ordered_json excl = ordered_json::array();
  for (const BenchExclusion& e : run.exclusions)
    excl.push_back({{"chunk_id", e.chunk_id},
                    {"policy_id", e.policy_id},
                    {"version", e.version},
                    {"section", e.section},
                    {"reason", e.reason},
                    {"detail", e.detail}});
  j["scope"] = {{"time_point", run.time_point},
                {"in_scope", run.scoped_chunk_ids},
                {"excluded", std::move(excl)}};

  ordered_json methods = ordered_json::array();
  for (const BenchMethod& m : run.methods) {
    ordered_json mj;
    mj["name"] = m.name;
    mj["score"] = m.score_name;
    mj["threshold"] = m.threshold;
    mj["threshold_source"] = m.calibrated ? "dev_calibration" : "fixed";
    mj["calibration"] = m.calibration ? calibration_json(*m.calibration) : ordered_json(nullptr);
    mj["metrics"] = {{"dev", metrics_json(m.dev)}, {"test", metrics_json(m.test)}};
    mj["timing"] = {{"dev", latency_json(m.dev_latency)}, {"test", latency_json(m.test_latency)}};
    methods.push_back(std::move(mj));
  }
  j["methods"] = std::move(methods);

  ordered_json queries = ordered_json::array();
  for (const BenchQuery& q : run.queries) {
    ordered_json qj;
    qj["id"] = q.id;
    qj["query"] = q.text;
    qj["split"] = q.split;
    qj["grounded"] = !q.relevant.empty();
    qj["reason"] = q.reason;
    qj["tags"] = q.tags;
    ordered_json rel = ordered_json::array();
    for (const auto& [source, section] : q.relevant)
      rel.push_back({{"source", source}, {"section", section}});
    qj["relevant"] = std::move(rel);
    ordered_json per = ordered_json::object();
    for (std::size_t i = 0; i < q.methods.size() && i < run.methods.size(); ++i) {
      const MethodQueryResult& r = q.methods[i];
      const QueryOutcome& o = r.outcome;
      ordered_json hits = ordered_json::array();
      for (const BenchHit& h : r.hits) hits.push_back(hit_json(h));
      ordered_json review = ordered_json::array();
      if (o.review_missing_section) review.push_back("positive_missing_relevant_section");
      if (o.review_negative_returned) review.push_back("negative_returned_evidence");
      per[run.methods[i].name] = {
          {"threshold", run.methods[i].threshold},
          {"ranked", r.ranked},
          {"returned", o.returned},
          {"relevant_returned", o.relevant_returned},
          {"relevant_sections_raw_at_1", o.raw_sections_at_1},
          {"relevant_sections_raw_at_3", o.raw_sections_at_3},
          {"relevant_sections_returned", o.accepted_sections},
          {"first_relevant_rank", o.first_relevant_rank == 0 ? ordered_json(nullptr)
                                                             : ordered_json(o.first_relevant_rank)},
          {"review", std::move(review)},
          {"hits", std::move(hits)},
          {"timing", {{"ranking_ms", r.ranking_ms}}}};
    }
    qj["methods"] = std::move(per);
    queries.push_back(std::move(qj));
  }
  j["queries"] = std::move(queries);
  j["timing"] = {{"scope_ms", run.scope_ms},
                 {"index_build_ms", run.index_build_ms},
                 {"query_prep_ms", run.query_prep_ms},
                 {"total_ms", run.total_ms},
                 {"ranking_definition",
                  "ranking_ms covers index search, score > 0 filtering and, for rrf, both "
                  "searches plus fusion; it excludes query tokenization/embedding, scope "
                  "selection and index building"}};
  std::string out = j.dump(pretty ? 2 : -1, ' ', false, ordered_json::error_handler_t::strict);
  out += '\n';
  return out;
}

std::string bench_report_markdown(const BenchRun& run) {
  std::string md;
  md += "# Policy retrieval benchmark — " + run.dataset_version + "\n\n";
  md += "| | |\n|---|---|\n";
  md += "| dataset | `" + cell(run.dataset_name) + "` (" + run.dataset_version + ", time point " +
        run.time_point + ") |\n";
  md += "| dataset SHA-256 | `" + run.dataset_sha256 + "` |\n";
  md += "| corpus SHA-256 | `" + run.corpus_sha256 + "` |\n";
  md += "| tokenizer | `" + run.tokenizer_version + "` |\n";
  md += "| backend | `" + std::string(to_string(run.backend)) + "` (model `" +
        cell(run.vector_model) + "`, " + std::to_string(run.dimensions) + " dimensions) |\n";
  if (run.backend == VectorBackend::kCached) {
    md += "| vector pack | `" + cell(run.query_vectors_name) + "` + index `" +
          cell(run.index_vectors_name) + "` (SHA-256 `" + run.index_sha256 + "`) |\n";
    md += "| provenance | " + cell(run.vector_provenance) + " |\n";
  } else {
    md +=
        "| note | local-tfidf is a TF-IDF proxy fitted on the in-scope chunk bodies; it does not "
        "measure a deployed semantic embedding |\n";
  }
  md += "| scope | " + std::to_string(run.scoped_chunk_ids.size()) + " chunks in scope, " +
        std::to_string(run.exclusions.size()) + " excluded |\n\n";

  md +=
      "Thresholds are calibrated per method on dev only (accept score ≥ threshold among the "
      "top 3) and frozen before test is ranked.";
  if (run.backend == VectorBackend::kCached)
    md += " `vector_current` is the deployed fixed threshold, not calibrated.";
  md += "\n\n";

  for (const char* split : {"test", "dev"}) {
    const bool test = std::string(split) == "test";
    md += std::string("## ") + (test ? "Test" : "Dev") + " split\n\n";
    md +=
        "| method | threshold | Raw R@1 | Raw R@3 | Raw MRR@3 | Accepted R@3 | Evidence precision "
        "| Supported positives | False reject | OOD rejection | p50 ms | p95 ms |\n";
    md += "|---|---|---|---|---|---|---|---|---|---|---|---|\n";
    for (const BenchMethod& m : run.methods) {
      const RetrievalMetrics& x = test ? m.test : m.dev;
      const LatencySummary& l = test ? m.test_latency : m.dev_latency;
      md += "| " + m.name + " | " + threshold_text(m.threshold) + (m.calibrated ? "" : " (fixed)") +
            " | " + pct(x.raw_recall_at_1) + " | " + pct(x.raw_recall_at_3) + " | " +
            num(x.raw_mrr_at_3) + " | " + pct(x.accepted_recall_at_3) + " | " +
            pct(x.evidence_precision) + " (" + std::to_string(x.relevant_returned_chunks) + "/" +
            std::to_string(x.returned_chunks) + ") | " + pct(x.supported_positive_rate) + " (" +
            std::to_string(x.supported_positives) + "/" + std::to_string(x.positives) + ") | " +
            pct(x.false_reject_rate) + " (" + std::to_string(x.rejected_positives) + "/" +
            std::to_string(x.positives) + ") | " + pct(x.ood_rejection) + " (" +
            std::to_string(x.rejected_negatives) + "/" + std::to_string(x.negatives) + ") | " +
            num(l.p50_ms, "%.4f") + " | " + num(l.p95_ms, "%.4f") + " |\n";
    }
    md += "\n";
  }

  md += "## Calibration (dev)\n\n";
  md +=
      "| method | candidates | chosen threshold | supported positives | rejected negatives | "
      "returned chunks | objective |\n|---|---|---|---|---|---|---|\n";
  for (const BenchMethod& m : run.methods) {
    if (!m.calibration) {
      md +=
          "| " + m.name + " | – | " + threshold_text(m.threshold) + " (fixed) | – | – | – | – |\n";
      continue;
    }
    const Calibration& c = *m.calibration;
    const ThresholdCandidate& t = c.candidates[c.chosen_index];
    md += "| " + m.name + " | " + std::to_string(c.candidates.size()) + " | " +
          threshold_text(t.threshold) + " | " + std::to_string(t.supported_positives) + "/" +
          std::to_string(c.positives) + " | " + std::to_string(t.rejected_negatives) + "/" +
          std::to_string(c.negatives) + " | " + std::to_string(t.returned_chunks) + " | " +
          num(t.objective, "%.4f") + " |\n";
  }
  md += "\nFull candidate tables are in report.json (`methods[].calibration`).\n\n";

  md += "## Excluded by scope selection\n\n";
  if (run.exclusions.empty()) {
    md += "None.\n\n";
  } else {
    md += "| chunk | policy | version | section | reason | detail |\n|---|---|---|---|---|---|\n";
    for (const BenchExclusion& e : run.exclusions)
      md += "| " + cell(e.chunk_id) + " | " + cell(e.policy_id) + " | " + cell(e.version) + " | " +
            cell(e.section) + " | " + cell(e.reason) + " | " + cell(e.detail) + " |\n";
    md += "\n";
  }

  md +=
      "## Review cases\n\nA positive whose returned set misses a relevant section, or a "
      "negative that returned anything. A review case is not a judged wrong answer.\n\n";
  for (std::size_t mi = 0; mi < run.methods.size(); ++mi) {
    md += "### " + run.methods[mi].name + "\n\n";
    std::string rows;
    for (const BenchQuery& q : run.queries) {
      if (mi >= q.methods.size()) continue;
      const MethodQueryResult& r = q.methods[mi];
      if (!r.outcome.needs_review()) continue;
      std::string returned;
      for (const BenchHit& h : r.hits)
        if (h.accepted) returned += (returned.empty() ? "" : ", ") + h.chunk_id;
      rows += "| " + q.id + " | " + q.split + " | " + cell(q.text) + " | " +
              (r.outcome.review_missing_section ? "missing relevant section"
                                                : "negative returned evidence") +
              " | " + std::to_string(r.outcome.accepted_sections) + "/" +
              std::to_string(r.outcome.relevant_sections) + " | " +
              (returned.empty() ? "–" : returned) + " |\n";
    }
    if (rows.empty()) {
      md += "None.\n\n";
    } else {
      md +=
          "| query | split | text | flag | sections returned | returned chunks |\n"
          "|---|---|---|---|---|---|\n" +
          rows + "\n";
    }
  }
  return md;
}

}  // namespace qaplan
