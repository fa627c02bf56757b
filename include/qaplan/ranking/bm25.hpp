#pragma once
/// BM25 ranking as Lucene ≥ 8 scores it: per matched query term
///
///     idf · f / (f + k1 · (1 − b + b · dl / avgdl)),   idf = ln(1 + (N − df + 0.5) / (df + 0.5))
///
/// with no (k1 + 1) factor; the document score is the sum over the distinct matched query terms.
/// N is the number of documents with at least one token (Lucene's docCount); avgdl is the total
/// number of tokens / N, never quantised.
///
/// Norms (the `dl` above):
///  - `kExact` (default): dl is the document's true token count; arithmetic in double.
///  - `kLucene`: dl = byte4ToInt(intToByte4(len)), Lucene's one-byte SmallFloat length norm
///    (exact up to 39 tokens, then 4 significant bits rounded down: 40, 41 → 40; 100 → 96;
///    1000 → 984), and Lucene 8's BM25Similarity float arithmetic (float idf, float avgdl, a
///    per-norm cache 1 / (k1 · ((1 − b) + b · dl / avgdl)), term score w − w / (1 + f · cache),
///    the document's term scores summed in double and rounded to float), so scores agree with
///    Lucene to ~1e-7 relative and orderings match Lucene's, ties included.
///
/// Ordering: score descending, ties by lower document index (input order) — everywhere.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "qaplan/export.hpp"
#include "qaplan/status.hpp"
#include "qaplan/ranking/types.hpp"

namespace qaplan {

namespace internal {
struct Bm25Data;  // the index arrays, defined in src/ranking/internal/bm25_image.hpp
}  // namespace internal

/// How document lengths enter the score; spelled "exact" / "lucene" in TOML, JSON and the CLI.
enum class Bm25Norms { kExact, kLucene };

/// "exact" or "lucene".
QAPLAN_API std::string_view to_string(Bm25Norms norms) noexcept;
/// Inverse of to_string; kInvalidInput for any other spelling.
QAPLAN_API Result<Bm25Norms> parse_bm25_norms(std::string_view s);

/// BM25 parameters.
///
/// | field | default | range            |
/// |-------|---------|------------------|
/// | k1    | 1.2     | finite, ≥ 0      |
/// | b     | 0.75    | finite, [0, 1]   |
/// | norms | kExact  | kExact / kLucene |
struct Bm25Options {
  double k1 = 1.2;
  double b = 0.75;
  Bm25Norms norms = Bm25Norms::kExact;

  /// Pure check of the ranges above; kInvalidConfig naming the field.
  QAPLAN_API Status validate() const;
};

/// How `Bm25Index::open()` checks a saved index.
///
/// | field              | default | meaning                                                        |
/// |--------------------|---------|----------------------------------------------------------------|
/// | verify_checksum    | true    | hash every byte (XXH3-64) against the header before use       |
/// | expected_tokenizer | ""      | refuse an index whose tokenizer id differs ("" = accept any)   |
///
/// The structure (sizes, offsets, counts, doc ids, bit widths) is validated whether or not the
/// checksum is, so even a file with a forged checksum is never read out of bounds.
struct Bm25OpenOptions {
  bool verify_checksum = true;
  std::string expected_tokenizer;
  /// Read the file into anonymous memory (read(), not mmap): nothing done to the file afterwards
  /// can reach the index — for hosts that must survive any change on disk (`load = "memory"`).
  bool in_memory = false;
};

/// Counts that describe an index (for logs and the CLI's summary line).
struct Bm25Stats {
  std::uint64_t docs = 0;          ///< documents, empty ones included
  std::uint64_t terms = 0;         ///< distinct terms
  std::uint64_t postings = 0;      ///< (term, document) pairs
  std::uint64_t blocks = 0;        ///< 128-posting blocks
  std::uint64_t postings_bytes = 0;  ///< compressed doc deltas + frequencies
  std::uint64_t file_bytes = 0;    ///< the whole serialized index
};

/// A BM25 index over a tokenized collection, in one compact image: a sorted term dictionary,
/// postings in blocks of 128 (doc-id deltas and frequencies bit-packed, one skip entry with the
/// block's last doc and maximum term score per block), one norm byte (lucene) or a 32-bit length
/// (exact) per document, and optionally the documents' external ids. The same bytes live in
/// memory after `create()`/`Bm25Builder::finish()`, on disk after `save()`, and are mapped
/// read-only (mmap) by `open()`, so a loaded index ranks bit-identically to the one that was built.
///
/// Immutable; every const member, `search()` included, is thread-safe (per-thread scratch
/// memory). Copies share the same immutable data.
///
/// Search uses exhaustive term-at-a-time scoring for k == 0 (or k ≥ size()) and, for smaller k,
/// block-max MaxScore evaluated in windows of 4096 documents (per-term upper bounds exact, per-block
/// bounds rounded up). Both paths return bit-identical scores and orderings (each document's term
/// scores are added in one canonical term order — descending upper bound, then term — in both),
/// so pruning never changes a result.
class QAPLAN_API Bm25Index {
 public:
  /// Indexes `doc_tokens[i]` as document i (the tie-breaker). Tokens are used as they are
  /// (no further normalisation); empty documents are allowed and never match.
  /// Errors: kInvalidConfig from `opts.validate()`; kInvalidInput for more than 2^32 − 2
  /// documents; kInternal when memory runs out.
  static Result<Bm25Index> create(const std::vector<std::vector<std::string>>& doc_tokens,
                                  const Bm25Options& opts = {});

  /// Top-`k` documents for `query_tokens`, score descending, ties by lower document index.
  /// Only documents with score > 0 (at least one matched term) are returned, so the list may be
  /// shorter than k. k == 0 returns every matching document (the untruncated list RRF fuses).
  /// Repeated query terms count once; unknown terms are ignored; no terms → empty list.
  RankedList search(const std::vector<std::string>& query_tokens, std::size_t k) const;

  /// Same result as `search()` computed by plain exhaustive term-at-a-time scoring, without
  /// pruning: the reference that tests and benchmarks compare the pruned path with.
  RankedList search_exhaustive(const std::vector<std::string>& query_tokens, std::size_t k) const;

  /// Maps a file written by `save()` (or `qaplan index build`) read-only and validates it.
  /// Errors (each one line naming the file): kIo when it cannot be read; kInvalidInput when it is
  /// not a qaplan BM25 index, is truncated or corrupted (checksum or structure), has another
  /// format version, or was built with another tokenizer than `opts.expected_tokenizer`.
  /// Keep the file in place while the index is open (writers replace files by rename, which is
  /// safe; writing over or truncating a mapped file in place is not: `unchanged()` notices it,
  /// and `opts.in_memory` is immune to it).
  static Result<Bm25Index> open(const std::filesystem::path& path, const Bm25OpenOptions& opts = {});

  /// OK unless the file this index maps was written over or truncated in place since it was
  /// opened (one fstat of the kept descriptor: size and mtime; always OK for an index in
  /// memory). Call it before a batch of searches: reading a changed mapping would rank against
  /// other bytes or die with SIGBUS. It notices a change at the next call only: a change during
  /// a batch can still be read (use `in_memory` to survive any change). Errors: kIo naming the
  /// file.
  Status unchanged() const;

  /// The same checks as `open()` on an image held in memory (copied; e.g. from a blob store).
  /// `source` names the input in errors.
  static Result<Bm25Index> from_image(std::span<const std::uint8_t> image,
                                      const Bm25OpenOptions& opts = {},
                                      std::string_view source = "<memory>");

  /// Writes the index image atomically (temp file + rename). Building the same documents twice
  /// gives byte-identical files. Errors: kIo, kInvalidInput (path is one of `inputs`).
  Status save(const std::filesystem::path& path,
              const std::vector<std::filesystem::path>& inputs = {}) const;

  /// The serialized image (what `save()` writes).
  std::span<const std::uint8_t> image() const noexcept;

  /// External id of document `doc` when the index was built with ids ("" otherwise or when out
  /// of range). Ids are front-coded in runs of 16, so this decodes at most 16 of them.
  std::string doc_id(std::size_t doc) const;
  /// True when the index carries external document ids.
  bool has_doc_ids() const noexcept;
  /// The tokenizer id recorded at build time ("" when the caller gave none).
  std::string_view tokenizer() const noexcept;
  /// Counts and sizes.
  Bm25Stats stats() const noexcept;
  /// XXH3-64 of the image after its header (recorded in the header; identifies the content).
  std::uint64_t checksum() const noexcept;

  /// Number of documents (including empty ones).
  std::size_t size() const noexcept;
  /// Mean length over documents with at least one token (0 when there are none).
  double avgdl() const noexcept;
  /// Number of distinct terms.
  std::size_t num_terms() const noexcept;
  /// Number of documents containing `term` (0 when unknown).
  std::size_t doc_freq(std::string_view term) const;
  /// The options the index was built with.
  const Bm25Options& options() const noexcept;

 private:
  friend class Bm25Builder;
  explicit Bm25Index(std::shared_ptr<const internal::Bm25Data> impl) : impl_(std::move(impl)) {}
  std::shared_ptr<const internal::Bm25Data> impl_;
};

/// A document id as every index keeps it (they reach JSON and TSV output, logs and engine
/// requests): non-empty, valid UTF-8 (RFC 3629: no surrogates, no overlong forms) and without
/// control characters (C0, DEL, C1). Errors: kInvalidInput naming `field`.
QAPLAN_API Status check_document_id(std::string_view id, std::string_view field = "id");

/// Builds a `Bm25Index` one document at a time without keeping the documents: each call to
/// `add()` folds the document's (term, frequency) pairs into per-term compressed buffers, so
/// memory is bounded by the index being built. `finish()` sorts the dictionary, encodes the
/// 128-posting blocks (with `threads` threads; the bytes do not depend on the thread count) and
/// returns the index. Not thread-safe; move-only.
class QAPLAN_API Bm25Builder {
 public:
  /// `tokenizer` is recorded in the index (checked by `Bm25OpenOptions::expected_tokenizer`).
  /// Errors: kInvalidConfig from `opts.validate()`.
  static Result<Bm25Builder> create(const Bm25Options& opts = {}, std::string_view tokenizer = {});

  /// Adds the next document (its index is the number of documents added before). `id` is kept
  /// when not empty (all documents must then have one). Errors: kInvalidInput for more than
  /// 2^32 − 2 documents, for a document with more than 2^32 − 1 tokens, for an id given to
  /// some documents and not others, an id check_document_id() refuses, or a duplicate id.
  Status add(std::span<const std::string> tokens, std::string_view id = {});
  Status add(const std::vector<std::string>& tokens, std::string_view id = {}) {
    return add(std::span<const std::string>(tokens), id);
  }

  /// Documents added so far.
  std::size_t size() const noexcept;
  /// The id given for document `doc` ("" when none or out of range); valid until the next add().
  std::string_view doc_id(std::size_t doc) const noexcept;
  /// Bytes held by the builder (approximate).
  std::size_t memory_bytes() const noexcept;

  /// The index. The builder is left empty. `threads` = 0 means 1.
  /// Errors: kInvalidInput when the distinct terms take more than 4 GiB; kInternal when memory
  /// runs out.
  Result<Bm25Index> finish(unsigned threads = 1);

  Bm25Builder(Bm25Builder&&) noexcept;
  Bm25Builder& operator=(Bm25Builder&&) noexcept;
  ~Bm25Builder();

 private:
  struct State;
  explicit Bm25Builder(std::unique_ptr<State> s);
  std::unique_ptr<State> s_;
};

/// Lucene's SmallFloat.intToByte4: a length in one byte (0–255), exact below 40, then a float
/// with 4 significant bits (rounded down). Exposed for tests and peers. `len` < 0 is treated as 0.
QAPLAN_API unsigned char lucene_int_to_byte4(int len) noexcept;
/// Lucene's SmallFloat.byte4ToInt, the inverse (the smallest length of each byte's bucket).
QAPLAN_API int lucene_byte4_to_int(unsigned char b) noexcept;

}  // namespace qaplan
