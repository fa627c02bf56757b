#include "qaplan/ranking/vector_index.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <exception>
#include <functional>
#include <limits>
#include <new>
#include <string>

#include "common/ordering.hpp"
#include "qaplan/io.hpp"
#include "ranking/internal/hnsw_adapter.hpp"
#include "ranking/internal/ip_kernels.hpp"
#include "ranking/internal/mapped_file.hpp"

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

// Exact products of floats are exact in double; one fixed order of the sums (eight lanes, i ≡ l
// mod 8, then a fixed tree) keeps the score independent of how the caller got here (graph or
// brute force) and lets the compiler vectorise it: a single running sum was a chain of dependent
// additions, about 3 µs for ten 256-dimension candidates.
double dot(const float* a, const float* b, std::size_t d) {
  double acc[8] = {};
  std::size_t i = 0;
  for (; i + 8 <= d; i += 8)
    for (std::size_t l = 0; l < 8; ++l)
      acc[l] += static_cast<double>(a[i + l]) * static_cast<double>(b[i + l]);
  for (std::size_t l = 0; i + l < d; ++l)
    acc[l] += static_cast<double>(a[i + l]) * static_cast<double>(b[i + l]);
  return ((acc[0] + acc[4]) + (acc[2] + acc[6])) + ((acc[1] + acc[5]) + (acc[3] + acc[7]));
}

// The same space as hnswlib::InnerProductSpace (distance 1 − inner product over `dims` floats),
// with our kernels (the best this CPU runs).
class InnerProductSpace final : public hnswlib::SpaceInterface<float> {
 public:
  explicit InnerProductSpace(std::size_t dims) : dims_(dims) {}
  std::size_t get_data_size() override { return dims_ * sizeof(float); }
  hnswlib::DISTFUNC<float> get_dist_func() override {
    return internal::ip_kernel(internal::best_kernel_isa());
  }
  void* get_dist_func_param() override { return &dims_; }

 private:
  std::size_t dims_;
};


// hnswlib's own search and insertion code (heaps, visited lists, link updates) compiled for this
// CPU's level as well as the baseline and chosen at run time, as the distance kernels are: a
// build of hnswlib with -march=native gets that code generation for its whole loop. The
// distances still go through the space's function pointer (our kernels), so every clone builds
// the same graph and returns the same neighbours. `flatten` puts hnswlib's code into each clone.
// GCC only: clang refuses target_clones beside flatten (the sanitizer builds use the one path).
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define QAPLAN_HNSW_LOOP __attribute__((target_clones("default", "arch=x86-64-v3", "arch=x86-64-v4"), flatten))
#else
#define QAPLAN_HNSW_LOOP
#endif

QAPLAN_HNSW_LOOP
std::priority_queue<std::pair<float, hnswlib::labeltype>> search_graph(
    const hnswlib::HierarchicalNSW<float>& h, const float* q, std::size_t k) {
  return h.hnswlib::HierarchicalNSW<float>::searchKnn(q, k);
}

QAPLAN_HNSW_LOOP
void insert_into_graph(hnswlib::HierarchicalNSW<float>& h, const float* row, hnswlib::labeltype label) {
  h.hnswlib::HierarchicalNSW<float>::addPoint(row, label);
}

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
                      internal::ranks_before<ScoredDoc>);
    all.resize(want);
    return all;
  }

  RankedList approximate(const std::vector<float>& q, std::size_t k, std::size_t ef) const {
    const std::size_t want = wanted(k, n);
    // hnswlib searches with ef = max(ef_, fetch) and keeps the best `fetch`; asking for all ef
    // candidates costs nothing extra and lets the double rescoring decide the boundary.
    const std::size_t fetch = std::min(n, std::max(want, ef == 0 ? opts.ef_search : ef));
    auto heap = search_graph(*hnsw, q.data(), fetch);
    RankedList out;
    out.reserve(want == n ? n : heap.size());
    std::vector<char> seen(want == n ? n : 0, 0);
    // Candidates come out worst first with their float distance. Only those that can still be in
    // the top `want` by the double score are rescored: with |float − double| ≤ kErr for unit
    // vectors, a candidate whose float similarity is below the want-th best minus 2·kErr has a
    // double score below `want` others', so skipping it changes neither the set nor any score.
    std::vector<std::pair<float, std::size_t>> cand;
    cand.reserve(heap.size());
    while (!heap.empty()) {
      cand.emplace_back(1.0f - heap.top().first, static_cast<std::size_t>(heap.top().second));
      heap.pop();
    }
    double cut = -std::numeric_limits<double>::infinity();
    if (want < n && cand.size() > want) {
      // Error of the 32-lane float sum over d terms of |a_i b_i| ≤ 1, plus the final 1 − s and
      // the normalisation's rounding: (d / 8 + 16) · 2^-23 bounds it generously.
      const double err = (static_cast<double>(dims) / 8.0 + 16.0) * 0x1.0p-23;
      std::vector<float> sims;
      sims.reserve(cand.size());
      for (const auto& c : cand) sims.push_back(c.first);
      std::nth_element(sims.begin(), sims.begin() + static_cast<std::ptrdiff_t>(want - 1), sims.end(),
                       std::greater<float>());
      cut = static_cast<double>(sims[want - 1]) - 2.0 * err;
    }
    for (const auto& [sim, doc] : cand) {
      if (static_cast<double>(sim) < cut) continue;
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
    std::sort(out.begin(), out.end(), internal::ranks_before<ScoredDoc>);
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
    // hnswlib searches with max(ef_, k); every call passes k = max(wanted, ef) itself, so the
    // shared ef_ stays 1 and nothing is mutated per call.
    impl->hnsw->setEf(1);
    for (std::size_t i = 0; i < vectors.size(); ++i) {
      (void)normalize(vectors[i], buf.data());
      insert_into_graph(*impl->hnsw, buf.data(), static_cast<hnswlib::labeltype>(i));
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
  return search(query, k, 0);
}

Result<RankedList> VectorIndex::search(std::span<const float> query, std::size_t k,
                                       std::size_t ef) const {
  auto q = impl_->prepare_query(query);
  if (!q.ok()) return q.error();
  if (impl_->n == 0) return RankedList{};
  try {
    return impl_->approximate(*q, k, ef);
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


// ---- Serialization -----------------------------------------------------------------------
// Header | level-0 block (n × size_data_per_element: link list, vector, label — hnswlib's own
// layout) | element levels (u32 × n) | upper-layer link lists (level × size_links_per_element per
// element with level > 0), all little-endian.
namespace {

constexpr char kHnswMagic[8] = {'Q', 'A', 'P', 'L', 'H', 'N', 'S', 'W'};
constexpr std::uint32_t kHnswVersion = 1;

struct HnswHeader {
  char magic[8];
  std::uint32_t version;
  std::uint32_t header_bytes;
  std::uint64_t file_bytes;
  std::uint64_t payload_hash;
  std::uint64_t binding;
  std::uint64_t dims, n, m, ef_construction, ef_search, seed;
  std::int64_t maxlevel;
  std::uint64_t enterpoint;
  std::uint64_t size_data_per_element, size_links_per_element;
  std::uint8_t reserved[32];
  std::uint64_t header_hash;
};
static_assert(std::is_trivially_copyable_v<HnswHeader>);

Error bad_hnsw(std::string_view source, const std::string& what) {
  return make_file_error(ErrorCode::kInvalidInput, "invalid HNSW index: " + what,
                         std::string(source));
}

}  // namespace

std::string VectorIndex::serialize(std::uint64_t binding) const {
  const Impl& x = *impl_;
  const auto& h = *x.hnsw;
  HnswHeader hd{};
  std::memcpy(hd.magic, kHnswMagic, 8);
  hd.version = kHnswVersion;
  hd.header_bytes = sizeof(HnswHeader);
  hd.binding = binding;
  hd.dims = x.dims;
  hd.n = x.n;
  hd.m = x.opts.m;
  hd.ef_construction = x.opts.ef_construction;
  hd.ef_search = x.opts.ef_search;
  hd.seed = x.opts.seed;
  hd.maxlevel = x.n == 0 ? -1 : h.maxlevel_;
  hd.enterpoint = x.n == 0 ? 0 : h.enterpoint_node_;
  hd.size_data_per_element = h.size_data_per_element_;
  hd.size_links_per_element = h.size_links_per_element_;
  std::string out(sizeof hd, '\0');
  out.append(h.data_level0_memory_, x.n * h.size_data_per_element_);
  for (std::size_t i = 0; i < x.n; ++i) {
    const auto lv = static_cast<std::uint32_t>(h.element_levels_[i]);
    out.append(reinterpret_cast<const char*>(&lv), 4);
  }
  for (std::size_t i = 0; i < x.n; ++i)
    if (h.element_levels_[i] > 0)
      out.append(h.linkLists_[i],
                 h.size_links_per_element_ * static_cast<std::size_t>(h.element_levels_[i]));
  hd.file_bytes = out.size();
  hd.payload_hash = internal::checksum64(
      {reinterpret_cast<const std::uint8_t*>(out.data()) + sizeof hd, out.size() - sizeof hd});
  std::memcpy(out.data(), &hd, sizeof hd);
  hd.header_hash = internal::checksum64(
      {reinterpret_cast<const std::uint8_t*>(out.data()), offsetof(HnswHeader, header_hash)});
  std::memcpy(out.data(), &hd, sizeof hd);
  return out;
}

namespace {

// hnswlib's element layout for the header's m and dims: a level-0 link list (room for maxm0
// links, links0 bytes), an upper-layer one (links bytes) and a level-0 element (per bytes).
struct HnswLayout {
  std::size_t maxm0, links0, links, per;
};
HnswLayout hnsw_layout(const HnswHeader& hd) {
  const std::size_t maxm0 = 2 * hd.m;
  const std::size_t links0 = maxm0 * 4 + 4, links = hd.m * 4 + 4;
  const std::size_t per = links0 + hd.dims * 4 + sizeof(hnswlib::labeltype);
  return {maxm0, links0, links, per};
}

// The header of a serialized index: magic, version, checksums, size and binding.
Result<HnswHeader> read_hnsw_header(std::span<const std::uint8_t> bytes, std::string_view source,
                                    std::optional<std::uint64_t> expected_binding) {
  if (bytes.size() < 8 || std::memcmp(bytes.data(), kHnswMagic, 8) != 0)
    return bad_hnsw(source, "not a qaplan HNSW index (wrong magic bytes)");
  if (bytes.size() < sizeof(HnswHeader)) return bad_hnsw(source, "truncated header");
  HnswHeader hd;
  std::memcpy(&hd, bytes.data(), sizeof hd);
  if (hd.version != kHnswVersion)
    return make_file_error(ErrorCode::kInvalidInput,
                           "HNSW index format version " + std::to_string(hd.version) +
                               ", this build reads version " + std::to_string(kHnswVersion) +
                               " (rebuild it with `qaplan index build`)",
                           std::string(source));
  if (hd.header_bytes != sizeof hd ||
      internal::checksum64(bytes.first(offsetof(HnswHeader, header_hash))) != hd.header_hash)
    return bad_hnsw(source, "header checksum mismatch (file corrupted)");
  if (hd.file_bytes != bytes.size())
    return bad_hnsw(source, "truncated or extended: header says " + std::to_string(hd.file_bytes) +
                                " bytes, file has " + std::to_string(bytes.size()));
  if (internal::checksum64(bytes.subspan(sizeof hd)) != hd.payload_hash)
    return bad_hnsw(source, "checksum mismatch (file corrupted)");
  if (expected_binding && *expected_binding != hd.binding)
    return bad_hnsw(source, "belongs to another BM25 index (rebuild the directory)");
  return hd;
}

// Checks the graph's links: the level-0 lists in `level0` (with each element's label), then the
// upper-layer lists from byte `pos` of `bytes`.
Status check_hnsw_links(std::span<const std::uint8_t> bytes, std::string_view source,
                        const HnswHeader& hd, const HnswLayout& layout,
                        const std::uint8_t* level0, const std::vector<std::uint32_t>& levels,
                        std::size_t pos) {
  const auto [maxm0, links0, links, per] = layout;
  const std::size_t n = hd.n;
  // Every link: count within the layer's capacity, neighbour ids in range and present on
  // that layer.
  auto check_list = [&](const std::uint8_t* p, std::size_t cap, std::uint32_t level) {
    std::uint32_t cnt;
    std::memcpy(&cnt, p, 4);
    cnt &= 0xffff;  // hnswlib reads the count as an unsigned short
    if (cnt > cap) return false;
    for (std::uint32_t j = 0; j < cnt; ++j) {
      std::uint32_t nb;
      std::memcpy(&nb, p + 4 + 4 * j, 4);
      if (nb >= n || levels[nb] < level) return false;
    }
    return true;
  };
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint8_t* e = level0 + i * per;
    hnswlib::labeltype label;
    std::memcpy(&label, e + links0 + hd.dims * 4, sizeof label);
    if (label != i || !check_list(e, maxm0, 0))
      return bad_hnsw(source, "element " + std::to_string(i) + " level-0 links inconsistent");
  }
  {
    std::size_t q = pos;
    for (std::size_t i = 0; i < n; ++i)
      for (std::uint32_t l = 1; l <= levels[i]; ++l, q += links)
        if (!check_list(bytes.data() + q, hd.m, l))
          return bad_hnsw(source, "element " + std::to_string(i) + " links inconsistent");
  }
  return {};
}

// Copies the checked graph into `h`: the level-0 block, each element's level and upper-layer
// link lists (from byte `pos` of `bytes`) and the entry point. Throws std::bad_alloc, with `h`
// holding the elements copied so far.
void load_hnsw_graph(hnswlib::HierarchicalNSW<float>& h, std::span<const std::uint8_t> bytes,
                     const HnswHeader& hd, const HnswLayout& layout, const std::uint8_t* level0,
                     const std::vector<std::uint32_t>& levels, std::size_t pos,
                     std::uint32_t maxlevel) {
  const std::size_t n = hd.n, per = layout.per, links = layout.links;
  if (n != 0) std::memcpy(h.data_level0_memory_, level0, n * per);
  for (std::size_t i = 0; i < n; ++i) {
    h.element_levels_[i] = static_cast<int>(levels[i]);
    if (levels[i] > 0) {
      const std::size_t sz = links * levels[i];
      h.linkLists_[i] = static_cast<char*>(std::malloc(sz + 1));
      if (h.linkLists_[i] == nullptr) {
        h.element_levels_[i] = 0;
        h.cur_element_count = i;
        throw std::bad_alloc();
      }
      std::memcpy(h.linkLists_[i], bytes.data() + pos, sz);
      pos += sz;
    }
    h.label_lookup_[i] = static_cast<hnswlib::tableint>(i);
    h.cur_element_count = i + 1;
  }
  if (n > 0) {
    h.maxlevel_ = static_cast<int>(maxlevel);
    h.enterpoint_node_ = static_cast<hnswlib::tableint>(hd.enterpoint);
  }
}

}  // namespace

Result<VectorIndex> VectorIndex::deserialize(std::span<const std::uint8_t> bytes,
                                             std::string_view source,
                                             std::optional<std::uint64_t> expected_binding) {
  QAPLAN_ASSIGN_OR_RETURN(const HnswHeader hd, read_hnsw_header(bytes, source, expected_binding));
  HnswOptions opts{hd.m, hd.ef_construction, hd.ef_search, hd.seed};
  if (!opts.validate().ok() || hd.dims == 0 || hd.dims > (1u << 20) ||
      hd.n >= std::numeric_limits<std::uint32_t>::max())
    return bad_hnsw(source, "invalid parameters");
  auto impl = std::make_unique<Impl>();
  impl->dims = hd.dims;
  impl->n = hd.n;
  impl->opts = opts;
  try {
    impl->space = std::make_unique<InnerProductSpace>(hd.dims);
    // Sizes the constructor derives must match the stored ones before anything is allocated.
    const HnswLayout layout = hnsw_layout(hd);
    const std::size_t per = layout.per, links = layout.links;
    if (hd.size_data_per_element != per || hd.size_links_per_element != links)
      return bad_hnsw(source, "element layout does not match its parameters");
    std::size_t pos = sizeof hd;
    const std::size_t n = hd.n;
    if ((bytes.size() - pos) / per < n || (bytes.size() - pos - n * per) / 4 < n)
      return bad_hnsw(source, "truncated graph");
    const std::uint8_t* level0 = bytes.data() + pos;
    pos += n * per;
    std::vector<std::uint32_t> levels(n);
    if (n != 0) std::memcpy(levels.data(), bytes.data() + pos, n * 4);  // data() of an empty vector may be null
    pos += n * 4;
    std::size_t upper = 0;
    std::uint32_t maxlevel = 0;
    for (std::size_t i = 0; i < n; ++i) {
      if (levels[i] > 64) return bad_hnsw(source, "element " + std::to_string(i) + " level too high");
      upper += levels[i] * links;
      maxlevel = std::max(maxlevel, levels[i]);
    }
    if (bytes.size() - pos != upper) return bad_hnsw(source, "link lists do not fill the file");
    if (n > 0 && (hd.maxlevel != static_cast<std::int64_t>(maxlevel) || hd.enterpoint >= n ||
                  levels[hd.enterpoint] != maxlevel))
      return bad_hnsw(source, "entry point inconsistent");
    QAPLAN_TRY(check_hnsw_links(bytes, source, hd, layout, level0, levels, pos));
    impl->hnsw = std::make_unique<hnswlib::HierarchicalNSW<float>>(
        impl->space.get(), std::max<std::size_t>(n, 1), hd.m, hd.ef_construction,
        static_cast<std::size_t>(hd.seed));
    auto& h = *impl->hnsw;
    if (h.size_data_per_element_ != per || h.size_links_per_element_ != links)
      return make_error(ErrorCode::kInternal, "hnswlib layout differs from the stored one");
    h.setEf(1);
    load_hnsw_graph(h, bytes, hd, layout, level0, levels, pos, maxlevel);
  } catch (const std::bad_alloc&) {
    return make_file_error(ErrorCode::kInternal, "out of memory loading the HNSW index",
                           std::string(source));
  } catch (const std::exception& e) {
    return make_file_error(ErrorCode::kInternal, std::string("hnswlib: ") + e.what(),
                           std::string(source));
  }
  return VectorIndex(std::move(impl));
}

Status VectorIndex::save(const std::filesystem::path& path, std::uint64_t binding,
                         const std::vector<std::filesystem::path>& inputs) const {
  return write_file_atomic(path, serialize(binding), inputs);
}

Result<VectorIndex> VectorIndex::open(const std::filesystem::path& path,
                                      std::optional<std::uint64_t> expected_binding) {
  QAPLAN_ASSIGN_OR_RETURN(auto mapped, internal::MappedFile::open(path, true));
  return deserialize(mapped->bytes(), path.string(), expected_binding);
}

}  // namespace qaplan
