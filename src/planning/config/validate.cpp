// Config::validate(): the cross-field checks that need no file — also what a host that builds a
// Config in code gets from Planner::create().
#include <set>

#include "common/toml_reader.hpp"
#include "common/utf8.hpp"
#include "planning/analysis/filters.hpp"
#include "planning/config/cues.hpp"
#include "planning/text.hpp"
#include "qaplan/planning/config.hpp"

namespace qaplan {
namespace internal {

std::string check_cue_form(const std::string& cue) {
  if (cue.empty()) return "is empty";
  if (!is_valid_utf8(cue)) return "is not valid UTF-8";
  InputConfig limits;
  limits.max_question_chars = 1 << 20;
  auto n = normalize_question(cue, limits, "cue");
  if (!n.ok()) return "cannot be matched (" + n.error().message + ")";
  if (n->text != cue)
    return "is not in the normalized form questions are matched in: write '" + n->text +
           "' (lower-case ASCII, half-width, Simplified, no outer spaces)";
  return "";
}

std::string check_cue_list(const std::vector<std::string>& cues) {
  for (std::size_t i = 0; i < cues.size(); ++i)
    if (auto m = check_cue_form(cues[i]); !m.empty())
      return "entry " + std::to_string(i) + " ('" + cues[i] + "') " + m;
  return "";
}

}  // namespace internal

namespace {
// Every direct answer the route may give needs its reply text.
constexpr std::string_view kReplyKeys[] = {"greeting", "thanks",       "goodbye",
                                           "acknowledgement", "chit_chat", "handoff",
                                           "out_of_scope",    "unclear",   "source_boundary"};
}  // namespace

Status Config::validate() const {
  using internal::toml_reader::check_unit;
  auto bad = [&](std::string where, std::string msg) {
    return make_file_error(ErrorCode::kInvalidConfig, std::move(msg), origin, 0, std::move(where));
  };
  if (input.max_question_chars <= 0) return bad("[input] max_question_chars", "must be > 0");
  // 0 would refuse every request that carries history: a config check must not pass it.
  if (input.max_history_turns < 1)
    return bad("[input] max_history_turns", "must be ≥ 1 (history beyond [rewrite] window_turns is not read)");
  if (execution.budget_stop_retrieval_tokens < execution.budget_normal_tokens)
    return bad("[execution] budget_stop_retrieval_tokens",
               "must be ≥ budget_normal_tokens (" + std::to_string(execution.budget_normal_tokens) + ")");
  std::set<std::string> names;
  for (const SourceConfig& s : sources) {
    if (s.name.empty()) return bad("[[sources]] name", "must not be empty");
    if (!names.insert(s.name).second)
      return bad("[[sources]] name", "duplicate source '" + s.name + "'");
    if (auto m = internal::check_cue_list(s.keywords); !m.empty())
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
                           &route.request_verbs, &route.request_objects, &route.connectives,
                           &route.vocatives,
                           &route.evidence.interrogatives, &route.evidence.service_verbs,
                           &route.evidence.problem_words, &route.evidence.info_words,
                           &route.evidence.time_words, &route.evidence.assistant,
                           &route.evidence.institution, &route.evidence.self_reference,
                           &route.evidence.self_possessive, &route.evidence.emotive,
                           &category.table_keywords, &intent.topic_switch,
                           &rewrite.function_words, &rewrite.person_pronouns,
                           &rewrite.thing_pronouns, &rewrite.ellipsis_markers,
                           &rewrite.condition_markers, &rewrite.comparison_markers,
                           &rewrite.elaboration_markers, &rewrite.question_words})
    if (auto m = internal::check_cue_list(*list); !m.empty()) return bad("word list", m);
  for (std::string_view key : kReplyKeys) {
    const auto it = route.replies.find(std::string(key));
    if (it == route.replies.end() || it->second.find_first_not_of(" \t\r\n") == std::string::npos)
      return bad("[route.replies] " + std::string(key), "reply must not be empty");
  }
  for (const auto& [name, sc] : scenarios)
    if (auto m = internal::check_cue_list(sc.out_of_scope); !m.empty())
      return bad("[scenarios." + name + "] out_of_scope", m);
  for (const auto& r : intent.rules)
    for (const auto* list : {&r.contains_any, &r.unless_contains_any, &r.starts_with_any,
                             &r.ends_with_any})
      if (auto m = internal::check_cue_list(*list); !m.empty())
        return bad("[[intent.rules]] " + r.id, m);
  for (const auto& cr : category.rules)
    if (auto m = internal::check_cue_list(cr.keywords); !m.empty())
      return bad("[[category.rules]] " + std::string(to_string(cr.category)) + " keywords", m);
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
  for (const std::string& k : rewrite.hook_kinds)
    if (k != "multi_query" && k != "hyde" && k != "step_back" && k != "decomposition" &&
        k != "condense")
      return bad("[rewrite] hook_kinds",
                 "unknown kind '" + k + "' (multi_query, hyde, step_back, decomposition, condense)");
  if (rewrite.condense_prompt.find("{q}") == std::string::npos)
    return bad("[rewrite] condense_prompt", "must contain {q} (where the question goes)");
  for (const auto& [source, file] : glossary.domains)
    if (!names.count(source))
      return bad("[glossary.domains] " + source, "unknown source '" + source + "'");
  for (const auto& [source, terms] : glossary.terms)
    for (const GlossaryTerm& t : terms) {
      if (t.standard.empty()) return bad("glossary " + source, "a term's standard is empty");
      if (auto m = internal::check_cue_list(t.aliases); !m.empty()) return bad("glossary " + source, m);
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
    if (auto m = internal::check_cue_list(*list); !m.empty()) return bad("word list", m);
  for (const RoutingIndex& i : routing.indexes)
    if (auto m = internal::check_cue_list(i.cues); !m.empty())
      return bad("[[routing.indexes]] " + i.name, m);
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
