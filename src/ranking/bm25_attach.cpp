// Validation of a BM25 index image before any search reads it: header, hashes, section bounds,
// term order, block metadata and postings, norms and ids.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>

#include "ranking/internal/bm25_image.hpp"

namespace qaplan::internal::bm25 {
namespace {

Error invalid_bm25(const std::string& file, const std::string& what) {
  return make_file_error(ErrorCode::kInvalidInput, "invalid BM25 index: " + what, file);
}

// The header: magic, version, size and checksums, checked before any other field is trusted.
Result<Header> read_bm25_header(std::span<const std::uint8_t> bytes, const std::string& file,
                                const Bm25OpenOptions& o) {
  if (bytes.size() < sizeof(kMagic) || std::memcmp(bytes.data(), kMagic, sizeof(kMagic)) != 0)
    return invalid_bm25(file, "not a qaplan BM25 index (wrong magic bytes)");
  if (bytes.size() < 16)
    return invalid_bm25(file, "truncated header");
  std::uint32_t version;
  std::memcpy(&version, bytes.data() + 8, 4);
  if (version != kFormatVersion)
    return make_file_error(ErrorCode::kInvalidInput,
                           "BM25 index format version " + std::to_string(version) +
                               ", this build reads version " + std::to_string(kFormatVersion) +
                               " (rebuild it with `qaplan index build`)",
                           file);
  if (bytes.size() < kHeaderBytes) return invalid_bm25(file, "truncated header");
  Header h;
  std::memcpy(&h, bytes.data(), sizeof h);
  if (h.header_bytes != kHeaderBytes) return invalid_bm25(file, "unexpected header size");
  if (internal::checksum64(bytes.first(offsetof(Header, header_hash))) != h.header_hash)
    return invalid_bm25(file, "header checksum mismatch (file corrupted)");
  if (h.file_bytes != bytes.size())
    return invalid_bm25(file, "truncated or extended: header says " + std::to_string(h.file_bytes) +
                         " bytes, file has " + std::to_string(bytes.size()));
  if (o.verify_checksum && internal::checksum64(bytes.subspan(kHeaderBytes)) != h.payload_hash)
    return invalid_bm25(file, "checksum mismatch (file corrupted)");
  return h;
}

// The header's tokenizer, norms, k1 and b and counts: checked, and the options copied into `x`.
Status read_bm25_options(Bm25Data& x, const Header& h, const std::string& file,
                         const Bm25OpenOptions& o) {
  const std::string tok(h.tokenizer, strnlen(h.tokenizer, sizeof h.tokenizer));
  if (!o.expected_tokenizer.empty() && tok != o.expected_tokenizer)
    return make_file_error(ErrorCode::kInvalidInput,
                           "index was built with tokenizer \"" + tok + "\", this build uses \"" +
                               o.expected_tokenizer + "\" (rebuild the index)",
                           file);
  if (h.norms > 1) return invalid_bm25(file, "unknown norms");
  x.opts.norms = h.norms == 1 ? Bm25Norms::kLucene : Bm25Norms::kExact;
  x.opts.k1 = h.k1;
  x.opts.b = h.b;
  if (!x.opts.validate().ok()) return invalid_bm25(file, "invalid k1 or b");
  x.tokenizer = tok;
  x.payload_hash = h.payload_hash;
  if (h.num_docs >= std::numeric_limits<std::uint32_t>::max() - 1 || h.doc_count > h.num_docs ||
      h.num_blocks >= std::numeric_limits<std::uint32_t>::max() ||
      h.num_terms >= std::numeric_limits<std::uint32_t>::max() ||
      h.num_postings > h.num_docs * std::max<std::uint64_t>(h.num_terms, 1) ||
      h.num_blocks > h.num_postings || !std::isfinite(h.avgdl) || h.avgdl < 0)
    return invalid_bm25(file, "inconsistent counts");
  return {};
}

// Checks the section table and points x's statistics and views into the image.
Status map_bm25_sections(Bm25Data& x, const Header& h, std::span<const std::uint8_t> bytes,
                         const std::string& file) {
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
      return invalid_bm25(file, "section " + std::to_string(i) + " outside the file");
    if (want[i] != 0 && r.bytes != want[i])
      return invalid_bm25(file, "section " + std::to_string(i) + " has the wrong size");
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
  return {};
}

// Checks the dictionary before any term is compared.
Status check_bm25_dictionary(const Bm25Data& x, const Header& h, const std::string& file) {
  const std::uint64_t T = h.num_terms;
  // Dictionary: offsets increasing within kTermBytes, terms strictly ascending.
  if (x.term_off[0] != 0 || x.term_off[T] != h.sections[kTermBytes].bytes)
    return invalid_bm25(file, "term offsets do not span the term bytes");
  // All offsets first: comparing term t reads up to term_off[t + 1], which must already be known
  // not to pass the end (fuzz finding 10: one pass that compared as it checked read past it).
  for (std::uint64_t t = 0; t < T; ++t)
    if (x.term_off[t + 1] < x.term_off[t]) return invalid_bm25(file, "term offsets decrease");
  for (std::uint64_t t = 1; t < T; ++t)
    if (!(x.term(t - 1) < x.term(t))) return invalid_bm25(file, "terms not sorted");
  return {};
}

// Checks every term's blocks and derives x.block_begin and x.data_begin from them.
Status check_bm25_postings(Bm25Data& x, const Header& h, const std::string& file) {
  const std::uint64_t n = h.num_docs, T = h.num_terms, B = h.num_blocks;
  // Terms, blocks and postings: every block's bytes inside kPostings, doc ids below num_docs.
  x.block_begin.resize(T + 1);
  x.data_begin.resize(T + 1);
  std::uint64_t block = 0, data = 0, postings = 0;
  for (std::uint64_t t = 0; t < T; ++t) {
    const TermMeta& m = x.terms[t];
    const std::uint64_t nb = (std::uint64_t{m.df} + kBlockSize - 1) / kBlockSize;
    if (m.df == 0 || m.df > n || nb > B - block ||
        !std::isfinite(m.upper) || !(m.upper >= 0))
      return invalid_bm25(file, "term " + std::to_string(t) + " metadata inconsistent");
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
        return invalid_bm25(file, "block " + std::to_string(block + j) + " inconsistent");
      prev_last = bm.last_doc;
      data += block_bytes(bm, cnt);
    }
    block += nb;
    postings += m.df;
  }
  x.block_begin[T] = static_cast<std::uint32_t>(block);
  x.data_begin[T] = data;
  if (block != B || postings != h.num_postings || data + kPad != x.postings_bytes)
    return invalid_bm25(file, "postings size inconsistent");
  return {};
}

// Checks the external ids' run offsets, when the index has ids.
Status check_bm25_ids(const Bm25Data& x, const Header& h, const std::string& file) {
  const bool ids = (h.flags & kFlagIds) != 0, ids64 = (h.flags & kFlagIds64) != 0;
  const std::uint64_t runs = (h.num_docs + kIdRestart - 1) / kIdRestart;
  // Ids: restart offsets increasing within kIdBytes (each run is decoded with bounds checks).
  if (ids) {
    const std::uint64_t id_bytes = h.sections[kIdBytes].bytes;
    auto off = [&](std::uint64_t i) -> std::uint64_t {
      return ids64 ? static_cast<const std::uint64_t*>(x.id_off)[i]
                   : static_cast<const std::uint32_t*>(x.id_off)[i];
    };
    if (off(0) != 0 || off(runs) != id_bytes) return invalid_bm25(file, "id offsets do not span the id bytes");
    for (std::uint64_t i = 0; i < runs; ++i)
      if (off(i + 1) < off(i)) return invalid_bm25(file, "id offsets decrease");
  }
  return {};
}

}  // namespace

Status attach(Bm25Data& x, std::span<const std::uint8_t> bytes, const std::string& file,
              const Bm25OpenOptions& o) {
  QAPLAN_ASSIGN_OR_RETURN(const Header h, read_bm25_header(bytes, file, o));
  QAPLAN_TRY(read_bm25_options(x, h, file, o));
  QAPLAN_TRY(map_bm25_sections(x, h, bytes, file));
  QAPLAN_TRY(check_bm25_dictionary(x, h, file));
  QAPLAN_TRY(check_bm25_postings(x, h, file));
  QAPLAN_TRY(check_bm25_ids(x, h, file));
  const std::uint64_t n = h.num_docs;
  derive_length_factors(x, {x.lengths, x.lucene() ? 0 : static_cast<std::size_t>(n)});
  x.image = bytes;
  return {};
}

void derive_length_factors(Bm25Data& x, std::span<const std::uint32_t> lengths) {
  if (x.lucene()) {
    // Lucene 8 BM25Similarity: float k1, b, avgdl and idf; cache[norm] = 1 / (k1 · ((1 − b) +
    // b · LENGTH_TABLE[norm] / avgdl)) evaluated in float in Java's left-to-right order.
    const float k1 = static_cast<float>(x.opts.k1), b = static_cast<float>(x.opts.b);
    const float avgdl = static_cast<float>(x.avgdl);
    for (int i = 0; i < 256; ++i) {
      const float len = static_cast<float>(lucene_byte4_to_int(static_cast<unsigned char>(i)));
      x.lucene_cache[i] = 1.0f / (k1 * ((1.0f - b) + b * len / avgdl));
    }
    return;
  }
  x.k_exact.resize(lengths.size());
  const double avgdl = x.avgdl > 0 ? x.avgdl : 1.0;
  for (std::size_t d = 0; d < lengths.size(); ++d)
    x.k_exact[d] = x.opts.k1 * (1.0 - x.opts.b + x.opts.b * static_cast<double>(lengths[d]) / avgdl);
}

}  // namespace qaplan::internal::bm25
