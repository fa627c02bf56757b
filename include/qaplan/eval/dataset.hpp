#pragma once
/// The frozen retrieval evaluation set: loading with strict
/// validation, ISO-8601 dates and time points, and the two SHA-256 fingerprints that pin a
/// dataset version (see eval_sets/README.md for the JSON schema and the canonical form).
///
/// Everything here is plain data plus pure functions: no global state, thread-safe.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "qaplan/export.hpp"
#include "qaplan/status.hpp"

namespace qaplan {

// ---------------------------------------------------------------------------------------------
// Dates and time points
// ---------------------------------------------------------------------------------------------

/// A calendar date of the proleptic Gregorian calendar, written `YYYY-MM-DD`.
struct CivilDate {
  int year = 1970;
  int month = 1;  ///< 1..12
  int day = 1;    ///< 1..days in month
  friend bool operator==(const CivilDate&, const CivilDate&) = default;
  friend auto operator<=>(const CivilDate&, const CivilDate&) = default;
};

/// Parses exactly `YYYY-MM-DD` (four-digit year 0001..9999, a real day of that month).
/// Errors: kInvalidInput ("not an ISO-8601 date YYYY-MM-DD").
QAPLAN_API Result<CivilDate> parse_iso_date(std::string_view text);

/// Days since 1970-01-01 (negative before), by <chrono>'s calendar. No time zone.
QAPLAN_API std::int64_t days_from_civil(const CivilDate& d) noexcept;

/// An instant plus the UTC offset it was written with. Instants compare by
/// (`unix_seconds`, `nanos`); the offset only says which local calendar the writer used.
struct TimePoint {
  std::int64_t unix_seconds = 0;    ///< seconds since 1970-01-01T00:00:00Z
  std::int32_t nanos = 0;           ///< 0..999'999'999, from an optional fraction of a second
  std::int32_t offset_minutes = 0;  ///< UTC offset as written, e.g. +480 for `+08:00`

  /// The local calendar date of this instant in its own offset.
  QAPLAN_API CivilDate local_date() const noexcept;
};

/// Parses `YYYY-MM-DDThh:mm:ss[.f{1,9}](Z|±hh:mm)` — an ISO-8601 / RFC 3339 date-time that
/// always carries its offset (a time without an offset is ambiguous and refused). Seconds are
/// 00..59, offsets up to ±23:59. Errors: kInvalidInput.
QAPLAN_API Result<TimePoint> parse_iso_time_point(std::string_view text);

// ---------------------------------------------------------------------------------------------
// Dataset types
// ---------------------------------------------------------------------------------------------

/// What a policy section is. Only `kRule` sections are evidence; scope selection drops the
/// others. JSON spellings: "rule", "background", "revision_notes".
enum class ChunkKind { kRule, kBackground, kRevisionNotes };
QAPLAN_API std::string_view to_string(ChunkKind kind) noexcept;
QAPLAN_API Result<ChunkKind> parse_chunk_kind(std::string_view text);

/// A policy version's declared status. JSON spellings: "effective", "superseded".
enum class PolicyStatus { kEffective, kSuperseded };
QAPLAN_API std::string_view to_string(PolicyStatus status) noexcept;
QAPLAN_API Result<PolicyStatus> parse_policy_status(std::string_view text);

/// True when `text` is a policy version: dotted decimal numbers such as "3", "2.4", "1.10.0".
QAPLAN_API bool is_valid_policy_version(std::string_view text) noexcept;

/// Compares two valid policy versions numerically component by component, missing trailing
/// components counting as 0 ("1.10" > "1.9", "2" == "2.0"). Returns <0, 0 or >0.
QAPLAN_API int compare_policy_versions(std::string_view a, std::string_view b) noexcept;

/// Evaluation split. JSON spellings: "dev", "test".
enum class Split { kDev, kTest };
QAPLAN_API std::string_view to_string(Split split) noexcept;
QAPLAN_API Result<Split> parse_split(std::string_view text);

/// One version of one policy. `policy_id` and `source` are always present; the other metadata
/// may be null in the file (std::nullopt here), which scope selection reports as
/// "incomplete_metadata". `effective_to` null means open-ended. Dates are `YYYY-MM-DD` strings
/// exactly as written (validated by the loader), interpreted by scope selection.
struct Policy {
  std::string policy_id;  ///< stable id shared by all versions of one policy
  std::string source;     ///< document source name used in relevance labels; one per policy_id
  std::optional<std::string> title;
  std::optional<std::string> version;  ///< dotted numbers, e.g. "3.0"; compared numerically
  std::optional<PolicyStatus> status;
  std::optional<std::string> effective_from;
  std::optional<std::string> effective_to;  ///< inclusive last day; nullopt = no end
  std::vector<std::size_t> chunks;          ///< indexes into Dataset::chunks, in file order
};

/// One section of one policy version. Ids are unique across the dataset and the file lists
/// chunks in ascending byte order of id.
struct Chunk {
  std::string id;
  std::size_t policy_index = 0;  ///< index into Dataset::policies
  std::string policy_id;         ///< copy of the owning policy's id
  std::string source;            ///< copy of the owning policy's source
  std::string section;           ///< section title; unique within its policy version
  ChunkKind kind = ChunkKind::kRule;
  std::string text;  ///< body text (the only text ranked)
};

/// A relevance label: a section of a source, matched by exact title.
struct SectionRef {
  std::string source;
  std::string section;
  friend bool operator==(const SectionRef&, const SectionRef&) = default;
};

/// Query tags the loader accepts (coverage annotations, see eval_sets/README.md).
inline constexpr std::string_view kQueryTags[] = {
    "number",   "status",        "sku",        "rounding",         "idempotency",
    "approval", "multi_section", "paraphrase", "lexical_negative", "dropped_scope"};

/// One evaluation query. Grounded (positive) queries have at least one relevant section;
/// out-of-corpus (negative) queries have none.
struct Query {
  std::string id;
  std::string text;  ///< JSON key "query"; the full raw query (also the vector-pack key)
  Split split = Split::kDev;
  std::vector<SectionRef> relevant;
  std::vector<std::string> tags;
  std::string reason;  ///< the annotator's justification
  bool grounded() const noexcept { return !relevant.empty(); }
};

/// A loaded, validated dataset. `chunks` is flat, in file order (= ascending id order).
struct Dataset {
  std::string version;     ///< e.g. "policy-retrieval-1"; the fingerprint registry key
  std::string time_point;  ///< as written, e.g. "2026-10-19T12:00:00+08:00"
  TimePoint at;            ///< `time_point` parsed
  std::string description;
  std::vector<Policy> policies;
  std::vector<Chunk> chunks;
  std::vector<Query> queries;
};

/// Parses and strictly validates a dataset from JSON text. `name` (usually the file name) is
/// the prefix of every error context. Refused with kInvalidInput, naming the field (e.g.
/// "policy-retrieval-v1.json: queries[3].split: must be dev|test"): malformed JSON or invalid
/// UTF-8, duplicate object keys, unknown or missing fields, wrong types, empty strings where
/// text is required, non-ISO dates/time point, effective_to before effective_from, a malformed
/// version, duplicate chunk/query ids, chunks not in ascending id order, a source shared by two
/// policy ids, a duplicate (policy_id, version), a duplicate section title within a policy
/// version, an unknown split/kind/status/tag, a relevant label that names no rule section of
/// that source, a duplicate label, tags inconsistent with the labels ("multi_section" iff 2+
/// labels, "lexical_negative" iff none), and the same query text twice (after NFKC casefold
/// and whitespace removal — in particular no query is in both splits).
QAPLAN_API Result<Dataset> parse_dataset(std::string_view json_text, std::string_view name);

/// Reads and parses a dataset file; the error context names the path. Errors: kIo when the file
/// cannot be read, otherwise as parse_dataset().
QAPLAN_API Result<Dataset> load_dataset_file(const std::filesystem::path& path);

// ---------------------------------------------------------------------------------------------
// Fingerprints
// ---------------------------------------------------------------------------------------------

/// The canonical form of the whole dataset: RFC 8785 (JCS) JSON of the schema's fields — object
/// keys sorted by byte order, no insignificant whitespace, strings kept byte for byte (no
/// Unicode normalisation) with only `"`, `\` and control characters escaped (\b \t \n \f \r,
/// others as \u00xx), arrays in file order, null for absent metadata. The schema has no
/// numbers. Equal to re-serialising the parsed file with sorted keys, so whitespace and key
/// order do not matter and every content change does.
QAPLAN_API std::string canonical_dataset_json(const Dataset& d);

/// The canonical form (as above) of the `policies` array alone: text and metadata of every
/// policy version in the file, including the versions scope selection drops.
QAPLAN_API std::string canonical_corpus_json(const Dataset& d);

/// Lower-case hex SHA-256 of canonical_dataset_json(d).
QAPLAN_API std::string dataset_fingerprint(const Dataset& d);

/// Lower-case hex SHA-256 of canonical_corpus_json(d).
QAPLAN_API std::string corpus_fingerprint(const Dataset& d);

/// The two registered hashes of one dataset version.
struct Fingerprints {
  std::string dataset_sha256;
  std::string corpus_sha256;
  friend bool operator==(const Fingerprints&, const Fingerprints&) = default;
};

/// Parses a fingerprint registry (eval_sets/fingerprints.json):
/// `{"<version>": {"dataset_sha256": "<64 hex>", "corpus_sha256": "<64 hex>"}, …}`.
/// Errors: kInvalidInput naming `registry_name` and the field.
QAPLAN_API Result<std::map<std::string, Fingerprints>> parse_fingerprint_registry(
    std::string_view registry_json, std::string_view registry_name);

/// Checks `d` against the registry. Errors: kInvalidInput for a malformed registry;
/// kFingerprintMismatch when d.version is not registered, or when either hash differs (the
/// message names the version, which hash, the registered and the actual value). On success the
/// dataset's fingerprints (computed once here).
QAPLAN_API Result<Fingerprints> verify_fingerprints(const Dataset& d, std::string_view registry_json,
                                      std::string_view registry_name);

/// Both fingerprints of `d` (each canonical form serialised once).
QAPLAN_API Fingerprints fingerprints(const Dataset& d);

/// Where the registry of a dataset file lives: `fingerprints.json` in the same directory.
QAPLAN_API std::filesystem::path fingerprint_registry_path(const std::filesystem::path& dataset);

}  // namespace qaplan
