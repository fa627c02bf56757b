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
#include "ranking/internal/bm25_image.hpp"
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

// ---- Index -------------------------------------------------------------------------------

namespace {
using Impl = internal::Bm25Data;
using internal::MappedFile;
using internal::bm25::kIdRestart;
}  // namespace

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
    QAPLAN_TRY(internal::bm25::attach(*x, mapped->bytes(), path.string(), opts));
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
    QAPLAN_TRY(internal::bm25::attach(*x, x->owned, std::string(source), opts));
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

std::size_t Bm25Index::size() const noexcept { return impl_->num_docs; }
double Bm25Index::avgdl() const noexcept { return impl_->avgdl; }
std::size_t Bm25Index::num_terms() const noexcept { return impl_->num_terms; }
const Bm25Options& Bm25Index::options() const noexcept { return impl_->opts; }

}  // namespace qaplan
