#pragma once
// Query filters (docs/guide.md): the words of a question that are constraints, not
// search terms, become the structured filters of the metadata (date_range, department, tags,
// path_prefix, is_signed). Relative time is anchored at the request's `now` (never the clock);
// context-dependent words (我们组, 我的) resolve only through the session identity — otherwise
// no filter and `uncertain`, never a guess. Time grammar: time_expr.hpp.
//
// One linear scan per question: the built-in time words and every [filters] cue list are one
// Aho-Corasick automaton, compiled once per vocabulary and kept in FiltersConfig::compiled.
// Overlaps resolve leftmost-longest within a family (未盖章 over 盖章, 上上个月 over 上个月); a
// hit inside an ignore_within phrase is dropped. Thread-safe.
#include <memory>
#include <string>
#include <string_view>

#include "qaplan/planning/analysis.hpp"
#include "qaplan/planning/filters_config.hpp"

namespace qaplan::internal {

namespace toml_reader {
struct Reader;  // common/toml_reader.hpp: declared here so the TOML parser stays out of this header's users
}

/// Reads [filters] (strict, like every section): unknown keys, wrong types, out-of-range numbers,
/// cues not in normalized form, duplicate names and a cue claimed by two departments/paths (or by
/// both signed_cues and draft_cues) are errors naming file:line and the key.
Status read_filters_config(toml_reader::Reader& r, FiltersConfig& out);
/// The same checks for a FiltersConfig built in code ("" when valid).
std::string validate_filters_config(const FiltersConfig& c);

/// The filters of a normalized question (text.hpp). Each decision appends a reason tag
/// ("time:上个月→[2026-10-01,2026-11-01)", "department:财务→财务部",
/// "uncertain:我们组 without a session department"). A config that fails validation gives no
/// filters and the reason "filters:invalid config: …".
Filters extract_filters(std::string_view normalized, const FiltersConfig& config,
                        const AnalysisContext& context);

/// The compiled vocabulary of `config` (the one FiltersConfig::compiled keeps).
std::shared_ptr<const FiltersIndex> filters_index(const FiltersConfig& config);
/// extract_filters with `index` = filters_index(config) held by a caller whose config never
/// changes (the analyzer's): no check of the config's shape per question, which read every
/// department, tag and path entry (cold lines after a retrieval).
Filters extract_filters(std::string_view normalized, const FiltersConfig& config,
                        const AnalysisContext& context, const FiltersIndex& index);

}  // namespace qaplan::internal
