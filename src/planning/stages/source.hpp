#pragma once
// Stage — source: which knowledge source a question is about. Reported beside the plan, never
// inside it; retrieval turns it into a filter. A
// source is a HARD filter: a wrong one hides the answer, none only widens the search. So a hard
// scope needs strong, unambiguous evidence, and otherwise the decision names candidates:
//  - distinctive keywords (configured, or terms the host's KB uses in one source) of the source
//    the model also ranks first → that source: two independent witnesses; keywords the model
//    does not confirm, or a tie → they plus the model's likeliest sources covering [model]
//    source_cover are candidates; without a model, one keyword source is the scope;
//  - only generic keywords (the host's domain lexicon finds them across its sources: 员工, 系统)
//    → the model decides with them as candidates, never the word alone;
//  - no keyword: the model alone at [model] source_min_score; below it the likeliest sources
//    covering [model] source_cover (at most max_source_candidates) are candidates, else none;
//  - a follow-up that suggests none carries the source of the latest history turn (planner).
// `detail` says which case held ("conflict: keyword hr 员工, model admin 0.99").
#include <optional>
#include <string>
#include <vector>

#include "planning/lexicon.hpp"
#include "planning/model/model_view.hpp"
#include "planning/model/router_model.hpp"
#include "qaplan/planning/preparation.hpp"

namespace qaplan::internal {

/// What the host's domain lexicon says about a question's sources: per config source, how many
/// of its distinctive terms occur; and the keyword texts the knowledge base uses across sources.
struct DomainSourceEvidence {
  std::vector<int> terms;            ///< parallel to Config::sources (empty: no lexicon)
  std::vector<std::string_view> generic;  ///< keywords that do not tell a source apart
};

/// The hard scope (value) or none, and the candidate sources to search without one (empty:
/// every source). `domain` may be null.
struct SourceDecision {
  Decided<std::optional<std::string>> scope;
  std::vector<std::string> candidates;
  /// A configured keyword of the scope's source occurs: the turn names its topic itself (a
  /// follow-up keeps it rather than carrying the history's).
  bool keyword = false;
};
SourceDecision decide_source(const ScannedQuery& q, const ModelVerdict& model, const Lexicon& lex,
                             const DomainSourceEvidence* domain = nullptr);

/// Keyword-only suggestion (ties by list order), for stages and tools without a model.
std::optional<std::string> suggest_source(const ScannedQuery& q, const Lexicon& lex);

class DomainReader;

/// True when the scenario's allowed_sources hold `source`.
bool scenario_allows(const ScenarioConfig& scenario, const std::string& source);

/// The sources one turn's words name (keywords, KB terms; no model): its scope or candidates.
/// `reader` may be null (no domain lexicon).
SourceDecision source_of_turn(const NormalizedQuery& turn, const Lexicon& lex,
                              const DomainReader* reader);

/// A follow-up that names no source continues the conversation's source: the latest earlier
/// turn whose words (keywords, KB terms) suggest one. That turn is then decided as it was when
/// asked: with `model` (its verdict on that turn; null: none loaded), a keyword the model does
/// not confirm widens to candidates (设备台账 is admin's word, the ledger is IT's), exactly as
/// the turn's own plan did; the keyword's source is always among them, so the model only ever
/// widens the carried scope. The model never picks a turn: an earlier turn may itself be a
/// fragment it guesses at (我是普通员工去北京 after 出差住宿标准是多少). A source only the model
/// guessed from the follow-up's few words (它的有效期是多久) yields to the history's. When no
/// earlier turn suggests one either, the fragment's own guess is dropped: 它的年度限额是多少 says
/// nothing about finance, and a wrong scope finds nothing where no scope finds the answer.
struct HistoryModel {
  const RouterModel* model = nullptr;  ///< null: none loaded
  const ModelLabelMap* labels = nullptr;
};
void carry_history_source(const std::vector<NormalizedQuery>& history, const Lexicon& lex,
                          const DomainReader* reader, HistoryModel model,
                          SourceDecision& source);

/// A follow-up whose own keyword names a source beside more words of its own (费用超过5000后面还要签
/// 什么 after 外出培训…) still asks about the history's topic: when the latest earlier turn whose
/// words suggest a source (by its words alone: keywords, KB terms) names others, the scope widens to
/// candidates — the keyword's source first, then the history's. The rewrite will name both; one
/// keyword is no witness against the conversation. A turn that is only the keyword and ellipsis
/// markers (那年假呢 after 报销流程是什么) replaces the history's topic: its own source stays.
void share_scope_with_history(const ScannedQuery& q, const std::vector<NormalizedQuery>& history,
                              const Lexicon& lex, const DomainReader* reader,
                              SourceDecision& source);

/// Where retrieval may look (Preparation::effective_sources): {effective} when there is one;
/// else the candidates the scenario allows; none left means the scenario's own sources when it
/// allows fewer than all; else empty (every source).
std::vector<std::string> effective_sources_of(const std::optional<std::string>& effective,
                                              std::vector<std::string> candidates,
                                              const ScenarioConfig& scenario, const Config& c);

/// Preparation::fallback_sources: the scenario's sources (empty = all) when the scope is
/// qaplan's own choice (`source_filter` unset) and narrower than them; else nullopt.
std::optional<std::vector<std::string>> fallback_sources_of(
    const std::optional<std::string>& source_filter, const std::vector<std::string>& effective,
    const ScenarioConfig& scenario, const Config& c);

/// Effective source = explicit `source_filter` (from the host/front end) > `suggested_source`.
std::optional<std::string> effective_source(const std::optional<std::string>& source_filter,
                                            const std::optional<std::string>& suggested_source);

}  // namespace qaplan::internal
