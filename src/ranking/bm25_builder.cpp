// The BM25 index builder: documents in, postings accumulated as varints per term, then encoded
// in blocks of 128 (in parallel over terms) into one image, which is attached as the index.
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
#include "common/utf8.hpp"
#include "qaplan/io.hpp"
#include "ranking/internal/bitpack.hpp"
#include "ranking/internal/bm25_image.hpp"
#include "ranking/internal/bm25_score.hpp"

namespace qaplan {

using Impl = internal::Bm25Data;
using namespace internal::bm25;

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

Status check_document_id(std::string_view id, std::string_view field) {
  if (id.empty())
    return make_error(ErrorCode::kInvalidInput, "must not be empty", std::string(field));
  if (const std::size_t bad = internal::first_invalid_utf8(id); bad != std::string_view::npos)
    return make_error(ErrorCode::kInvalidInput,
                      "is not valid UTF-8 (byte " + std::to_string(bad) + ")", std::string(field));
  if (internal::has_control_character(id))
    return make_error(ErrorCode::kInvalidInput,
                      "must not contain control characters (tab, line breaks, NUL, ESC, …)",
                      std::string(field));
  return {};
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
    // Ids reach TSV output, logs and engine requests: valid text without control characters;
    // and one document per id (a hash hit is confirmed on the stored id), whoever builds — CLI,
    // C++ or Python.
    QAPLAN_TRY(check_document_id(id));
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

namespace {

// The norms (lucene: one byte per document, returned) and the per-document length factors block
// bounds are computed with.
std::vector<std::uint8_t> set_norms(Impl& x, const std::vector<std::uint32_t>& lengths) {
  std::vector<std::uint8_t> norms8;
  if (x.lucene()) {
    norms8.resize(lengths.size());
    for (std::size_t d = 0; d < lengths.size(); ++d)
      norms8[d] = lucene_int_to_byte4(
          static_cast<int>(std::min<std::uint32_t>(lengths[d], std::numeric_limits<int>::max())));
    x.norms8 = norms8.data();
  }
  derive_length_factors(x, lengths);
  return norms8;
}

// The final term order (byte-wise ascending) and what it adds up to.
struct TermOrder {
  std::vector<std::pair<std::string_view, std::uint32_t>> sorted;  // (term, builder id)
  std::vector<std::uint32_t> order;                                // builder ids in final order
  std::uint64_t total_postings = 0, term_bytes = 0;
};

TermOrder term_order(const TermDict& dict, const std::vector<TermAcc>& terms) {
  TermOrder t;
  t.sorted.reserve(dict.size());
  for (std::uint32_t id = 0; id < dict.size(); ++id) t.sorted.emplace_back(dict.term(id), id);
  std::sort(t.sorted.begin(), t.sorted.end());
  t.order.resize(t.sorted.size());
  for (std::size_t r = 0; r < t.sorted.size(); ++r) {
    t.order[r] = t.sorted[r].second;
    t.total_postings += terms[t.order[r]].df;
    t.term_bytes += t.sorted[r].first.size();
  }
  return t;
}

// Encodes every term in contiguous chunks of similar posting counts, one per thread; the chunks
// are concatenated in order, so the bytes do not depend on the thread count.
std::vector<Encoded> encode_all(const Impl& x, std::vector<TermAcc>& terms, const TermOrder& t,
                                unsigned threads) {
  const unsigned nt = std::max(1u, std::min<unsigned>(threads, 64));
  std::vector<std::size_t> cut{0};
  std::uint64_t run = 0;
  for (std::size_t r = 0; r < t.order.size(); ++r) {
    run += terms[t.order[r]].df;
    if (cut.size() < nt && run * nt >= t.total_postings * cut.size()) cut.push_back(r + 1);
  }
  while (cut.size() <= nt) cut.push_back(t.order.size());
  cut.back() = t.order.size();
  std::vector<Encoded> parts(nt);
  auto work = [&](unsigned p) {
    if (x.lucene())
      encode_terms<true>(x, terms, t.order, cut[p], cut[p + 1], parts[p]);
    else
      encode_terms<false>(x, terms, t.order, cut[p], cut[p + 1], parts[p]);
  };
  if (nt == 1) {
    work(0);
    return parts;
  }
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
  for (auto& th : pool) th.join();
  for (auto& e : errs)
    if (e) std::rethrow_exception(e);
  return parts;
}

// External ids, front-coded in runs of kIdRestart: per id varint(shared prefix with the previous
// id of the run), varint(suffix length), suffix; `runs` holds each run's offset and the end.
struct FrontCoded {
  std::string bytes;
  std::vector<std::uint64_t> runs;
};

FrontCoded front_code(const std::string& id_bytes, const std::vector<std::uint64_t>& id_off) {
  FrontCoded fc;
  std::vector<std::uint8_t> vb;
  std::string_view prev;
  const std::uint64_t n = id_off.size() - 1;
  for (std::uint64_t i = 0; i < n; ++i) {
    const std::string_view id =
        std::string_view(id_bytes).substr(id_off[i], id_off[i + 1] - id_off[i]);
    std::size_t shared = 0;
    if (i % kIdRestart == 0) {
      fc.runs.push_back(fc.bytes.size());
    } else {
      while (shared < prev.size() && shared < id.size() && prev[shared] == id[shared]) ++shared;
    }
    vb.clear();
    put_varint(vb, shared);
    put_varint(vb, id.size() - shared);
    fc.bytes.append(vb.begin(), vb.end());
    fc.bytes.append(id.substr(shared));
    prev = id;
  }
  fc.runs.push_back(fc.bytes.size());
  return fc;
}

// Copies the encoded chunks into the term-meta, block and postings sections, in order.
void copy_parts(std::vector<Encoded>& parts, TermMeta* tm, BlockMeta* bl, std::uint8_t* pd) {
  // An empty vector's data() may be null, and memcpy from null is undefined even for 0
  // bytes (UBSan, the corpus fuzzer: an empty corpus; docs/reliability.md).
  auto copy = [](void* dst, const void* src, std::size_t bytes) {
    if (bytes != 0) std::memcpy(dst, src, bytes);
  };
  std::uint64_t dbase = 0, bbase = 0;
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

// Writes the sorted terms and their offsets.
void copy_terms(const TermOrder& t, char* tb, std::uint32_t* to) {
  std::uint64_t o = 0;
  for (std::size_t r = 0; r < t.sorted.size(); ++r) {
    to[r] = static_cast<std::uint32_t>(o);
    std::memcpy(tb + o, t.sorted[r].first.data(), t.sorted[r].first.size());
    o += t.sorted[r].first.size();
  }
  to[t.sorted.size()] = static_cast<std::uint32_t>(o);
}

// Writes the id runs' offsets, 4 or 8 bytes each.
void copy_id_runs(const std::vector<std::uint64_t>& runs, bool ids64, std::uint8_t* out) {
  for (std::size_t i = 0; i < runs.size(); ++i) {
    if (ids64) {
      std::memcpy(out + i * 8, &runs[i], 8);
    } else {
      const auto v = static_cast<std::uint32_t>(runs[i]);
      std::memcpy(out + i * 4, &v, 4);
    }
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
    const std::vector<std::uint8_t> norms8 = set_norms(*x, s.lengths);
    const TermOrder t = term_order(s.dict, s.terms);
    if (t.term_bytes > std::numeric_limits<std::uint32_t>::max())
      return make_error(ErrorCode::kInvalidInput, "the distinct terms take more than 4 GiB");
    std::vector<Encoded> parts = encode_all(*x, s.terms, t, threads);
    std::uint64_t data_bytes = 0, nblocks = 0;
    for (const auto& p : parts) {
      data_bytes += p.data.size();
      nblocks += p.blocks.size();
    }
    // Lay out the image.
    const FrontCoded ids = s.ids ? front_code(s.id_bytes, s.id_off) : FrontCoded{};
    const bool ids64 = s.ids && ids.bytes.size() > std::numeric_limits<std::uint32_t>::max();
    std::uint64_t sizes[kNumSections] = {
        t.term_bytes, (t.order.size() + 1) * 4, t.order.size() * sizeof(TermMeta),
        nblocks * sizeof(BlockMeta), data_bytes + kPad, x->lucene() ? n : n * 4,
        ids.bytes.size(), s.ids ? ids.runs.size() * (ids64 ? 8 : 4) : 0};
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
    h.num_terms = t.order.size();
    h.num_postings = t.total_postings;
    h.num_blocks = nblocks;
    std::memcpy(h.tokenizer, s.tokenizer.data(), s.tokenizer.size());
    std::vector<std::uint8_t> img(pos, 0);
    auto at = [&](Section sec) { return img.data() + h.sections[sec].offset; };
    copy_terms(t, reinterpret_cast<char*>(at(kTermBytes)), reinterpret_cast<std::uint32_t*>(at(kTermOffsets)));
    copy_parts(parts, reinterpret_cast<TermMeta*>(at(kTermMeta)), reinterpret_cast<BlockMeta*>(at(kBlocks)),
               at(kPostings));
    if (n != 0) {
      if (x->lucene())
        std::memcpy(at(kNormsSec), norms8.data(), n);
      else
        std::memcpy(at(kNormsSec), s.lengths.data(), n * 4);
    }
    if (s.ids) {
      std::memcpy(at(kIdBytes), ids.bytes.data(), ids.bytes.size());
      copy_id_runs(ids.runs, ids64, at(kIdOffsets));
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

}  // namespace qaplan
