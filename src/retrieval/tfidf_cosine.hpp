#pragma once
// The one exact local-tfidf cosine search (docs/architecture.md#the-retrieval-room): the vector
// leg of the knowledge base's two collections and of the rewrite evaluation's benchmark. At a
// few hundred records an exact search over an inverted index costs less than HNSW and gives the
// exact scores a calibrated threshold needs.
#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "qaplan/export.hpp"
#include "qaplan/ranking/types.hpp"
#include "qaplan/status.hpp"

namespace qaplan::internal {

/// A sparse local-tfidf vector: (dimension, weight) in ascending dimension order.
using SparseVec = std::vector<std::pair<std::uint32_t, float>>;

/// The local-tfidf space of one collection (vocabulary and idf of LocalTfidfEmbedder::fit on its
/// record texts) with an inverted index of the records' vectors, so a query's cosine with every
/// record costs one pass over the postings of the query's own dimensions. The cosines equal the
/// dot products of LocalTfidfEmbedder's dense vectors bit for bit: the same float components,
/// multiplied in double and summed in dimension order. Immutable; const members thread-safe.
class QAPLAN_API TfidfCosine {
 public:
  /// Fits the space on `texts` and indexes `tokens[r]` (the tokens of texts[r]) as record r.
  /// Errors: as LocalTfidfEmbedder::fit.
  static Result<TfidfCosine> fit(const std::vector<std::string>& texts,
                                 const std::vector<std::vector<std::string>>& tokens);

  /// LocalTfidfEmbedder's vector of a token list: tf · idf over vocabulary tokens, L2-normalised
  /// in double with the norm summed in dimension order, each component rounded once to float.
  /// Empty when no token is in the vocabulary.
  SparseVec weigh(const std::vector<std::string>& tokens) const;

  /// Every record with cosine > 0, best first, ties by lower record. `acc`: scratch (one
  /// double per record), reusable across calls of one thread.
  RankedList search(const SparseVec& query, std::vector<double>& acc) const;

  std::size_t dimensions() const noexcept { return idf_.size(); }
  std::size_t records() const noexcept { return records_; }

 private:
  std::unordered_map<std::string, std::uint32_t> dim_;  // token → dimension
  std::vector<double> idf_;
  std::vector<std::vector<std::pair<std::uint32_t, float>>> postings_;  // dim → (record, weight)
  std::size_t records_ = 0;
};

}  // namespace qaplan::internal
