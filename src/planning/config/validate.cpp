// Config::validate(): the cross-field checks that need no file — also what a host that builds a
// Config in code gets from Planner::create().
#include <set>

#include "common/toml_reader.hpp"
#include "planning/analysis/filters.hpp"
#include "qaplan/planning/config.hpp"

namespace qaplan {

Status Config::validate() const {
  using internal::toml_reader::check_unit;
  using internal::toml_reader::check_words;
  auto bad = [&](std::string where, std::string msg) {
    return make_file_error(ErrorCode::kInvalidConfig, std::move(msg), origin, 0, std::move(where));
  };
  if (input.max_question_chars <= 0) return bad("[input] max_question_chars", "must be > 0");
  if (input.max_history_turns < 0) return bad("[input] max_history_turns", "must be ≥ 0");
  std::set<std::string> names;
  for (const SourceConfig& s : sources) {
    if (s.name.empty()) return bad("[[sources]] name", "must not be empty");
    if (!names.insert(s.name).second)
      return bad("[[sources]] name", "duplicate source '" + s.name + "'");
    if (auto m = check_words(s.keywords); !m.empty())
      return bad("[[sources]] " + s.name + " keywords", m);
  }
  if (scenarios.find(default_scenario) == scenarios.end())
    return bad("default_scenario",
               "scenario '" + default_scenario + "' is not defined in [scenarios]");
  for (const auto& [name, sc] : scenarios) {
    std::set<std::string> seen;
    for (const auto& s : sc.allowed_sources) {
      if (!names.count(s))
        return bad("[scenarios." + name + "] allowed_sources", "unknown source '" + s + "'");
      if (!seen.insert(s).second)
        return bad("[scenarios." + name + "] allowed_sources", "duplicate source '" + s + "'");
    }
  }
  for (const auto* list : {&matching.ignore_within, &route.greeting, &route.thanks, &route.goodbye,
                           &route.acknowledgement, &route.politeness, &route.handoff,
                           &route.out_of_scope, &route.chit_chat, &route.context_words,
                           &route.request_verbs, &route.request_objects,
                           &category.table_keywords, &intent.topic_switch,
                           &rewrite.function_words, &rewrite.person_pronouns,
                           &rewrite.thing_pronouns, &rewrite.ellipsis_markers,
                           &rewrite.condition_markers, &rewrite.comparison_markers,
                           &rewrite.question_words})
    if (auto m = check_words(*list); !m.empty()) return bad("word list", m);
  if (route.unclear_max_units < 0) return bad("[route] unclear_max_units", "must be ≥ 0");
  for (const auto& [act, score] : route.model_min_score)
    if (auto m = check_unit(score); !m.empty()) return bad("[route.model] " + act, m);
  for (double v : {model.category_min_score, model.source_min_score, model.dependent_min_score})
    if (auto m = check_unit(v); !m.empty()) return bad("[model]", "min scores " + m);
  if (model.enabled && model.path.empty()) return bad("[model] path", "must not be empty");
  const GatewayConfig& g = intent_gateway;
  for (double v : {g.agree_score, g.conflict_final_score, g.model_min_score, g.weak_rule_below})
    if (auto m = check_unit(v); !m.empty()) return bad("[intent_gateway]", "scores " + m);
  if (g.model_budget_us <= 0) return bad("[intent_gateway] model_budget_us", "must be > 0");
  if (auto m = internal::validate_filters_config(filters); !m.empty()) return bad("[filters]", m);
  if (rewrite.window_turns <= 0 || rewrite.max_variants <= 0 || rewrite.hook_budget_ms <= 0)
    return bad("[rewrite]", "window_turns, max_variants and hook_budget_ms must be > 0");
  for (const auto& [source, file] : glossary.domains)
    if (!names.count(source))
      return bad("[glossary.domains] " + source, "unknown source '" + source + "'");
  for (const auto& [source, terms] : glossary.terms)
    for (const GlossaryTerm& t : terms) {
      if (t.standard.empty()) return bad("glossary " + source, "a term's standard is empty");
      if (auto m = check_words(t.aliases); !m.empty()) return bad("glossary " + source, m);
    }
  std::set<std::string> profile_ids;
  for (const PromptProfileConfig& p : prompt_profiles)
    if (!profile_ids.insert(p.id).second)
      return bad("[[prompt_profiles]] id", "duplicate profile '" + p.id + "'");
  if (!prompt_profiles.empty() && (prompt_profiles.back().category ||
                                   prompt_profiles.back().intent ||
                                   prompt_profiles.back().prefer_table))
    return bad("[[prompt_profiles]]", "the last profile must have no `when` (the default)");
  for (const auto* list : {&routing.part_markers, &execution.research_explicit,
                           &execution.research_cues, &execution.graph_cues})
    if (auto m = check_words(*list); !m.empty()) return bad("word list", m);
  for (const RoutingIndex& i : routing.indexes)
    if (auto m = check_words(i.cues); !m.empty()) return bad("[[routing.indexes]] " + i.name, m);
  if (auto m = check_unit(intent.default_score); !m.empty())
    return bad("[intent] default_score", m);
  std::set<std::string> rule_ids;
  for (const auto& r : intent.rules) {
    if (r.id.empty()) return bad("[[intent.rules]] id", "must not be empty");
    if (!rule_ids.insert(r.id).second)
      return bad("[[intent.rules]] id", "duplicate rule id '" + r.id + "'");
    if (auto m = check_unit(r.score); !m.empty())
      return bad("[[intent.rules]] " + r.id + " score", m);
  }
  if (rule_ids.count(intent.default_rule_id))
    return bad("[intent] default_rule_id", "collides with a rule id");
  std::set<QuestionCategory> cats;
  for (const auto& cr : category.rules)
    if (!cats.insert(cr.category).second)
      return bad("[[category.rules]] category",
                 "duplicate category '" + std::string(to_string(cr.category)) + "'");
  for (std::size_t i = 0; i < kPlanKnobs.size(); ++i) {
    const auto id = static_cast<KnobId>(i);
    if (auto m = check_knob_value(id, get_knob(retrieval_strategy.defaults, id)); !m.empty())
      return bad("[retrieval_strategy.defaults] " + std::string(kPlanKnobs[i].name), m);
  }
  std::set<std::string> patch_ids;
  for (const auto& p : retrieval_strategy.patches) {
    if (p.id.empty()) return bad("[[retrieval_strategy.patches]] id", "must not be empty");
    if (!patch_ids.insert(p.id).second)
      return bad("[[retrieval_strategy.patches]] id", "duplicate patch id '" + p.id + "'");
    for (const auto& ch : p.changes) {
      if (ch.knob >= kPlanKnobs.size())
        return bad("[[retrieval_strategy.patches]] " + p.id, "unknown knob id");
      const std::string where =
          "[[retrieval_strategy.patches]] " + p.id + " " + std::string(kPlanKnobs[ch.knob].name);
      if (kPlanKnobs[ch.knob].kind() == KnobKind::kFlag && ch.op != PatchOp::kSet)
        return bad(where, "is a flag: only `set` may change it");
      if (auto m = check_knob_value(ch.knob, ch.value); !m.empty()) return bad(where, m);
    }
  }
  return {};
}

}  // namespace qaplan
