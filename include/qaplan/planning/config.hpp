#pragma once
/// The planning configuration (config/rules.toml): every word list and every number the
/// planning stages use. ([ranking.*] in the same file belongs to the ranking room:
/// qaplan/ranking/config.hpp.) Loading is strict — an unknown key, a wrong type, a threshold outside
/// [0, 1] or a top_k ≤ 0 is an error naming the file, line and key. See config/rules.toml for
/// the meaning and default of each key; the structs below mirror its sections one to one.
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "qaplan/export.hpp"
#include "qaplan/planning/plan.hpp"
#include "qaplan/planning/types.hpp"
#include "qaplan/status.hpp"

namespace qaplan {

/// [input]: limits checked before normalization.
struct InputConfig {
  int max_question_chars = 512;  ///< code points of the raw question (and of each history turn)
  int max_history_turns = 20;    ///< more history turns than this is invalid input
};

/// [matching]: cue hits that lie inside one of these phrases are ignored by every stage
/// (e.g. 这个 inside 这个月 is not an anaphora).
struct MatchingConfig {
  std::vector<std::string> ignore_within;
};

/// [route]: direct-answer word lists and the replies returned with them.
struct RouteConfig {
  std::vector<std::string> greeting;            ///< greetings, thanks, goodbyes
  std::vector<std::string> politeness;          ///< filler that may surround a greeting
  std::vector<std::string> handoff;             ///< contained anywhere → handoff
  std::vector<std::string> handoff_standalone;  ///< handoff only when they are the whole message
  std::vector<std::string> out_of_scope;        ///< contained anywhere → out_of_scope
  std::map<std::string, std::string> replies;   ///< reason → reply text
};

/// [scenarios.<name>]
struct ScenarioConfig {
  std::string name;
  std::vector<std::string> allowed_sources;
  std::vector<std::string> out_of_scope;  ///< extra out-of-scope phrases for this scenario
};

/// [[sources]]: a knowledge source and the keywords that suggest it.
struct SourceConfig {
  std::string name;
  std::vector<std::string> keywords;
};

/// [[intent.rules]]: one rule = a conjunction of conditions; lists inside a condition are ORed.
/// Rules are tried in file order; the first that matches decides the intent, and every rule that
/// matches is reported in `matched_rules`.
struct IntentRuleConfig {
  std::string id;
  Intent intent = Intent::kKnowledgeQuery;
  double score = 0.0;
  bool requires_history = false;
  std::vector<std::string> contains_any;
  std::vector<std::string> unless_contains_any;
  std::vector<std::string> starts_with_any;
  std::vector<std::string> ends_with_any;
  std::optional<int> max_units;
  std::optional<int> min_units;
};

/// [intent]
struct IntentConfig {
  std::string default_rule_id = "default_knowledge";
  Intent default_intent = Intent::kKnowledgeQuery;
  double default_score = 0.60;
  std::vector<IntentRuleConfig> rules;
};

/// [[category.rules]]: first match in file order wins.
struct CategoryRuleConfig {
  QuestionCategory category = QuestionCategory::kDefault;
  std::vector<std::string> keywords;
};

/// [category]
struct CategoryConfig {
  std::vector<CategoryRuleConfig> rules;
  std::vector<std::string> table_keywords;  ///< is_table_query()
};

/// One knob change of a patch.
struct PatchChange {
  KnobId knob = 0;
  PatchOp op = PatchOp::kSet;
  double value = 0.0;  ///< flags are 0/1, counts integral
};

/// When a patch fires. Every present condition must hold.
struct PatchCondition {
  std::optional<Intent> intent;
  std::optional<Intent> intent_not;
  std::optional<int> max_units;                 ///< query units ≤ this
  std::optional<double> confidence_below;       ///< confidence < this
  std::optional<double> confidence_at_least;    ///< confidence ≥ this
  std::optional<QuestionCategory> category;
  std::optional<bool> prefer_table;
};

/// [[retrieval_strategy.patches]]: applied in file order after the defaults.
struct PlanPatchConfig {
  std::string id;
  std::string tag;  ///< appended to RetrievalPlan::reason when the patch fires
  PatchCondition when;
  std::vector<PatchChange> changes;
};

struct RetrievalStrategyConfig {
  PlanKnobs defaults;  ///< [retrieval_strategy.defaults]
  std::vector<PlanPatchConfig> patches;
};

/// The whole configuration. A plain value: copy it, edit it, then `validate()` or hand it to
/// `Planner::create()`, which validates.
struct Config {
  int schema_version = 1;
  InputConfig input;
  MatchingConfig matching;
  RouteConfig route;
  std::map<std::string, ScenarioConfig> scenarios;
  std::string default_scenario = "default";
  std::vector<SourceConfig> sources;
  IntentConfig intent;
  CategoryConfig category;
  RetrievalStrategyConfig retrieval_strategy;
  std::string origin = "<memory>";  ///< file the config came from, used in error context

  /// Cross-field checks that do not need the file: referenced sources exist, the default
  /// scenario exists, scores and thresholds in [0, 1], top_k > 0, no empty words.
  /// Errors: kInvalidConfig naming `origin` and the key.
  QAPLAN_API Status validate() const;
};

/// Parses and validates TOML text. `origin` names the text in errors ("config/rules.toml").
/// The [ranking] table is left to the ranking room's reader (qaplan/ranking/config.hpp).
/// Errors: kInvalidConfig with file = origin, line and field = "[table] key".
QAPLAN_API Result<Config> parse_config(std::string_view toml_text, std::string_view origin);

/// Reads and parses a file. Errors: kIo (unreadable), kInvalidConfig.
QAPLAN_API Result<Config> load_config(const std::filesystem::path& path);

}  // namespace qaplan
