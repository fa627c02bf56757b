#pragma once
// The analysis stage (docs/guide.md#query-analysis-planneranalyze): what happens after the plan.
// Planner::analyze() delegates here. Each part is a small function over the prepared question,
// so a test can drive it alone:
//   rewrite      rewrite.hpp         a follow-up rewritten with its history (built-in rules)
//   variants     variants.cpp        original first; glossary; hook variants validated fail-closed
//   filters      filters.hpp         anchored time range, department, tags, path, signed
//   routing      routing.cpp         index, bm25 vs hybrid, model tier
//   execution    execution.cpp       semantic / graph / research / out_of_scope, fallback ladder
//   prompt       prompt_profile.cpp  build_answer_prompt_profile
// Immutable and thread-safe after create().
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "planning/analysis/constraints.hpp"
#include "planning/analysis/cues.hpp"
#include "planning/matcher.hpp"
#include "planning/lexicon.hpp"
#include "qaplan/planning/analysis.hpp"
#include "qaplan/planning/extensions.hpp"
#include "qaplan/planning/preparation.hpp"

namespace qaplan::internal {

class DomainLexicon;

/// The compiled word lists of [routing], [execution] and [glossary].
struct AnalysisLists {
  CueLists cues;
  std::vector<std::uint32_t> index;  // parallel to RoutingConfig::indexes
  std::uint32_t part = 0, research_explicit = 0, research = 0, graph = 0;
  /// Per source with a glossary: one list per term (list id = term index).
  std::map<std::string, CueLists, std::less<>> glossary;
  /// Every glossary term and alias of every source: words the rewriter's word break keeps whole.
  PatternMatcher glossary_words;
  PatternMatcher glossary_aliases;  // every source's aliases: one scan says whether any can expand
  WordSet function_words;  // [rewrite] function_words: never entities
  WordSet rewrite_words;   // every [rewrite] list: never part of a topic span
};

Routing decide_routing(std::string_view query, const std::vector<CueHit>& hits,
                       const AnalysisLists& lists, QuestionCategory category, int query_units,
                       const RoutingConfig& config);

ExecutionPath decide_execution_path(const Preparation& prep, std::string_view query,
                                    const std::vector<CueHit>& hits, const AnalysisLists& lists,
                                    const ExecutionConfig& config);

/// The ladder of [execution] fallback with concrete parameters; a rung that would repeat the
/// previous request is left out.
std::vector<FallbackStep> fallback_ladder(const QueryAnalysis& analysis, const Preparation& prep,
                                          const std::vector<std::string>& core_terms,
                                          const ExecutionConfig& config);

BudgetPolicy budget_policy(const ExecutionConfig& config);

/// The glossary variant of `query` for `source` ("" when no alias occurs or no glossary).
std::string expand_glossary(std::string_view query, const std::string& source,
                            const AnalysisLists& lists, const GlossaryConfig& glossary,
                            std::vector<std::string>& reasons);

class Analyzer {
 public:
  /// Compiles the lists; checks that [rewrite] hook names a registered rewriter.
  /// Errors: kInvalidConfig.
  static Result<Analyzer> create(const Config& config,
                                 std::map<std::string, std::shared_ptr<const QueryRewriter>> rewriters);

  /// Builds what analyze() with `terms` reads on its first call (the word break's trie of the
  /// host's terms), so that call costs what the rest do.
  void prepare_terms(const DomainLexicon* terms) const;

  /// `terms`: the host's domain lexicon, whose terms the rewriter's word break keeps whole
  /// (null = ICU's words only).
  Result<QueryAnalysis> analyze(const Preparation& prep, const AnalysisContext& context,
                                const Lexicon& lexicon, const DomainLexicon* terms = nullptr) const;

 private:
  struct Impl;
  explicit Analyzer(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}
  std::shared_ptr<const Impl> impl_;
};

}  // namespace qaplan::internal
