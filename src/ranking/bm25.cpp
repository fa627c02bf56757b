#include "qaplan/ranking/bm25.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <exception>
#include <limits>
#include <new>
#include <string>
#include <unordered_map>
#include <utility>

#include "common/enum_table.hpp"
#include "common/ordering.hpp"

namespace qaplan {

namespace {
constexpr internal::EnumTable<Bm25Norms, 2> kNorms{{{
    {Bm25Norms::kExact, "exact"},
    {Bm25Norms::kLucene, "lucene"},
}}};
}  // namespace

std::string_view to_string(Bm25Norms norms) noexcept { return kNorms.name(norms); }

Result<Bm25Norms> parse_bm25_norms(std::string_view s) {
  return kNorms.parse(s, "BM25 norms", ErrorCode::kInvalidConfig, "norms");
}

Status Bm25Options::validate() const {
  if (!std::isfinite(k1) || k1 < 0)
    return make_error(ErrorCode::kInvalidConfig, "k1 must be a finite number ≥ 0", "bm25.k1");
  if (!std::isfinite(b) || b < 0 || b > 1)
    return make_error(ErrorCode::kInvalidConfig, "b must be in [0, 1]", "bm25.b");
  if (norms != Bm25Norms::kExact && norms != Bm25Norms::kLucene)
    return make_error(ErrorCode::kInvalidConfig, "unknown norms", "bm25.norms");
  return {};
}

// ---- Lucene SmallFloat one-byte norms ------------------------------------------------------
// A length is stored as (a) itself while it is below kNumFreeValues, else (b) kNumFreeValues plus
// a tiny float of (len − kNumFreeValues): 3 explicit mantissa bits, an implicit leading 1 and a
// 5-bit exponent, truncated. kNumFreeValues = 255 − int4(INT_MAX) = 255 − 231 = 24, chosen by
// Lucene so that the largest int still fits in a byte.
namespace {

int long_to_int4(std::uint32_t i) {
  const int num_bits = 32 - (i == 0 ? 32 : __builtin_clz(i));
  if (num_bits < 4) return static_cast<int>(i);  // "subnormal": stored as is
  const int shift = num_bits - 4;
  int encoded = static_cast<int>(i >> shift) & 0x07;  // drop the implicit leading bit
  encoded |= (shift + 1) << 3;                          // exponent 0 is reserved for subnormals
  return encoded;
}

std::uint32_t int4_to_long(int i) {
  const std::uint32_t bits = static_cast<std::uint32_t>(i) & 0x07;
  const int shift = (i >> 3) - 1;
  if (shift == -1) return bits;
  return (bits | 0x08) << shift;
}

constexpr int kNumFreeValues = 24;

}  // namespace

unsigned char lucene_int_to_byte4(int len) noexcept {
  if (len < 0) len = 0;
  if (len < kNumFreeValues) return static_cast<unsigned char>(len);
  return static_cast<unsigned char>(kNumFreeValues +
                                    long_to_int4(static_cast<std::uint32_t>(len - kNumFreeValues)));
}

int lucene_byte4_to_int(unsigned char b) noexcept {
  const int i = b;
  if (i < kNumFreeValues) return i;
  const std::uint64_t decoded =
      static_cast<std::uint64_t>(kNumFreeValues) + int4_to_long(i - kNumFreeValues);
  return static_cast<int>(std::min<std::uint64_t>(decoded, std::numeric_limits<int>::max()));
}

// ---- Index -------------------------------------------------------------------------------

struct internal::Bm25Data {
  Bm25Options opts;
  std::size_t num_docs = 0;
  std::size_t doc_count = 0;  // documents with >= 1 token (Lucene's docCount = N)
  double avgdl = 0;
  std::unordered_map<std::string, std::uint32_t> dict;
  // Postings of term t: docs/tfs[offsets[t] .. offsets[t+1]), sorted by doc.
  std::vector<std::uint64_t> offsets;
  std::vector<std::uint32_t> docs;
  std::vector<std::uint32_t> tfs;
  // Per-term weight and exact upper bound of the term's score over its postings.
  std::vector<double> idf;    // exact: ln(...) in double; lucene: the float weight, widened
  std::vector<double> upper;  // max term score, computed by the same function as search
  // Per-document length factor: exact → K[d] = k1·(1 − b + b·dl/avgdl) (double);
  // lucene → inv[d] = Lucene's cache[norm[d]] (float).
  std::vector<double> k_exact;
  std::vector<float> inv_lucene;

  bool lucene() const { return opts.norms == Bm25Norms::kLucene; }
};

namespace {

using Impl = internal::Bm25Data;

inline double term_score_exact(double idf, std::uint32_t tf, double k) {
  const double f = static_cast<double>(tf);
  return idf * f / (f + k);
}

// Lucene 8 BM25Scorer.score(): weight − weight / (1 + freq · cache[norm]), all in float.
inline float term_score_lucene(float w, std::uint32_t tf, float inv) {
  return w - w / (1.0f + static_cast<float>(tf) * inv);
}

inline double term_score(const Impl& x, std::uint32_t term, std::size_t p) {
  const std::uint32_t d = x.docs[p];
  if (x.lucene())
    return term_score_lucene(static_cast<float>(x.idf[term]), x.tfs[p], x.inv_lucene[d]);
  return term_score_exact(x.idf[term], x.tfs[p], x.k_exact[d]);
}

// The document score as reported: in lucene mode Lucene's disjunction sums float term scores
// in double and returns a float.
inline double finish(const Impl& x, double sum) {
  return x.lucene() ? static_cast<double>(static_cast<float>(sum)) : sum;
}

// "a ranks before b": score descending, then lower doc.
inline bool better(const ScoredDoc& a, const ScoredDoc& b) { return internal::ranks_before(a, b); }

// Per-thread zeroed accumulator, restored to all-zero after each search so consecutive searches
// (on any index) can reuse it without clearing the whole array.
struct Scratch {
  std::vector<double> acc;
  std::vector<std::uint32_t> touched;
};
Scratch& scratch(std::size_t n) {
  thread_local Scratch s;
  if (s.acc.size() < n) s.acc.resize(n, 0.0);
  return s;
}

// Distinct known query terms sorted by ascending upper bound, ties by term id. Both search paths
// add each document's term scores in the reverse of this order (descending bound), which makes
// them bit-identical.
std::vector<std::uint32_t> query_terms(const Impl& x, const std::vector<std::string>& q) {
  std::vector<std::uint32_t> t;
  t.reserve(q.size());
  for (const auto& s : q) {
    auto it = x.dict.find(s);
    if (it != x.dict.end()) t.push_back(it->second);
  }
  std::sort(t.begin(), t.end());
  t.erase(std::unique(t.begin(), t.end()), t.end());
  std::sort(t.begin(), t.end(), [&](std::uint32_t a, std::uint32_t b) {
    return x.upper[a] < x.upper[b] || (x.upper[a] == x.upper[b] && a < b);
  });
  return t;
}

// Keeps the best k (score desc, doc asc) in a heap whose front is the worst kept.
class TopK {
 public:
  explicit TopK(std::size_t k) : k_(k) { heap_.reserve(std::min<std::size_t>(k, 1024) + 1); }
  bool full() const { return heap_.size() == k_; }
  // Lowest kept score once full; a newcomer needs a strictly better (score, doc).
  double threshold() const { return full() ? heap_.front().score : -1.0; }
  void offer(ScoredDoc d) {
    auto cmp = [](const ScoredDoc& a, const ScoredDoc& b) { return better(a, b); };
    if (!full()) {
      heap_.push_back(d);
      std::push_heap(heap_.begin(), heap_.end(), cmp);
    } else if (better(d, heap_.front())) {
      std::pop_heap(heap_.begin(), heap_.end(), cmp);
      heap_.back() = d;
      std::push_heap(heap_.begin(), heap_.end(), cmp);
    }
  }
  RankedList take() {
    std::sort(heap_.begin(), heap_.end(), better);
    return std::move(heap_);
  }

 private:
  std::size_t k_;
  RankedList heap_;
};

template <bool kLucene>
void accumulate(const Impl& x, std::uint32_t t, Scratch& s) {
  const std::size_t b = x.offsets[t], e = x.offsets[t + 1];
  const std::uint32_t* docs = x.docs.data();
  const std::uint32_t* tfs = x.tfs.data();
  double* acc = s.acc.data();
  if constexpr (kLucene) {
    const float w = static_cast<float>(x.idf[t]);
    const float* inv = x.inv_lucene.data();
    for (std::size_t p = b; p < e; ++p) {
      const std::uint32_t d = docs[p];
      if (acc[d] == 0.0) s.touched.push_back(d);
      acc[d] += static_cast<double>(term_score_lucene(w, tfs[p], inv[d]));
    }
  } else {
    const double idf = x.idf[t];
    const double* kk = x.k_exact.data();
    for (std::size_t p = b; p < e; ++p) {
      const std::uint32_t d = docs[p];
      if (acc[d] == 0.0) s.touched.push_back(d);
      acc[d] += term_score_exact(idf, tfs[p], kk[d]);
    }
  }
}

RankedList search_taat(const Impl& x, const std::vector<std::uint32_t>& terms, std::size_t k) {
  Scratch& s = scratch(x.num_docs);
  s.touched.clear();
  // Descending upper bound: the canonical summation order shared with search_maxscore.
  for (auto it = terms.rbegin(); it != terms.rend(); ++it) {
    const std::uint32_t t = *it;
    if (x.lucene())
      accumulate<true>(x, t, s);
    else
      accumulate<false>(x, t, s);
  }
  RankedList out;
  if (k == 0 || k >= s.touched.size()) {
    out.reserve(s.touched.size());
    for (std::uint32_t d : s.touched) {
      // A term score can round to 0 (e.g. an enormous k1), so a doc may be listed twice; only
      // its first visit sees the sum, and documents scoring 0 are never returned.
      const double sc = finish(x, s.acc[d]);
      s.acc[d] = 0.0;
      if (sc > 0.0) out.push_back({d, sc});
    }
    std::sort(out.begin(), out.end(), better);
    return out;
  }
  TopK top(k);
  for (std::uint32_t d : s.touched) {
    const ScoredDoc c{d, finish(x, s.acc[d])};
    s.acc[d] = 0.0;
    if (c.score > 0.0 && (!top.full() || c.score >= top.threshold())) top.offer(c);
  }
  return top.take();
}

// Smallest position p in [from, end) with docs[p] >= target (galloping, then binary search).
inline std::size_t advance(const std::uint32_t* docs, std::size_t from, std::size_t end,
                           std::uint32_t target) {
  if (from >= end || docs[from] >= target) return from;
  std::size_t lo = from, step = 1, hi = from + 1;
  while (hi < end && docs[hi] < target) {
    lo = hi;
    step <<= 1;
    hi = from + step;
  }
  if (hi > end) hi = end;
  return static_cast<std::size_t>(std::lower_bound(docs + lo + 1, docs + hi, target) - docs);
}

// MaxScore (Turtle & Flood 1995), evaluated in windows of kWindow documents like Lucene 9's
// MaxScoreBulkScorer. Terms sorted by ascending upper bound; the longest prefix whose bounds sum
// cannot beat the current k-th score is "non-essential". Per window: the essential lists are
// scored term-at-a-time into a small dense accumulator (descending bound order), then every
// touched document, in doc order, has the non-essential lists probed (galloping, descending
// bound order) only while it can still enter the top k. Both phases together add a document's
// term scores in descending-bound order, exactly as search_taat does.
RankedList search_maxscore(const Impl& x, const std::vector<std::uint32_t>& terms,
                           std::size_t k) {
  constexpr std::uint32_t kWindow = 4096;
  const std::size_t m = terms.size();
  // Bounds are compared with a relative slack so that rounding (partial sums in another order;
  // the final float rounding in lucene mode, <= 2^-24 relative) never prunes a true top-k doc.
  constexpr double kSlack = 1.0 + 1e-6;
  std::vector<std::size_t> pos(m), end(m);
  std::vector<double> prefix(m + 1, 0.0);  // prefix[i] = sum of upper bounds of terms[0 .. i)
  std::vector<float> w(m);
  for (std::size_t i = 0; i < m; ++i) {
    pos[i] = x.offsets[terms[i]];
    end[i] = x.offsets[terms[i] + 1];
    prefix[i + 1] = prefix[i] + x.upper[terms[i]];
    w[i] = static_cast<float>(x.idf[terms[i]]);
  }
  double acc[kWindow];
  std::uint64_t bits[kWindow / 64];
  std::fill(std::begin(acc), std::end(acc), 0.0);
  std::fill(std::begin(bits), std::end(bits), 0);
  TopK top(k);
  double theta = -1.0;
  std::size_t fe = 0;  // first essential term
  const std::uint32_t* docs = x.docs.data();
  const std::uint32_t* tfs = x.tfs.data();
  const bool lucene = x.lucene();
  const float* inv = x.inv_lucene.data();
  const double* kk = x.k_exact.data();
  auto score = [&](std::size_t i, std::size_t p) -> double {
    const std::uint32_t d = docs[p];
    if (lucene) return term_score_lucene(w[i], tfs[p], inv[d]);
    return term_score_exact(x.idf[terms[i]], tfs[p], kk[d]);
  };
  for (;;) {
    // Next window starts at the smallest essential doc.
    std::uint32_t lo = std::numeric_limits<std::uint32_t>::max();
    for (std::size_t i = fe; i < m; ++i)
      if (pos[i] < end[i]) lo = std::min(lo, docs[pos[i]]);
    if (lo == std::numeric_limits<std::uint32_t>::max()) break;
    const std::uint64_t hi = static_cast<std::uint64_t>(lo) + kWindow;
    for (std::size_t i = m; i-- > fe;) {
      std::size_t p = pos[i];
      const std::size_t e = end[i];
      for (; p < e && docs[p] < hi; ++p) {
        const std::uint32_t off = docs[p] - lo;
        acc[off] += score(i, p);
        bits[off >> 6] |= std::uint64_t{1} << (off & 63);
      }
      pos[i] = p;
    }
    for (std::uint32_t wi = 0; wi < kWindow / 64; ++wi) {
      while (bits[wi] != 0) {
        const std::uint32_t off = wi * 64 + static_cast<std::uint32_t>(__builtin_ctzll(bits[wi]));
        bits[wi] &= bits[wi] - 1;
        double sum = acc[off];
        acc[off] = 0.0;
        const std::uint32_t d = lo + off;
        bool alive = (sum + prefix[fe]) * kSlack > theta;
        for (std::size_t i = fe; alive && i-- > 0;) {
          pos[i] = advance(docs, pos[i], end[i], d);
          if (pos[i] < end[i] && docs[pos[i]] == d) sum += score(i, pos[i]);
          alive = (sum + prefix[i]) * kSlack > theta;
        }
        if (!alive) continue;
        const ScoredDoc c{d, finish(x, sum)};
        if (c.score > theta && c.score > 0.0) {
          top.offer(c);
          if (top.full()) theta = top.threshold();
        }
      }
    }
    while (fe < m && prefix[fe + 1] * kSlack <= theta) ++fe;
  }
  return top.take();
}

}  // namespace

Result<Bm25Index> Bm25Index::create(const std::vector<std::vector<std::string>>& doc_tokens,
                                    const Bm25Options& opts) {
  if (Status s = opts.validate(); !s) return s.error();
  if (doc_tokens.size() >= std::numeric_limits<std::uint32_t>::max() - 1)
    return make_error(ErrorCode::kInvalidInput, "too many documents for one BM25 index");
  try {
    auto x = std::make_shared<Impl>();
    x->opts = opts;
    x->num_docs = doc_tokens.size();
    const std::size_t n = doc_tokens.size();
    // Pass 1: term ids and per-document (term, tf) runs.
    std::vector<std::uint32_t> doc_len(n, 0);
    std::vector<std::uint64_t> run_off(n + 1, 0);
    std::vector<std::pair<std::uint32_t, std::uint32_t>> runs;  // (term, tf), grouped by doc
    std::vector<std::uint32_t> df;
    std::vector<std::uint32_t> ids;
    std::uint64_t total = 0;
    for (std::size_t d = 0; d < n; ++d) {
      const auto& toks = doc_tokens[d];
      ids.clear();
      for (const auto& tok : toks) {
        auto [it, inserted] = x->dict.try_emplace(tok, static_cast<std::uint32_t>(x->dict.size()));
        if (inserted) df.push_back(0);
        ids.push_back(it->second);
      }
      std::sort(ids.begin(), ids.end());
      for (std::size_t i = 0; i < ids.size();) {
        std::size_t j = i + 1;
        while (j < ids.size() && ids[j] == ids[i]) ++j;
        runs.emplace_back(ids[i], static_cast<std::uint32_t>(j - i));
        ++df[ids[i]];
        i = j;
      }
      run_off[d + 1] = runs.size();
      doc_len[d] = static_cast<std::uint32_t>(std::min<std::size_t>(toks.size(), UINT32_MAX));
      total += toks.size();
      if (!toks.empty()) ++x->doc_count;
    }
    const std::size_t num_terms = df.size();
    // Pass 2: postings, filled in document order so each list is sorted by doc.
    x->offsets.assign(num_terms + 1, 0);
    for (std::size_t t = 0; t < num_terms; ++t) x->offsets[t + 1] = x->offsets[t] + df[t];
    x->docs.resize(runs.size());
    x->tfs.resize(runs.size());
    {
      std::vector<std::uint64_t> fill(x->offsets.begin(), x->offsets.end() - 1);
      for (std::size_t d = 0; d < n; ++d)
        for (std::uint64_t r = run_off[d]; r < run_off[d + 1]; ++r) {
          const std::uint64_t p = fill[runs[r].first]++;
          x->docs[p] = static_cast<std::uint32_t>(d);
          x->tfs[p] = runs[r].second;
        }
    }
    runs.clear();
    runs.shrink_to_fit();
    // Statistics and length factors.
    const double N = static_cast<double>(x->doc_count);
    x->avgdl = x->doc_count == 0 ? 0.0 : static_cast<double>(total) / N;
    x->idf.resize(num_terms);
    if (opts.norms == Bm25Norms::kLucene) {
      // Lucene 8 BM25Similarity: float k1, b, avgdl and idf; cache[norm] = 1 / (k1 · ((1 − b) +
      // b · LENGTH_TABLE[norm] / avgdl)) evaluated in float in Java's left-to-right order.
      const float k1 = static_cast<float>(opts.k1);
      const float b = static_cast<float>(opts.b);
      const float avgdl = static_cast<float>(x->avgdl);
      float cache[256];
      for (int i = 0; i < 256; ++i) {
        const float len = static_cast<float>(lucene_byte4_to_int(static_cast<unsigned char>(i)));
        cache[i] = 1.0f / (k1 * ((1.0f - b) + b * len / avgdl));
      }
      x->inv_lucene.resize(n);
      for (std::size_t d = 0; d < n; ++d)
        x->inv_lucene[d] = cache[lucene_int_to_byte4(static_cast<int>(
            std::min<std::uint32_t>(doc_len[d], std::numeric_limits<int>::max())))];
      for (std::size_t t = 0; t < num_terms; ++t) {
        const double dfd = df[t];
        x->idf[t] = static_cast<float>(std::log(1.0 + (N - dfd + 0.5) / (dfd + 0.5)));
      }
    } else {
      x->k_exact.resize(n);
      const double avgdl = x->avgdl > 0 ? x->avgdl : 1.0;
      for (std::size_t d = 0; d < n; ++d)
        x->k_exact[d] = opts.k1 * (1.0 - opts.b + opts.b * static_cast<double>(doc_len[d]) / avgdl);
      for (std::size_t t = 0; t < num_terms; ++t) {
        const double dfd = df[t];
        x->idf[t] = std::log(1.0 + (N - dfd + 0.5) / (dfd + 0.5));
      }
    }
    // Exact per-term upper bounds for MaxScore: the largest score the term gives any document.
    x->upper.assign(num_terms, 0.0);
    for (std::size_t t = 0; t < num_terms; ++t) {
      double best = 0.0;
      for (std::uint64_t p = x->offsets[t]; p < x->offsets[t + 1]; ++p)
        best = std::max(best, term_score(*x, static_cast<std::uint32_t>(t), p));
      x->upper[t] = best;
    }
    return Bm25Index(std::move(x));
  } catch (const std::bad_alloc&) {
    return make_error(ErrorCode::kInternal, "out of memory building the BM25 index");
  } catch (const std::exception& e) {
    return make_error(ErrorCode::kInternal, std::string("BM25 index build failed: ") + e.what());
  }
}

RankedList Bm25Index::search(const std::vector<std::string>& query_tokens, std::size_t k) const {
  const auto terms = query_terms(*impl_, query_tokens);
  if (terms.empty()) return {};
  // k >= size() asks for every match: the untruncated list, as for k == 0.
  if (k == 0 || k >= impl_->num_docs) return search_taat(*impl_, terms, 0);
  return search_maxscore(*impl_, terms, k);
}

RankedList Bm25Index::search_exhaustive(const std::vector<std::string>& query_tokens,
                                        std::size_t k) const {
  const auto terms = query_terms(*impl_, query_tokens);
  if (terms.empty()) return {};
  return search_taat(*impl_, terms, k);
}

std::size_t Bm25Index::size() const noexcept { return impl_->num_docs; }
double Bm25Index::avgdl() const noexcept { return impl_->avgdl; }
std::size_t Bm25Index::num_terms() const noexcept { return impl_->dict.size(); }
const Bm25Options& Bm25Index::options() const noexcept { return impl_->opts; }
std::size_t Bm25Index::doc_freq(std::string_view term) const {
  auto it = impl_->dict.find(std::string(term));
  if (it == impl_->dict.end()) return 0;
  return impl_->offsets[it->second + 1] - impl_->offsets[it->second];
}

}  // namespace qaplan
