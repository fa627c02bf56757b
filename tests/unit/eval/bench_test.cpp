// The benchmark runner (bench.hpp) on a tiny hand-computed dataset, plus report invariants.
#include "json_support.hpp"
#include "qaplan/eval/bench.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>

#include "common/sha256.hpp"
#include "qaplan/eval/dataset.hpp"
#include "support/xml_check.hpp"

namespace qaplan {
namespace {

using nlohmann::json;
const double kInf = std::numeric_limits<double>::infinity();

// One policy, three rule chunks with disjoint ASCII words (each word: one token, df = 1) and a
// background chunk that scope selection drops.
//   a-01 SA "alpha beta"   a-02 SB "gamma delta"   a-03 SC "epsilon zeta eta theta"
// dev: d1 "alpha" → SA, d2 "gamma" → SB, d3 "epsilon" (negative)
// test: t1 "beta" → SA, t2 "zeta" (negative)
//
// Every query matches exactly one chunk, so each list has one entry:
//  cosine (TF-IDF, equal idf): SA/SB → 1/√2 ≈ 0.7071; SC → 1/2 (four equal components, exact).
//  BM25: N = 3, avgdl = (2 + 2 + 4) / 3 = 8/3, idf = ln(1 + 2.5 / 1.5) = ln(8/3) = 0.980829…
//    short chunk: 1 − 0.75 + 0.75 · 2 / (8/3) = 0.8125 → idf / (1 + 1.2 · 0.8125) = idf / 1.975
//                 = 0.496622…
//    SC:          0.25 + 0.75 · 4 / (8/3) = 1.375 → idf / (1 + 1.65) = idf / 2.65 = 0.370124…
//  RRF: one list entry at rank 1 in both lists → 1/61 + 1/61 for every query.
// Dev calibration (2 positives, 1 negative):
//  vector: 0 → sp 2 nr 0 (0.5); above(0.5) → sp 2 nr 1 (1.0) ← ; above(0.7071) → sp 0 nr 1 (0.5)
//  bm25:   same shape → above(0.370124…)
//  rrf:    0 → sp 2 nr 0 (0.5); above(2/61) → sp 0 nr 1 (0.5): tie → more rejected negatives
//          → above(2/61), i.e. RRF rejects everything (its score has no absolute scale).
constexpr const char* kFixture = R"({
  "version": "tiny-1",
  "time_point": "2026-10-19T12:00:00+08:00",
  "description": "tiny hand-computed benchmark fixture",
  "policies": [
    {"policy_id": "p", "source": "p-src", "title": "T", "version": "1.0", "status": "effective",
     "effective_from": "2026-01-01", "effective_to": null,
     "chunks": [
       {"id": "a-00", "section": "Background", "kind": "background", "text": "alpha background"},
       {"id": "a-01", "section": "SA", "kind": "rule", "text": "alpha beta"},
       {"id": "a-02", "section": "SB", "kind": "rule", "text": "gamma delta"},
       {"id": "a-03", "section": "SC", "kind": "rule", "text": "epsilon zeta eta theta"}
     ]}
  ],
  "queries": [
    {"id": "d1", "query": "alpha", "split": "dev", "relevant": [{"source": "p-src", "section": "SA"}], "tags": [], "reason": "SA has alpha"},
    {"id": "d2", "query": "gamma", "split": "dev", "relevant": [{"source": "p-src", "section": "SB"}], "tags": [], "reason": "SB has gamma"},
    {"id": "d3", "query": "epsilon", "split": "dev", "relevant": [], "tags": ["lexical_negative"], "reason": "unanswerable"},
    {"id": "t1", "query": "beta", "split": "test", "relevant": [{"source": "p-src", "section": "SA"}], "tags": [], "reason": "SA has beta"},
    {"id": "t2", "query": "zeta", "split": "test", "relevant": [], "tags": ["lexical_negative"], "reason": "unanswerable"}
  ]
})";

// A registry holding the dataset's own fingerprints (the registry is plumbing here; the
// fingerprint values are pinned by dataset_test).
std::string registry_for(const std::string& dataset_json) {
  auto d = parse_dataset(dataset_json, "fixture.json");
  EXPECT_TRUE(d.ok()) << d.error().to_string();
  json r;
  r[d->version] = {{"dataset_sha256", dataset_fingerprint(*d)},
                   {"corpus_sha256", corpus_fingerprint(*d)}};
  return r.dump();
}

BenchInputs local_inputs(const std::string& dataset_json = kFixture) {
  BenchInputs in;
  in.dataset = {"fixture.json", dataset_json};
  in.fingerprints = {"fingerprints.json", registry_for(dataset_json)};
  in.backend = VectorBackend::kLocalTfidf;
  return in;
}

const BenchMethod& method(const BenchRun& run, const std::string& name) {
  for (const auto& m : run.methods)
    if (m.name == name) return m;
  throw std::runtime_error("no method " + name);
}

std::size_t method_index(const BenchRun& run, const std::string& name) {
  for (std::size_t i = 0; i < run.methods.size(); ++i)
    if (run.methods[i].name == name) return i;
  throw std::runtime_error("no method " + name);
}

using qaplan::test::strip_timing;

TEST(Bench, BackendSpellings) {
  EXPECT_EQ(*parse_vector_backend("local-tfidf"), VectorBackend::kLocalTfidf);
  EXPECT_EQ(*parse_vector_backend("cached"), VectorBackend::kCached);
  EXPECT_EQ(to_string(VectorBackend::kCached), "cached");
  EXPECT_EQ(parse_vector_backend("tfidf").error().code, ErrorCode::kInvalidInput);
}

TEST(Bench, HandComputedThresholdsAndMetrics) {
  auto r = run_bench(local_inputs());
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  const BenchRun& run = *r;
  EXPECT_EQ(run.tokenizer_version, "nfkc-cjk-bigrams-ascii-1");
  EXPECT_EQ(run.vector_model, "local-tfidf");
  EXPECT_EQ(run.dimensions, 8u);  // alpha beta delta epsilon eta gamma theta zeta
  EXPECT_EQ(run.scoped_chunk_ids, (std::vector<std::string>{"a-01", "a-02", "a-03"}));
  ASSERT_EQ(run.exclusions.size(), 1u);
  EXPECT_EQ(run.exclusions[0].chunk_id, "a-00");
  EXPECT_EQ(run.exclusions[0].reason, "non_rule_section");
  ASSERT_EQ(run.methods.size(), 3u);  // no vector_current without cached vectors

  const double bm25_neg = std::log(8.0 / 3.0) / 2.65;
  const double bm25_pos = std::log(8.0 / 3.0) / 1.975;
  const double rrf = 1.0 / 61.0 + 1.0 / 61.0;

  const BenchMethod& vec = method(run, "vector");
  EXPECT_EQ(vec.threshold, std::nextafter(0.5, kInf));
  ASSERT_TRUE(vec.calibration.has_value());
  EXPECT_EQ(vec.calibration->candidates.size(), 3u);  // 0, above(0.5), above(0.7071)
  const BenchMethod& bm = method(run, "bm25");
  EXPECT_NEAR(bm.threshold, bm25_neg, 1e-12);
  EXPECT_GT(bm.threshold, run.queries[2].methods[1].hits[0].score);  // rejects d3's own score
  const BenchMethod& fused = method(run, "rrf");
  EXPECT_EQ(fused.threshold, std::nextafter(rrf, kInf));

  // Per-query hits: t1 "beta" ranks SA first in every method.
  const BenchQuery& t1 = run.queries[3];
  ASSERT_EQ(t1.id, "t1");
  const BenchHit& hv = t1.methods[0].hits.at(0);
  EXPECT_EQ(hv.chunk_id, "a-01");
  EXPECT_NEAR(hv.score, 1.0 / std::sqrt(2.0), 1e-6);
  EXPECT_EQ(hv.cosine, hv.score);
  EXPECT_NEAR(*hv.bm25, bm25_pos, 1e-12);
  EXPECT_EQ(*hv.fused, rrf);
  EXPECT_EQ(*hv.vector_rank, 1u);
  EXPECT_EQ(*hv.bm25_rank, 1u);
  EXPECT_TRUE(hv.relevant);
  EXPECT_TRUE(hv.accepted);
  EXPECT_EQ(t1.methods[0].ranked, 1u);              // only SA shares a token with "beta"
  EXPECT_FALSE(t1.methods[2].hits.at(0).accepted);  // rrf rejects 2/61
  EXPECT_TRUE(t1.methods[2].outcome.review_missing_section);

  // Test metrics: vector and bm25 accept t1 and reject t2; rrf rejects both.
  for (const char* name : {"vector", "bm25"}) {
    SCOPED_TRACE(name);
    const RetrievalMetrics& m = method(run, name).test;
    EXPECT_EQ(m.positives, 1u);
    EXPECT_EQ(m.negatives, 1u);
    EXPECT_EQ(*m.raw_recall_at_1, 1.0);
    EXPECT_EQ(*m.accepted_recall_at_3, 1.0);
    EXPECT_EQ(*m.evidence_precision, 1.0);
    EXPECT_EQ(*m.supported_positive_rate, 1.0);
    EXPECT_EQ(*m.false_reject_rate, 0.0);
    EXPECT_EQ(*m.ood_rejection, 1.0);
    EXPECT_EQ(m.review_cases, 0u);
  }
  const RetrievalMetrics& mr = fused.test;
  EXPECT_EQ(*mr.raw_recall_at_3, 1.0);
  EXPECT_EQ(*mr.raw_mrr_at_3, 1.0);
  EXPECT_EQ(*mr.accepted_recall_at_3, 0.0);
  EXPECT_FALSE(mr.evidence_precision.has_value());  // nothing returned at all
  EXPECT_EQ(*mr.false_reject_rate, 1.0);
  EXPECT_EQ(*mr.ood_rejection, 1.0);
  // Dev under the calibrated thresholds: vector supports both positives and rejects d3.
  EXPECT_EQ(*method(run, "vector").dev.supported_positive_rate, 1.0);
  EXPECT_EQ(*method(run, "vector").dev.ood_rejection, 1.0);
  EXPECT_EQ(method(run, "vector").dev.returned_chunks, 2u);
}

TEST(Bench, ThresholdsIgnoreTestLabelsAndQueries) {
  // Swap the test split's roles: t1 "zeta" → SC (positive), t2 "beta" (negative). Dev is
  // unchanged, so every calibration table and threshold must be identical.
  std::string changed = kFixture;
  auto replace = [&](const std::string& from, const std::string& to) {
    const auto pos = changed.find(from);
    ASSERT_NE(pos, std::string::npos) << from;
    changed.replace(pos, from.size(), to);
  };
  replace(
      R"("query": "beta", "split": "test", "relevant": [{"source": "p-src", "section": "SA"}], "tags": [])",
      R"("query": "zeta", "split": "test", "relevant": [{"source": "p-src", "section": "SC"}], "tags": [])");
  replace(R"("query": "zeta", "split": "test", "relevant": [], "tags": ["lexical_negative"])",
          R"("query": "beta", "split": "test", "relevant": [], "tags": ["lexical_negative"])");
  auto a = run_bench(local_inputs());
  auto b = run_bench(local_inputs(changed));
  ASSERT_TRUE(a.ok());
  ASSERT_TRUE(b.ok()) << b.error().to_string();
  for (std::size_t i = 0; i < a->methods.size(); ++i) {
    EXPECT_EQ(a->methods[i].threshold, b->methods[i].threshold);
    EXPECT_EQ(a->methods[i].calibration->candidates.size(),
              b->methods[i].calibration->candidates.size());
  }
  // …while the test metrics do change: "zeta" scores 0.5 < above(0.5) → rejected positive, and
  // the negative "beta" gets SA (0.7071) → returned.
  EXPECT_EQ(*b->methods[0].test.false_reject_rate, 1.0);
  EXPECT_EQ(*b->methods[0].test.ood_rejection, 0.0);
}

TEST(Bench, ReportJsonIsDeterministicApartFromTiming) {
  auto a = run_bench(local_inputs());
  auto b = run_bench(local_inputs());
  ASSERT_TRUE(a.ok() && b.ok());
  json ja = json::parse(bench_report_json(*a)), jb = json::parse(bench_report_json(*b));
  ASSERT_TRUE(ja.contains("timing"));
  ASSERT_TRUE(ja["queries"][0]["methods"]["vector"].contains("timing"));
  strip_timing(ja);
  strip_timing(jb);
  EXPECT_EQ(ja.dump(), jb.dump());
  // Content checks on the report itself.
  EXPECT_EQ(ja["tokenizer_version"], "nfkc-cjk-bigrams-ascii-1");
  EXPECT_EQ(ja["backend"], "local-tfidf");
  EXPECT_EQ(ja["dataset"]["version"], "tiny-1");
  EXPECT_EQ(ja["dataset"]["dataset_sha256"].get<std::string>().size(), 64u);
  EXPECT_EQ(ja["methods"][2]["name"], "rrf");
  EXPECT_EQ(ja["methods"][2]["threshold"].get<double>(), std::nextafter(2.0 / 61.0, kInf));
  EXPECT_EQ(ja["methods"][2]["calibration"]["candidates"].size(), 2u);
  EXPECT_TRUE(ja["methods"][2]["metrics"]["test"]["evidence_precision"].is_null());
  const json& q4 = ja["queries"][3];
  EXPECT_EQ(q4["split"], "test");
  EXPECT_EQ(q4["reason"], "SA has beta");
  EXPECT_EQ(q4["relevant"][0]["section"], "SA");
  EXPECT_EQ(q4["methods"]["rrf"]["review"][0], "positive_missing_relevant_section");
  EXPECT_EQ(q4["methods"]["vector"]["hits"][0]["chunk_id"], "a-01");
  EXPECT_EQ(q4["methods"]["vector"]["hits"][0]["accepted"], true);
  EXPECT_EQ(ja["scope"]["excluded"][0]["reason"], "non_rule_section");
  const std::string md = bench_report_markdown(*a);
  EXPECT_NE(md.find("## Test split"), std::string::npos);
  EXPECT_NE(md.find("| a-00 | p | 1.0 | Background | non_rule_section"), std::string::npos);
  EXPECT_NE(md.find("| t1 | test | beta | missing relevant section"), std::string::npos);
}

TEST(Bench, CachedPackReproducesLocalTfidf) {
  auto pack = make_local_tfidf_vector_pack(
      {"fixture.json", kFixture}, {"fingerprints.json", registry_for(kFixture)}, "index.json");
  ASSERT_TRUE(pack.ok()) << pack.error().to_string();
  EXPECT_NE(pack->pack_json.find("built-in local-tfidf embedder"), std::string::npos);
  EXPECT_NE(pack->pack_json.find(internal::sha256_hex(pack->index_json)), std::string::npos);
  BenchInputs in = local_inputs();
  in.backend = VectorBackend::kCached;
  in.query_vectors = {"pack.json", pack->pack_json};
  in.index_vectors = {"index.json", pack->index_json};
  auto cached = run_bench(in);
  ASSERT_TRUE(cached.ok()) << cached.error().to_string();
  auto local = run_bench(local_inputs());
  ASSERT_TRUE(local.ok());
  ASSERT_EQ(cached->methods.size(), 4u);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(cached->methods[i].threshold, local->methods[i].threshold);
    EXPECT_EQ(cached->methods[i].test.accepted_recall_at_3,
              local->methods[i].test.accepted_recall_at_3);
    for (std::size_t q = 0; q < local->queries.size(); ++q)
      EXPECT_EQ(cached->queries[q].methods[i].hits.at(0).score,
                local->queries[q].methods[i].hits.at(0).score);
  }
  // vector_current: fixed 0.57, not calibrated → accepts SA (0.7071) and rejects SC (0.5).
  const std::size_t vc = method_index(*cached, "vector_current");
  EXPECT_FALSE(cached->methods[vc].calibrated);
  EXPECT_EQ(cached->methods[vc].threshold, 0.57);
  EXPECT_EQ(*cached->methods[vc].test.supported_positive_rate, 1.0);
  EXPECT_EQ(*cached->methods[vc].test.ood_rejection, 1.0);
  EXPECT_EQ(cached->index_sha256, internal::sha256_hex(pack->index_json));
}

TEST(Bench, BadInputsAreRefused) {
  // Unregistered version / fingerprint mismatch.
  BenchInputs in = local_inputs();
  in.fingerprints.text = R"({"other-1": {"dataset_sha256": ")" + std::string(64, 'a') +
                         R"(", "corpus_sha256": ")" + std::string(64, 'b') + R"("}})";
  EXPECT_EQ(run_bench(in).error().code, ErrorCode::kFingerprintMismatch);
  in = local_inputs();
  std::string edited = kFixture;
  edited.replace(edited.find("SA has beta"), 11, "SA has BETA");
  in.dataset.text = edited;  // registry still holds the original hashes
  EXPECT_EQ(run_bench(in).error().code, ErrorCode::kFingerprintMismatch);

  // A tampered index file: its bytes no longer hash to the pack's index_sha256.
  auto pack = make_local_tfidf_vector_pack(
      {"fixture.json", kFixture}, {"fingerprints.json", registry_for(kFixture)}, "index.json");
  ASSERT_TRUE(pack.ok());
  in = local_inputs();
  in.backend = VectorBackend::kCached;
  in.query_vectors = {"pack.json", pack->pack_json};
  in.index_vectors = {"index.json", pack->index_json + " "};
  auto bad = run_bench(in);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().code, ErrorCode::kInvalidInput);
  EXPECT_NE(bad.error().to_string().find("index_sha256"), std::string::npos)
      << bad.error().to_string();
  EXPECT_NE(bad.error().to_string().find("pack.json"), std::string::npos);

  // Vector files with the local backend are inconsistent input, not silently ignored.
  in.backend = VectorBackend::kLocalTfidf;
  EXPECT_EQ(run_bench(in).error().code, ErrorCode::kInvalidInput);
}

TEST(Bench, ManifestListsEveryQueryAndBindsTheIndex) {
  auto pack = make_local_tfidf_vector_pack(
      {"fixture.json", kFixture}, {"fingerprints.json", registry_for(kFixture)}, "index.json");
  ASSERT_TRUE(pack.ok());
  auto m = export_query_manifest({"fixture.json", kFixture},
                                 {"fingerprints.json", registry_for(kFixture)},
                                 {"index.json", pack->index_json});
  ASSERT_TRUE(m.ok()) << m.error().to_string();
  const json j = json::parse(*m);
  EXPECT_EQ(j["index_sha256"], internal::sha256_hex(pack->index_json));
  EXPECT_EQ(j["dimensions"], 8);
  EXPECT_EQ(j["model"], "local-tfidf");
  ASSERT_EQ(j["queries"].size(), 5u);
  EXPECT_EQ(j["queries"][4]["query"], "zeta");
  EXPECT_EQ(j["queries"][4]["split"], "test");
  auto d = parse_dataset(kFixture, "fixture.json");
  EXPECT_EQ(j["dataset_sha256"], dataset_fingerprint(*d));
  EXPECT_EQ(j["corpus_sha256"], corpus_fingerprint(*d));
}

}  // namespace

// The bench report reads cold: every metric defined, counts beside every
// percentage, no JSON null in Markdown, the calibration curve as valid inline SVG, and an
// explanation when a calibration rejects everything (RRF here: see the fixture's comment).
TEST(BenchReport, MarkdownReadsCold) {
  auto r = run_bench(local_inputs());
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  const std::string md = bench_report_markdown(*r);
  EXPECT_EQ(md.find("null"), std::string::npos);
  const std::size_t defs = md.find("## Definitions");
  ASSERT_NE(defs, std::string::npos);
  for (const char* term : {"Raw R@k", "Raw MRR@3", "Accepted R@3", "Evidence precision",
                           "Supported positives", "False reject", "OOD rejection", "p50 / p95 ms",
                           "Objective"})
    EXPECT_NE(md.find(std::string("**") + term + "**", defs), std::string::npos) << term;
  // Every percentage in a table cell carries its counts: "50.0 % (1/2)" or "… % (n = 2)".
  std::size_t percentages = 0;
  for (std::size_t p = 0; p < md.size();) {
    const std::size_t nl = std::min(md.find('\n', p), md.size());
    const std::string line = md.substr(p, nl - p);
    p = nl + 1;
    if (line.rfind("|", 0) != 0) continue;
    for (std::size_t at = line.find(" %"); at != std::string::npos; at = line.find(" %", at + 1)) {
      ++percentages;
      EXPECT_EQ(line.compare(at + 2, 2, " ("), 0) << line;
    }
  }
  EXPECT_GT(percentages, 10u);
  // One curve per calibrated method, each well-formed.
  std::size_t curves = 0;
  for (std::size_t at = md.find("<svg"); at != std::string::npos; at = md.find("<svg", at + 1)) {
    const std::size_t end = md.find("</svg>", at);
    ASSERT_NE(end, std::string::npos);
    EXPECT_EQ(test::xml_error(md.substr(at, end + 6 - at)), "");
    ++curves;
  }
  std::size_t calibrated = 0;
  for (const auto& m : r->methods) calibrated += m.calibration.has_value();
  EXPECT_EQ(curves, calibrated);
  // RRF's calibrated threshold rejects every dev hit: the report says so and why.
  EXPECT_NE(md.find("**rrf: the calibrated threshold"), std::string::npos);
  EXPECT_NE(md.find("rejects every dev hit"), std::string::npos);
  EXPECT_NE(md.find("An RRF score encodes ranks only"), std::string::npos);
  // The vector method returns evidence: no such paragraph for it.
  EXPECT_EQ(md.find("**vector: the calibrated threshold"), std::string::npos);
}

}  // namespace qaplan
