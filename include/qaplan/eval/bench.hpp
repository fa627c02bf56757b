#pragma once
/// The frozen policy-retrieval benchmark runner behind `qaplan bench`
/// (docs/guide.md#ranking-and-the-frozen-benchmark).
///
/// One run:
///  1. parse the dataset and verify its fingerprints against the registry (unregistered version
///     or any hash mismatch → kFingerprintMismatch);
///  2. `select_policy_scope` → the in-scope chunks in id order (a chunk's position there is its
///     `doc` index, the tie-breaker of every ranking) and the exclusions with reasons;
///  3. tokenize the in-scope chunk bodies (`nfkc-cjk-bigrams-ascii-1`) and build BM25 over them;
///  4. vectors: `kLocalTfidf` fits `LocalTfidfEmbedder` on the in-scope chunk bodies and embeds
///     documents and queries; `kCached` strictly validates a query vector pack + document index
///     file (exactly the frozen queries, every scoped chunk, equal dimensions, finite, non-zero,
///     equal models, index_sha256 = SHA-256 of the index file's raw bytes, corpus_sha256 = the
///     dataset's corpus fingerprint) — any failure is kInvalidInput naming the problem, never a
///     fallback; vectors are searched through `VectorIndex` (HNSW, cosine);
///  5. methods, each ranking the same scoped set:
///     - `vector`: every scoped chunk with cosine > 0, best first;
///     - `bm25`: every scoped chunk with BM25 > 0 (untruncated);
///     - `rrf`: RRF (k = 60) of the two untruncated lists above;
///     - `vector_current` (only with `kCached`): the `vector` ranking under the fixed deployed
///       threshold (`BenchOptions::current_vector_threshold`, 0.57), not calibrated;
///  6. phase 1 ranks the dev split only and calibrates each method's threshold on it
///     (`calibrate_threshold`); phase 2 ranks and scores the test split with the frozen
///     thresholds — the calibration never sees a test ranking;
///  7. metrics per method and split (`metrics.hpp`), per-query outcomes and review flags.
///
/// Ranking time (`ranking_ms`) covers the index searches, the score > 0 filtering and (for
/// `rrf`) both searches plus the fusion; it excludes query tokenization and embedding, scope
/// selection and index building, which are reported separately under `timing`.
///
/// Everything but the timing fields is deterministic: two runs over the same inputs produce
/// identical reports once every object member named "timing" is removed.
///
/// The runner reads no files: callers pass file contents (`BenchInputs`) so the library stays
/// free of path policy; the CLI (`tools/qaplan/cmd_bench.cpp`) does the I/O. Thread-safe (no
/// shared state).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "qaplan/ranking/bm25.hpp"
#include "qaplan/ranking/config.hpp"
#include "qaplan/eval/calibrate.hpp"
#include "qaplan/export.hpp"
#include "qaplan/io.hpp"  // NamedText
#include "qaplan/eval/metrics.hpp"
#include "qaplan/status.hpp"
#include "qaplan/ranking/vector_index.hpp"
#include "qaplan/eval/vector_pack.hpp"

namespace qaplan {

/// Where the vectors come from. Spelled "local-tfidf" / "cached" on the CLI and in reports.
enum class VectorBackend { kLocalTfidf, kCached };
QAPLAN_API std::string_view to_string(VectorBackend backend) noexcept;
/// Inverse of to_string; kInvalidInput for any other spelling.
QAPLAN_API Result<VectorBackend> parse_vector_backend(std::string_view text);

/// The inputs of one run.
struct BenchInputs {
  NamedText dataset;       ///< the dataset JSON (eval_sets/policy-retrieval-v1.json)
  NamedText fingerprints;  ///< the fingerprint registry (eval_sets/fingerprints.json)
  VectorBackend backend = VectorBackend::kLocalTfidf;
  NamedText query_vectors;  ///< kCached only: the query vector pack
  NamedText index_vectors;  ///< kCached only: the document-index file the pack names
};

/// Runner parameters.
///
/// | field                    | default | meaning                                              |
/// |--------------------------|---------|------------------------------------------------------|
/// | bm25                     | k1 1.2, b 0.75, exact norms | BM25 parameters                  |
/// | hnsw                     | m 16, ef_construction 200, ef_search 64, seed 100             |
/// | rrf_k                    | 60      | RRF constant                                         |
/// | current_vector_threshold | 0.57    | the deployed cosine threshold of `vector_current`    |
/// | reported_hits            | 5       | hits listed per query and method in the report (≥ 3) |
struct BenchOptions {
  Bm25Options bm25;
  HnswOptions hnsw;
  double rrf_k = 60.0;
  double current_vector_threshold = 0.57;
  std::size_t reported_hits = 5;
};

/// The runner parameters a rules file's [ranking.*] gives (reported_hits keeps its default).
QAPLAN_API BenchOptions bench_options(const RankingConfig& ranking);

/// One ranked chunk as the report shows it. Scores of the other lists are filled in when the
/// chunk occurs there (the fused score never replaces the cosine).
struct BenchHit {
  std::size_t rank = 0;  ///< 1-based rank in this method's ranking
  std::uint32_t doc = 0;
  std::string chunk_id;
  std::string source;
  std::string section;
  double score = 0.0;  ///< this method's score (cosine, BM25 or fused)
  std::optional<double> cosine;
  std::optional<double> bm25;
  std::optional<double> fused;
  std::optional<std::uint32_t> vector_rank;  ///< rank in the vector list (score > 0 only)
  std::optional<std::uint32_t> bm25_rank;    ///< rank in the BM25 list
  bool relevant = false;  ///< the chunk's (source, section) is labelled relevant for the query
  bool accepted = false;  ///< in the top 3 and score >= the method's threshold
};

/// One query under one method.
struct MethodQueryResult {
  std::vector<BenchHit> hits;  ///< the first `reported_hits` of the ranking
  std::size_t ranked = 0;      ///< length of the full ranking (chunks with score > 0)
  QueryOutcome outcome;        ///< counts and review flags under the method's threshold
  double ranking_ms = 0.0;     ///< timing (non-deterministic)
};

/// One query of the dataset with its results per method (same order as BenchRun::methods).
struct BenchQuery {
  std::string id;
  std::string text;
  std::string split;  ///< "dev" or "test"
  std::string reason;
  std::vector<std::string> tags;
  std::vector<std::pair<std::string, std::string>> relevant;  ///< (source, section)
  std::vector<MethodQueryResult> methods;
};

/// One method's threshold and metrics.
struct BenchMethod {
  std::string name;        ///< "vector", "bm25", "rrf", "vector_current"
  std::string score_name;  ///< "cosine", "bm25", "rrf"
  double threshold = 0.0;
  bool calibrated = false;                 ///< false for vector_current (fixed threshold)
  std::optional<Calibration> calibration;  ///< the dev table when calibrated
  RetrievalMetrics dev;
  RetrievalMetrics test;
  LatencySummary dev_latency;   ///< timing
  LatencySummary test_latency;  ///< timing
};

/// A chunk or policy version left out of scope, with the reason.
struct BenchExclusion {
  std::string chunk_id;
  std::string policy_id;
  std::string version;
  std::string section;
  std::string reason;  ///< scope.hpp spelling, e.g. "expired", "non_rule_section"
  std::string detail;  ///< one human line
};

/// Everything a report shows.
struct BenchRun {
  std::string dataset_name;
  std::string dataset_version;
  std::string time_point;
  std::string dataset_sha256;
  std::string corpus_sha256;
  std::string tokenizer_version;
  VectorBackend backend = VectorBackend::kLocalTfidf;
  std::string vector_model;  ///< embedder / pack model
  std::size_t dimensions = 0;
  std::string vector_provenance;  ///< kCached: the pack's provenance
  std::string query_vectors_name;
  std::string index_vectors_name;
  std::string index_sha256;  ///< kCached: SHA-256 of the index file's raw bytes
  BenchOptions options;
  std::vector<std::string> scoped_chunk_ids;  ///< doc order
  std::vector<BenchExclusion> exclusions;
  std::vector<BenchMethod> methods;
  std::vector<BenchQuery> queries;  ///< dataset order
  // Timing (non-deterministic), milliseconds.
  double scope_ms = 0.0;
  double index_build_ms = 0.0;  ///< tokenizing the corpus, BM25, embedding/validation, HNSW
  double query_prep_ms = 0.0;   ///< tokenizing + embedding the queries
  double total_ms = 0.0;
};

/// Runs the benchmark. Errors: kFingerprintMismatch (unregistered version, hash mismatch);
/// kInvalidInput (malformed dataset/registry, bad vector pack or index, a query with no token
/// in the corpus vocabulary, dev without positives or negatives, inconsistent inputs such as
/// vector files given with kLocalTfidf); kInternal on unexpected dependency failures.
QAPLAN_API Result<BenchRun> run_bench(const BenchInputs& inputs, const BenchOptions& opts = {});

/// report.json: every query (split, reason, relevant sources and sections, per method the top
/// hits with chunk id, source, section, scores, ranks, accepted, review flags), all thresholds
/// with their calibration tables, fingerprints, tokenizer version, backend, scope. All
/// non-deterministic values sit in members named "timing". Numbers are written in shortest
/// round-trip form. `pretty` indents by 2 spaces.
QAPLAN_API std::string bench_report_json(const BenchRun& run, bool pretty = true);

/// report.md: summary tables per split, thresholds, calibration choice, excluded chunks with
/// reasons, and the review cases per method.
QAPLAN_API std::string bench_report_markdown(const BenchRun& run);

/// The request manifest of `qaplan bench --export-queries`: the document-index file's SHA-256,
/// the corpus and dataset fingerprints, the dimensions and model of the index, and all frozen
/// queries (id, split, full raw text — the vector pack key). Verifies the dataset fingerprints
/// and that the index file names the dataset's corpus. Errors as run_bench.
QAPLAN_API Result<std::string> export_query_manifest(const NamedText& dataset,
                                                     const NamedText& fingerprints,
                                                     const NamedText& index_vectors,
                                                     bool pretty = true);

/// Produces the shipped vector pack with the built-in `local-tfidf` embedder (fitted on the
/// in-scope chunk bodies): the index file holds every scoped chunk's vector, the pack every
/// frozen query's vector, index_sha256 = SHA-256 of `index_json`, corpus_sha256 = the corpus
/// fingerprint, and a provenance string saying exactly that (`VectorPackFiles` of
/// vector_pack.hpp). Deterministic; `index_file_name` is recorded in the provenance. Errors as
/// run_bench.
QAPLAN_API Result<VectorPackFiles> make_local_tfidf_vector_pack(const NamedText& dataset,
                                                                const NamedText& fingerprints,
                                                                std::string_view index_file_name);

}  // namespace qaplan
