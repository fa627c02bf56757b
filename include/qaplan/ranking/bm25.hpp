#pragma once
/// BM25 ranking as Lucene ≥ 8 scores it (issue 3 item 4): per matched query term
///
///     idf · f / (f + k1 · (1 − b + b · dl / avgdl)),   idf = ln(1 + (N − df + 0.5) / (df + 0.5))
///
/// with no (k1 + 1) factor; the document score is the sum over the distinct matched query terms.
/// N is the number of documents with at least one token (Lucene's docCount); avgdl is the total
/// number of tokens / N, never quantised.
///
/// Norms (the `dl` above):
///  - `kExact` (default): dl is the document's true token count; arithmetic in double.
///  - `kLucene`: dl = byte4ToInt(intToByte4(len)), Lucene's one-byte SmallFloat length norm
///    (exact up to 39 tokens, then 4 significant bits rounded down: 40, 41 → 40; 100 → 96;
///    1000 → 984), and Lucene 8's BM25Similarity float arithmetic (float idf, float avgdl, a
///    per-norm cache 1 / (k1 · ((1 − b) + b · dl / avgdl)), term score w − w / (1 + f · cache),
///    the document's term scores summed in double and rounded to float), so scores agree with
///    Lucene to ~1e-7 relative and orderings match Lucene's, ties included.
///
/// Ordering: score descending, ties by lower document index (input order) — everywhere.
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "qaplan/export.hpp"
#include "qaplan/status.hpp"
#include "qaplan/ranking/types.hpp"

namespace qaplan {

namespace internal {
struct Bm25Data;  // the index arrays, defined in bm25.cpp
}  // namespace internal

/// How document lengths enter the score; spelled "exact" / "lucene" in TOML, JSON and the CLI.
enum class Bm25Norms { kExact, kLucene };

/// "exact" or "lucene".
QAPLAN_API std::string_view to_string(Bm25Norms norms) noexcept;
/// Inverse of to_string; kInvalidInput for any other spelling.
QAPLAN_API Result<Bm25Norms> parse_bm25_norms(std::string_view s);

/// BM25 parameters.
///
/// | field | default | range            |
/// |-------|---------|------------------|
/// | k1    | 1.2     | finite, ≥ 0      |
/// | b     | 0.75    | finite, [0, 1]   |
/// | norms | kExact  | kExact / kLucene |
struct Bm25Options {
  double k1 = 1.2;
  double b = 0.75;
  Bm25Norms norms = Bm25Norms::kExact;

  /// Pure check of the ranges above; kInvalidConfig naming the field.
  QAPLAN_API Status validate() const;
};

/// An in-memory BM25 index over a tokenized collection. Immutable after `create()`; every
/// const member, `search()` included, is thread-safe (per-thread scratch memory). Copies share
/// the same immutable data.
///
/// Search uses exhaustive term-at-a-time scoring for k == 0 (or k ≥ size()) and, for smaller k,
/// MaxScore dynamic pruning evaluated in windows of 4096 documents (per-term score upper bounds
/// are computed exactly at build time). Both paths return bit-identical scores and orderings
/// (each document's term scores are added in one canonical term order — descending upper bound —
/// in both), so pruning never changes a result.
class QAPLAN_API Bm25Index {
 public:
  /// Indexes `doc_tokens[i]` as document i (the tie-breaker). Tokens are used as they are
  /// (no further normalisation); empty documents are allowed and never match.
  /// Errors: kInvalidConfig from `opts.validate()`; kInvalidInput for more than 2^32 − 2
  /// documents; kInternal when memory runs out.
  static Result<Bm25Index> create(const std::vector<std::vector<std::string>>& doc_tokens,
                                  const Bm25Options& opts = {});

  /// Top-`k` documents for `query_tokens`, score descending, ties by lower document index.
  /// Only documents with score > 0 (at least one matched term) are returned, so the list may be
  /// shorter than k. k == 0 returns every matching document (the untruncated list RRF fuses).
  /// Repeated query terms count once; unknown terms are ignored; no terms → empty list.
  RankedList search(const std::vector<std::string>& query_tokens, std::size_t k) const;

  /// Same result as `search()` computed by plain exhaustive term-at-a-time scoring, without
  /// pruning: the reference that tests and benchmarks compare the pruned path with.
  RankedList search_exhaustive(const std::vector<std::string>& query_tokens, std::size_t k) const;

  /// Number of documents (including empty ones).
  std::size_t size() const noexcept;
  /// Mean length over documents with at least one token (0 when there are none).
  double avgdl() const noexcept;
  /// Number of distinct terms.
  std::size_t num_terms() const noexcept;
  /// Number of documents containing `term` (0 when unknown).
  std::size_t doc_freq(std::string_view term) const;
  /// The options the index was built with.
  const Bm25Options& options() const noexcept;

 private:
  explicit Bm25Index(std::shared_ptr<const internal::Bm25Data> impl) : impl_(std::move(impl)) {}
  std::shared_ptr<const internal::Bm25Data> impl_;
};

/// Lucene's SmallFloat.intToByte4: a length in one byte (0–255), exact below 40, then a float
/// with 4 significant bits (rounded down). Exposed for tests and peers. `len` < 0 is treated as 0.
QAPLAN_API unsigned char lucene_int_to_byte4(int len) noexcept;
/// Lucene's SmallFloat.byte4ToInt, the inverse (the smallest length of each byte's bucket).
QAPLAN_API int lucene_byte4_to_int(unsigned char b) noexcept;

}  // namespace qaplan
