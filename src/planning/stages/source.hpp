#pragma once
// Stage — source: which knowledge source a question is about. Reported beside the plan, never
// inside it (seed 000: "source 不放在 RetrievalPlan 中"); retrieval turns it into a filter.
#include <optional>
#include <string>

#include "planning/lexicon.hpp"

namespace qaplan::internal {

/// The source whose [[sources]] keywords match the question most often (distinct keyword hits);
/// ties go to the source listed first in the config. nullopt when no keyword matches.
std::optional<std::string> suggest_source(const ScannedQuery& q, const Lexicon& lex);

/// Effective source = explicit `source_filter` (from the host/front end) > `suggested_source`.
std::optional<std::string> effective_source(const std::optional<std::string>& source_filter,
                                            const std::optional<std::string>& suggested_source);

}  // namespace qaplan::internal
