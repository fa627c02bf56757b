#pragma once
// Stage — source: which knowledge source a question is about. Reported beside the plan, never
// inside it (seed 000: "source 不放在 RetrievalPlan 中"); retrieval turns it into a filter.
//  - keywords: the source whose [[sources]] keywords match most often; a tie is broken by the
//    model's source probabilities (evidence), and only without a model by list order;
//  - no keyword: the model's source when its probability reaches [model] source_min_score;
//  - a follow-up that suggests none carries the source of the latest history turn that does.
#include <optional>
#include <string>
#include <vector>

#include "planning/lexicon.hpp"
#include "planning/model/model_view.hpp"
#include "qaplan/planning/planner.hpp"

namespace qaplan::internal {

/// The suggested source of one scanned text.
Decided<std::optional<std::string>> suggest_source(const ScannedQuery& q,
                                                   const ModelVerdict& model, const Lexicon& lex);

/// Keyword-only suggestion (ties by list order), for stages and tools without a model.
std::optional<std::string> suggest_source(const ScannedQuery& q, const Lexicon& lex);

/// Effective source = explicit `source_filter` (from the host/front end) > `suggested_source`.
std::optional<std::string> effective_source(const std::optional<std::string>& source_filter,
                                            const std::optional<std::string>& suggested_source);

}  // namespace qaplan::internal
