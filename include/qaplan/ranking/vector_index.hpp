#pragma once
/// Cosine vector search through an HNSW graph (hnswlib) plus an exact brute-force reference.
///
/// Vector space: every row and every query is L2-normalised on the way in (norm computed in
/// double, each component divided in double and rounded to float), and the score of a document
/// is the inner product of the two normalised float vectors, accumulated in double in dimension
/// order. So `score` is the cosine similarity, in [-1, 1], and `search()` and `search_exact()`
/// report bit-identical scores for the same document. Ordering everywhere: score descending, ties
/// by lower `doc` (row position = input order).
///
/// The graph: hnswlib's `HierarchicalNSW<float>` over an inner-product space (distance
/// 1 − ⟨a, b⟩, as hnswlib's `InnerProductSpace`, with a portable fixed-order float distance instead
/// of hnswlib's SIMD kernels), built with the options below, rows inserted one by one in input
/// order on one thread with a fixed level seed. So the same rows and options give the same graph
/// and the same results on every run and every IEEE-754 machine.
///
/// Thread-safety: a `VectorIndex` is immutable after `create()`. `search()` and `search_exact()`
/// are const and safe to call concurrently from many threads (hnswlib's `searchKnn` is const; it
/// takes its visited-list buffers from a pool guarded by a mutex and only bumps atomic counters).
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "qaplan/export.hpp"
#include "qaplan/status.hpp"
#include "qaplan/ranking/types.hpp"

namespace qaplan {

/// HNSW parameters (the same names as `[vector]` in config).
///
/// | field           | default | valid range   | meaning                                        |
/// |-----------------|---------|---------------|------------------------------------------------|
/// | m               | 16      | 2 … 4096      | graph out-degree (2·m on the base layer)       |
/// | ef_construction | 200     | ≥ 1           | candidate list size while inserting            |
/// | ef_search       | 64      | ≥ 1           | candidate list size while searching (≥ k used) |
/// | seed            | 100     | any           | level generator seed (hnswlib's default)       |
struct HnswOptions {
  std::size_t m = 16;
  std::size_t ef_construction = 200;
  std::size_t ef_search = 64;
  std::uint64_t seed = 100;

  /// Checks the ranges above. Errors: kInvalidConfig naming the field ("hnsw.m", …).
  QAPLAN_API Status validate() const;
};

/// An immutable cosine index over `size()` rows of `dimensions()` floats. Move-only.
class QAPLAN_API VectorIndex {
 public:
  /// Builds the index. `vectors` holds n rows of `dims` floats, row i = doc i; n may be 0.
  /// Rows need not be normalised (they are normalised here, see above).
  /// Errors: kInvalidInput for invalid `opts`, dims == 0, a row whose length is not `dims`, a
  /// non-finite value, an all-zero row, or more than 2^32 − 1 rows (each names the row);
  /// kInternal if hnswlib fails (e.g. out of memory).
  static Result<VectorIndex> create(std::size_t dims, const std::vector<std::vector<float>>& vectors,
                                    const HnswOptions& opts = {});

  /// Approximate top-k by HNSW. k == 0 or k ≥ size() means every document: the graph is then
  /// searched with k = ef = size(), which on a connected graph reaches every row; any row it does
  /// not reach is scored exactly and merged in, so the result always holds all size() documents
  /// (this is the untruncated per-method list that RRF fuses; keep only score > 0 yourself if you
  /// want that). Otherwise the graph is searched with ef = max(ef_search, k), all ef candidates are
  /// rescored in double and the best k are returned.
  /// Errors: kInvalidInput when the query's length is not `dimensions()`, or it has a non-finite
  /// value or is all zero; kInternal if hnswlib throws.
  Result<RankedList> search(std::span<const float> query, std::size_t k) const;
  /// The same with an explicit candidate list size `ef` for this call (0 = `options().ef_search`);
  /// the graph is searched with max(ef, k). Thread-safe (nothing shared is changed).
  Result<RankedList> search(std::span<const float> query, std::size_t k, std::size_t ef) const;

  /// Exact top-k by brute force over all rows; same scores, ordering, k == 0 rule and errors as
  /// `search()`. The reference for recall tests; O(size() · dimensions()) per query.
  Result<RankedList> search_exact(std::span<const float> query, std::size_t k) const;

  /// The index as one versioned, checksummed image (header, the hnswlib graph — level-0 block and
  /// upper-layer link lists — and the normalised vectors), so `deserialize()` restores the very
  /// same graph without rebuilding. `binding` is stored as is (index_dir.hpp puts the BM25
  /// image's checksum there). The same index always gives the same bytes.
  std::string serialize(std::uint64_t binding = 0) const;
  /// Restores an index from `serialize()`'s bytes after checking the checksum and every link
  /// (counts, ids, levels), so a truncated, corrupted or forged image is refused, never read out
  /// of bounds. `expected_binding`, when given, must equal the stored binding. `source` names the
  /// input in errors. Errors: kInvalidInput naming `source`; kInternal when memory runs out.
  static Result<VectorIndex> deserialize(std::span<const std::uint8_t> bytes,
                                         std::string_view source = "<memory>",
                                         std::optional<std::uint64_t> expected_binding = {});
  /// serialize() written atomically to `path`. Errors: kIo, kInvalidInput (`path` is an input).
  Status save(const std::filesystem::path& path, std::uint64_t binding = 0,
              const std::vector<std::filesystem::path>& inputs = {}) const;
  /// Reads and deserializes `path`. Errors: kIo, kInvalidInput naming the file.
  static Result<VectorIndex> open(const std::filesystem::path& path,
                                  std::optional<std::uint64_t> expected_binding = {});

  std::size_t size() const noexcept;
  std::size_t dimensions() const noexcept;
  const HnswOptions& options() const noexcept;

  VectorIndex(VectorIndex&&) noexcept;
  VectorIndex& operator=(VectorIndex&&) noexcept;
  ~VectorIndex();

 private:
  struct Impl;
  explicit VectorIndex(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace qaplan
