#pragma once
/// Cached vector packs: the `cached` backend's files.
///
/// Two JSON files:
///
///  - the document-index file, whose raw-byte SHA-256 is the pack's `index_sha256`:
///        {"schema_version": 1, "model": "…", "dimensions": D, "corpus_sha256": "…",
///         "vectors": {"<chunk_id>": [D floats], …}}
///  - the query pack:
///        {"schema_version": 1, "model": "…", "provenance": "…", "index_sha256": "…",
///         "corpus_sha256": "…", "dimensions": D, "query_vectors": {"<full raw query>": [D floats], …}}
///
/// Parsing (`parse_*`) is syntactic and structural: valid JSON, a top-level object with exactly the
/// keys above (any order; no unknown, missing or duplicate key), schema_version 1, strings where
/// strings belong, `dimensions` a positive integer, each vector an array of numbers, no duplicate
/// query or chunk id. Each number is converted from its JSON text straight to the nearest float
/// (std::from_chars, one rounding — never via double); a value beyond float range is an error, a
/// value below the smallest subnormal becomes a signed zero.
///
/// Validation (`validate_vector_pack`, `load_vector_pack`) is strict, against what the caller
/// expects (the frozen dataset); every failure is kInvalidInput naming the problem and the
/// query/chunk, and there is never a fallback:
///  - pack model == index model, pack dimensions == index dimensions;
///  - pack index_sha256 == SHA-256 of the raw index bytes;
///  - corpus_sha256 of both files == the expected corpus hash;
///  - the pack holds exactly the expected queries (none missing, no extra);
///  - the index holds exactly the expected chunk ids: a vector for every chunk in scope, and no
///    extra chunk (an index built for another chunk set is another corpus; refuse it rather than
///    guess);
///  - every vector has `dimensions` values, all finite, not all zero.
///
/// Writing (`write_*`) uses a fixed layout: keys in the order shown above, two-space indent, one
/// vector per line in the order of the struct, floats in shortest round-trip form
/// (`std::to_chars(float)`; −0 is written "-0.0" because JSON readers turn "-0" into integer 0),
/// and a final newline. So parse(write(x)) == x bit for bit, and write(parse(f)) == f for every
/// file these functions wrote.
///
/// All functions are pure and thread-safe.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "qaplan/ranking/embedder.hpp"
#include "qaplan/export.hpp"
#include "qaplan/status.hpp"

namespace qaplan {

/// The only schema version these functions read and write.
inline constexpr int kVectorPackSchemaVersion = 1;

/// One vector with its key (a raw query text or a chunk id).
struct NamedVector {
  std::string key;
  std::vector<float> values;
  friend bool operator==(const NamedVector&, const NamedVector&) = default;
};

/// The query pack file. `query_vectors` keeps file order.
struct QueryVectorPack {
  std::string model;
  std::string provenance;     ///< free text: who produced the vectors, how, when
  std::string index_sha256;   ///< lower-case hex SHA-256 of the index file's raw bytes
  std::string corpus_sha256;  ///< lower-case hex corpus fingerprint
  std::size_t dimensions = 0;
  std::vector<NamedVector> query_vectors;
  friend bool operator==(const QueryVectorPack&, const QueryVectorPack&) = default;
};

/// The document-index file. `vectors` keeps file order.
struct DocumentVectorIndex {
  std::string model;
  std::size_t dimensions = 0;
  std::string corpus_sha256;
  std::vector<NamedVector> vectors;
  friend bool operator==(const DocumentVectorIndex&, const DocumentVectorIndex&) = default;
};

/// What the frozen dataset requires of a pack.
struct PackExpectations {
  std::vector<std::string> queries;    ///< every frozen query, raw text
  std::vector<std::string> chunk_ids;  ///< every chunk in scope
  std::string corpus_sha256;           ///< the dataset's corpus fingerprint
};

/// Validated vectors, reordered to match the expectations.
struct LoadedVectors {
  std::string model;
  std::string provenance;  ///< the pack's provenance, for reports
  std::size_t dimensions = 0;
  std::vector<std::vector<float>> query_vectors;  ///< [i] = vector of expectations.queries[i]
  std::vector<std::vector<float>> chunk_vectors;  ///< [i] = vector of expectations.chunk_ids[i]
};

/// Parses a query pack. Errors: kInvalidInput naming the problem (see above).
QAPLAN_API Result<QueryVectorPack> parse_query_pack(std::string_view json_text);

/// Parses a document-index file. Errors: kInvalidInput naming the problem.
QAPLAN_API Result<DocumentVectorIndex> parse_vector_index(std::string_view json_text);

/// Serialises in the fixed layout above. Errors: kInvalidInput for a non-finite value or a
/// string that is not valid UTF-8.
QAPLAN_API Result<std::string> write_query_pack(const QueryVectorPack& pack);
QAPLAN_API Result<std::string> write_vector_index(const DocumentVectorIndex& index);

/// Strict validation of a parsed pack + index against `expected` (rules above). `raw_index_bytes`
/// is the index file exactly as read from disk.
QAPLAN_API Status validate_vector_pack(const QueryVectorPack& pack,
                                       const DocumentVectorIndex& index,
                                       std::string_view raw_index_bytes,
                                       const PackExpectations& expected);

/// parse_query_pack + parse_vector_index + validate_vector_pack, then the vectors in expectation
/// order. The caller reads the files (and reports their paths with the error).
QAPLAN_API Result<LoadedVectors> load_vector_pack(std::string_view pack_text,
                                                  std::string_view index_text,
                                                  const PackExpectations& expected);

/// Both files' text, as written by `build_vector_pack`.
struct VectorPackFiles {
  std::string index_json;  ///< the document-index file
  std::string pack_json;   ///< the query pack; its index_sha256 = SHA-256(index_json)
};

/// Embeds every chunk (`chunk_texts[i]` is chunk `chunk_ids[i]`'s body) and every query with
/// `embedder` and writes both files, `model` = embedder.model(). This is how the frozen
/// local-tfidf pack is produced; the result passes `load_vector_pack` with the same expectations.
/// Errors: kInvalidInput when the id and text counts differ, or any text cannot be embedded
/// (e.g. a query with no vocabulary token), naming it.
QAPLAN_API Result<VectorPackFiles> build_vector_pack(const Embedder& embedder,
                                                     const PackExpectations& expected,
                                                     const std::vector<std::string>& chunk_texts,
                                                     std::string provenance);

}  // namespace qaplan
