// HybridSearcher (include/qaplan/retrieval/hybrid.hpp): BM25, vectors and their fusion through
// the retrieval room's one pipeline.
#include "qaplan/retrieval/hybrid.hpp"

#include <algorithm>
#include <chrono>
#include <optional>

#include "qaplan/ranking/embedder.hpp"
#include "qaplan/ranking/tokenizer.hpp"
#include "retrieval/fusion.hpp"
#include "retrieval/vector_leg.hpp"

namespace qaplan {
namespace {

using Clock = std::chrono::steady_clock;
double hybrid_ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

// Dense local TF-IDF vectors are vocabulary × documents floats; refuse sizes that would not fit
// comfortably in memory instead of dying in the allocator.
constexpr double kMaxDenseFloats = 256.0 * 1024 * 1024;

}  // namespace

struct HybridSearcher::Impl {
  std::size_t n = 0;
  HybridOptions opts;
  std::optional<Bm25Index> bm25;
  std::optional<VectorIndex> vec;
  std::vector<std::uint32_t>
      vec_doc;  // vector row → document (documents without vectors have no row)
  std::optional<CollectionIndex> saved;  // open(): its vectors, row i = document i
  std::optional<Tokenizer> tokenizer;
  std::optional<LocalTfidfEmbedder> embedder;  // only from_records() embeds queries

  const VectorIndex* vectors() const {
    if (vec) return &*vec;
    return saved ? saved->vectors() : nullptr;
  }
};

// Builds the legs of `impl` (shared by both factories).
Status HybridSearcher::build_legs(Impl& impl,
                                  const std::vector<std::vector<std::string>>& doc_tokens,
                                  std::size_t dims,
                                  const std::vector<std::vector<float>>& doc_vectors,
                                  const HybridOptions& opts, HybridLegs legs) {
  QAPLAN_TRY(opts.bm25.validate());
  QAPLAN_TRY(opts.hnsw.validate());
  QAPLAN_TRY(opts.rrf.validate());
  QAPLAN_ASSIGN_OR_RETURN(Tokenizer tok, Tokenizer::create());
  impl.tokenizer = tok;
  impl.opts = opts;
  impl.n = doc_tokens.size();
  if (legs.bm25) {
    QAPLAN_ASSIGN_OR_RETURN(Bm25Index idx, Bm25Index::create(doc_tokens, opts.bm25));
    impl.bm25 = std::move(idx);
  }
  if (!legs.vectors || dims == 0 || doc_vectors.empty()) return {};
  if (doc_vectors.size() != doc_tokens.size())
    return make_error(ErrorCode::kInvalidInput,
                      std::to_string(doc_vectors.size()) + " vectors for " +
                          std::to_string(doc_tokens.size()) + " documents",
                      "vectors");
  std::vector<std::vector<float>> rows;
  for (std::size_t i = 0; i < doc_vectors.size(); ++i) {
    if (doc_vectors[i].empty()) continue;
    rows.push_back(doc_vectors[i]);
    impl.vec_doc.push_back(static_cast<std::uint32_t>(i));
  }
  QAPLAN_ASSIGN_OR_RETURN(VectorIndex vi, VectorIndex::create(dims, rows, opts.hnsw));
  impl.vec = std::move(vi);
  return {};
}

Result<HybridSearcher> HybridSearcher::create(
    const std::vector<std::vector<std::string>>& doc_tokens, std::size_t dims,
    const std::vector<std::vector<float>>& doc_vectors, const HybridOptions& opts,
    HybridLegs legs) {
  auto impl = std::make_shared<Impl>();
  QAPLAN_TRY(build_legs(*impl, doc_tokens, dims, doc_vectors, opts, legs));
  return HybridSearcher(std::move(impl));
}

Result<HybridSearcher> HybridSearcher::from_records(const std::vector<TextRecord>& docs,
                                                    const HybridOptions& opts, HybridLegs legs) {
  QAPLAN_ASSIGN_OR_RETURN(Tokenizer tok, Tokenizer::create());
  std::vector<std::vector<std::string>> doc_tokens(docs.size());
  bool any_token = false;
  for (std::size_t i = 0; i < docs.size(); ++i) {
    if (Status s = tok.tokenize_into(docs[i].text, doc_tokens[i]); !s.ok()) {
      Error e = std::move(s).error();
      e.field = "id " + docs[i].id;
      return e;
    }
    any_token |= !doc_tokens[i].empty();
  }
  std::optional<LocalTfidfEmbedder> emb;
  std::vector<std::vector<float>> vecs;
  std::size_t dims = 0;
  // A corpus without a single token (or without documents) has no vector space: every vector
  // list is empty, as every BM25 list is.
  if (legs.vectors && any_token) {
    std::vector<std::string> texts;
    texts.reserve(docs.size());
    for (const auto& d : docs) texts.push_back(d.text);
    QAPLAN_ASSIGN_OR_RETURN(LocalTfidfEmbedder fitted, LocalTfidfEmbedder::fit(texts));
    if (static_cast<double>(fitted.dimensions()) * static_cast<double>(docs.size()) >
        kMaxDenseFloats)
      return make_error(ErrorCode::kInvalidInput,
                        "corpus too large for dense local-tfidf vectors (" +
                            std::to_string(docs.size()) + " docs x " +
                            std::to_string(fitted.dimensions()) + " dimensions)",
                        "corpus");
    dims = fitted.dimensions();
    vecs.reserve(docs.size());
    for (std::size_t i = 0; i < docs.size(); ++i) {
      // A document without a token has a zero vector: it can never score > 0, so it simply
      // gets no row in the index.
      auto v = doc_tokens[i].empty() ? Result<std::vector<float>>(std::vector<float>{})
                                     : fitted.embed(docs[i].text);
      vecs.push_back(v.ok() ? std::move(v).value() : std::vector<float>{});
    }
    emb = std::move(fitted);
  }
  auto impl = std::make_shared<Impl>();
  QAPLAN_TRY(build_legs(*impl, doc_tokens, dims, vecs, opts, legs));
  impl->embedder = std::move(emb);
  return HybridSearcher(std::move(impl));
}

Result<HybridSearcher> HybridSearcher::open(const CollectionIndex& index, const RrfOptions& rrf) {
  QAPLAN_TRY(rrf.validate());
  QAPLAN_ASSIGN_OR_RETURN(Tokenizer tok, Tokenizer::create());
  auto impl = std::make_shared<Impl>();
  impl->tokenizer = tok;
  impl->opts.bm25 = index.bm25().options();
  impl->opts.rrf = rrf;
  impl->n = index.size();
  impl->bm25 = index.bm25();
  impl->saved = index;
  return HybridSearcher(std::move(impl));
}

Result<HybridQuery> HybridSearcher::prepare(std::string_view text) const {
  HybridQuery q;
  QAPLAN_TRY(impl_->tokenizer->tokenize_into(text, q.tokens));
  // A query without any corpus token has no vector (and no vector hits); that is a valid
  // outcome, not an error.
  if (impl_->embedder && impl_->vec)
    if (auto v = impl_->embedder->embed(text); v.ok()) q.vector = std::move(v).value();
  return q;
}

RankedList HybridSearcher::bm25(const std::vector<std::string>& tokens, std::size_t k) const {
  return impl_->bm25 ? impl_->bm25->search(tokens, k) : RankedList{};
}

Result<RankedList> HybridSearcher::vector(std::span<const float> query, std::size_t k) const {
  const VectorIndex* vi = impl_->vectors();
  // Over a saved index the caller's vector is searched as given (its length is checked there);
  // a searcher that embeds gives an empty vector to a query outside its vocabulary.
  if (vi == nullptr || (query.empty() && !impl_->saved)) return RankedList{};
  QAPLAN_ASSIGN_OR_RETURN(RankedList v, internal::vector_leg(*vi, query, k));
  // Rows are in document order, so mapping keeps ties broken by document.
  if (!impl_->saved)
    for (auto& h : v) h.doc = impl_->vec_doc[h.doc];
  return v;
}

Result<HybridHits> HybridSearcher::search(const HybridQuery& q, std::size_t k) const {
  HybridHits h;
  auto t0 = Clock::now();
  QAPLAN_ASSIGN_OR_RETURN(h.vector, vector(q.vector, 0));
  h.vector_ms = hybrid_ms_since(t0);
  t0 = Clock::now();
  h.bm25 = bm25(q.tokens, 0);
  h.bm25_ms = hybrid_ms_since(t0);
  t0 = Clock::now();
  QAPLAN_ASSIGN_OR_RETURN(h.fused, internal::fuse_legs({h.vector, h.bm25}, impl_->opts.rrf,
                                                       {k == 0 ? internal::kKeepAll : k, nullptr}));
  h.fuse_ms = hybrid_ms_since(t0);
  return h;
}

Result<RankedList> HybridSearcher::fused(const HybridQuery& q, std::size_t k) const {
  QAPLAN_ASSIGN_OR_RETURN(HybridHits h, search(q, k));
  return internal::fused_scores(h.fused);
}

std::size_t HybridSearcher::size() const noexcept { return impl_->n; }
bool HybridSearcher::has_bm25() const noexcept { return impl_->bm25.has_value(); }
bool HybridSearcher::has_vectors() const noexcept { return impl_->vectors() != nullptr; }

}  // namespace qaplan
