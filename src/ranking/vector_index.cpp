#include "qaplan/ranking/vector_index.hpp"

#include <algorithm>
#include <cmath>
#include <exception>
#include <limits>
#include <string>

#include "common/ordering.hpp"

// Debian's hnswlib 0.6.2 headers define non-inline functions (cpuid, xgetbv, AVXCapable, …), so
// this must stay the only translation unit that includes them. They are not written for our
// warning set; silence it for the include only.
//
// NO_MANUAL_VECTORIZATION: with USE_SSE, hnswlib 0.6.2's searchBaseLayer prefetches
// `datal[j + 1]`, one entry past a full upper-layer link list, i.e. past the end of a malloc'd
// block (AddressSanitizer: heap-buffer-overflow during addPoint). Without it there is no
// prefetch, and the distance comes from our own portable inner product (InnerProductSpace below),
// so the graph is bit-identical on every machine, not only on x86-64 with the same SIMD level.
#define NO_MANUAL_VECTORIZATION
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wshadow"
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wunused-variable"
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wunused-but-set-variable"
#pragma GCC diagnostic ignored "-Wpedantic"
#pragma GCC diagnostic ignored "-Wextra"
#pragma GCC diagnostic ignored "-Wreorder"
#pragma GCC diagnostic ignored "-Wtype-limits"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <hnswlib/hnswlib.h>
#pragma GCC diagnostic pop

namespace qaplan {

Status HnswOptions::validate() const {
  if (m < 2 || m > 4096) {
    return make_error(ErrorCode::kInvalidConfig,
                      "m must be in 2..4096, got " + std::to_string(m), "hnsw.m");
  }
  if (ef_construction < 1) {
    return make_error(ErrorCode::kInvalidConfig, "ef_construction must be > 0",
                      "hnsw.ef_construction");
  }
  if (ef_search < 1) {
    return make_error(ErrorCode::kInvalidConfig, "ef_search must be > 0", "hnsw.ef_search");
  }
  return {};
}

namespace {

// Normalises `in` into `out` (same length). The norm is accumulated in double in index order and
// each component is divided in double, then rounded once to float, so the result is the same on
// every IEEE machine. Returns an error message, or empty on success.
std::string normalize(std::span<const float> in, float* out) {
  double sum = 0.0;
  for (std::size_t i = 0; i < in.size(); ++i) {
    const double x = in[i];
    if (!std::isfinite(x)) return "value " + std::to_string(i) + " is not finite";
    sum += x * x;
  }
  if (sum == 0.0) return "vector is all zero";
  const double norm = std::sqrt(sum);
  for (std::size_t i = 0; i < in.size(); ++i) out[i] = static_cast<float>(in[i] / norm);
  return {};
}

// Exact products of floats are exact in double; summing in index order keeps the score
// independent of how the caller got here (graph or brute force).
double dot(const float* a, const float* b, std::size_t d) {
  double s = 0.0;
  for (std::size_t i = 0; i < d; ++i) s += static_cast<double>(a[i]) * static_cast<double>(b[i]);
  return s;
}

// hnswlib's inner-product distance (1 − ⟨a, b⟩) for the graph, computed with eight float
// accumulators in a fixed order: independent chains make it ~4× faster than one running sum
// (compilers may vectorise it) while every IEEE machine gets the same bits (ISO C++ mode, so no
// FMA contraction). Only the graph uses it; reported scores come from `dot()` above.
float ip_distance(const void* pa, const void* pb, const void* param) {
  const auto* a = static_cast<const float*>(pa);
  const auto* b = static_cast<const float*>(pb);
  const std::size_t d = *static_cast<const std::size_t*>(param);
  float acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  std::size_t i = 0;
  for (; i + 8 <= d; i += 8) {
    for (std::size_t l = 0; l < 8; ++l) acc[l] += a[i + l] * b[i + l];
  }
  float s = ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7]));
  for (; i < d; ++i) s += a[i] * b[i];
  return 1.0f - s;
}

// The same space as hnswlib::InnerProductSpace (distance 1 − inner product over `dims` floats),
// with the distance above.
class InnerProductSpace final : public hnswlib::SpaceInterface<float> {
 public:
  explicit InnerProductSpace(std::size_t dims) : dims_(dims) {}
  std::size_t get_data_size() override { return dims_ * sizeof(float); }
  hnswlib::DISTFUNC<float> get_dist_func() override { return &ip_distance; }
  void* get_dist_func_param() override { return &dims_; }

 private:
  std::size_t dims_;
};

bool better(const ScoredDoc& a, const ScoredDoc& b) { return internal::ranks_before(a, b); }

}  // namespace

struct VectorIndex::Impl {
  std::size_t dims = 0;
  std::size_t n = 0;
  HnswOptions opts;
  // `space` must outlive `hnsw` (hnsw keeps a pointer into it): members are destroyed in
  // reverse order.
  std::unique_ptr<InnerProductSpace> space;
  std::unique_ptr<hnswlib::HierarchicalNSW<float>> hnsw;

  // Row i's normalised floats, read from hnswlib's own storage (internal id i == label i because
  // rows are inserted in order on one thread; create() checks it), so rows are stored once.
  const float* row(std::size_t i) const {
    return reinterpret_cast<const float*>(hnsw->getDataByInternalId(static_cast<unsigned>(i)));
  }

  Result<std::vector<float>> prepare_query(std::span<const float> query) const {
    if (query.size() != dims) {
      return make_error(ErrorCode::kInvalidInput,
                        "query has " + std::to_string(query.size()) + " dimensions, index has " +
                            std::to_string(dims),
                        "vector query");
    }
    std::vector<float> q(dims);
    if (std::string err = normalize(query, q.data()); !err.empty()) {
      return make_error(ErrorCode::kInvalidInput, "query " + err, "vector query");
    }
    return q;
  }

  static std::size_t wanted(std::size_t k, std::size_t n) { return (k == 0 || k >= n) ? n : k; }

  RankedList exact(const std::vector<float>& q, std::size_t k) const {
    RankedList all(n);
    for (std::size_t i = 0; i < n; ++i) {
      all[i] = ScoredDoc{static_cast<std::uint32_t>(i), dot(q.data(), row(i), dims)};
    }
    const std::size_t want = wanted(k, n);
    std::partial_sort(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(want), all.end(),
                      better);
    all.resize(want);
    return all;
  }

  RankedList approximate(const std::vector<float>& q, std::size_t k) const {
    const std::size_t want = wanted(k, n);
    // hnswlib searches with ef = max(ef_, fetch) and keeps the best `fetch`; asking for all ef
    // candidates costs nothing extra and lets the double rescoring decide the boundary.
    const std::size_t fetch = std::min(n, std::max(want, opts.ef_search));
    auto heap = hnsw->searchKnn(q.data(), fetch);
    RankedList out;
    out.reserve(want == n ? n : heap.size());
    std::vector<char> seen(want == n ? n : 0, 0);
    while (!heap.empty()) {
      const auto doc = static_cast<std::size_t>(heap.top().second);
      heap.pop();
      out.push_back(ScoredDoc{static_cast<std::uint32_t>(doc), dot(q.data(), row(doc), dims)});
      if (want == n) seen[doc] = 1;
    }
    if (want == n && out.size() < n) {
      // The graph did not reach every row (possible with many duplicates): the caller asked for
      // all documents, so score the rest exactly.
      for (std::size_t i = 0; i < n; ++i) {
        if (!seen[i]) out.push_back(ScoredDoc{static_cast<std::uint32_t>(i),
                                              dot(q.data(), row(i), dims)});
      }
    }
    std::sort(out.begin(), out.end(), better);
    if (out.size() > want) out.resize(want);
    return out;
  }
};

VectorIndex::VectorIndex(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
VectorIndex::VectorIndex(VectorIndex&&) noexcept = default;
VectorIndex& VectorIndex::operator=(VectorIndex&&) noexcept = default;
VectorIndex::~VectorIndex() = default;

std::size_t VectorIndex::size() const noexcept { return impl_->n; }
std::size_t VectorIndex::dimensions() const noexcept { return impl_->dims; }
const HnswOptions& VectorIndex::options() const noexcept { return impl_->opts; }

Result<VectorIndex> VectorIndex::create(std::size_t dims,
                                        const std::vector<std::vector<float>>& vectors,
                                        const HnswOptions& opts) {
  if (Status st = opts.validate(); !st.ok()) return st.error();
  if (dims == 0) return make_error(ErrorCode::kInvalidInput, "dimensions must be > 0", "vectors");
  if (vectors.size() >= std::numeric_limits<std::uint32_t>::max()) {
    return make_error(ErrorCode::kInvalidInput, "too many rows for uint32 doc ids", "vectors");
  }
  auto impl = std::make_unique<Impl>();
  impl->dims = dims;
  impl->n = vectors.size();
  impl->opts = opts;
  std::vector<float> buf(dims);
  // Validate every row before building anything.
  for (std::size_t i = 0; i < vectors.size(); ++i) {
    const std::string ctx = "vectors row " + std::to_string(i);
    if (vectors[i].size() != dims) {
      return make_error(ErrorCode::kInvalidInput,
                        "row has " + std::to_string(vectors[i].size()) +
                            " dimensions, expected " + std::to_string(dims),
                        ctx);
    }
    if (std::string err = normalize(vectors[i], buf.data()); !err.empty()) {
      return make_error(ErrorCode::kInvalidInput, err, ctx);
    }
  }
  try {
    impl->space = std::make_unique<InnerProductSpace>(dims);
    // At least one slot: hnswlib cannot allocate an empty level-0 block.
    impl->hnsw = std::make_unique<hnswlib::HierarchicalNSW<float>>(
        impl->space.get(), std::max<std::size_t>(vectors.size(), 1), opts.m,
        opts.ef_construction, static_cast<std::size_t>(opts.seed));
    impl->hnsw->setEf(opts.ef_search);
    for (std::size_t i = 0; i < vectors.size(); ++i) {
      (void)normalize(vectors[i], buf.data());
      impl->hnsw->addPoint(buf.data(), static_cast<hnswlib::labeltype>(i));
    }
    for (std::size_t i = 0; i < vectors.size(); ++i) {
      if (impl->hnsw->getExternalLabel(static_cast<unsigned>(i)) != i) {
        return make_error(ErrorCode::kInternal, "hnswlib internal id differs from label",
                          "vectors row " + std::to_string(i));
      }
    }
  } catch (const std::exception& e) {
    return make_error(ErrorCode::kInternal, std::string("hnswlib: ") + e.what(), "vector index");
  }
  return VectorIndex(std::move(impl));
}

Result<RankedList> VectorIndex::search(std::span<const float> query, std::size_t k) const {
  auto q = impl_->prepare_query(query);
  if (!q.ok()) return q.error();
  if (impl_->n == 0) return RankedList{};
  try {
    return impl_->approximate(*q, k);
  } catch (const std::exception& e) {
    return make_error(ErrorCode::kInternal, std::string("hnswlib: ") + e.what(), "vector search");
  }
}

Result<RankedList> VectorIndex::search_exact(std::span<const float> query, std::size_t k) const {
  auto q = impl_->prepare_query(query);
  if (!q.ok()) return q.error();
  if (impl_->n == 0) return RankedList{};
  return impl_->exact(*q, k);
}

}  // namespace qaplan
