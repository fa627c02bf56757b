// The policy-retrieval benchmark runner (bench.hpp): dataset → fingerprints → scope → BM25 +
// vectors → dev calibration → frozen test scoring.
#include "qaplan/bench.hpp"

#include <algorithm>
#include <chrono>
#include <exception>
#include <nlohmann/json.hpp>
#include <string>
#include <unordered_map>

#include "internal/sha256.hpp"
#include "qaplan/dataset.hpp"
#include "qaplan/embedder.hpp"
#include "qaplan/fusion.hpp"
#include "qaplan/scope.hpp"
#include "qaplan/tokenizer.hpp"
#include "qaplan/vector_pack.hpp"

namespace qaplan {
namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

// ---------------------------------------------------------------------------------------------
// Shared preparation: dataset, fingerprints, scope.
// ---------------------------------------------------------------------------------------------

struct Prepared {
  Dataset ds;
  ScopeResult scope;
  std::string dataset_sha256;
  std::string corpus_sha256;
  double scope_ms = 0.0;
};

Result<Prepared> prepare(const NamedText& dataset, const NamedText& fingerprints) {
  Prepared p;
  auto ds = parse_dataset(dataset.text, dataset.name);
  if (!ds) return std::move(ds).error();
  p.ds = std::move(*ds);
  if (Status st = verify_fingerprints(p.ds, fingerprints.text, fingerprints.name); !st)
    return st.error();
  p.dataset_sha256 = dataset_fingerprint(p.ds);
  p.corpus_sha256 = corpus_fingerprint(p.ds);
  const auto t0 = Clock::now();
  p.scope = select_policy_scope(p.ds);
  p.scope_ms = ms_since(t0);
  if (p.scope.chunks.empty())
    return make_error(ErrorCode::kInvalidInput, "no chunk is in scope at the time point",
                      dataset.name);
  if (Status st = check_labels_in_scope(p.ds, p.scope); !st) return st.error();
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
  auto emb = LocalTfidfEmbedder::fit(scoped_bodies(p.scope));
  if (!emb) return std::move(emb).error();
  VectorSpace vs;
  vs.model = std::string(emb->model());
  vs.dims = emb->dimensions();
  for (const Chunk& c : p.scope.chunks) {
    auto v = emb->embed(c.text);
    if (!v) {
      Error e = std::move(v).error();
      e.context = "chunk " + c.id;
      return e;
    }
    vs.docs.push_back(std::move(*v));
  }
  for (const Query& q : p.ds.queries) {
    auto v = emb->embed(q.text);
    if (!v) {
      Error e = std::move(v).error();
      e.context = "query " + q.id;
      return e;
    }
    vs.queries.push_back(std::move(*v));
  }
  return vs;
}

PackExpectations expectations(const Prepared& p) {
  PackExpectations ex;
  for (const Query& q : p.ds.queries) ex.queries.push_back(q.text);
  ex.chunk_ids = scoped_ids(p.scope);
  ex.corpus_sha256 = p.corpus_sha256;
  return ex;
}

Result<VectorSpace> cached_space(const Prepared& p, const NamedText& pack_text,
                                 const NamedText& index_text) {
  auto loaded = load_vector_pack(pack_text.text, index_text.text, expectations(p));
  if (!loaded) {
    Error e = std::move(loaded).error();
    const std::string where = pack_text.name + " + " + index_text.name;
    e.context = e.context.empty() ? where : where + ": " + e.context;
    return e;
  }
  // load_vector_pack validated the pack; its provenance is only kept for the report.
  auto pack = parse_query_pack(pack_text.text);
  if (!pack) return std::move(pack).error();
  VectorSpace vs;
  vs.model = loaded->model;
  vs.dims = loaded->dimensions;
  vs.docs = std::move(loaded->chunk_vectors);
  vs.queries = std::move(loaded->query_vectors);
  vs.provenance = pack->provenance;
  vs.index_sha256 = internal::sha256_hex(index_text.text);
  return vs;
}

// ---------------------------------------------------------------------------------------------
// Ranking.
// ---------------------------------------------------------------------------------------------

constexpr std::size_t kVector = 0, kBm25 = 1, kRrf = 2, kVectorCurrent = 3;

// One query's three rankings plus timings.
struct Ranked {
  RankedList vec;
  RankedList bm;
  std::vector<FusedHit> fused;
  double vec_ms = 0, bm_ms = 0, rrf_ms = 0;
};

struct Engines {
  const Bm25Index* bm25;
  const VectorIndex* vindex;
  RrfOptions rrf;
};

Result<Ranked> rank_query(const Engines& e, const std::vector<std::string>& tokens,
                          const std::vector<float>& qvec) {
  Ranked r;
  auto t0 = Clock::now();
  auto v = e.vindex->search(qvec, 0);
  if (!v) return std::move(v).error();
  r.vec = std::move(*v);
  // Only chunks that share something with the query enter the ranking (RRF's input rule).
  r.vec.erase(std::remove_if(r.vec.begin(), r.vec.end(),
                             [](const ScoredDoc& d) { return !(d.score > 0.0); }),
              r.vec.end());
  r.vec_ms = ms_since(t0);
  t0 = Clock::now();
  r.bm = e.bm25->search(tokens, 0);
  r.bm_ms = ms_since(t0);
  t0 = Clock::now();
  auto f = fuse_rrf({r.vec, r.bm}, e.rrf);
  if (!f) return std::move(f).error();
  r.fused = std::move(*f);
  r.rrf_ms = r.vec_ms + r.bm_ms + ms_since(t0);
  return r;
}

RankedList method_list(const Ranked& r, std::size_t method) {
  if (method == kBm25) return r.bm;
  if (method == kRrf) {
    RankedList out;
    out.reserve(r.fused.size());
    for (const FusedHit& h : r.fused) out.push_back({h.doc, h.score});
    return out;
  }
  return r.vec;  // vector and vector_current
}

double method_ms(const Ranked& r, std::size_t method) {
  if (method == kBm25) return r.bm_ms;
  if (method == kRrf) return r.rrf_ms;
  return r.vec_ms;
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

MethodQueryResult describe(const Query& q, const Ranked& r, std::size_t method,
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
      if (f.ranks.size() == 2) {
        h.vector_rank = f.ranks[0];
        h.bm25_rank = f.ranks[1];
        h.cosine = f.list_scores[0];
        h.bm25 = f.list_scores[1];
      }
    }
    h.relevant = relevant_index(q, c) >= 0;
    h.accepted = i < o.accepted.size() && o.accepted[i];
    res.hits.push_back(std::move(h));
  }
  return res;
}

}  // namespace

std::string_view to_string(VectorBackend backend) noexcept {
  switch (backend) {
    case VectorBackend::kLocalTfidf:
      return "local-tfidf";
    case VectorBackend::kCached:
      return "cached";
  }
  return "local-tfidf";
}

Result<VectorBackend> parse_vector_backend(std::string_view text) {
  if (text == "local-tfidf") return VectorBackend::kLocalTfidf;
  if (text == "cached") return VectorBackend::kCached;
  return make_error(ErrorCode::kInvalidInput,
                    "unknown backend '" + std::string(text) + "' (expected local-tfidf|cached)",
                    "--backend");
}

Result<BenchRun> run_bench(const BenchInputs& in, const BenchOptions& opts) try {
  const auto t_total = Clock::now();
  if (opts.reported_hits < kReturnedTopK)
    return make_error(ErrorCode::kInvalidInput, "reported_hits must be >= 3", "BenchOptions");
  if (Status st = opts.hnsw.validate(); !st) return st.error();
  if (Status st = opts.bm25.validate(); !st) return st.error();
  RrfOptions rrf;
  rrf.k = opts.rrf_k;
  if (Status st = rrf.validate(); !st) return st.error();
  const bool cached = in.backend == VectorBackend::kCached;
  if (!cached && (!in.query_vectors.text.empty() || !in.index_vectors.text.empty()))
    return make_error(ErrorCode::kInvalidInput,
                      "query/index vectors are only read with --backend cached", "--backend");

  auto prep = prepare(in.dataset, in.fingerprints);
  if (!prep) return std::move(prep).error();
  const Prepared& p = *prep;

  BenchRun run;
  run.options = opts;
  run.dataset_name = in.dataset.name;
  run.dataset_version = p.ds.version;
  run.time_point = p.ds.time_point;
  run.dataset_sha256 = p.dataset_sha256;
  run.corpus_sha256 = p.corpus_sha256;
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

  // Indexes (timed as index building).
  auto t0 = Clock::now();
  auto tok = Tokenizer::create();
  if (!tok) return std::move(tok).error();
  std::vector<std::vector<std::string>> doc_tokens;
  for (const Chunk& c : p.scope.chunks) {
    auto t = tok->tokenize(c.text);
    if (!t) {
      Error e = std::move(t).error();
      e.context = "chunk " + c.id;
      return e;
    }
    doc_tokens.push_back(std::move(*t));
  }
  auto bm25 = Bm25Index::create(doc_tokens, opts.bm25);
  if (!bm25) return std::move(bm25).error();
  auto space = cached ? cached_space(p, in.query_vectors, in.index_vectors) : local_tfidf_space(p);
  if (!space) return std::move(space).error();
  auto vindex = VectorIndex::create(space->dims, space->docs, opts.hnsw);
  if (!vindex) return std::move(vindex).error();
  run.index_build_ms = ms_since(t0);
  run.vector_model = space->model;
  run.dimensions = space->dims;
  if (cached) {
    run.vector_provenance = space->provenance;
    run.index_sha256 = space->index_sha256;
    run.query_vectors_name = in.query_vectors.name;
    run.index_vectors_name = in.index_vectors.name;
  }

  // Query preparation: tokens (embeddings were made with the space). A query with no token in
  // the corpus cannot be ranked lexically; that is a dataset defect, not a metric.
  t0 = Clock::now();
  std::vector<std::vector<std::string>> q_tokens;
  for (const Query& q : p.ds.queries) {
    auto t = tok->tokenize(q.text);
    if (!t) {
      Error e = std::move(t).error();
      e.context = "query " + q.id;
      return e;
    }
    q_tokens.push_back(std::move(*t));
  }
  run.query_prep_ms = ms_since(t0);

  const Engines engines{&*bm25, &*vindex, rrf};
  std::vector<std::size_t> methods{kVector, kBm25, kRrf};
  if (cached) methods.push_back(kVectorCurrent);
  const char* names[] = {"vector", "bm25", "rrf", "vector_current"};
  const char* score_names[] = {"cosine", "bm25", "rrf", "cosine"};

  std::vector<Ranked> ranked(p.ds.queries.size());
  auto rank_split = [&](Split split) -> Status {
    for (std::size_t i = 0; i < p.ds.queries.size(); ++i) {
      if (p.ds.queries[i].split != split) continue;
      auto r = rank_query(engines, q_tokens[i], space->queries[i]);
      if (!r) {
        Error e = std::move(r).error();
        e.context = "query " + p.ds.queries[i].id;
        return e;
      }
      ranked[i] = std::move(*r);
    }
    return {};
  };

  // Phase 1: dev only; thresholds are frozen before any test query is ranked.
  if (Status st = rank_split(Split::kDev); !st) return st.error();
  for (const std::size_t m : methods) {
    BenchMethod bm;
    bm.name = names[m];
    bm.score_name = score_names[m];
    if (m == kVectorCurrent) {
      bm.threshold = opts.current_vector_threshold;
    } else {
      std::vector<JudgedQuery> dev;
      for (std::size_t i = 0; i < p.ds.queries.size(); ++i)
        if (p.ds.queries[i].split == Split::kDev)
          dev.push_back(judge(p.ds.queries[i], method_list(ranked[i], m), p.scope));
      auto cal = calibrate_threshold(dev);
      if (!cal) {
        Error e = std::move(cal).error();
        e.context = "calibration of " + bm.name + " on dev";
        return e;
      }
      bm.threshold = cal->threshold;
      bm.calibrated = true;
      bm.calibration = std::move(*cal);
    }
    run.methods.push_back(std::move(bm));
  }

  // Phase 2: test, scored with the frozen thresholds.
  if (Status st = rank_split(Split::kTest); !st) return st.error();
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
    e.context = e.context.empty() ? index_vectors.name : index_vectors.name + ": " + e.context;
    return e;
  }
  if (index->corpus_sha256 != p.corpus_sha256)
    return make_error(ErrorCode::kInvalidInput,
                      "index corpus_sha256 " + index->corpus_sha256 +
                          " does not match the dataset corpus " + p.corpus_sha256,
                      index_vectors.name);
  nlohmann::ordered_json j;
  j["schema_version"] = 1;
  j["kind"] = "query-vector-request";
  j["note"] =
      "Request manifest only: embed every query below with the index's model and write a vector "
      "pack (schema in eval_sets/vectors/README.md). Nothing is sent by qaplan.";
  j["dataset_version"] = p.ds.version;
  j["dataset_sha256"] = p.dataset_sha256;
  j["corpus_sha256"] = p.corpus_sha256;
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
      std::string(index_file_name) + ", dataset_sha256 " + p.dataset_sha256 +
      ". A deterministic offline proxy, not a semantic embedding model; no network request.";
  return build_vector_pack(*emb, expectations(p), scoped_bodies(p.scope), provenance);
} catch (const std::exception& e) {
  return make_error(ErrorCode::kInternal, std::string("vector pack failed: ") + e.what(),
                    "make_local_tfidf_vector_pack");
}

}  // namespace qaplan
