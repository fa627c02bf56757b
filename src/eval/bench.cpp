// The policy-retrieval benchmark runner (bench.hpp): dataset → fingerprints → scope → BM25 +
// vectors → dev calibration → frozen test scoring.
#include "qaplan/eval/bench.hpp"

#include <algorithm>
#include <chrono>
#include <exception>
#include <nlohmann/json.hpp>
#include <string>
#include <unordered_map>

#include "common/enum_table.hpp"
#include "common/sha256.hpp"
#include "qaplan/eval/dataset.hpp"
#include "qaplan/ranking/embedder.hpp"
#include "qaplan/ranking/fusion.hpp"
#include "qaplan/eval/scope.hpp"
#include "qaplan/ranking/tokenizer.hpp"
#include "qaplan/eval/vector_pack.hpp"
#include "qaplan/retrieval/hybrid.hpp"
#include "retrieval/fusion.hpp"

namespace qaplan {
namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

// ---------------------------------------------------------------------------------------------
// Shared preparation: dataset, fingerprints (computed once), scope.
// ---------------------------------------------------------------------------------------------

struct Prepared {
  Dataset ds;
  ScopeResult scope;
  Fingerprints fp;
  double scope_ms = 0.0;
};

Result<Prepared> prepare(const NamedText& dataset, const NamedText& fingerprints) {
  Prepared p;
  QAPLAN_ASSIGN_OR_RETURN(p.ds, parse_dataset(dataset.text, dataset.name));
  QAPLAN_ASSIGN_OR_RETURN(p.fp, verify_fingerprints(p.ds, fingerprints.text, fingerprints.name));
  const auto t0 = Clock::now();
  p.scope = select_policy_scope(p.ds);
  p.scope_ms = ms_since(t0);
  if (p.scope.chunks.empty())
    return make_file_error(ErrorCode::kInvalidInput, "no chunk is in scope at the time point",
                           dataset.name);
  QAPLAN_TRY(check_labels_in_scope(p.ds, p.scope));
  return p;
}

std::vector<std::string> scoped_bodies(const ScopeResult& scope) {
  std::vector<std::string> out;
  out.reserve(scope.chunks.size());
  for (const Chunk& c : scope.chunks) out.push_back(c.text);
  return out;
}

std::vector<std::string> scoped_ids(const ScopeResult& scope) {
  std::vector<std::string> out;
  out.reserve(scope.chunks.size());
  for (const Chunk& c : scope.chunks) out.push_back(c.id);
  return out;
}

// An error about one chunk or query of the dataset.
Error about(Error e, const std::string& what) {
  e.field = what;
  return e;
}

// ---------------------------------------------------------------------------------------------
// Vectors: one space of document rows (doc order) and query rows (dataset order).
// ---------------------------------------------------------------------------------------------

struct VectorSpace {
  std::string model;
  std::size_t dims = 0;
  std::vector<std::vector<float>> docs;
  std::vector<std::vector<float>> queries;
  std::string provenance;
  std::string index_sha256;
};

Result<VectorSpace> local_tfidf_space(const Prepared& p) {
  QAPLAN_ASSIGN_OR_RETURN(LocalTfidfEmbedder emb, LocalTfidfEmbedder::fit(scoped_bodies(p.scope)));
  VectorSpace vs;
  vs.model = std::string(emb.model());
  vs.dims = emb.dimensions();
  for (const Chunk& c : p.scope.chunks) {
    auto v = emb.embed(c.text);
    if (!v) return about(std::move(v).error(), "chunk " + c.id);
    vs.docs.push_back(std::move(*v));
  }
  for (const Query& q : p.ds.queries) {
    auto v = emb.embed(q.text);
    if (!v) return about(std::move(v).error(), "query " + q.id);
    vs.queries.push_back(std::move(*v));
  }
  return vs;
}

PackExpectations expectations(const Prepared& p) {
  PackExpectations ex;
  for (const Query& q : p.ds.queries) ex.queries.push_back(q.text);
  ex.chunk_ids = scoped_ids(p.scope);
  ex.corpus_sha256 = p.fp.corpus_sha256;
  return ex;
}

Result<VectorSpace> cached_space(const Prepared& p, const NamedText& pack_text,
                                 const NamedText& index_text) {
  auto loaded = load_vector_pack(pack_text.text, index_text.text, expectations(p));
  if (!loaded) {
    Error e = std::move(loaded).error();
    e.file = pack_text.name + " + " + index_text.name;
    return e;
  }
  VectorSpace vs;
  vs.model = loaded->model;
  vs.dims = loaded->dimensions;
  vs.docs = std::move(loaded->chunk_vectors);
  vs.queries = std::move(loaded->query_vectors);
  vs.provenance = std::move(loaded->provenance);
  vs.index_sha256 = internal::sha256_hex(index_text.text);
  return vs;
}

// ---------------------------------------------------------------------------------------------
// Ranking: every query goes through one HybridSearcher (the pipeline `qaplan search` uses).
// ---------------------------------------------------------------------------------------------

constexpr internal::EnumTable<VectorBackend, 2> kBackends{{{
    {VectorBackend::kLocalTfidf, "local-tfidf"},
    {VectorBackend::kCached, "cached"},
}}};

constexpr std::size_t kVector = 0, kBm25 = 1, kRrf = 2, kVectorCurrent = 3;
constexpr const char* kMethodNames[] = {"vector", "bm25", "rrf", "vector_current"};
constexpr const char* kScoreNames[] = {"cosine", "bm25", "rrf", "cosine"};

RankedList method_list(const HybridHits& r, std::size_t method) {
  if (method == kBm25) return r.bm25;
  if (method == kRrf) return internal::fused_scores(r.fused);
  return r.vector;  // vector and vector_current
}

// RRF's time covers both searches plus the fusion.
double method_ms(const HybridHits& r, std::size_t method) {
  if (method == kBm25) return r.bm25_ms;
  if (method == kRrf) return r.vector_ms + r.bm25_ms + r.fuse_ms;
  return r.vector_ms;
}

int relevant_index(const Query& q, const Chunk& c) {
  for (std::size_t i = 0; i < q.relevant.size(); ++i)
    if (q.relevant[i].source == c.source && q.relevant[i].section == c.section)
      return static_cast<int>(i);
  return -1;
}

JudgedQuery judge(const Query& q, const RankedList& list, const ScopeResult& scope) {
  JudgedQuery j;
  j.relevant_sections = q.relevant.size();
  j.ranking.reserve(list.size());
  for (const ScoredDoc& d : list)
    j.ranking.push_back({d.score, relevant_index(q, scope.chunks[d.doc])});
  return j;
}

MethodQueryResult describe(const Query& q, const HybridHits& r, std::size_t method,
                           const ScopeResult& scope, const QueryOutcome& o, std::size_t reported) {
  MethodQueryResult res;
  const RankedList list = method_list(r, method);
  res.ranked = list.size();
  res.outcome = o;
  res.ranking_ms = method_ms(r, method);
  std::unordered_map<std::uint32_t, const FusedHit*> fused_of;
  for (const FusedHit& h : r.fused) fused_of[h.doc] = &h;
  for (std::size_t i = 0; i < list.size() && i < reported; ++i) {
    const Chunk& c = scope.chunks[list[i].doc];
    BenchHit h;
    h.rank = i + 1;
    h.doc = list[i].doc;
    h.chunk_id = c.id;
    h.source = c.source;
    h.section = c.section;
    h.score = list[i].score;
    if (auto it = fused_of.find(h.doc); it != fused_of.end()) {
      const FusedHit& f = *it->second;
      h.fused = f.score;
      h.vector_rank = f.ranks[0];
      h.bm25_rank = f.ranks[1];
      h.cosine = f.list_scores[0];
      h.bm25 = f.list_scores[1];
    }
    h.relevant = relevant_index(q, c) >= 0;
    h.accepted = i < o.accepted.size() && o.accepted[i];
    res.hits.push_back(std::move(h));
  }
  return res;
}

// The run's header: dataset identity, scope and exclusions.
BenchRun describe_run(const BenchInputs& in, const BenchOptions& opts, const Prepared& p) {
  BenchRun run;
  run.options = opts;
  run.dataset_name = in.dataset.name;
  run.dataset_version = p.ds.version;
  run.time_point = p.ds.time_point;
  run.dataset_sha256 = p.fp.dataset_sha256;
  run.corpus_sha256 = p.fp.corpus_sha256;
  run.tokenizer_version = std::string(kTokenizerVersion);
  run.backend = in.backend;
  run.scope_ms = p.scope_ms;
  run.scoped_chunk_ids = scoped_ids(p.scope);
  std::unordered_map<std::string, const Chunk*> chunk_by_id;
  for (const Chunk& c : p.ds.chunks) chunk_by_id[c.id] = &c;
  for (const Exclusion& e : p.scope.excluded) {
    const auto it = chunk_by_id.find(e.chunk_id);
    run.exclusions.push_back({e.chunk_id, e.policy_id, e.version,
                              it == chunk_by_id.end() ? std::string() : it->second->section,
                              std::string(to_string(e.reason)), e.detail});
  }
  return run;
}

// Tokens of every text, or the error naming `what` + id.
template <class Items, class Text, class Id>
Result<std::vector<std::vector<std::string>>> tokenize_all(const Tokenizer& tok, const Items& items,
                                                           Text text, Id id) {
  std::vector<std::vector<std::string>> out;
  out.reserve(items.size());
  for (const auto& item : items) {
    auto t = tok.tokenize(text(item));
    if (!t) return about(std::move(t).error(), id(item));
    out.push_back(std::move(*t));
  }
  return out;
}

// Phase 1: a method's threshold from the dev rankings only.
Result<BenchMethod> calibrate_method(std::size_t m, const Prepared& p,
                                     const std::vector<HybridHits>& ranked,
                                     const BenchOptions& opts) {
  BenchMethod bm;
  bm.name = kMethodNames[m];
  bm.score_name = kScoreNames[m];
  if (m == kVectorCurrent) {
    bm.threshold = opts.current_vector_threshold;
    return bm;
  }
  std::vector<JudgedQuery> dev;
  for (std::size_t i = 0; i < p.ds.queries.size(); ++i)
    if (p.ds.queries[i].split == Split::kDev)
      dev.push_back(judge(p.ds.queries[i], method_list(ranked[i], m), p.scope));
  auto cal = calibrate_threshold(dev);
  if (!cal) return about(std::move(cal).error(), "calibration of " + bm.name + " on dev");
  bm.threshold = cal->threshold;
  bm.calibrated = true;
  bm.calibration = std::move(*cal);
  return bm;
}

}  // namespace

std::string_view to_string(VectorBackend backend) noexcept { return kBackends.name(backend); }

Result<VectorBackend> parse_vector_backend(std::string_view text) {
  return kBackends.parse(text, "backend", ErrorCode::kInvalidInput, "--backend");
}

BenchOptions bench_options(const RankingConfig& r) {
  BenchOptions b;
  b.bm25 = r.bm25;
  b.hnsw = r.hnsw;
  b.rrf_k = r.rrf.k;
  b.current_vector_threshold = r.current_vector_threshold;
  return b;
}

Result<BenchRun> run_bench(const BenchInputs& in, const BenchOptions& opts) try {
  const auto t_total = Clock::now();
  if (opts.reported_hits < kReturnedTopK)
    return make_error(ErrorCode::kInvalidConfig, "reported_hits must be >= 3", "BenchOptions");
  const HybridOptions hopts{opts.bm25, opts.hnsw, RrfOptions{opts.rrf_k, {}}};
  const bool cached = in.backend == VectorBackend::kCached;
  if (!cached && (!in.query_vectors.text.empty() || !in.index_vectors.text.empty()))
    return make_error(ErrorCode::kInvalidInput,
                      "query/index vectors are only read with --backend cached", "--backend");

  QAPLAN_ASSIGN_OR_RETURN(const Prepared p, prepare(in.dataset, in.fingerprints));
  BenchRun run = describe_run(in, opts, p);

  // Indexes (timed as index building).
  auto t0 = Clock::now();
  QAPLAN_ASSIGN_OR_RETURN(const Tokenizer tok, Tokenizer::create());
  QAPLAN_ASSIGN_OR_RETURN(
      const auto doc_tokens,
      tokenize_all(tok, p.scope.chunks, [](const Chunk& c) -> const std::string& { return c.text; },
                   [](const Chunk& c) { return "chunk " + c.id; }));
  QAPLAN_ASSIGN_OR_RETURN(VectorSpace space, cached ? cached_space(p, in.query_vectors, in.index_vectors)
                                                    : local_tfidf_space(p));
  QAPLAN_ASSIGN_OR_RETURN(const HybridSearcher searcher,
                          HybridSearcher::create(doc_tokens, space.dims, space.docs, hopts));
  run.index_build_ms = ms_since(t0);
  run.vector_model = space.model;
  run.dimensions = space.dims;
  if (cached) {
    run.vector_provenance = space.provenance;
    run.index_sha256 = space.index_sha256;
    run.query_vectors_name = in.query_vectors.name;
    run.index_vectors_name = in.index_vectors.name;
  }

  // Query preparation: tokens (embeddings were made with the space).
  t0 = Clock::now();
  QAPLAN_ASSIGN_OR_RETURN(
      auto q_tokens,
      tokenize_all(tok, p.ds.queries, [](const Query& q) -> const std::string& { return q.text; },
                   [](const Query& q) { return "query " + q.id; }));
  run.query_prep_ms = ms_since(t0);

  std::vector<std::size_t> methods{kVector, kBm25, kRrf};
  if (cached) methods.push_back(kVectorCurrent);
  std::vector<HybridHits> ranked(p.ds.queries.size());
  auto rank_split = [&](Split split) -> Status {
    for (std::size_t i = 0; i < p.ds.queries.size(); ++i) {
      if (p.ds.queries[i].split != split) continue;
      auto r = searcher.search(HybridQuery{std::move(q_tokens[i]), std::move(space.queries[i])});
      if (!r) return about(std::move(r).error(), "query " + p.ds.queries[i].id);
      ranked[i] = std::move(*r);
    }
    return {};
  };

  // Phase 1: dev only; thresholds are frozen before any test query is ranked.
  QAPLAN_TRY(rank_split(Split::kDev));
  for (const std::size_t m : methods) {
    QAPLAN_ASSIGN_OR_RETURN(BenchMethod bm, calibrate_method(m, p, ranked, opts));
    run.methods.push_back(std::move(bm));
  }

  // Phase 2: test, scored with the frozen thresholds.
  QAPLAN_TRY(rank_split(Split::kTest));
  for (std::size_t i = 0; i < p.ds.queries.size(); ++i) {
    const Query& q = p.ds.queries[i];
    BenchQuery bq;
    bq.id = q.id;
    bq.text = q.text;
    bq.split = std::string(to_string(q.split));
    bq.reason = q.reason;
    bq.tags = q.tags;
    for (const SectionRef& r : q.relevant) bq.relevant.emplace_back(r.source, r.section);
    for (std::size_t k = 0; k < methods.size(); ++k) {
      const QueryOutcome o = evaluate_query(judge(q, method_list(ranked[i], methods[k]), p.scope),
                                            run.methods[k].threshold);
      bq.methods.push_back(describe(q, ranked[i], methods[k], p.scope, o, opts.reported_hits));
    }
    run.queries.push_back(std::move(bq));
  }
  for (std::size_t k = 0; k < methods.size(); ++k) {
    for (const Split split : {Split::kDev, Split::kTest}) {
      std::vector<QueryOutcome> outs;
      std::vector<double> ms;
      for (std::size_t i = 0; i < p.ds.queries.size(); ++i) {
        if (p.ds.queries[i].split != split) continue;
        outs.push_back(run.queries[i].methods[k].outcome);
        ms.push_back(run.queries[i].methods[k].ranking_ms);
      }
      BenchMethod& bm = run.methods[k];
      (split == Split::kDev ? bm.dev : bm.test) = summarize(outs);
      (split == Split::kDev ? bm.dev_latency : bm.test_latency) = summarize_latency(ms);
    }
  }
  run.total_ms = ms_since(t_total);
  return run;
} catch (const std::exception& e) {
  return make_error(ErrorCode::kInternal, std::string("benchmark failed: ") + e.what(),
                    "run_bench");
}

Result<std::string> export_query_manifest(const NamedText& dataset, const NamedText& fingerprints,
                                          const NamedText& index_vectors, bool pretty) try {
  auto prep = prepare(dataset, fingerprints);
  if (!prep) return std::move(prep).error();
  const Prepared& p = *prep;
  auto index = parse_vector_index(index_vectors.text);
  if (!index) {
    Error e = std::move(index).error();
    e.file = index_vectors.name;
    return e;
  }
  if (index->corpus_sha256 != p.fp.corpus_sha256)
    return make_file_error(ErrorCode::kInvalidInput,
                           "index corpus_sha256 " + index->corpus_sha256 +
                               " does not match the dataset corpus " + p.fp.corpus_sha256,
                           index_vectors.name);
  nlohmann::ordered_json j;
  j["schema_version"] = 1;
  j["kind"] = "query-vector-request";
  j["note"] =
      "Request manifest only: embed every query below with the index's model and write a vector "
      "pack (schema in eval_sets/vectors/README.md). Nothing is sent by qaplan.";
  j["dataset_version"] = p.ds.version;
  j["dataset_sha256"] = p.fp.dataset_sha256;
  j["corpus_sha256"] = p.fp.corpus_sha256;
  j["index_file"] = index_vectors.name;
  j["index_sha256"] = internal::sha256_hex(index_vectors.text);
  j["model"] = index->model;
  j["dimensions"] = index->dimensions;
  j["tokenizer_version"] = std::string(kTokenizerVersion);
  nlohmann::ordered_json qs = nlohmann::ordered_json::array();
  for (const Query& q : p.ds.queries)
    qs.push_back({{"id", q.id}, {"split", std::string(to_string(q.split))}, {"query", q.text}});
  j["query_count"] = p.ds.queries.size();
  j["queries"] = std::move(qs);
  return j.dump(pretty ? 2 : -1, ' ', false, nlohmann::ordered_json::error_handler_t::strict) +
         "\n";
} catch (const std::exception& e) {
  return make_error(ErrorCode::kInternal, std::string("manifest failed: ") + e.what(),
                    "export_query_manifest");
}

Result<VectorPackFiles> make_local_tfidf_vector_pack(const NamedText& dataset,
                                                     const NamedText& fingerprints,
                                                     std::string_view index_file_name) try {
  auto prep = prepare(dataset, fingerprints);
  if (!prep) return std::move(prep).error();
  const Prepared& p = *prep;
  auto emb = LocalTfidfEmbedder::fit(scoped_bodies(p.scope));
  if (!emb) return std::move(emb).error();
  const std::string provenance =
      "Produced by qaplan's built-in local-tfidf embedder (LocalTfidfEmbedder: TF-IDF fitted on "
      "the body text of the " +
      std::to_string(p.scope.chunks.size()) + " in-scope chunks of " + p.ds.version + " at " +
      p.ds.time_point + ", tokenizer " + std::string(kTokenizerVersion) + ", " +
      std::to_string(emb->dimensions()) +
      " dimensions) via `qaplan bench --backend local-tfidf --write-vector-pack DIR` "
      "(scripts/make_vector_pack.sh); index file " +
      std::string(index_file_name) + ", dataset_sha256 " + p.fp.dataset_sha256 +
      ". A deterministic offline proxy, not a semantic embedding model; no network request.";
  return build_vector_pack(*emb, expectations(p), scoped_bodies(p.scope), provenance);
} catch (const std::exception& e) {
  return make_error(ErrorCode::kInternal, std::string("vector pack failed: ") + e.what(),
                    "make_local_tfidf_vector_pack");
}

}  // namespace qaplan
