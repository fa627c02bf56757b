#pragma once
/// The documents of a saved index, for passages with their text (`qaplan search --with-text`,
/// `qaplan ask`). `index build` publishes DIR/gen-N/docs.jsonl beside bm25.qidx: the corpus's
/// non-blank lines in index order (line i is document i, its id checked against the index at
/// build time), so a hit's text, title, source, dates and other fields are the corpus's own.
/// Plain JSONL: a host can read it without qaplan. Immutable and thread-safe after open().
#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "qaplan/export.hpp"
#include "qaplan/ranking/bm25.hpp"
#include "qaplan/ranking/index_dir.hpp"
#include "qaplan/status.hpp"

namespace qaplan {

inline constexpr std::string_view kDocStoreFile = "docs.jsonl";

/// The store's bytes for `corpus` indexed as `index`: its non-blank lines, "\n"-terminated, in
/// document order. Errors: kIo naming the corpus; kInvalidInput when the corpus no longer matches
/// the index (line count or an id: it changed while the index was built).
QAPLAN_API Result<std::string> make_doc_store(const std::filesystem::path& corpus,
                                              const Bm25Index& index);

class QAPLAN_API DocStore {
 public:
  /// Reads docs.jsonl of the generation `index` was opened from (CollectionIndex::generation():
  /// DIR/CURRENT is not read again, so a build published in between cannot hand this index the
  /// next generation's documents) into memory. It must hold index.size() documents. Errors: kIo
  /// naming the file (an index built without a store says so and how to rebuild it),
  /// kInvalidInput on a size mismatch.
  static Result<DocStore> open(const CollectionIndex& index);

  std::size_t size() const noexcept { return offsets_.empty() ? 0 : offsets_.size() - 1; }
  /// Document `doc`'s corpus line (a JSON object), without its "\n".
  std::string_view line(std::size_t doc) const noexcept;
  /// Its "text" field ("" when absent or not a string).
  std::string text(std::size_t doc) const;

 private:
  DocStore() = default;
  std::string bytes_;
  std::vector<std::size_t> offsets_;  // line i = bytes_[offsets_[i], offsets_[i + 1] - 1)
};

}  // namespace qaplan
