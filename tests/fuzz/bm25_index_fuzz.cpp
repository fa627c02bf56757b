// Fuzz target: the saved-index loaders (docs/indexes.md) — Bm25Index::from_image (the bytes
// `qaplan search --index` maps) and VectorIndex::deserialize. Checksums would reject almost every
// mutation before the structure is looked at, so the BM25 image is opened WITHOUT checksum
// verification and the input is read as edits of a valid image: byte 0 picks the loader, then
// (offset u16, xor byte) triples patch the image and a final short tail truncates it. HNSW images
// are resealed (checksums recomputed) after patching, so its structural checks are what is fuzzed.
//
// Invariants: a refused image gives one line naming the source; an accepted one searches without
// reading out of bounds (ASan), every hit's doc is < size(), scores are finite, > 0, sorted with
// ties by lower doc, and the pruned search equals the exhaustive one.
#define XXH_INLINE_ALL
#include <xxhash.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "fuzz_support.hpp"
#include "qaplan/ranking/bm25.hpp"
#include "qaplan/ranking/vector_index.hpp"

using namespace qaplan;

namespace {
std::vector<std::uint8_t>* g_bm25 = nullptr;
std::string* g_hnsw = nullptr;

void check_list(const RankedList& r, std::size_t n) {
  for (std::size_t i = 0; i < r.size(); ++i) {
    if (r[i].doc >= n || !std::isfinite(r[i].score) || !(r[i].score > 0)) std::abort();
    if (i > 0 && (r[i - 1].score < r[i].score ||
                  (r[i - 1].score == r[i].score && r[i - 1].doc >= r[i].doc)))
      std::abort();
  }
}
}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  std::vector<std::vector<std::string>> docs;
  for (int d = 0; d < 600; ++d) {
    docs.emplace_back();
    for (int i = 0; i < 1 + d % 23; ++i) docs.back().push_back("t" + std::to_string((d * 7 + i * i) % 57));
  }
  auto b = Bm25Builder::create({1.2, 0.75, Bm25Norms::kLucene}, "fuzz");
  if (!b.ok()) std::abort();
  for (std::size_t d = 0; d < docs.size(); ++d)
    if (!b->add(docs[d], "id-" + std::to_string(d)).ok()) std::abort();
  auto idx = b->finish();
  if (!idx.ok()) std::abort();
  g_bm25 = new std::vector<std::uint8_t>(idx->image().begin(), idx->image().end());
  std::vector<std::vector<float>> rows;
  for (int i = 0; i < 200; ++i) rows.push_back({std::sin(i * 1.0f), std::cos(i * 0.7f), 0.5f, float(i % 7)});
  auto v = VectorIndex::create(4, rows, {4, 20, 10, 100});
  if (!v.ok()) std::abort();
  g_hnsw = new std::string(v->serialize(7));
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const bool bm25 = (data[0] & 1) == 0;
  std::vector<std::uint8_t> img = bm25 ? *g_bm25 : std::vector<std::uint8_t>(g_hnsw->begin(), g_hnsw->end());
  std::size_t i = 1;
  for (; i + 3 <= size; i += 3) {
    const std::size_t off = (static_cast<std::size_t>(data[i]) | static_cast<std::size_t>(data[i + 1]) << 8) % img.size();
    img[off] ^= data[i + 2];
  }
  if (i < size && (data[i] & 0x80)) img.resize(img.size() * (data[i] & 0x7f) / 128);
  if (bm25) {
    Bm25OpenOptions o;
    o.verify_checksum = false;
    auto r = Bm25Index::from_image(img, o, "fuzz.qidx");
    if (!r.ok()) {
      const std::string msg = r.error().to_string();
      if (msg.find('\n') != std::string::npos || msg.find("fuzz.qidx") == std::string::npos) std::abort();
      return 0;
    }
    for (const auto& q : std::vector<std::vector<std::string>>{{"t1", "t2", "t3"}, {"t5"}, {"t0", "t9", "t17", "t33", "t56"}}) {
      for (std::size_t k : {1u, 10u, 0u}) {
        const auto a = r->search(q, k);
        check_list(a, r->size());
        if (a != r->search_exhaustive(q, k)) std::abort();
      }
    }
    for (std::size_t d = 0; d < r->size(); d += 97) (void)r->doc_id(d);
    return 0;
  }
  // HNSW: reseal so the structural checks, not the checksum, decide (layout: see
  // index_vectors_test.cpp — payload hash at 24, header hash at 152, header 160 bytes).
  if (img.size() >= 160) {
    const std::uint64_t ph = XXH3_64bits(img.data() + 160, img.size() - 160);
    std::memcpy(img.data() + 24, &ph, 8);
    const std::uint64_t hh = XXH3_64bits(img.data(), 152);
    std::memcpy(img.data() + 152, &hh, 8);
  }
  auto v = VectorIndex::deserialize(img, "fuzz.hnsw");
  if (!v.ok()) return 0;
  const std::vector<float> q = {0.3f, -0.2f, 0.9f, 0.1f};
  for (std::size_t k : {1u, 5u, 0u}) {
    auto r = v->search(q, k);
    if (!r.ok()) std::abort();
    for (const auto& h : *r)
      if (h.doc >= v->size()) std::abort();
  }
  return 0;
}
