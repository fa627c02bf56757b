// report.json and report.md of the policy-retrieval benchmark (bench.hpp). nlohmann_json stays in
// this file; its number output is the shortest round-trip form, so equal runs give equal bytes.
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "qaplan/eval/bench.hpp"
#include "qaplan/eval/calibrate.hpp"
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

// A percentage for Markdown; an undefined rate is "n/a" (never a JSON null), and the caller puts
// its counts beside it.
std::string pct(const std::optional<double>& v) {
  if (!v) return "n/a";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f %%", *v * 100.0);
  return buf;
}

std::string frac(std::size_t a, std::size_t b) {
  return std::to_string(a) + "/" + std::to_string(b);
}

// An average over `n` queries: "71.9 % (n = 16)".
std::string avg(const std::optional<double>& v, std::size_t n) {
  return pct(v) + " (n = " + std::to_string(n) + ")";
}

std::string rate(const std::optional<double>& v, std::size_t a, std::size_t b) {
  return pct(v) + " (" + frac(a, b) + ")";
}

// The dev row that returns something and ranks best by the calibration's own order; nullopt when
// every row returns nothing.
std::optional<std::size_t> best_returning_row(const Calibration& c) {
  std::optional<std::size_t> best;
  for (std::size_t i = 0; i < c.candidates.size(); ++i) {
    const ThresholdCandidate& t = c.candidates[i];
    if (t.returned_chunks == 0) continue;
    if (!best) {
      best = i;
      continue;
    }
    const ThresholdCandidate& b = c.candidates[*best];
    const std::size_t ot = t.supported_positives * c.negatives + t.rejected_negatives * c.positives;
    const std::size_t ob = b.supported_positives * c.negatives + b.rejected_negatives * c.positives;
    if (ot != ob ? ot > ob
                 : (t.rejected_negatives != b.rejected_negatives
                        ? t.rejected_negatives > b.rejected_negatives
                        : t.supported_positives > b.supported_positives))
      best = i;
  }
  return best;
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

namespace {

// The title, what was run on what (dataset, corpus, tokenizer, backend, scope) and how to read it.
void bench_md_header(const BenchRun& run, std::string& md) {
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
  md += " Every metric is defined under *Definitions* below; a rate shows its counts (a/b), an "
        "average over queries shows how many it averages (n = …), and \"n/a\" marks a rate whose "
        "denominator is 0.\n\n";
}

// Every method on the test and dev splits.
void bench_md_splits(const BenchRun& run, std::string& md) {
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
            " | " + avg(x.raw_recall_at_1, x.positives) + " | " +
            avg(x.raw_recall_at_3, x.positives) + " | " + num(x.raw_mrr_at_3) + " (n = " +
            std::to_string(x.positives) + ") | " + avg(x.accepted_recall_at_3, x.positives) +
            " | " +
            (x.evidence_precision ? rate(x.evidence_precision, x.relevant_returned_chunks,
                                         x.returned_chunks)
                                  : std::string("n/a (0 chunks returned)")) +
            " | " + rate(x.supported_positive_rate, x.supported_positives, x.positives) + " | " +
            rate(x.false_reject_rate, x.rejected_positives, x.positives) + " | " +
            rate(x.ood_rejection, x.rejected_negatives, x.negatives) + " | " +
            num(l.p50_ms, "%.4f") + " | " + num(l.p95_ms, "%.4f") + " |\n";
    }
    md += "\n";
  }
}

// How each method's threshold was chosen on dev.
void bench_md_calibration(const BenchRun& run, std::string& md) {
  md += "## Calibration (dev)\n\n";
  md += "Each candidate threshold is scored on dev by the objective (supported positive rate + "
        "negative rejection rate) / 2; ties prefer higher negative rejection, higher supported "
        "positives, fewer returned chunks, then the higher threshold.\n\n";
  md +=
      "| method | candidates | chosen threshold | supported positives | rejected negatives | "
      "returned chunks | objective |\n|---|---|---|---|---|---|---|\n";
  for (const BenchMethod& m : run.methods) {
    if (!m.calibration) {
      md += "| " + m.name + " | – | " + threshold_text(m.threshold) +
            " (fixed, not calibrated) | – | – | – | – |\n";
      continue;
    }
    const Calibration& c = *m.calibration;
    const ThresholdCandidate& t = c.candidates[c.chosen_index];
    md += "| " + m.name + " | " + std::to_string(c.candidates.size()) + " | " +
          threshold_text(t.threshold) + " | " +
          rate(t.supported_positive_rate, t.supported_positives, c.positives) + " | " +
          rate(t.negative_rejection_rate, t.rejected_negatives, c.negatives) + " | " +
          std::to_string(t.returned_chunks) + " | " + num(t.objective, "%.4f") + " |\n";
  }
  md += "\n";
  for (const BenchMethod& m : run.methods) {
    if (!m.calibration) continue;
    const Calibration& c = *m.calibration;
    // Inline SVG (an HTML block: no blank line inside), so the report stays one file.
    std::string svg = calibration_curve_svg(c, m.name, m.score_name);
    if (auto decl = svg.find("?>\n"); svg.rfind("<?xml", 0) == 0 && decl != std::string::npos)
      svg.erase(0, decl + 3);
    md += "\n" + svg;
    const ThresholdCandidate& t = c.candidates[c.chosen_index];
    if (t.returned_chunks > 0) continue;
    // The chosen threshold returns nothing: say why, with the numbers.
    md += "\n**" + m.name + ": the calibrated threshold " + threshold_text(t.threshold) +
          " rejects every dev hit.** Rejecting everything scores (0 + 1) / 2 = 0.5 on the "
          "objective. ";
    if (auto b = best_returning_row(c)) {
      const ThresholdCandidate& x = c.candidates[*b];
      md += "The best threshold that returns anything (" + threshold_text(x.threshold) +
            ") supports " + frac(x.supported_positives, c.positives) +
            " positives but rejects only " + frac(x.rejected_negatives, c.negatives) +
            " negatives: objective " + num(x.objective, "%.4f") +
            (x.objective < 0.5 ? " < 0.5" : " = 0.5, and ties prefer the higher negative "
                                             "rejection rate") +
            ". ";
    } else {
      md += "No candidate threshold returns anything on dev. ";
    }
    if (m.score_name == "rrf")
      md += "An RRF score encodes ranks only: a chunk ranked first in both lists scores 2/(k + 1) "
            "= " + threshold_text(2.0 / (run.options.rrf_k + 1.0)) +
            " whatever its similarity, so on dev negatives reach the same top score as positives. ";
    md += "This is the specified objective working on this data, not a defect: on test the "
          "method returns nothing (accepted R@3 0, evidence precision n/a), and the per-method "
          "thresholds are reported separately for this reason.\n";
  }
  md += "\nFull candidate tables are in report.json (`methods[].calibration`).\n\n";
}

// What each metric means.
void bench_md_definitions(const BenchRun& /*run*/, std::string& md) {
  md += "## Definitions\n\n"
        "A query is **positive** when it lists relevant sections (a chunk is relevant when its "
        "source and section title are labelled), **negative** (out of corpus) otherwise. The "
        "returned set of a query is its top 3 hits with score ≥ the method's threshold.\n\n"
        "- **Raw R@k** (k = 1, 3): per positive, distinct relevant sections in the top k / "
        "relevant sections, averaged over positives (n = positives); before any threshold.\n"
        "- **Raw MRR@3**: per positive, 1 / rank of the first relevant chunk in the top 3 (else "
        "0), averaged over positives.\n"
        "- **Accepted R@3**: Raw R@3 computed on the returned set.\n"
        "- **Evidence precision**: relevant returned chunks / returned chunks over all queries "
        "of the split (negatives included); n/a when nothing was returned.\n"
        "- **Supported positives**: positives with at least one relevant section returned / "
        "positives.\n"
        "- **False reject**: positives with nothing returned / positives.\n"
        "- **OOD rejection**: negatives with nothing returned / negatives.\n"
        "- **p50 / p95 ms**: nearest-rank percentiles of per-query ranking time (index search, "
        "score > 0 filtering, fusion for rrf); timing, different on every run.\n"
        "- **Objective** (calibration): (supported positive rate + negative rejection rate) / 2 "
        "on dev.\n\n";
}

// The chunks scope selection left out, and why.
void bench_md_excluded(const BenchRun& run, std::string& md) {
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
}

}  // namespace

std::string bench_report_markdown(const BenchRun& run) {
  std::string md;
  for (auto* section : {bench_md_header, bench_md_splits, bench_md_calibration, bench_md_definitions,
                        bench_md_excluded})
    section(run, md);
  return md;
}

}  // namespace qaplan
