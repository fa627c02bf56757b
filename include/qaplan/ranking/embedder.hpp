#pragma once
/// Text → vector backends for vector search.
///
/// Two backends ship:
///  - `LocalTfidfEmbedder` (model "local-tfidf"): TF-IDF term vectors fitted on the corpus body
///    text only. An offline proxy that exercises cosine ranking, BM25, RRF, thresholds and metrics;
///    it is NOT a semantic embedding model and says nothing about one's quality.
///  - `CachedEmbedder` (model = whatever the vector pack declares): looks up vectors that were
///    computed elsewhere (a vector pack, see vector_pack.hpp) by the exact raw text; a text that
///    is not in the cache is an error, never a fallback.
///
/// Vectors returned by `embed()` are meant for `VectorIndex` (which L2-normalises again, a no-op up
/// to float rounding for these).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "qaplan/export.hpp"
#include "qaplan/status.hpp"
#include "qaplan/ranking/tokenizer.hpp"

namespace qaplan {

/// A text embedder. Implementations are immutable after construction and `embed()` is const and
/// thread-safe.
class QAPLAN_API Embedder {
 public:
  virtual ~Embedder();
  /// Model name, recorded in vector packs and reports (e.g. "local-tfidf").
  virtual std::string_view model() const = 0;
  /// Length of every vector `embed()` returns; > 0.
  virtual std::size_t dimensions() const = 0;
  /// The vector of `text` (`dimensions()` finite floats, not all zero). Errors: kInvalidInput when
  /// the text cannot be embedded (invalid UTF-8, no known token, not cached, …).
  virtual Result<std::vector<float>> embed(std::string_view text) const = 0;
};

/// The `local-tfidf` vector space, fitted on N corpus texts (chunk bodies only):
///
///  - Tokens: the benchmark tokenizer (`kTokenizerVersion`, tokenizer.hpp).
///  - Vocabulary: the distinct tokens of all corpus texts, sorted by bytes (UTF-8 code-unit order,
///    i.e. `std::string` `<`); dimension j is vocabulary()[j]; dimensions() = vocabulary size.
///  - idf(t) = ln((1 + N) / (1 + df(t))) + 1, where df(t) = number of corpus texts containing t
///    (scikit-learn's smooth_idf=True, sublinear_tf=False); computed in double.
///  - For a text, tf(t) = raw count of t among its tokens; component j = tf(t_j) · idf(t_j) for
///    vocabulary tokens, tokens outside the vocabulary are ignored. The vector is L2-normalised in
///    double (norm summed in dimension order) and each component rounded once to float.
///  - A text with no vocabulary token has the zero vector → kInvalidInput ("query has no token
///    in the corpus vocabulary").
/// Fitting and embedding are deterministic: the same corpus gives the same vocabulary order,
/// the same idf values and bit-identical vectors on every IEEE-754 machine.
class QAPLAN_API LocalTfidfEmbedder final : public Embedder {
 public:
  /// Model name of this backend.
  static constexpr std::string_view kModel = "local-tfidf";

  /// Fits the vocabulary and idf on `corpus_texts` (body text only, one entry per chunk).
  /// Errors: kInvalidInput when the corpus is empty, a text is invalid UTF-8 (names its
  /// position), or no text has any token; kInternal if the tokenizer cannot load ICU data.
  static Result<LocalTfidfEmbedder> fit(const std::vector<std::string>& corpus_texts);

  std::string_view model() const override { return kModel; }
  std::size_t dimensions() const override { return vocabulary_.size(); }
  Result<std::vector<float>> embed(std::string_view text) const override;

  /// The sorted vocabulary; dimension j is vocabulary()[j].
  const std::vector<std::string>& vocabulary() const noexcept { return vocabulary_; }
  /// idf per dimension (same order as vocabulary()).
  const std::vector<double>& idf() const noexcept { return idf_; }
  /// Number of corpus texts the model was fitted on (N above).
  std::size_t corpus_size() const noexcept { return corpus_size_; }

 private:
  LocalTfidfEmbedder(Tokenizer tokenizer, std::vector<std::string> vocabulary,
                     std::vector<double> idf, std::size_t corpus_size);
  Tokenizer tokenizer_;
  std::vector<std::string> vocabulary_;
  std::vector<double> idf_;
  std::unordered_map<std::string, std::uint32_t> index_;  // token → dimension
  std::size_t corpus_size_ = 0;
};

/// Vectors computed elsewhere (the `cached` backend), looked up by the exact raw text.
class QAPLAN_API CachedEmbedder final : public Embedder {
 public:
  /// `vectors`: (text, vector) pairs. Errors: kInvalidInput for an empty model name,
  /// dimensions == 0, a duplicate text, or a vector that has the wrong length, a non-finite value
  /// or is all zero (each names the text).
  static Result<CachedEmbedder> create(std::string model, std::size_t dimensions,
                                       std::vector<std::pair<std::string, std::vector<float>>> vectors);

  std::string_view model() const override { return model_; }
  std::size_t dimensions() const override { return dimensions_; }
  /// The cached vector of exactly `text` (no normalisation of the text). Errors: kInvalidInput
  /// "no cached vector for query" naming the text.
  Result<std::vector<float>> embed(std::string_view text) const override;

 private:
  CachedEmbedder() = default;
  std::string model_;
  std::size_t dimensions_ = 0;
  std::unordered_map<std::string, std::vector<float>> vectors_;
};

}  // namespace qaplan
