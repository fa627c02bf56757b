// BM25 term scores as the index computes them, shared by the search and the builder (which
// stores each term's and block's score bound): exact in double, or Lucene 8's float arithmetic.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>

#include "ranking/internal/bm25_image.hpp"

namespace qaplan::internal::bm25 {

inline double term_score_exact(double idf, std::uint32_t tf, double k) {
  const double f = static_cast<double>(tf);
  return idf * f / (f + k);
}

// Lucene 8 BM25Scorer.score(): weight − weight / (1 + freq · cache[norm]), all in float.
inline float term_score_lucene(float w, std::uint32_t tf, float inv) {
  return w - w / (1.0f + static_cast<float>(tf) * inv);
}

// The document score as reported: in lucene mode Lucene's disjunction sums float term scores
// in double and returns a float.
inline double finish_score(bool lucene, double sum) {
  return lucene ? static_cast<double>(static_cast<float>(sum)) : sum;
}

// Per-term scorer over document ids, specialised per norms mode.
template <bool kLucene>
struct TermScorer {
  double idf;
  float w;
  const std::uint8_t* norms;
  const float* cache;
  const double* kk;
  TermScorer(const Bm25Data& x, double term_idf)
      : idf(term_idf), w(static_cast<float>(term_idf)), norms(x.norms8), cache(x.lucene_cache),
        kk(x.k_exact.data()) {}
  double operator()(std::uint32_t d, std::uint32_t tf) const {
    if constexpr (kLucene)
      return static_cast<double>(term_score_lucene(w, tf, cache[norms[d]]));
    else
      return term_score_exact(idf, tf, kk[d]);
  }
};

// Rounds a non-negative double up to a float that is ≥ it.
inline float round_up_float(double v) {
  float f = static_cast<float>(v);
  if (static_cast<double>(f) < v) f = std::nextafter(f, std::numeric_limits<float>::infinity());
  return f;
}


constexpr std::uint32_t kEnd = std::numeric_limits<std::uint32_t>::max();

}  // namespace qaplan::internal::bm25
