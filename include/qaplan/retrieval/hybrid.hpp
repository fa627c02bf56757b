#pragma once
/// One collection searched three ways — BM25, cosine vectors (HNSW) and their RRF fusion — the
/// pipeline behind `qaplan search` (over a corpus file or a saved index) and the frozen
/// benchmark, so they can never drift apart. Its fusion is the retrieval room's one pipeline,
/// the one execute_plan and ask_index use too (docs/architecture.md).
///
/// Lists follow the ranking library's rules: only documents with score > 0 are hits, ordering
/// is score descending with ties by lower document index, and the fused list is RRF over
/// [vector, bm25] (in that order) of the two UNTRUNCATED lists.
///
/// Immutable after creation; every const member is thread-safe.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "qaplan/export.hpp"
#include "qaplan/ranking/bm25.hpp"
#include "qaplan/ranking/corpus.hpp"
#include "qaplan/ranking/fusion.hpp"
#include "qaplan/ranking/index_dir.hpp"
#include "qaplan/ranking/types.hpp"
#include "qaplan/ranking/vector_index.hpp"
#include "qaplan/status.hpp"

namespace qaplan {

/// Parameters of the three legs.
struct HybridOptions {
  Bm25Options bm25;
  HnswOptions hnsw;
  RrfOptions rrf;
};

/// Which legs to build (a BM25-only search need not embed anything).
struct HybridLegs {
  bool bm25 = true;
  bool vectors = true;
};

/// A prepared query: its tokens and, when the searcher has vectors, its vector (empty when the
/// query has no token of the vector space: it then has no vector hits, which is not an error).
struct HybridQuery {
  std::vector<std::string> tokens;
  std::vector<float> vector;
};

/// The three lists of one query, plus how long each took (milliseconds, timing only; `fuse_ms`
/// is the fusion alone). `vector` and `bm25` are untruncated.
struct HybridHits {
  RankedList vector;
  RankedList bm25;
  std::vector<FusedHit> fused;  ///< RRF of [vector, bm25]; ranks/list_scores in that order
  double vector_ms = 0, bm25_ms = 0, fuse_ms = 0;
};

class QAPLAN_API HybridSearcher {
 public:
  /// From prepared documents: `doc_tokens[i]` and `doc_vectors[i]` belong to document i (the
  /// tie-breaker). An empty `doc_vectors[i]` means document i has no vector (it never appears in
  /// a vector list); `doc_vectors` empty or `dims` == 0 builds no vector leg.
  /// Errors: kInvalidConfig for invalid options; kInvalidInput for mismatched sizes or bad
  /// vectors (see VectorIndex::create).
  static Result<HybridSearcher> create(const std::vector<std::vector<std::string>>& doc_tokens,
                                       std::size_t dims,
                                       const std::vector<std::vector<float>>& doc_vectors,
                                       const HybridOptions& opts, HybridLegs legs = {});

  /// From raw records: tokenizes with the benchmark tokenizer and, for the vector leg, fits the
  /// built-in local TF-IDF embedder on the texts (dense vectors; refused above 256 M floats).
  /// A corpus without a single token has no vector space (every vector list is empty).
  /// Errors: kInvalidInput naming the record id (invalid UTF-8, corpus too large).
  static Result<HybridSearcher> from_records(const std::vector<TextRecord>& docs,
                                             const HybridOptions& opts, HybridLegs legs = {});

  /// Over a saved index (index_dir.hpp), nothing rebuilt: its BM25 leg and, when it has them,
  /// its vectors (row i = document i). The searcher shares the index's data. Query vectors come
  /// from the caller's embedder (prepare() gives tokens only), and every one is searched: a
  /// vector of the wrong length, empty included, is VectorIndex::search's error.
  /// Errors: kInvalidConfig for invalid `rrf`.
  static Result<HybridSearcher> open(const CollectionIndex& index, const RrfOptions& rrf = {});

  /// Tokens (and vector, when this searcher embeds) of a query text. Errors: kInvalidInput for
  /// invalid UTF-8.
  Result<HybridQuery> prepare(std::string_view text) const;

  /// BM25 top-k (k == 0: every match). Empty when there is no BM25 leg.
  RankedList bm25(const std::vector<std::string>& tokens, std::size_t k) const;
  /// Vector top-k with score > 0, as document indexes (k == 0: every document with a vector).
  Result<RankedList> vector(std::span<const float> query, std::size_t k) const;
  /// All three lists; the fused one cut to `k` (k == 0: all of it).
  Result<HybridHits> search(const HybridQuery& q, std::size_t k = 0) const;
  /// The fused list cut to k (k == 0: all), as (doc, fused score).
  Result<RankedList> fused(const HybridQuery& q, std::size_t k) const;

  std::size_t size() const noexcept;
  bool has_bm25() const noexcept;
  bool has_vectors() const noexcept;

 private:
  struct Impl;
  static Status build_legs(Impl& impl, const std::vector<std::vector<std::string>>& doc_tokens,
                           std::size_t dims, const std::vector<std::vector<float>>& doc_vectors,
                           const HybridOptions& opts, HybridLegs legs);
  explicit HybridSearcher(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}
  std::shared_ptr<const Impl> impl_;
};

}  // namespace qaplan
