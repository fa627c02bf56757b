#pragma once
/// Saved collection indexes (docs/indexes.md): what `qaplan index build` writes and `qaplan search
/// --index` opens. A directory holds
///
///   bm25.qidx   the BM25 index image (Bm25Index::save): postings, norms, statistics, parameters,
///               tokenizer id and the documents' external ids — versioned and checksummed
///   hnsw.qidx   optional: the HNSW graph and its vectors (VectorIndex::save), bound to that
///               bm25.qidx by its checksum, so a stale pair is refused
///   docs.jsonl  optional: the corpus lines in document order, for passages with text
///               (doc_store.hpp)
///
/// Both files are published as one immutable generation (DIR/gen-N/, made live by DIR/CURRENT;
/// qaplan/io.hpp publish_generation), and the same corpus and options give byte-identical files
/// whatever the thread count.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "qaplan/export.hpp"
#include "qaplan/ranking/bm25.hpp"
#include "qaplan/ranking/vector_index.hpp"
#include "qaplan/status.hpp"

namespace qaplan {

inline constexpr std::string_view kBm25IndexFile = "bm25.qidx";
inline constexpr std::string_view kHnswIndexFile = "hnsw.qidx";

/// Options of a streaming build.
///
/// | field    | default | meaning                                                              |
/// |----------|---------|----------------------------------------------------------------------|
/// | bm25     | {}      | BM25 parameters baked into the index (block bounds depend on them)  |
/// | threads  | 1       | parse + tokenize + encode threads (≥ 1); output does not depend on it |
/// | progress | empty   | called about every 65 536 documents with (documents, bytes read, total) |
struct IndexBuildOptions {
  Bm25Options bm25;
  unsigned threads = 1;
  std::function<void(std::size_t docs, std::uint64_t bytes_read, std::uint64_t bytes_total)>
      progress;
};

/// Streams a JSONL corpus (corpus.hpp's rules: `{"id","text"}` per line, unique ids) into a BM25
/// index with external ids and tokenizer `kTokenizerVersion`. The file is read once (mapped);
/// texts and token lists are dropped as soon as each document is folded into the postings, so
/// memory is bounded by the index being built. Errors: kIo (unreadable), kInvalidInput naming
/// file:line and field (the same errors as load_jsonl), kInvalidConfig for bad options.
QAPLAN_API Result<Bm25Index> build_bm25_from_jsonl(const std::filesystem::path& corpus,
                                                   const IndexBuildOptions& opts = {});

/// An opened index directory. Immutable and thread-safe; cheap to move.
class QAPLAN_API CollectionIndex {
 public:
  /// Opens bm25.qidx (mapped read-only) and, when present and `load_vectors`, hnsw.qidx of DIR's
  /// live generation (or of DIR itself when it has no CURRENT).
  /// The BM25 index must carry document ids and tokenizer `kTokenizerVersion`.
  /// Errors: kIo, kInvalidInput naming the file (see Bm25Index::open, VectorIndex::open).
  /// `in_memory` reads the BM25 file into memory instead of mapping it (`load = "memory"`).
  static Result<CollectionIndex> open(const std::filesystem::path& dir, bool load_vectors = true,
                                      bool verify_checksum = true, bool in_memory = false);

  /// Bm25Index::unchanged() of the mapped file: call before a batch of searches.
  Status unchanged() const { return bm25_->unchanged(); }

  /// The directory of the generation this index was opened from (DIR/gen-N, or DIR itself
  /// without generations). DIR/CURRENT is read once, by open(): every other file of the index
  /// (DocStore::open(const CollectionIndex&)) comes from here, so a build published meanwhile
  /// cannot pair this generation's index with the next one's files.
  const std::filesystem::path& generation() const noexcept { return generation_; }

  const Bm25Index& bm25() const noexcept { return *bm25_; }
  /// The vector index, or nullptr when the directory has none (or it was not loaded).
  const VectorIndex* vectors() const noexcept { return vectors_.get(); }
  std::size_t size() const noexcept { return bm25_->size(); }
  std::string doc_id(std::size_t doc) const { return bm25_->doc_id(doc); }

 private:
  CollectionIndex() = default;
  std::optional<Bm25Index> bm25_;
  std::shared_ptr<const VectorIndex> vectors_;
  std::filesystem::path generation_;
};

/// Publishes bm25.qidx, when `vectors` is given hnsw.qidx (row i = document i), and when
/// `doc_store` is given docs.jsonl (make_doc_store, doc_store.hpp) as a new generation of DIR
/// (publish_generation: exclusive lock, never rewrites a published file).
/// Errors: kIo (another build holds the lock, naming its pid), kInvalidInput (DIR is a file or
/// holds one of `inputs`; vectors' size ≠ documents).
QAPLAN_API Status save_collection_index(const std::filesystem::path& dir, const Bm25Index& bm25,
                                        const VectorIndex* vectors = nullptr,
                                        const std::vector<std::filesystem::path>& inputs = {},
                                        const std::string* doc_store = nullptr);

}  // namespace qaplan
