// The BM25 index image: its on-disk format (one little-endian image, identical in memory, on
// disk and mapped) and the views a search reads through. Shared by the files of the BM25 index:
// bm25.cpp (open, accessors), bm25_attach.cpp (validation), bm25_search.cpp, bm25_builder.cpp.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "qaplan/ranking/bm25.hpp"
#include "ranking/internal/bitpack.hpp"
#include "ranking/internal/mapped_file.hpp"

namespace qaplan::internal {

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
namespace bm25 {



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
  return packed_bytes(count, b.doc_bits) + packed_bytes(count, b.tf_bits);
}
inline float bf16_to_float(std::uint16_t h) {
  const std::uint32_t bits = std::uint32_t{h} << 16;
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}
// The smallest bfloat16 ≥ v (v ≥ 0, finite).
inline std::uint16_t bf16_round_up(double v) {
  float f = static_cast<float>(v);
  if (static_cast<double>(f) < v) f = std::nextafter(f, std::numeric_limits<float>::infinity());
  std::uint32_t bits;
  std::memcpy(&bits, &f, 4);
  if ((bits & 0xffffu) != 0) bits = (bits & 0xffff0000u) + 0x10000u;
  return static_cast<std::uint16_t>(bits >> 16);
}

}  // namespace bm25

// The index: its options and statistics and views into its image.
struct Bm25Data {
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
  const bm25::TermMeta* terms = nullptr;
  std::size_t num_terms = 0;
  const bm25::BlockMeta* blocks = nullptr;
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

namespace bm25 {

// Points `x`'s views into `bytes` after checking everything a search will rely on, so that no
// content (corrupted, truncated or forged) can make a search read outside the image.
Status attach(Bm25Data& x, std::span<const std::uint8_t> bytes, const std::string& file,
              const Bm25OpenOptions& o);

// The per-document length factors a search scores with, derived from the options and avgdl:
// Lucene's score cache per norm byte, or the exact k1·(1 − b + b·dl/avgdl) per document from
// `lengths` (unused in lucene mode).
void derive_length_factors(Bm25Data& x, std::span<const std::uint32_t> lengths);

}  // namespace bm25
}  // namespace qaplan::internal
