// The exact local-tfidf cosine search (tfidf_cosine.hpp).
#include "retrieval/tfidf_cosine.hpp"

#include <algorithm>
#include <cmath>

#include "common/ordering.hpp"
#include "qaplan/ranking/embedder.hpp"

namespace qaplan::internal {

Result<TfidfCosine> TfidfCosine::fit(const std::vector<std::string>& texts,
                                     const std::vector<std::vector<std::string>>& tokens) {
  QAPLAN_ASSIGN_OR_RETURN(LocalTfidfEmbedder emb, LocalTfidfEmbedder::fit(texts));
  TfidfCosine c;
  c.idf_ = emb.idf();
  c.dim_.reserve(emb.vocabulary().size());
  for (std::size_t j = 0; j < emb.vocabulary().size(); ++j)
    c.dim_.emplace(emb.vocabulary()[j], static_cast<std::uint32_t>(j));
  c.postings_.assign(emb.vocabulary().size(), {});
  c.records_ = tokens.size();
  for (std::size_t r = 0; r < tokens.size(); ++r)
    for (const auto& [d, w] : c.weigh(tokens[r]))
      c.postings_[d].emplace_back(static_cast<std::uint32_t>(r), w);
  return c;
}

SparseVec TfidfCosine::weigh(const std::vector<std::string>& tokens) const {
  std::vector<std::uint32_t> dims;
  dims.reserve(tokens.size());
  for (const std::string& t : tokens)
    if (auto it = dim_.find(t); it != dim_.end()) dims.push_back(it->second);
  std::sort(dims.begin(), dims.end());
  std::vector<std::pair<std::uint32_t, double>> w;
  for (std::size_t i = 0; i < dims.size();) {
    std::size_t j = i;
    while (j < dims.size() && dims[j] == dims[i]) ++j;
    w.emplace_back(dims[i], static_cast<double>(j - i) * idf_[dims[i]]);
    i = j;
  }
  double norm = 0.0;
  for (const auto& [d, x] : w) norm += x * x;
  norm = std::sqrt(norm);
  SparseVec out;
  if (norm == 0.0) return out;
  out.reserve(w.size());
  for (const auto& [d, x] : w) out.emplace_back(d, static_cast<float>(x / norm));
  return out;
}

RankedList TfidfCosine::search(const SparseVec& query, std::vector<double>& acc) const {
  acc.assign(records_, 0.0);
  // Dimensions ascending, so each record's sum runs in the order of a dense dot product.
  for (const auto& [d, w] : query)
    for (const auto& [r, x] : postings_[d])
      acc[r] += static_cast<double>(w) * static_cast<double>(x);
  RankedList out;
  for (std::uint32_t r = 0; r < acc.size(); ++r)
    if (acc[r] > 0) out.push_back({r, acc[r]});
  std::sort(out.begin(), out.end(), ranks_before<ScoredDoc>);
  return out;
}

}  // namespace qaplan::internal
