#pragma once
/// Policy scope selection (`select_policy_scope`): which chunks of a
/// dataset are evidence at a time point. Every ranking method ranks exactly the chunks this
/// returns, in the order it returns them (a chunk's position is its `doc` index).
///
/// Rules, per policy version, first match wins:
///  1. `incomplete_metadata` — title, version, status or effective_from is null/empty, or a
///     date or version does not parse (the loader refuses malformed values, so this only
///     happens for hand-built datasets or null metadata).
///  2. `superseded` — status is "superseded".
///  3. `not_yet_effective` — the time point is before the start of effective_from.
///  4. `expired` — the time point is at or after the end of effective_to (the day is
///     inclusive); reported as `superseded` instead when a NEWER version (compare_policy_versions)
///     of the same policy_id is in effect at the time point (passes rules 1–4), because then
///     the newer version is what replaced it.
///  5. `conflicting_versions` — two or more versions of one policy_id are "effective" and in
///     their date range at the time point: the data is ambiguous, so ALL of them are dropped
///     (none is guessed to win).
///  6. Within a version that survives: a chunk whose kind is not "rule" (background, revision
///     notes) is dropped as `non_rule_section`.
///
/// Time: dates are calendar days in the time point's own UTC offset. A version is in its date
/// range when start(effective_from) <= t < start(effective_to + 1 day), where start(D) is the
/// instant D 00:00:00 at that offset and t is the time point's instant (instants, not strings,
/// are compared). For the frozen dataset (`…+08:00`) this is China Standard Time.
///
/// Deterministic: the result depends only on the dataset and the time point. Pure, thread-safe.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "qaplan/eval/dataset.hpp"
#include "qaplan/export.hpp"
#include "qaplan/status.hpp"

namespace qaplan {

/// Why a chunk is out of scope. JSON/report spellings: "incomplete_metadata",
/// "not_yet_effective", "expired", "superseded", "conflicting_versions", "non_rule_section".
enum class ExclusionReason {
  kIncompleteMetadata,
  kNotYetEffective,
  kExpired,
  kSuperseded,
  kConflictingVersions,
  kNonRuleSection,
};
QAPLAN_API std::string_view to_string(ExclusionReason reason) noexcept;
QAPLAN_API Result<ExclusionReason> parse_exclusion_reason(std::string_view text);

/// One dropped chunk.
struct Exclusion {
  std::string chunk_id;
  std::string policy_id;
  std::string version;  ///< empty when the version is null
  ExclusionReason reason = ExclusionReason::kIncompleteMetadata;
  std::string detail;  ///< one human line, e.g. "effective_to 2026-06-30 is before 2026-10-19"
};

/// The scoped collection and everything left out.
struct ScopeResult {
  TimePoint at;                     ///< the time point used
  std::vector<Chunk> chunks;        ///< in scope, ascending id order; index = doc index
  std::vector<Exclusion> excluded;  ///< every other chunk of the dataset, ascending chunk id
};

/// Selects the chunks in scope at `at` by the rules above. Never fails.
QAPLAN_API ScopeResult select_policy_scope(const Dataset& d, const TimePoint& at);

/// Same, at the dataset's own time point (`d.at`).
QAPLAN_API ScopeResult select_policy_scope(const Dataset& d);

/// The doc index of the in-scope chunk with this (source, section), if any.
QAPLAN_API std::optional<std::uint32_t> find_section(const ScopeResult& scope,
                                                     std::string_view source,
                                                     std::string_view section);

/// Doc indexes of the query's relevant sections that are in scope, ascending.
QAPLAN_API std::vector<std::uint32_t> relevant_docs(const ScopeResult& scope, const Query& q);

/// Checks that every relevance label of every query names exactly one in-scope chunk — what a
/// benchmark needs before scoring. Errors: kInvalidInput naming the query and the label.
QAPLAN_API Status check_labels_in_scope(const Dataset& d, const ScopeResult& scope);

}  // namespace qaplan
