#include "qaplan/ranking/embedder.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>

namespace qaplan {

Embedder::~Embedder() = default;

namespace {

// Shortened text for error contexts: long chunk bodies would make the one-line error unreadable.
std::string excerpt(std::string_view text) {
  constexpr std::size_t kMax = 60;
  if (text.size() <= kMax) return std::string(text);
  std::size_t cut = kMax;
  // Do not split a UTF-8 sequence: back up to a lead byte.
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return std::string(text.substr(0, cut)) + "…";
}

}  // namespace

LocalTfidfEmbedder::LocalTfidfEmbedder(Tokenizer tokenizer, std::vector<std::string> vocabulary,
                                       std::vector<double> idf, std::size_t corpus_size)
    : tokenizer_(tokenizer),
      vocabulary_(std::move(vocabulary)),
      idf_(std::move(idf)),
      corpus_size_(corpus_size) {
  index_.reserve(vocabulary_.size());
  for (std::size_t j = 0; j < vocabulary_.size(); ++j) {
    index_.emplace(vocabulary_[j], static_cast<std::uint32_t>(j));
  }
}

Result<LocalTfidfEmbedder> LocalTfidfEmbedder::fit(const std::vector<std::string>& corpus_texts) {
  if (corpus_texts.empty()) {
    return make_error(ErrorCode::kInvalidInput, "cannot fit local-tfidf on an empty corpus",
                      "local-tfidf");
  }
  auto tok = Tokenizer::create();
  if (!tok.ok()) return tok.error();
  // std::map keeps the vocabulary sorted by bytes, which fixes the dimension order.
  std::map<std::string, std::size_t> df;
  std::vector<std::string> tokens;
  for (std::size_t i = 0; i < corpus_texts.size(); ++i) {
    tokens.clear();
    if (Status st = tok->tokenize_into(corpus_texts[i], tokens); !st.ok()) {
      Error e = st.error();
      e.field = "local-tfidf corpus text " + std::to_string(i) +
                (e.field.empty() ? "" : " (" + e.field + ")");
      return e;
    }
    std::sort(tokens.begin(), tokens.end());
    tokens.erase(std::unique(tokens.begin(), tokens.end()), tokens.end());
    for (auto& t : tokens) ++df[std::move(t)];
  }
  if (df.empty()) {
    return make_error(ErrorCode::kInvalidInput, "corpus has no tokens", "local-tfidf");
  }
  const double n = static_cast<double>(corpus_texts.size());
  std::vector<std::string> vocab;
  std::vector<double> idf;
  vocab.reserve(df.size());
  idf.reserve(df.size());
  for (auto& [term, count] : df) {
    vocab.push_back(term);
    idf.push_back(std::log((1.0 + n) / (1.0 + static_cast<double>(count))) + 1.0);
  }
  return LocalTfidfEmbedder(*tok, std::move(vocab), std::move(idf), corpus_texts.size());
}

Result<std::vector<float>> LocalTfidfEmbedder::embed(std::string_view text) const {
  auto tokens = tokenizer_.tokenize(text);
  if (!tokens.ok()) {
    Error e = tokens.error();
    e.field = "local-tfidf text \"" + excerpt(text) + "\"";
    return e;
  }
  // Sparse tf over known dimensions; ordered by dimension so the norm sums in a fixed order.
  std::map<std::uint32_t, double> tf;
  for (const auto& t : *tokens) {
    if (auto it = index_.find(t); it != index_.end()) tf[it->second] += 1.0;
  }
  if (tf.empty()) {
    return make_error(ErrorCode::kInvalidInput, "query has no token in the corpus vocabulary",
                      "local-tfidf text \"" + excerpt(text) + "\"");
  }
  double sum = 0.0;
  for (auto& [dim, w] : tf) {
    w *= idf_[dim];
    sum += w * w;
  }
  const double norm = std::sqrt(sum);
  std::vector<float> v(vocabulary_.size(), 0.0f);
  for (const auto& [dim, w] : tf) v[dim] = static_cast<float>(w / norm);
  return v;
}

Result<CachedEmbedder> CachedEmbedder::create(
    std::string model, std::size_t dimensions,
    std::vector<std::pair<std::string, std::vector<float>>> vectors) {
  if (model.empty()) {
    return make_error(ErrorCode::kInvalidInput, "model name is empty", "cached embedder");
  }
  if (dimensions == 0) {
    return make_error(ErrorCode::kInvalidInput, "dimensions must be > 0", "cached embedder");
  }
  CachedEmbedder c;
  c.model_ = std::move(model);
  c.dimensions_ = dimensions;
  c.vectors_.reserve(vectors.size());
  for (auto& [text, v] : vectors) {
    const std::string ctx = "cached vector \"" + excerpt(text) + "\"";
    if (v.size() != dimensions) {
      return make_error(ErrorCode::kInvalidInput,
                        "vector has " + std::to_string(v.size()) + " dimensions, expected " +
                            std::to_string(dimensions),
                        ctx);
    }
    bool nonzero = false;
    for (float x : v) {
      if (!std::isfinite(x)) return make_error(ErrorCode::kInvalidInput, "non-finite value", ctx);
      nonzero = nonzero || x != 0.0f;
    }
    if (!nonzero) return make_error(ErrorCode::kInvalidInput, "vector is all zero", ctx);
    if (!c.vectors_.emplace(std::move(text), std::move(v)).second) {
      return make_error(ErrorCode::kInvalidInput, "duplicate text", ctx);
    }
  }
  return c;
}

Result<std::vector<float>> CachedEmbedder::embed(std::string_view text) const {
  auto it = vectors_.find(std::string(text));
  if (it == vectors_.end()) {
    return make_error(ErrorCode::kInvalidInput, "no cached vector for query",
                      "cached embedder (" + model_ + ") \"" + excerpt(text) + "\"");
  }
  return it->second;
}

}  // namespace qaplan
