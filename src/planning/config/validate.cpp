// Config::validate(): the cross-field checks that need no file — also what a host that builds a
// Config in code gets from Planner::create().
#include <set>

#include "common/toml_reader.hpp"
#include "common/utf8.hpp"
#include "planning/analysis/filters.hpp"
#include "planning/config/cues.hpp"
#include "planning/simplify.hpp"
#include "planning/text.hpp"
#include "qaplan/planning/config.hpp"

namespace qaplan {
namespace internal {
namespace {

// True when `cue` holds only lower-case ASCII letters and digits and CJK Unified Ideographs (the
// basic block and extension A) and the Traditional → Simplified conversion is known to leave it
// as it is: NFKC casefold leaves each of those characters, and without a space or anything the
// conversion changes, normalization has nothing else to change (it may still run the
// conversion, which then returns the cue: 了解, whose 解 opens has_traditional()'s gate). Most
// of a rules file's thousands of cues are such, and checking them this way instead of
// normalizing each (twice: the reader and validate()) was a fifth of a CLI start.
bool plainly_normalized(std::string_view cue) {
  for (std::size_t i = 0; i < cue.size();) {
    const std::int32_t cp = next_code_point(cue, i);
    const bool ascii = (cp >= 'a' && cp <= 'z') || (cp >= '0' && cp <= '9');
    const bool han = (cp >= 0x4E00 && cp <= 0x9FFF) || (cp >= 0x3400 && cp <= 0x4DBF);
    if (!ascii && !han) return false;
  }
  return !conversion_may_change(cue);
}

}  // namespace

std::string check_cue_form(const std::string& cue) {
  if (cue.empty()) return "is empty";
  if (!is_valid_utf8(cue)) return "is not valid UTF-8";
  if (plainly_normalized(cue)) return "";
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

using internal::toml_reader::check_unit;

Status bad(const Config& c, std::string where, std::string msg) {
  return make_file_error(ErrorCode::kInvalidConfig, std::move(msg), c.origin, 0, std::move(where));
}

std::set<std::string> source_names(const Config& c) {
  std::set<std::string> names;
  for (const SourceConfig& s : c.sources) names.insert(s.name);
  return names;
}

Status validate_inputs_and_sources(const Config& c) {
  if (c.input.max_question_chars <= 0) return bad(c, "[input] max_question_chars", "must be > 0");
  // 0 would refuse every request that carries history: a config check must not pass it.
  if (c.input.max_history_turns < 1)
    return bad(c, "[input] max_history_turns", "must be ≥ 1 (history beyond [rewrite] window_turns is not read)");
  if (c.execution.budget_stop_retrieval_tokens < c.execution.budget_normal_tokens)
    return bad(c, "[execution] budget_stop_retrieval_tokens",
               "must be ≥ budget_normal_tokens (" + std::to_string(c.execution.budget_normal_tokens) + ")");
  std::set<std::string> names;
  for (const SourceConfig& s : c.sources) {
    if (s.name.empty()) return bad(c, "[[sources]] name", "must not be empty");
    if (!names.insert(s.name).second)
      return bad(c, "[[sources]] name", "duplicate source '" + s.name + "'");
    if (auto m = internal::check_cue_list(s.keywords); !m.empty())
      return bad(c, "[[sources]] " + s.name + " keywords", m);
  }
  if (c.scenarios.find(c.default_scenario) == c.scenarios.end())
    return bad(c, "default_scenario",
               "scenario '" + c.default_scenario + "' is not defined in [scenarios]");
  for (const auto& [name, sc] : c.scenarios) {
    std::set<std::string> seen;
    for (const auto& s : sc.allowed_sources) {
      if (!names.count(s))
        return bad(c, "[scenarios." + name + "] allowed_sources", "unknown source '" + s + "'");
      if (!seen.insert(s).second)
        return bad(c, "[scenarios." + name + "] allowed_sources", "duplicate source '" + s + "'");
    }
  }
  return {};
}

Status validate_word_lists(const Config& c) {
  for (const auto* list : {&c.matching.ignore_within, &c.route.greeting, &c.route.thanks, &c.route.goodbye,
                           &c.route.acknowledgement, &c.route.politeness, &c.route.handoff,
                           &c.route.out_of_scope, &c.route.chit_chat, &c.route.context_words,
                           &c.route.request_verbs, &c.route.request_objects, &c.route.connectives,
                           &c.route.vocatives,
                           &c.route.evidence.interrogatives, &c.route.evidence.service_verbs,
                           &c.route.evidence.problem_words, &c.route.evidence.info_words,
                           &c.route.evidence.time_words, &c.route.evidence.assistant,
                           &c.route.evidence.institution, &c.route.evidence.self_reference,
                           &c.route.evidence.self_possessive, &c.route.evidence.emotive,
                           &c.category.table_keywords, &c.intent.topic_switch,
                           &c.rewrite.function_words, &c.rewrite.person_pronouns,
                           &c.rewrite.thing_pronouns, &c.rewrite.ellipsis_markers,
                           &c.rewrite.condition_markers, &c.rewrite.comparison_markers,
                           &c.rewrite.elaboration_markers, &c.rewrite.question_words,
                           &c.rewrite.person_surnames, &c.rewrite.person_titles, &c.rewrite.person_heads,
                           &c.rewrite.not_person_nouns, &c.rewrite.group_heads,
                           &c.rewrite.sequence_markers, &c.rewrite.speaker_words, &c.rewrite.speaker_openers,
                           &c.rewrite.also_markers, &c.rewrite.confirm_markers,
                           &c.rewrite.report_frames, &c.rewrite.addressee_words,
                           &c.rewrite.alternative_markers, &c.rewrite.answer_slots})
    if (auto m = internal::check_cue_list(*list); !m.empty()) return bad(c, "word list", m);
  for (std::string_view key : kReplyKeys) {
    const auto it = c.route.replies.find(std::string(key));
    if (it == c.route.replies.end() || it->second.find_first_not_of(" \t\r\n") == std::string::npos)
      return bad(c, "[route.replies] " + std::string(key), "reply must not be empty");
  }
  for (const auto& [name, sc] : c.scenarios)
    if (auto m = internal::check_cue_list(sc.out_of_scope); !m.empty())
      return bad(c, "[scenarios." + name + "] out_of_scope", m);
  for (const auto& r : c.intent.rules)
    for (const auto* list : {&r.contains_any, &r.unless_contains_any, &r.starts_with_any,
                             &r.ends_with_any})
      if (auto m = internal::check_cue_list(*list); !m.empty())
        return bad(c, "[[intent.rules]] " + r.id, m);
  for (const auto& cr : c.category.rules)
    if (auto m = internal::check_cue_list(cr.keywords); !m.empty())
      return bad(c, "[[category.rules]] " + std::string(to_string(cr.category)) + " keywords", m);
  return {};
}

Status validate_scores_and_rewrite(const Config& c) {
  if (c.route.unclear_max_units < 0) return bad(c, "[route] unclear_max_units", "must be ≥ 0");
  for (const auto& [act, score] : c.route.model_min_score)
    if (auto m = check_unit(score); !m.empty()) return bad(c, "[route.model] " + act, m);
  for (double v : {c.model.category_min_score, c.model.source_min_score, c.model.dependent_min_score})
    if (auto m = check_unit(v); !m.empty()) return bad(c, "[model]", "min scores " + m);
  if (c.model.enabled && c.model.path.empty()) return bad(c, "[model] path", "must not be empty");
  const GatewayConfig& g = c.intent_gateway;
  for (double v : {g.agree_score, g.conflict_final_score, g.model_min_score, g.weak_rule_below})
    if (auto m = check_unit(v); !m.empty()) return bad(c, "[intent_gateway]", "scores " + m);
  if (g.model_budget_us <= 0) return bad(c, "[intent_gateway] model_budget_us", "must be > 0");
  if (auto m = internal::validate_filters_config(c.filters); !m.empty()) return bad(c, "[filters]", m);
  if (c.rewrite.window_turns <= 0 || c.rewrite.max_variants <= 0 || c.rewrite.hook_budget_ms <= 0)
    return bad(c, "[rewrite]", "window_turns, max_variants and hook_budget_ms must be > 0");
  for (const std::string& k : c.rewrite.hook_kinds)
    if (k != "multi_query" && k != "hyde" && k != "step_back" && k != "decomposition" &&
        k != "condense")
      return bad(c, "[rewrite] hook_kinds",
                 "unknown kind '" + k + "' (multi_query, hyde, step_back, decomposition, condense)");
  if (c.rewrite.condense_prompt.find("{q}") == std::string::npos)
    return bad(c, "[rewrite] condense_prompt", "must contain {q} (where the question goes)");
  return {};
}

Status validate_glossary_and_profiles(const Config& c) {
  const std::set<std::string> names = source_names(c);
  for (const auto& [source, file] : c.glossary.domains)
    if (!names.count(source))
      return bad(c, "[glossary.domains] " + source, "unknown source '" + source + "'");
  for (const auto& [source, terms] : c.glossary.terms)
    for (const GlossaryTerm& t : terms) {
      if (t.standard.empty()) return bad(c, "glossary " + source, "a term's standard is empty");
      if (auto m = internal::check_cue_list(t.aliases); !m.empty()) return bad(c, "glossary " + source, m);
    }
  std::set<std::string> profile_ids;
  for (const PromptProfileConfig& p : c.prompt_profiles)
    if (!profile_ids.insert(p.id).second)
      return bad(c, "[[prompt_profiles]] id", "duplicate profile '" + p.id + "'");
  if (!c.prompt_profiles.empty() && (c.prompt_profiles.back().category ||
                                   c.prompt_profiles.back().intent ||
                                   c.prompt_profiles.back().prefer_table))
    return bad(c, "[[prompt_profiles]]", "the last profile must have no `when` (the default)");
  for (const auto* list : {&c.routing.part_markers, &c.execution.research_explicit,
                           &c.execution.research_cues, &c.execution.graph_cues})
    if (auto m = internal::check_cue_list(*list); !m.empty()) return bad(c, "word list", m);
  for (const RoutingIndex& i : c.routing.indexes)
    if (auto m = internal::check_cue_list(i.cues); !m.empty())
      return bad(c, "[[routing.indexes]] " + i.name, m);
  return {};
}

Status validate_intent_and_category(const Config& c) {
  if (auto m = check_unit(c.intent.default_score); !m.empty())
    return bad(c, "[intent] default_score", m);
  std::set<std::string> rule_ids;
  for (const auto& r : c.intent.rules) {
    if (r.id.empty()) return bad(c, "[[intent.rules]] id", "must not be empty");
    if (!rule_ids.insert(r.id).second)
      return bad(c, "[[intent.rules]] id", "duplicate rule id '" + r.id + "'");
    if (auto m = check_unit(r.score); !m.empty())
      return bad(c, "[[intent.rules]] " + r.id + " score", m);
  }
  if (rule_ids.count(c.intent.default_rule_id))
    return bad(c, "[intent] default_rule_id", "collides with a rule id");
  std::set<QuestionCategory> cats;
  for (const auto& cr : c.category.rules)
    if (!cats.insert(cr.category).second)
      return bad(c, "[[category.rules]] category",
                 "duplicate category '" + std::string(to_string(cr.category)) + "'");
  return {};
}

Status validate_retrieval_strategy(const Config& c) {
  for (std::size_t i = 0; i < kPlanKnobs.size(); ++i) {
    const auto id = static_cast<KnobId>(i);
    if (auto m = check_knob_value(id, get_knob(c.retrieval_strategy.defaults, id)); !m.empty())
      return bad(c, "[retrieval_strategy.defaults] " + std::string(kPlanKnobs[i].name), m);
  }
  std::set<std::string> patch_ids;
  for (const auto& p : c.retrieval_strategy.patches) {
    if (p.id.empty()) return bad(c, "[[retrieval_strategy.patches]] id", "must not be empty");
    if (!patch_ids.insert(p.id).second)
      return bad(c, "[[retrieval_strategy.patches]] id", "duplicate patch id '" + p.id + "'");
    for (const auto& ch : p.changes) {
      if (ch.knob >= kPlanKnobs.size())
        return bad(c, "[[retrieval_strategy.patches]] " + p.id, "unknown knob id");
      const std::string where =
          "[[retrieval_strategy.patches]] " + p.id + " " + std::string(kPlanKnobs[ch.knob].name);
      if (kPlanKnobs[ch.knob].kind() == KnobKind::kFlag && ch.op != PatchOp::kSet)
        return bad(c, where, "is a flag: only `set` may change it");
      if (auto m = check_knob_value(ch.knob, ch.value); !m.empty()) return bad(c, where, m);
    }
  }
  return {};
}

}  // namespace

// Every rule the runtime assumes, in one fixed order (the first failure is reported).
Status Config::validate() const {
  QAPLAN_TRY(validate_inputs_and_sources(*this));
  QAPLAN_TRY(validate_word_lists(*this));
  QAPLAN_TRY(validate_scores_and_rewrite(*this));
  QAPLAN_TRY(validate_glossary_and_profiles(*this));
  QAPLAN_TRY(validate_intent_and_category(*this));
  QAPLAN_TRY(validate_retrieval_strategy(*this));
  return {};
}

}  // namespace qaplan
