#include "qaplan/ranking/bm25.hpp"

#define XXH_INLINE_ALL  // header-only: nothing to link, for us or for consumers
#include <xxhash.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <limits>
#include <new>
#include <string>
#include <thread>
#include <type_traits>
#include <unordered_map>
#include <utility>

#include "common/enum_table.hpp"
#include "common/ordering.hpp"
#include "common/printable.hpp"
#include "qaplan/io.hpp"
#include "ranking/internal/bitpack.hpp"
#include "ranking/internal/mapped_file.hpp"

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

// ---- Serialized image --------------------------------------------------------------------
// One little-endian image, identical in memory, on disk and mapped:
//
//   Header (kHeaderBytes, see below) | sections, each 8-byte aligned, zero padded
//
// Sections (offset and size in the header):
//   kTermBytes    the sorted distinct terms, concatenated
//   kTermOffsets  u32 × (terms + 1) into kTermBytes (the dictionary is refused above 4 GiB)
//   kTermMeta     TermMeta × terms (8 bytes: df, score bound)
//   kBlocks       BlockMeta × blocks (8 bytes per 128 postings of a term, in term order)
//   kPostings     per block: doc deltas then (tf − 1), each bit-packed at the block's widths;
//                 8 zero bytes at the end (the unpacker reads whole 8-byte words)
//   kNorms        u8 × docs (lucene norms) or u32 × docs (exact lengths)
//   kIdBytes      external ids, front-coded in runs of 16 (empty without ids)
//   kIdOffsets    u32 or u64 × (runs + 1) into kIdBytes (empty without ids)
//
// Doc deltas: the first doc of a term's block is stored as doc − (previous block's last doc + 1)
// (− 0 for the first block), every later one as doc − previous − 1, so decoded ids strictly
// increase; the decoder checks that the last one equals the skip entry's `last_doc`.
//
// Measured on the 200 k × 60 Zipf corpus (9.9 M postings): doc gaps 11.3 MB and frequencies
// 1.1 MB bit-packed (1.25 bytes per posting); frame-of-reference offsets from the block start
// instead of gaps (random access without a prefix sum) would take 16.9 MB — more than Lucene's
// whole index (15.7 MB) — so gaps it is, decoded with the prefix sum fused into the unpack.
namespace {

using internal::MappedFile;

constexpr char kMagic[8] = {'Q', 'A', 'P', 'L', 'B', 'M', '2', '5'};
constexpr std::uint32_t kFormatVersion = 1;
constexpr std::uint32_t kBlockSize = 128;
constexpr std::uint32_t kPad = 8;
constexpr std::uint32_t kFlagIds = 1, kFlagIds64 = 2;

enum Section : std::uint32_t {
  kTermBytes, kTermOffsets, kTermMeta, kBlocks, kPostings, kNormsSec, kIdBytes, kIdOffsets,
  kNumSections
};

struct SectionRef {
  std::uint64_t offset;
  std::uint64_t bytes;
};

struct Header {
  char magic[8];
  std::uint32_t version;
  std::uint32_t header_bytes;
  std::uint64_t file_bytes;
  std::uint64_t payload_hash;  // XXH3-64 of bytes [header_bytes, file_bytes)
  std::uint32_t norms;         // 0 exact, 1 lucene
  std::uint32_t flags;
  double k1, b, avgdl;
  std::uint64_t num_docs, doc_count, total_tokens, num_terms, num_postings, num_blocks;
  char tokenizer[64];
  SectionRef sections[kNumSections];
  std::uint8_t reserved[64];
  std::uint64_t header_hash;  // XXH3-64 of the header up to this field
};
static_assert(std::is_trivially_copyable_v<Header>);
constexpr std::uint32_t kHeaderBytes = sizeof(Header);

// A term: its document frequency and an upper bound of its score (rounded up to float). Its first
// block and the offset of its first block's bytes are sums over the terms before it (derived when
// the image is attached) and its idf is recomputed from df (the same expression as at build time),
// so none of them is stored.
struct TermMeta {
  std::uint32_t df;
  float upper;  // ≥ the term's largest score over its postings
};
static_assert(sizeof(TermMeta) == 8);

// A skip entry per 128 postings: the block's last doc, a bound of its scores (bfloat16 bits of a
// float rounded up, so ≥ every score in the block) and its two bit widths. The block's posting
// count (128, or what is left for the last) and its byte size follow from these.
struct BlockMeta {
  std::uint32_t last_doc;
  std::uint16_t max_bf16;
  std::uint8_t doc_bits, tf_bits;
};
static_assert(sizeof(BlockMeta) == 8);

constexpr std::uint64_t align8(std::uint64_t x) { return (x + 7) & ~std::uint64_t{7}; }
constexpr std::uint32_t kIdRestart = 16;  // external ids are front-coded in runs of 16

inline std::uint32_t block_count(std::uint32_t df, std::uint32_t j) {
  const std::uint32_t nb = (df + kBlockSize - 1) / kBlockSize;
  return j + 1 < nb ? kBlockSize : df - kBlockSize * (nb - 1);
}
inline std::size_t block_bytes(const BlockMeta& b, std::uint32_t count) {
  return internal::packed_bytes(count, b.doc_bits) + internal::packed_bytes(count, b.tf_bits);
}
inline float bf16_to_float(std::uint16_t h) {
  const std::uint32_t bits = std::uint32_t{h} << 16;
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}
// The smallest bfloat16 ≥ v (v ≥ 0, finite).
std::uint16_t bf16_round_up(double v) {
  float f = static_cast<float>(v);
  if (static_cast<double>(f) < v) f = std::nextafter(f, std::numeric_limits<float>::infinity());
  std::uint32_t bits;
  std::memcpy(&bits, &f, 4);
  if ((bits & 0xffffu) != 0) bits = (bits & 0xffff0000u) + 0x10000u;
  return static_cast<std::uint16_t>(bits >> 16);
}

}  // namespace

// ---- Index -------------------------------------------------------------------------------

struct internal::Bm25Data {
  Bm25Options opts;
  std::size_t num_docs = 0;
  std::size_t doc_count = 0;  // documents with >= 1 token (Lucene's docCount = N)
  std::uint64_t total_tokens = 0;
  double avgdl = 0;
  std::string tokenizer;
  std::uint64_t payload_hash = 0;
  // Views into the image.
  const char* term_bytes = nullptr;
  const std::uint32_t* term_off = nullptr;
  const TermMeta* terms = nullptr;
  std::size_t num_terms = 0;
  const BlockMeta* blocks = nullptr;
  std::size_t num_blocks = 0;
  std::vector<std::uint32_t> block_begin;  // per term, derived at attach (prefix sum of blocks)
  std::vector<std::uint64_t> data_begin;   // per term, derived at attach: offset into postings
  std::uint64_t num_postings = 0;
  const std::uint8_t* postings = nullptr;
  std::uint64_t postings_bytes = 0;
  const std::uint8_t* norms8 = nullptr;    // lucene
  const std::uint32_t* lengths = nullptr;  // exact
  const char* id_bytes = nullptr;
  const void* id_off = nullptr;
  bool has_ids = false, ids64 = false;
  // Derived when the image is attached (never stored: a pure function of the stored values).
  std::vector<double> k_exact;  // exact: k1·(1 − b + b·dl/avgdl) per document
  float lucene_cache[256] = {};  // lucene: 1 / (k1·((1 − b) + b·len/avgdl)) per norm byte
  // The bytes: either owned (built here) or mapped.
  std::vector<std::uint8_t> owned;
  std::shared_ptr<const MappedFile> mapped;
  std::span<const std::uint8_t> image;

  bool lucene() const { return opts.norms == Bm25Norms::kLucene; }
  // idf from df, exactly as at build time: exact in double; lucene Lucene's float weight.
  double idf_of(std::uint32_t df) const {
    const double N = static_cast<double>(doc_count), d = df;
    const double idf = std::log(1.0 + (N - d + 0.5) / (d + 0.5));
    return lucene() ? static_cast<double>(static_cast<float>(idf)) : idf;
  }
  std::string_view term(std::size_t t) const {
    return {term_bytes + term_off[t], static_cast<std::size_t>(term_off[t + 1] - term_off[t])};
  }
  // Term id of `s`, or -1.
  std::int64_t find(std::string_view s) const {
    std::size_t lo = 0, hi = num_terms;
    while (lo < hi) {
      const std::size_t mid = lo + (hi - lo) / 2;
      const int c = term(mid).compare(s);
      if (c == 0) return static_cast<std::int64_t>(mid);
      if (c < 0) lo = mid + 1;
      else hi = mid;
    }
    return -1;
  }
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
  TermScorer(const Impl& x, double term_idf)
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
float round_up_float(double v) {
  float f = static_cast<float>(v);
  if (static_cast<double>(f) < v) f = std::nextafter(f, std::numeric_limits<float>::infinity());
  return f;
}


constexpr std::uint32_t kEnd = std::numeric_limits<std::uint32_t>::max();

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

// ---- Attaching and validating an image ----------------------------------------------------

Error bad(const std::string& file, const std::string& what) {
  return make_file_error(ErrorCode::kInvalidInput, "invalid BM25 index: " + what, file);
}

// Points `x`'s views into `bytes` after checking everything a search will rely on, so that no
// content (corrupted, truncated or forged) can make a search read outside the image.
Status attach(Impl& x, std::span<const std::uint8_t> bytes, const std::string& file,
              const Bm25OpenOptions& o) {
  if (bytes.size() < sizeof(kMagic) || std::memcmp(bytes.data(), kMagic, sizeof(kMagic)) != 0)
    return bad(file, "not a qaplan BM25 index (wrong magic bytes)");
  if (bytes.size() < 16)
    return bad(file, "truncated header");
  std::uint32_t version;
  std::memcpy(&version, bytes.data() + 8, 4);
  if (version != kFormatVersion)
    return make_file_error(ErrorCode::kInvalidInput,
                           "BM25 index format version " + std::to_string(version) +
                               ", this build reads version " + std::to_string(kFormatVersion) +
                               " (rebuild it with `qaplan index build`)",
                           file);
  if (bytes.size() < kHeaderBytes) return bad(file, "truncated header");
  Header h;
  std::memcpy(&h, bytes.data(), sizeof h);
  if (h.header_bytes != kHeaderBytes) return bad(file, "unexpected header size");
  if (internal::checksum64(bytes.first(offsetof(Header, header_hash))) != h.header_hash)
    return bad(file, "header checksum mismatch (file corrupted)");
  if (h.file_bytes != bytes.size())
    return bad(file, "truncated or extended: header says " + std::to_string(h.file_bytes) +
                         " bytes, file has " + std::to_string(bytes.size()));
  if (o.verify_checksum && internal::checksum64(bytes.subspan(kHeaderBytes)) != h.payload_hash)
    return bad(file, "checksum mismatch (file corrupted)");
  const std::string tok(h.tokenizer, strnlen(h.tokenizer, sizeof h.tokenizer));
  if (!o.expected_tokenizer.empty() && tok != o.expected_tokenizer)
    return make_file_error(ErrorCode::kInvalidInput,
                           "index was built with tokenizer \"" + tok + "\", this build uses \"" +
                               o.expected_tokenizer + "\" (rebuild the index)",
                           file);
  if (h.norms > 1) return bad(file, "unknown norms");
  x.opts.norms = h.norms == 1 ? Bm25Norms::kLucene : Bm25Norms::kExact;
  x.opts.k1 = h.k1;
  x.opts.b = h.b;
  if (!x.opts.validate().ok()) return bad(file, "invalid k1 or b");
  x.tokenizer = tok;
  x.payload_hash = h.payload_hash;
  if (h.num_docs >= std::numeric_limits<std::uint32_t>::max() - 1 || h.doc_count > h.num_docs ||
      h.num_blocks >= std::numeric_limits<std::uint32_t>::max() ||
      h.num_terms >= std::numeric_limits<std::uint32_t>::max() ||
      h.num_postings > h.num_docs * std::max<std::uint64_t>(h.num_terms, 1) ||
      h.num_blocks > h.num_postings || !std::isfinite(h.avgdl) || h.avgdl < 0)
    return bad(file, "inconsistent counts");
  // Sections: aligned, inside the file, of the sizes the counts imply.
  const bool ids = (h.flags & kFlagIds) != 0, ids64 = (h.flags & kFlagIds64) != 0;
  const std::uint64_t n = h.num_docs, T = h.num_terms, B = h.num_blocks;
  const std::uint64_t runs = (n + kIdRestart - 1) / kIdRestart;
  const std::uint64_t want[kNumSections] = {
      0, (T + 1) * 4, T * sizeof(TermMeta), B * sizeof(BlockMeta), 0,
      x.lucene() ? n : n * 4, 0, ids ? (runs + 1) * (ids64 ? 8 : 4) : 0};
  for (std::uint32_t i = 0; i < kNumSections; ++i) {
    const SectionRef& r = h.sections[i];
    if (r.offset % 8 != 0 || r.offset < kHeaderBytes || r.offset > bytes.size() ||
        r.bytes > bytes.size() - r.offset)
      return bad(file, "section " + std::to_string(i) + " outside the file");
    if (want[i] != 0 && r.bytes != want[i])
      return bad(file, "section " + std::to_string(i) + " has the wrong size");
  }
  auto at = [&](Section s) { return bytes.data() + h.sections[s].offset; };
  x.num_docs = n;
  x.doc_count = h.doc_count;
  x.total_tokens = h.total_tokens;
  x.avgdl = h.avgdl;
  x.num_terms = T;
  x.num_blocks = B;
  x.num_postings = h.num_postings;
  x.term_bytes = reinterpret_cast<const char*>(at(kTermBytes));
  x.term_off = reinterpret_cast<const std::uint32_t*>(at(kTermOffsets));
  x.terms = reinterpret_cast<const TermMeta*>(at(kTermMeta));
  x.blocks = reinterpret_cast<const BlockMeta*>(at(kBlocks));
  x.postings = at(kPostings);
  x.postings_bytes = h.sections[kPostings].bytes;
  x.norms8 = x.lucene() ? at(kNormsSec) : nullptr;
  x.lengths = x.lucene() ? nullptr : reinterpret_cast<const std::uint32_t*>(at(kNormsSec));
  x.has_ids = ids;
  x.ids64 = ids64;
  x.id_bytes = reinterpret_cast<const char*>(at(kIdBytes));
  x.id_off = at(kIdOffsets);
  // Dictionary: offsets increasing within kTermBytes, terms strictly ascending.
  if (x.term_off[0] != 0 || x.term_off[T] != h.sections[kTermBytes].bytes)
    return bad(file, "term offsets do not span the term bytes");
  // All offsets first: comparing term t reads up to term_off[t + 1], which must already be known
  // not to pass the end (fuzz finding 10: one pass that compared as it checked read past it).
  for (std::uint64_t t = 0; t < T; ++t)
    if (x.term_off[t + 1] < x.term_off[t]) return bad(file, "term offsets decrease");
  for (std::uint64_t t = 1; t < T; ++t)
    if (!(x.term(t - 1) < x.term(t))) return bad(file, "terms not sorted");
  // Terms, blocks and postings: every block's bytes inside kPostings, doc ids below num_docs.
  x.block_begin.resize(T + 1);
  x.data_begin.resize(T + 1);
  std::uint64_t block = 0, data = 0, postings = 0;
  for (std::uint64_t t = 0; t < T; ++t) {
    const TermMeta& m = x.terms[t];
    const std::uint64_t nb = (std::uint64_t{m.df} + kBlockSize - 1) / kBlockSize;
    if (m.df == 0 || m.df > n || nb > B - block ||
        !std::isfinite(m.upper) || !(m.upper >= 0))
      return bad(file, "term " + std::to_string(t) + " metadata inconsistent");
    x.block_begin[t] = static_cast<std::uint32_t>(block);
    x.data_begin[t] = data;
    std::int64_t prev_last = -1;
    for (std::uint32_t j = 0; j < nb; ++j) {
      const BlockMeta& bm = x.blocks[block + j];
      const std::uint32_t cnt = block_count(m.df, j);
      const float mx = bf16_to_float(bm.max_bf16);
      if (bm.doc_bits > 32 || bm.tf_bits > 32 || bm.last_doc >= n ||
          static_cast<std::int64_t>(bm.last_doc) - prev_last < cnt || !std::isfinite(mx) ||
          !(mx >= 0))
        return bad(file, "block " + std::to_string(block + j) + " inconsistent");
      prev_last = bm.last_doc;
      data += block_bytes(bm, cnt);
    }
    block += nb;
    postings += m.df;
  }
  x.block_begin[T] = static_cast<std::uint32_t>(block);
  x.data_begin[T] = data;
  if (block != B || postings != h.num_postings || data + kPad != x.postings_bytes)
    return bad(file, "postings size inconsistent");
  // Ids: restart offsets increasing within kIdBytes (each run is decoded with bounds checks).
  if (ids) {
    const std::uint64_t id_bytes = h.sections[kIdBytes].bytes;
    auto off = [&](std::uint64_t i) -> std::uint64_t {
      return ids64 ? static_cast<const std::uint64_t*>(x.id_off)[i]
                   : static_cast<const std::uint32_t*>(x.id_off)[i];
    };
    if (off(0) != 0 || off(runs) != id_bytes) return bad(file, "id offsets do not span the id bytes");
    for (std::uint64_t i = 0; i < runs; ++i)
      if (off(i + 1) < off(i)) return bad(file, "id offsets decrease");
  }
  // Derived per-document factors.
  if (x.lucene()) {
    // Lucene 8 BM25Similarity: float k1, b, avgdl and idf; cache[norm] = 1 / (k1 · ((1 − b) +
    // b · LENGTH_TABLE[norm] / avgdl)) evaluated in float in Java's left-to-right order.
    const float k1 = static_cast<float>(x.opts.k1), b = static_cast<float>(x.opts.b);
    const float avgdl = static_cast<float>(x.avgdl);
    for (int i = 0; i < 256; ++i) {
      const float len = static_cast<float>(lucene_byte4_to_int(static_cast<unsigned char>(i)));
      x.lucene_cache[i] = 1.0f / (k1 * ((1.0f - b) + b * len / avgdl));
    }
  } else {
    x.k_exact.resize(n);
    const double avgdl = x.avgdl > 0 ? x.avgdl : 1.0;
    for (std::uint64_t d = 0; d < n; ++d)
      x.k_exact[d] =
          x.opts.k1 * (1.0 - x.opts.b + x.opts.b * static_cast<double>(x.lengths[d]) / avgdl);
  }
  x.image = bytes;
  return {};
}

}  // namespace

// ---- Builder -------------------------------------------------------------------------------

namespace {
// The build dictionary: open addressing (linear probing) over (hash, term id) pairs with the
// terms' bytes in one arena — one cache line per lookup instead of std::unordered_map's bucket,
// node and string chase, which dominated the build profile.
class TermDict {
 public:
  TermDict() { slots_.assign(1024, Slot{}); }
  // The term's id (ids are given in first-seen order).
  std::uint32_t find_or_add(std::string_view s) {
    const std::uint64_t h = XXH3_64bits(s.data(), s.size()) | 1;  // 0 marks an empty slot
    std::size_t mask = slots_.size() - 1, i = h & mask;
    for (;; i = (i + 1) & mask) {
      Slot& sl = slots_[i];
      if (sl.hash == 0) break;
      if (sl.hash == h && term(sl.id) == s) return sl.id;
    }
    const auto id = static_cast<std::uint32_t>(off_.size() - 1);
    arena_.append(s);
    off_.push_back(arena_.size());
    slots_[i] = {h, id};
    if (off_.size() * 2 > slots_.size()) grow();
    return id;
  }
  std::size_t size() const { return off_.size() - 1; }
  std::string_view term(std::uint32_t id) const {
    return std::string_view(arena_).substr(off_[id], off_[id + 1] - off_[id]);
  }
  std::size_t memory_bytes() const {
    return slots_.capacity() * sizeof(Slot) + arena_.capacity() + off_.capacity() * 8;
  }

 private:
  struct Slot {
    std::uint64_t hash = 0;
    std::uint32_t id = 0;
  };
  void grow() {
    std::vector<Slot> old(slots_.size() * 2);
    old.swap(slots_);
    const std::size_t mask = slots_.size() - 1;
    for (const Slot& sl : old) {
      if (sl.hash == 0) continue;
      std::size_t i = sl.hash & mask;
      while (slots_[i].hash != 0) i = (i + 1) & mask;
      slots_[i] = sl;
    }
  }
  std::vector<Slot> slots_;
  std::string arena_;
  std::vector<std::uint64_t> off_{0};
};

inline void put_varint(std::vector<std::uint8_t>& out, std::uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<std::uint8_t>(v | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<std::uint8_t>(v));
}
inline std::uint64_t get_varint(const std::uint8_t*& p) {
  std::uint64_t v = 0;
  for (int shift = 0;; shift += 7) {
    const std::uint8_t byte = *p++;
    v |= static_cast<std::uint64_t>(byte & 0x7f) << shift;
    if (byte < 0x80) return v;
  }
}

// A term's postings while building: varint (doc gap << 1 | tf == 1) [, varint tf], the in-memory
// format Lucene uses too; about 1.3 bytes per posting on Zipf text.
struct TermAcc {
  std::vector<std::uint8_t> buf;
  std::uint32_t last_doc = 0;
  std::uint32_t df = 0;
  std::uint32_t cur_doc = 0;  // 1 + the document being added when this term was last seen
  std::uint32_t cur_tf = 0;
};

// One thread's share of the encoded postings.
struct Encoded {
  std::vector<std::uint8_t> data;
  std::vector<BlockMeta> blocks;
  std::vector<TermMeta> metas;
};
}  // namespace

struct Bm25Builder::State {
  Bm25Options opts;
  std::string tokenizer;
  TermDict dict;
  std::vector<TermAcc> terms;
  std::vector<std::uint32_t> lengths;
  std::uint64_t total_tokens = 0, doc_count = 0;
  std::string id_bytes;
  std::vector<std::uint64_t> id_off{0};
  bool ids = false;
  std::vector<std::uint32_t> tmp;
  std::unordered_map<std::uint64_t, std::uint32_t> seen;  // id hash → first document
};

Bm25Builder::Bm25Builder(std::unique_ptr<State> s) : s_(std::move(s)) {}
Bm25Builder::Bm25Builder(Bm25Builder&&) noexcept = default;
Bm25Builder& Bm25Builder::operator=(Bm25Builder&&) noexcept = default;
Bm25Builder::~Bm25Builder() = default;

Result<Bm25Builder> Bm25Builder::create(const Bm25Options& opts, std::string_view tokenizer) {
  QAPLAN_TRY(opts.validate());
  if (tokenizer.size() >= sizeof(Header::tokenizer))
    return make_error(ErrorCode::kInvalidInput, "tokenizer id longer than 63 bytes", "tokenizer");
  auto s = std::make_unique<State>();
  s->opts = opts;
  s->tokenizer = std::string(tokenizer);
  return Bm25Builder(std::move(s));
}

std::size_t Bm25Builder::size() const noexcept { return s_ ? s_->lengths.size() : 0; }

std::string_view Bm25Builder::doc_id(std::size_t doc) const noexcept {
  if (!s_ || !s_->ids || doc + 1 >= s_->id_off.size()) return {};
  return std::string_view(s_->id_bytes).substr(s_->id_off[doc], s_->id_off[doc + 1] - s_->id_off[doc]);
}

std::size_t Bm25Builder::memory_bytes() const noexcept {
  if (!s_) return 0;
  std::size_t b = s_->lengths.capacity() * 4 + s_->id_bytes.capacity() + s_->id_off.capacity() * 8 +
                  s_->terms.capacity() * sizeof(TermAcc) + s_->dict.memory_bytes();
  for (const auto& t : s_->terms) b += t.buf.capacity();
  return b;
}

Status Bm25Builder::add(std::span<const std::string> tokens, std::string_view id) {
  State& s = *s_;
  const std::size_t d = s.lengths.size();
  if (d >= std::numeric_limits<std::uint32_t>::max() - 2)
    return make_error(ErrorCode::kInvalidInput, "too many documents for one BM25 index");
  if (tokens.size() >= std::numeric_limits<std::uint32_t>::max())
    return make_error(ErrorCode::kInvalidInput, "document has too many tokens");
  if (d == 0) s.ids = !id.empty();
  if (s.ids == id.empty())
    return make_error(ErrorCode::kInvalidInput,
                      "document " + std::to_string(d) +
                          (s.ids ? " has no id while earlier ones have" : " has an id while earlier ones have none"));
  if (s.ids) {
    // Ids reach TSV output, logs and engine requests: no control characters; and one document
    // per id (a hash hit is confirmed on the stored id), whoever builds — CLI, C++ or Python.
    if (internal::has_control_character(id))
      return make_error(ErrorCode::kInvalidInput,
                        "must not contain control characters (tab, line breaks, NUL, ESC, …)", "id");
    const std::uint64_t h =
        internal::checksum64({reinterpret_cast<const std::uint8_t*>(id.data()), id.size()});
    const auto [it, inserted] = s.seen.try_emplace(h, static_cast<std::uint32_t>(d));
    if (!inserted && doc_id(it->second) == id)
      return make_error(ErrorCode::kInvalidInput,
                        "duplicate id \"" + std::string(id) + "\" (first at document " +
                            std::to_string(it->second + 1) + ")",
                        "id");
  }
  try {
    // Term frequencies without sorting: each term remembers the document it was last counted
    // for; the document's distinct terms are then flushed in first-occurrence order (the order
    // inside one document never reaches a posting list).
    auto& distinct = s.tmp;
    distinct.clear();
    const auto doc = static_cast<std::uint32_t>(d);
    for (const auto& tok : tokens) {
      const std::uint32_t term = s.dict.find_or_add(tok);
      if (term == s.terms.size()) s.terms.emplace_back();
      TermAcc& t = s.terms[term];
      if (t.cur_doc != doc + 1) {
        t.cur_doc = doc + 1;
        t.cur_tf = 1;
        distinct.push_back(term);
      } else {
        ++t.cur_tf;
      }
    }
    for (const std::uint32_t term : distinct) {
      TermAcc& t = s.terms[term];
      const std::uint64_t gap = t.df == 0 ? doc : doc - t.last_doc - 1;
      const std::uint32_t tf = t.cur_tf;
      put_varint(t.buf, gap << 1 | (tf == 1 ? 1 : 0));
      if (tf != 1) put_varint(t.buf, tf);
      t.last_doc = doc;
      ++t.df;
    }
    s.lengths.push_back(static_cast<std::uint32_t>(tokens.size()));
    s.total_tokens += tokens.size();
    if (!tokens.empty()) ++s.doc_count;
    if (s.ids) {
      s.id_bytes.append(id);
      s.id_off.push_back(s.id_bytes.size());
    }
  } catch (const std::bad_alloc&) {
    return make_error(ErrorCode::kInternal, "out of memory building the BM25 index");
  }
  return {};
}

namespace {

// Encodes the terms `order[begin, end)` (already in final term order) into `out`.
template <bool kLucene>
void encode_terms(const Impl& x, std::vector<TermAcc>& terms,
                  const std::vector<std::uint32_t>& order, std::size_t begin, std::size_t end,
                  Encoded& out) {
  std::vector<std::uint32_t> docs, tfs, vals(kBlockSize);
  for (std::size_t r = begin; r < end; ++r) {
    TermAcc& acc = terms[order[r]];
    docs.clear();
    tfs.clear();
    const std::uint8_t* p = acc.buf.data();
    std::uint64_t doc = 0;
    for (std::uint32_t i = 0; i < acc.df; ++i) {
      const std::uint64_t v = get_varint(p);
      doc = (i == 0 ? 0 : doc + 1) + (v >> 1);
      docs.push_back(static_cast<std::uint32_t>(doc));
      tfs.push_back((v & 1) ? 1u : static_cast<std::uint32_t>(get_varint(p)));
    }
    std::vector<std::uint8_t>().swap(acc.buf);  // the varints are no longer needed
    TermMeta m{};
    m.df = acc.df;
    const TermScorer<kLucene> score(x, x.idf_of(acc.df));
    double upper = 0;
    for (std::size_t b0 = 0; b0 < docs.size(); b0 += kBlockSize) {
      const auto cnt = static_cast<std::uint32_t>(std::min<std::size_t>(kBlockSize, docs.size() - b0));
      BlockMeta bm{};
      bm.last_doc = docs[b0 + cnt - 1];
      std::uint32_t prev = b0 == 0 ? 0 : docs[b0 - 1] + 1, or_d = 0, or_t = 0;
      double bmax = 0;
      for (std::uint32_t i = 0; i < cnt; ++i) {
        vals[i] = docs[b0 + i] - prev;
        prev = docs[b0 + i] + 1;
        or_d |= vals[i];
        or_t |= tfs[b0 + i] - 1;
        bmax = std::max(bmax, score(docs[b0 + i], tfs[b0 + i]));
      }
      upper = std::max(upper, bmax);
      bm.max_bf16 = bf16_round_up(bmax);
      bm.doc_bits = static_cast<std::uint8_t>(internal::bits_for(or_d));
      bm.tf_bits = static_cast<std::uint8_t>(internal::bits_for(or_t));
      const std::size_t db = internal::packed_bytes(cnt, bm.doc_bits);
      const std::size_t tb = internal::packed_bytes(cnt, bm.tf_bits);
      const std::size_t at = out.data.size();
      out.data.resize(at + db + tb + kPad, 0);
      internal::pack(vals.data(), cnt, bm.doc_bits, out.data.data() + at);
      for (std::uint32_t i = 0; i < cnt; ++i) vals[i] = tfs[b0 + i] - 1;
      internal::pack(vals.data(), cnt, bm.tf_bits, out.data.data() + at + db);
      out.data.resize(at + db + tb);
      out.blocks.push_back(bm);
    }
    m.upper = round_up_float(upper);
    out.metas.push_back(m);
  }
}

}  // namespace

Result<Bm25Index> Bm25Builder::finish(unsigned threads) {
  if (!s_) return make_error(ErrorCode::kInternal, "Bm25Builder used after finish()");
  std::unique_ptr<State> sp = std::move(s_);
  State& s = *sp;
  try {
    auto x = std::make_shared<Impl>();
    x->opts = s.opts;
    const std::uint64_t n = s.lengths.size();
    x->num_docs = n;
    x->doc_count = s.doc_count;
    x->avgdl = s.doc_count == 0 ? 0.0 : static_cast<double>(s.total_tokens) / static_cast<double>(s.doc_count);
    // Norms first: block bounds need the per-document factors.
    std::vector<std::uint8_t> norms8;
    if (x->lucene()) {
      norms8.resize(n);
      for (std::uint64_t d = 0; d < n; ++d)
        norms8[d] = lucene_int_to_byte4(static_cast<int>(
            std::min<std::uint32_t>(s.lengths[d], std::numeric_limits<int>::max())));
      x->norms8 = norms8.data();
      const float k1 = static_cast<float>(x->opts.k1), b = static_cast<float>(x->opts.b);
      const float avgdl = static_cast<float>(x->avgdl);
      for (int i = 0; i < 256; ++i) {
        const float len = static_cast<float>(lucene_byte4_to_int(static_cast<unsigned char>(i)));
        x->lucene_cache[i] = 1.0f / (k1 * ((1.0f - b) + b * len / avgdl));
      }
    } else {
      x->k_exact.resize(n);
      const double avgdl = x->avgdl > 0 ? x->avgdl : 1.0;
      for (std::uint64_t d = 0; d < n; ++d)
        x->k_exact[d] =
            x->opts.k1 * (1.0 - x->opts.b + x->opts.b * static_cast<double>(s.lengths[d]) / avgdl);
    }
    // Final term order: byte-wise ascending.
    std::vector<std::pair<std::string_view, std::uint32_t>> sorted;
    sorted.reserve(s.dict.size());
    for (std::uint32_t id = 0; id < s.dict.size(); ++id) sorted.emplace_back(s.dict.term(id), id);
    std::sort(sorted.begin(), sorted.end());
    std::vector<std::uint32_t> order(sorted.size());
    std::uint64_t total_postings = 0, term_bytes = 0;
    for (std::size_t r = 0; r < sorted.size(); ++r) {
      order[r] = sorted[r].second;
      total_postings += s.terms[order[r]].df;
      term_bytes += sorted[r].first.size();
    }
    if (term_bytes > std::numeric_limits<std::uint32_t>::max())
      return make_error(ErrorCode::kInvalidInput, "the distinct terms take more than 4 GiB");
    // Encode in contiguous chunks of similar posting counts, one per thread; the chunks are
    // concatenated in order, so the bytes do not depend on the thread count.
    const unsigned nt = std::max(1u, std::min<unsigned>(threads, 64));
    std::vector<std::size_t> cut{0};
    {
      std::uint64_t run = 0;
      for (std::size_t r = 0; r < order.size(); ++r) {
        run += s.terms[order[r]].df;
        if (cut.size() < nt && run * nt >= total_postings * cut.size()) cut.push_back(r + 1);
      }
      while (cut.size() <= nt) cut.push_back(order.size());
      cut.back() = order.size();
    }
    std::vector<Encoded> parts(nt);
    auto work = [&](unsigned p) {
      if (x->lucene())
        encode_terms<true>(*x, s.terms, order, cut[p], cut[p + 1], parts[p]);
      else
        encode_terms<false>(*x, s.terms, order, cut[p], cut[p + 1], parts[p]);
    };
    if (nt == 1) {
      work(0);
    } else {
      std::vector<std::thread> pool;
      std::vector<std::exception_ptr> errs(nt);
      for (unsigned p = 1; p < nt; ++p)
        pool.emplace_back([&, p] {
          try {
            work(p);
          } catch (...) {
            errs[p] = std::current_exception();
          }
        });
      try {
        work(0);
      } catch (...) {
        errs[0] = std::current_exception();
      }
      for (auto& t : pool) t.join();
      for (auto& e : errs)
        if (e) std::rethrow_exception(e);
    }
    std::uint64_t data_bytes = 0, nblocks = 0;
    for (const auto& p : parts) {
      data_bytes += p.data.size();
      nblocks += p.blocks.size();
    }
    // Lay out the image.
    // External ids, front-coded in runs of kIdRestart: per id varint(shared prefix with the
    // previous id of the run), varint(suffix length), suffix.
    std::string idc;
    std::vector<std::uint64_t> id_runs;
    if (s.ids) {
      std::vector<std::uint8_t> vb;
      std::string_view prev;
      for (std::uint64_t i = 0; i < n; ++i) {
        const std::string_view id =
            std::string_view(s.id_bytes).substr(s.id_off[i], s.id_off[i + 1] - s.id_off[i]);
        std::size_t shared = 0;
        if (i % kIdRestart == 0) {
          id_runs.push_back(idc.size());
        } else {
          while (shared < prev.size() && shared < id.size() && prev[shared] == id[shared]) ++shared;
        }
        vb.clear();
        put_varint(vb, shared);
        put_varint(vb, id.size() - shared);
        idc.append(vb.begin(), vb.end());
        idc.append(id.substr(shared));
        prev = id;
      }
      id_runs.push_back(idc.size());
    }
    const bool ids64 = s.ids && idc.size() > std::numeric_limits<std::uint32_t>::max();
    std::uint64_t sizes[kNumSections] = {
        term_bytes, (order.size() + 1) * 4, order.size() * sizeof(TermMeta),
        nblocks * sizeof(BlockMeta), data_bytes + kPad, x->lucene() ? n : n * 4,
        idc.size(), s.ids ? id_runs.size() * (ids64 ? 8 : 4) : 0};
    Header h{};
    std::memcpy(h.magic, kMagic, sizeof kMagic);
    h.version = kFormatVersion;
    h.header_bytes = kHeaderBytes;
    std::uint64_t pos = align8(kHeaderBytes);
    for (std::uint32_t i = 0; i < kNumSections; ++i) {
      h.sections[i] = {pos, sizes[i]};
      pos = align8(pos + sizes[i]);
    }
    h.file_bytes = pos;
    h.norms = x->lucene() ? 1 : 0;
    h.flags = (s.ids ? kFlagIds : 0) | (ids64 ? kFlagIds64 : 0);
    h.k1 = x->opts.k1;
    h.b = x->opts.b;
    h.avgdl = x->avgdl;
    h.num_docs = n;
    h.doc_count = s.doc_count;
    h.total_tokens = s.total_tokens;
    h.num_terms = order.size();
    h.num_postings = total_postings;
    h.num_blocks = nblocks;
    std::memcpy(h.tokenizer, s.tokenizer.data(), s.tokenizer.size());
    std::vector<std::uint8_t> img(pos, 0);
    auto at = [&](Section sec) { return img.data() + h.sections[sec].offset; };
    {
      char* tb = reinterpret_cast<char*>(at(kTermBytes));
      auto* to = reinterpret_cast<std::uint32_t*>(at(kTermOffsets));
      std::uint64_t o = 0;
      for (std::size_t r = 0; r < sorted.size(); ++r) {
        to[r] = static_cast<std::uint32_t>(o);
        std::memcpy(tb + o, sorted[r].first.data(), sorted[r].first.size());
        o += sorted[r].first.size();
      }
      to[sorted.size()] = static_cast<std::uint32_t>(o);
    }
    {
      auto* tm = reinterpret_cast<TermMeta*>(at(kTermMeta));
      auto* bl = reinterpret_cast<BlockMeta*>(at(kBlocks));
      std::uint8_t* pd = at(kPostings);
      std::uint64_t dbase = 0, bbase = 0;
      // An empty vector's data() may be null, and memcpy from null is undefined even for 0
      // bytes (UBSan, issue 11's corpus fuzzer: an empty corpus).
      auto copy = [](void* dst, const void* src, std::size_t bytes) {
        if (bytes != 0) std::memcpy(dst, src, bytes);
      };
      for (auto& p : parts) {
        copy(tm, p.metas.data(), p.metas.size() * sizeof(TermMeta));
        tm += p.metas.size();
        copy(bl + bbase, p.blocks.data(), p.blocks.size() * sizeof(BlockMeta));
        copy(pd + dbase, p.data.data(), p.data.size());
        dbase += p.data.size();
        bbase += p.blocks.size();
        p = Encoded{};
      }
    }
    if (n != 0) {
      if (x->lucene())
        std::memcpy(at(kNormsSec), norms8.data(), n);
      else
        std::memcpy(at(kNormsSec), s.lengths.data(), n * 4);
    }
    if (s.ids) {
      std::memcpy(at(kIdBytes), idc.data(), idc.size());
      for (std::size_t i = 0; i < id_runs.size(); ++i) {
        if (ids64) {
          std::memcpy(at(kIdOffsets) + i * 8, &id_runs[i], 8);
        } else {
          const auto v = static_cast<std::uint32_t>(id_runs[i]);
          std::memcpy(at(kIdOffsets) + i * 4, &v, 4);
        }
      }
    }
    sp.reset();  // the builder's buffers go before the index is attached
    h.payload_hash = internal::checksum64(std::span<const std::uint8_t>(img).subspan(kHeaderBytes));
    std::memcpy(img.data(), &h, sizeof h);
    h.header_hash = internal::checksum64(std::span<const std::uint8_t>(img).first(offsetof(Header, header_hash)));
    std::memcpy(img.data(), &h, sizeof h);
    auto y = std::make_shared<Impl>();
    y->owned = std::move(img);
    Bm25OpenOptions o;
    o.verify_checksum = false;  // just computed
    if (Status st = attach(*y, y->owned, "<memory>", o); !st)
      return make_error(ErrorCode::kInternal, "built BM25 image failed validation: " + st.error().message);
    return Bm25Index(std::move(y));
  } catch (const std::bad_alloc&) {
    return make_error(ErrorCode::kInternal, "out of memory building the BM25 index");
  } catch (const std::exception& e) {
    return make_error(ErrorCode::kInternal, std::string("BM25 index build failed: ") + e.what());
  }
}

Result<Bm25Index> Bm25Index::create(const std::vector<std::vector<std::string>>& doc_tokens,
                                    const Bm25Options& opts) {
  QAPLAN_ASSIGN_OR_RETURN(Bm25Builder b, Bm25Builder::create(opts));
  for (const auto& d : doc_tokens) QAPLAN_TRY(b.add(d));
  return b.finish(1);
}

Result<Bm25Index> Bm25Index::open(const std::filesystem::path& path, const Bm25OpenOptions& opts) {
  if (opts.in_memory) {
    QAPLAN_ASSIGN_OR_RETURN(const std::string bytes, read_file(path, "BM25 index"));
    return from_image({reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()}, opts,
                      path.string());
  }
  QAPLAN_ASSIGN_OR_RETURN(auto mapped, MappedFile::open(path, opts.verify_checksum));
  auto x = std::make_shared<Impl>();
  x->mapped = mapped;
  try {
    QAPLAN_TRY(attach(*x, mapped->bytes(), path.string(), opts));
  } catch (const std::bad_alloc&) {
    return make_file_error(ErrorCode::kInternal, "out of memory opening the BM25 index", path.string());
  }
  return Bm25Index(std::move(x));
}

Result<Bm25Index> Bm25Index::from_image(std::span<const std::uint8_t> image,
                                        const Bm25OpenOptions& opts, std::string_view source) {
  auto x = std::make_shared<Impl>();
  try {
    // 8-byte aligned storage (the sections hold u64 and double arrays).
    x->owned.assign(image.begin(), image.end());
    QAPLAN_TRY(attach(*x, x->owned, std::string(source), opts));
  } catch (const std::bad_alloc&) {
    return make_error(ErrorCode::kInternal, "out of memory opening the BM25 index");
  }
  return Bm25Index(std::move(x));
}

Status Bm25Index::save(const std::filesystem::path& path,
                       const std::vector<std::filesystem::path>& inputs) const {
  const auto img = impl_->image;
  return write_file_atomic(path, std::string_view(reinterpret_cast<const char*>(img.data()), img.size()),
                           inputs);
}

std::span<const std::uint8_t> Bm25Index::image() const noexcept { return impl_->image; }

Status Bm25Index::unchanged() const { return impl_->mapped ? impl_->mapped->unchanged() : Status{}; }

std::string Bm25Index::doc_id(std::size_t doc) const {
  const Impl& x = *impl_;
  if (!x.has_ids || doc >= x.num_docs) return {};
  const std::size_t run = doc / kIdRestart;
  std::uint64_t a, b;
  if (x.ids64) {
    a = static_cast<const std::uint64_t*>(x.id_off)[run];
    b = static_cast<const std::uint64_t*>(x.id_off)[run + 1];
  } else {
    a = static_cast<const std::uint32_t*>(x.id_off)[run];
    b = static_cast<const std::uint32_t*>(x.id_off)[run + 1];
  }
  // Bounds-checked decoding: a damaged run gives "" rather than a read outside [a, b).
  const auto* p = reinterpret_cast<const std::uint8_t*>(x.id_bytes) + a;
  const auto* end = reinterpret_cast<const std::uint8_t*>(x.id_bytes) + b;
  auto varint = [&](std::uint64_t& v) {
    v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (p >= end) return false;
      const std::uint8_t byte = *p++;
      v |= static_cast<std::uint64_t>(byte & 0x7f) << shift;
      if (byte < 0x80) return true;
    }
    return false;
  };
  std::string id;
  for (std::size_t i = run * kIdRestart; i <= doc; ++i) {
    std::uint64_t shared, len;
    if (!varint(shared) || !varint(len) || shared > id.size() ||
        len > static_cast<std::uint64_t>(end - p))
      return {};
    id.resize(static_cast<std::size_t>(shared));
    id.append(reinterpret_cast<const char*>(p), static_cast<std::size_t>(len));
    p += len;
  }
  return id;
}
std::uint64_t Bm25Index::checksum() const noexcept { return impl_->payload_hash; }
bool Bm25Index::has_doc_ids() const noexcept { return impl_->has_ids; }
std::string_view Bm25Index::tokenizer() const noexcept { return impl_->tokenizer; }
Bm25Stats Bm25Index::stats() const noexcept {
  const Impl& x = *impl_;
  return {x.num_docs, x.num_terms, x.num_postings, x.num_blocks, x.postings_bytes, x.image.size()};
}

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

std::size_t Bm25Index::size() const noexcept { return impl_->num_docs; }
double Bm25Index::avgdl() const noexcept { return impl_->avgdl; }
std::size_t Bm25Index::num_terms() const noexcept { return impl_->num_terms; }
const Bm25Options& Bm25Index::options() const noexcept { return impl_->opts; }
std::size_t Bm25Index::doc_freq(std::string_view term) const {
  const std::int64_t t = impl_->find(term);
  return t < 0 ? 0 : impl_->terms[t].df;
}

}  // namespace qaplan
