// BM25 search over an index image: document-at-a-time MaxScore with block bounds for a top k,
// term-at-a-time accumulation for every match; both add a document's term scores in the same
// order, so they rank bit-identically.
#include "qaplan/ranking/bm25.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "common/ordering.hpp"
#include "ranking/internal/bitpack.hpp"
#include "ranking/internal/bm25_image.hpp"
#include "ranking/internal/bm25_score.hpp"

namespace qaplan {
namespace {

using Impl = internal::Bm25Data;
using namespace internal::bm25;

// A position in one term's postings: the current block decoded into docs/tfs.
struct Cursor {
  const BlockMeta* blk = nullptr;
  const std::uint8_t* data = nullptr;  // the term's first block
  std::uint32_t df = 0;
  std::uint32_t nblocks = 0;
  std::uint32_t b = 0;    // current block (== nblocks when exhausted)
  std::uint64_t pos = 0;  // byte offset of block b from `data`
  std::uint32_t n = 0;    // decoded postings in block b
  std::uint32_t i = 0;    // position in block b
  std::uint32_t wj = 0;   // block hint for window bounds (monotone)
  bool tf_ready = false;
  double upper = 0, idf = 0;
  alignas(64) std::uint32_t docs[kBlockSize];
  std::uint32_t tfs[kBlockSize];

  void init(const Impl& x, std::uint32_t t) {
    const TermMeta& m = x.terms[t];
    blk = x.blocks + x.block_begin[t];
    data = x.postings + x.data_begin[t];
    df = m.df;
    nblocks = (m.df + kBlockSize - 1) / kBlockSize;
    upper = m.upper;
    idf = x.idf_of(m.df);
    b = 0;
    pos = 0;
    wj = 0;
    decode();
  }
  std::uint32_t first_of(std::uint32_t bi) const { return bi == 0 ? 0 : blk[bi - 1].last_doc + 1; }
  std::uint32_t count_of(std::uint32_t bi) const { return block_count(df, bi); }
  // Moves to block nb (≥ b) and decodes its doc ids.
  void go(std::uint32_t nb) {
    for (; b < nb && b < nblocks; ++b) pos += block_bytes(blk[b], count_of(b));
    b = nb;
    decode();
  }
  // Decodes block b's doc ids (tfs lazily). A block whose decoded ids do not end at the skip
  // entry's last_doc (only possible in a file opened without checksum verification) is empty.
  void decode() {
    i = 0;
    tf_ready = false;
    if (b >= nblocks) {
      n = 0;
      return;
    }
    const BlockMeta& m = blk[b];
    const std::uint32_t cnt = count_of(b);
    const std::uint64_t end = internal::unpack_gaps(data + pos, cnt, m.doc_bits, first_of(b), docs);
    n = (end - 1 == m.last_doc) ? cnt : 0;
  }
  void load_tfs() {
    const BlockMeta& m = blk[b];
    internal::unpack(data + pos + internal::packed_bytes(n, m.doc_bits), n, m.tf_bits, tfs);
    for (std::uint32_t k = 0; k < n; ++k) ++tfs[k];
    tf_ready = true;
  }
  std::uint32_t doc() const { return i < n ? docs[i] : kEnd; }
  std::uint32_t tf() {
    if (!tf_ready) load_tfs();
    return tfs[i];
  }
  // Next posting; skips empty (invalid) blocks.
  void next() {
    if (++i < n) return;
    while (b < nblocks) {
      go(b + 1);
      if (n > 0 || b >= nblocks) return;
    }
  }
  // First posting with doc ≥ target (kEnd when none).
  std::uint32_t advance(std::uint32_t target) {
    if (b >= nblocks) return kEnd;
    if (blk[b].last_doc < target) {
      std::uint32_t nb = b + 1;
      while (nb < nblocks && blk[nb].last_doc < target) ++nb;
      go(nb);
      while (n == 0 && b < nblocks) go(b + 1);
      if (b >= nblocks) return kEnd;
    }
    // Short hops (dense candidates) are linear; long ones (a freshly decoded block) bisect.
    for (int step = 0; step < 8 && i < n && docs[i] < target; ++step) ++i;
    if (i < n && docs[i] < target) {
      const std::uint32_t* base = docs + i;
      std::uint32_t len = n - i;
      while (len > 1) {
        const std::uint32_t half = len / 2;
        base = base[half - 1] < target ? base + half : base;
        len -= half;
      }
      i = static_cast<std::uint32_t>(base - docs) + (*base < target ? 1 : 0);
    }
    if (i >= n) {  // only after an invalid block
      next();
      return doc();
    }
    return docs[i];
  }
  // Largest block bound over the blocks that may hold docs in [lo, hi).
  double window_max(std::uint32_t lo, std::uint32_t hi) {
    if (wj < b) wj = b;
    while (wj < nblocks && blk[wj].last_doc < lo) ++wj;
    double m = 0;
    for (std::uint32_t j = wj; j < nblocks && first_of(j) < hi; ++j) {
      m = std::max(m, static_cast<double>(bf16_to_float(blk[j].max_bf16)));
      if (blk[j].last_doc >= hi) break;
    }
    return m;
  }
};

// Per-thread scratch: a zeroed accumulator (restored to all-zero after each search so
// consecutive searches can reuse it without clearing the whole array) and cursors.
struct Scratch {
  std::vector<double> window_acc = std::vector<double>(4096, 0.0);
  std::vector<std::uint64_t> window_bits = std::vector<std::uint64_t>(4096 / 64, 0);
  std::vector<double> acc;
  std::vector<std::uint32_t> touched;
  std::vector<std::unique_ptr<Cursor>> cursors;
  Cursor& cursor(std::size_t i) {
    while (cursors.size() <= i) cursors.push_back(std::make_unique<Cursor>());
    return *cursors[i];
  }
};
Scratch& scratch() {
  thread_local Scratch s;
  return s;
}

// Distinct known query terms sorted by ascending upper bound, ties by term id (= term order).
// Both search paths add each document's term scores in the reverse of this order (descending
// bound), which makes them bit-identical.
std::vector<std::uint32_t> query_terms(const Impl& x, const std::vector<std::string>& q) {
  std::vector<std::uint32_t> t;
  t.reserve(q.size());
  for (const auto& s : q) {
    const std::int64_t id = x.find(s);
    if (id >= 0) t.push_back(static_cast<std::uint32_t>(id));
  }
  std::sort(t.begin(), t.end());
  t.erase(std::unique(t.begin(), t.end()), t.end());
  std::sort(t.begin(), t.end(), [&](std::uint32_t a, std::uint32_t b) {
    const float ua = x.terms[a].upper, ub = x.terms[b].upper;
    return ua < ub || (ua == ub && a < b);
  });
  return t;
}

// Keeps the best k (score desc, doc asc) in a heap whose front is the worst kept.
class TopK {
 public:
  explicit TopK(std::size_t k) : k_(k) { heap_.reserve(std::min<std::size_t>(k, 1024) + 1); }
  bool full() const { return heap_.size() == k_; }
  double threshold() const { return full() ? heap_.front().score : -1.0; }
  void offer(ScoredDoc d) {
    auto cmp = [](const ScoredDoc& a, const ScoredDoc& b) { return internal::ranks_before(a, b); };
    if (!full()) {
      heap_.push_back(d);
      std::push_heap(heap_.begin(), heap_.end(), cmp);
    } else if (internal::ranks_before(d, heap_.front())) {
      std::pop_heap(heap_.begin(), heap_.end(), cmp);
      heap_.back() = d;
      std::push_heap(heap_.begin(), heap_.end(), cmp);
    }
  }
  RankedList take() {
    std::sort(heap_.begin(), heap_.end(), internal::ranks_before<ScoredDoc>);
    return std::move(heap_);
  }

 private:
  std::size_t k_;
  RankedList heap_;
};

template <bool kLucene>
void accumulate(const Impl& x, std::uint32_t t, Scratch& s) {
  Cursor& c = s.cursor(0);
  c.init(x, t);
  const TermScorer<kLucene> score(x, c.idf);
  double* acc = s.acc.data();
  for (; c.b < c.nblocks; c.go(c.b + 1)) {
    if (c.n == 0) continue;
    c.load_tfs();
    for (std::uint32_t k = 0; k < c.n; ++k) {
      const std::uint32_t d = c.docs[k];
      if (acc[d] == 0.0) s.touched.push_back(d);
      acc[d] += score(d, c.tfs[k]);
    }
  }
}

RankedList search_taat(const Impl& x, const std::vector<std::uint32_t>& terms, std::size_t k) {
  Scratch& s = scratch();
  if (s.acc.size() < x.num_docs) s.acc.resize(x.num_docs, 0.0);
  s.touched.clear();
  // Descending upper bound: the canonical summation order shared with search_maxscore.
  for (auto it = terms.rbegin(); it != terms.rend(); ++it) {
    if (x.lucene())
      accumulate<true>(x, *it, s);
    else
      accumulate<false>(x, *it, s);
  }
  const bool lucene = x.lucene();
  RankedList out;
  if (k == 0 || k >= s.touched.size()) {
    out.reserve(s.touched.size());
    for (std::uint32_t d : s.touched) {
      // A term score can round to 0 (e.g. an enormous k1), so a doc may be listed twice; only
      // its first visit sees the sum, and documents scoring 0 are never returned.
      const double sc = finish_score(lucene, s.acc[d]);
      s.acc[d] = 0.0;
      if (sc > 0.0) out.push_back({d, sc});
    }
    std::sort(out.begin(), out.end(), internal::ranks_before<ScoredDoc>);
    return out;
  }
  TopK top(k);
  for (std::uint32_t d : s.touched) {
    const ScoredDoc c{d, finish_score(lucene, s.acc[d])};
    s.acc[d] = 0.0;
    if (c.score > 0.0 && (!top.full() || c.score >= top.threshold())) top.offer(c);
  }
  return top.take();
}

// Block-max MaxScore (Turtle & Flood 1995; block bounds as in Ding & Suel 2011 / Lucene 9's
// MaxScoreBulkScorer), evaluated in windows of kWindow documents. Terms are sorted by ascending
// global upper bound. Per window, each term's bound is the largest block bound over the blocks
// overlapping the window; if all of them together cannot beat the current k-th score the window
// is skipped without decoding. Otherwise the longest prefix whose window bounds cannot beat it is
// "non-essential": the other (essential) lists are scored term-at-a-time into a small dense
// accumulator (descending-bound order), then every touched document, in doc order, has the
// non-essential lists probed (descending-bound order) only while it can still enter the top k.
// Both phases together add a document's term scores in descending-bound order, exactly as
// search_taat does, so scores are bit-identical.
template <bool kLucene>
RankedList search_maxscore(const Impl& x, const std::vector<std::uint32_t>& terms,
                           std::size_t k) {
  constexpr std::uint32_t kWindow = 4096;
  const std::size_t m = terms.size();
  // Bounds are compared with a relative slack so that rounding (partial sums in another order;
  // the final float rounding in lucene mode, <= 2^-24 relative) never prunes a true top-k doc.
  constexpr double kSlack = 1.0 + 1e-6;
  Scratch& s = scratch();
  std::vector<double> prefix(m + 1, 0.0), wprefix(m + 1, 0.0);
  std::vector<Cursor*> cur(m);
  std::vector<TermScorer<kLucene>> score;
  score.reserve(m);
  for (std::size_t i = 0; i < m; ++i) {
    cur[i] = &s.cursor(i);
    cur[i]->init(x, terms[i]);
    prefix[i + 1] = prefix[i] + cur[i]->upper;
    score.emplace_back(x, cur[i]->idf);
  }
  // Per-thread window accumulator, all zero between searches (every touched slot is reset).
  double* acc = s.window_acc.data();
  std::uint64_t* bits = s.window_bits.data();
  TopK top(k);
  double theta = -1.0;
  std::size_t fe = 0;  // first globally essential term
  for (;;) {
    std::uint32_t lo = kEnd;
    for (std::size_t i = fe; i < m; ++i) lo = std::min(lo, cur[i]->doc());
    if (lo == kEnd) break;
    const std::uint32_t hi =
        static_cast<std::uint32_t>(std::min<std::uint64_t>(std::uint64_t{lo} + kWindow, kEnd));
    std::size_t few = fe;  // first essential term of this window
    if (theta >= 0) {
      for (std::size_t i = 0; i < m; ++i) wprefix[i + 1] = wprefix[i] + cur[i]->window_max(lo, hi);
      if (wprefix[m] * kSlack <= theta) {  // nothing in this window can enter the top k
        for (std::size_t i = fe; i < m; ++i) cur[i]->advance(hi);
        continue;
      }
      while (few < m && wprefix[few + 1] * kSlack <= theta) ++few;
    } else {
      std::copy(prefix.begin(), prefix.end(), wprefix.begin());
    }
    for (std::size_t i = m; i-- > few;) {
      Cursor& c = *cur[i];
      const TermScorer<kLucene>& sc = score[i];
      // Whole decoded blocks at a time: the tight loop runs over the block's arrays.
      while (c.b < c.nblocks && c.doc() < hi) {
        if (!c.tf_ready) c.load_tfs();
        std::uint32_t p = c.i;
        const std::uint32_t n = c.n;
        for (; p < n && c.docs[p] < hi; ++p) {
          const std::uint32_t d = c.docs[p], off = d - lo;
          acc[off] += sc(d, c.tfs[p]);
          bits[off >> 6] |= std::uint64_t{1} << (off & 63);
        }
        c.i = p;
        if (p < n) break;
        c.i = n - 1;
        c.next();
      }
    }
    for (std::uint32_t wi = 0; wi < kWindow / 64; ++wi) {
      while (bits[wi] != 0) {
        const std::uint32_t off = wi * 64 + static_cast<std::uint32_t>(__builtin_ctzll(bits[wi]));
        bits[wi] &= bits[wi] - 1;
        double sum = acc[off];
        acc[off] = 0.0;
        const std::uint32_t d = lo + off;
        bool alive = (sum + wprefix[few]) * kSlack > theta;
        for (std::size_t i = few; alive && i-- > 0;) {
          Cursor& c = *cur[i];
          if (c.advance(d) == d) sum += score[i](d, c.tf());
          alive = (sum + wprefix[i]) * kSlack > theta;
        }
        if (!alive) continue;
        const ScoredDoc cand{d, finish_score(kLucene, sum)};
        if (cand.score > theta && cand.score > 0.0) {
          top.offer(cand);
          if (top.full()) theta = top.threshold();
        }
      }
    }
    // Globally essential lists that sat this window out move past it too.
    for (std::size_t i = fe; i < few; ++i) cur[i]->advance(hi);
    while (fe < m && prefix[fe + 1] * kSlack <= theta) ++fe;
  }
  return top.take();
}

}  // namespace

RankedList Bm25Index::search(const std::vector<std::string>& query_tokens, std::size_t k) const {
  const auto terms = query_terms(*impl_, query_tokens);
  if (terms.empty()) return {};
  // k >= size() asks for every match: the untruncated list, as for k == 0.
  if (k == 0 || k >= impl_->num_docs) return search_taat(*impl_, terms, 0);
  return impl_->lucene() ? search_maxscore<true>(*impl_, terms, k)
                         : search_maxscore<false>(*impl_, terms, k);
}

RankedList Bm25Index::search_exhaustive(const std::vector<std::string>& query_tokens,
                                        std::size_t k) const {
  const auto terms = query_terms(*impl_, query_tokens);
  if (terms.empty()) return {};
  return search_taat(*impl_, terms, k);
}

std::size_t Bm25Index::doc_freq(std::string_view term) const {
  const std::int64_t t = impl_->find(term);
  return t < 0 ? 0 : impl_->terms[t].df;
}

}  // namespace qaplan
