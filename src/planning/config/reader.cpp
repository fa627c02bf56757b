// rules.toml → Config: the strict section readers (common/toml_reader.hpp does the TOML
// mechanics). Cross-field checks live in validate.cpp and run at the end.
#include <algorithm>
#include <map>
#include <tuple>

#include "qaplan/io.hpp"
#include "common/toml_reader.hpp"
#include "planning/analysis/filters.hpp"
#include "planning/config/cues.hpp"
#include "qaplan/planning/config.hpp"

namespace qaplan {
namespace {

using internal::toml_reader::each_table;
using internal::toml_reader::Reader;
using internal::toml_reader::Value;

// Every direct-answer reason has a reply; the acts the model may decide are the same minus
// source_boundary (which the source stage decides).
constexpr std::array<RouteReason, 9> kDirectReasons{
    RouteReason::kGreeting, RouteReason::kThanks,     RouteReason::kGoodbye,
    RouteReason::kAcknowledgement, RouteReason::kChitChat, RouteReason::kHandoff,
    RouteReason::kOutOfScope,      RouteReason::kUnclear,  RouteReason::kSourceBoundary};

using internal::toml_reader::array_of;
using internal::toml_reader::line_of;
using internal::toml_reader::table_of;

// The error of r.err() at one element of an array, with its column: a list of 200 words spans
// several lines, and the entry to fix must be found at a glance.
Error element_error(const Reader& r, const Value& elem, std::string_view key, std::string msg) {
  Error e = r.err(elem, key, std::move(msg));
  if (e.line > 0) e.column = internal::toml_reader::column_of(elem);
  return e;
}

// A word list matched against the normalized question: every entry must be in the form matching
// uses (config/cues.hpp), or the entry could never match. `non_empty`: an empty list would make
// its rule, source or category dead.
Status read_cues(Reader& r, std::string_view key, std::vector<std::string>& out, bool required,
                 bool non_empty = false) {
  QAPLAN_TRY(r.get(key, out, required));
  const Value* arr = r.find(key);
  if (!arr) return {};
  if (non_empty && out.empty())
    return r.err(*arr, key, "must not be empty (nothing could ever match)");
  for (std::size_t i = 0; i < out.size(); ++i)
    if (auto m = internal::check_cue_form(out[i]); !m.empty())
      return element_error(r, array_of(*arr)[i], key,
                           "entry " + std::to_string(i) + " ('" + out[i] + "') " + m);
  return {};
}

// Several cue lists, all required or all optional.
using CueList = std::pair<const char*, std::vector<std::string>*>;
Status read_cue_lists(Reader& r, bool required, std::initializer_list<CueList> lists) {
  for (auto [key, list] : lists) QAPLAN_TRY(read_cues(r, key, *list, required));
  return {};
}

// Names that must be unique (sources, rule ids, patch ids, …): a second one is an error at its
// own line that names the first.
struct Unique {
  std::string what;  // "source", "patch id"
  std::map<std::string, int> first;
  Status add(const Reader& r, std::string_view key, const Value& at, const std::string& name) {
    auto [it, fresh] = first.emplace(name, line_of(at));
    if (fresh) return {};
    return r.err(at, key,
                 "duplicate " + what + " '" + name + "'" +
                     (it->second > 0 ? " (first at line " + std::to_string(it->second) + ")" : ""));
  }
};

// Reads an optional enum-valued key through its parse function.
template <class E, class Parse>
Status read_enum(Reader& r, std::string_view key, std::optional<E>& out, Parse parse) {
  std::string s;
  QAPLAN_TRY(r.get(key, s));
  if (!r.find(key)) return {};
  auto p = parse(s);
  if (!p.ok()) return r.err(*r.find(key), key, p.error().message);
  out = *p;
  return {};
}

template <class T, class Get>
Status read_optional(Reader& r, std::string_view key, std::optional<T>& out, Get get) {
  if (!r.find(key)) return {};
  T v{};
  QAPLAN_TRY(get(key, v));
  out = v;
  return {};
}

// One of set / at_least / at_most: knob = value pairs, checked against the knob table.
Status read_changes(Reader& r, std::string_view key, PatchOp op, std::vector<PatchChange>& out) {
  auto t = r.table(key);
  if (!t.ok()) return t.error();
  if (*t == nullptr) return {};
  for (const auto& [k, val] : table_of(**t)) {
    const std::string name(k.str());
    const std::string field = std::string(key) + "." + name;
    const auto knob = find_knob(name);
    if (!knob) return r.err(val, field, "unknown RetrievalPlan field");
    const KnobKind kind = kPlanKnobs[*knob].kind();
    PatchChange ch{*knob, op, 0};
    if (val.is_boolean()) ch.value = val.as_boolean()->get() ? 1 : 0;
    else if (val.is_integer()) ch.value = static_cast<double>(val.as_integer()->get());
    else if (val.is_floating_point()) ch.value = val.as_floating_point()->get();
    else return r.err(val, field, "must be a number or boolean");
    if (kind == KnobKind::kFlag && !val.is_boolean()) return r.err(val, field, "must be true or false");
    if (kind != KnobKind::kFlag && val.is_boolean()) return r.err(val, field, "must be a number");
    if (kind == KnobKind::kCount && !val.is_integer()) return r.err(val, field, "must be an integer");
    if (kind == KnobKind::kFlag && op != PatchOp::kSet)
      return r.err(val, field, "is a flag: only `set` may change it");
    if (auto m = check_knob_value(ch.knob, ch.value); !m.empty()) return r.err(val, field, m);
    for (const auto& prev : out)
      if (prev.knob == ch.knob) return r.err(val, field, "field changed twice in one patch");
    out.push_back(ch);
  }
  return {};
}

Status read_patch(Reader& r, PlanPatchConfig& p, Unique& ids) {
  QAPLAN_TRY(r.get("id", p.id, true));
  QAPLAN_TRY(ids.add(r, "id", *r.find("id"), p.id));
  QAPLAN_TRY(r.get("tag", p.tag, true));
  QAPLAN_TRY(r.section("when", false, [&](Reader& w) -> Status {
    QAPLAN_TRY(read_enum(w, "intent", p.when.intent, parse_intent));
    QAPLAN_TRY(read_enum(w, "intent_not", p.when.intent_not, parse_intent));
    QAPLAN_TRY(read_optional(w, "max_units", p.when.max_units,
                             [&](std::string_view k, int& v) { return w.get_int(k, v); }));
    QAPLAN_TRY(read_optional(w, "confidence_below", p.when.confidence_below,
                             [&](std::string_view k, double& v) { return w.unit(k, v); }));
    QAPLAN_TRY(read_optional(w, "confidence_at_least", p.when.confidence_at_least,
                             [&](std::string_view k, double& v) { return w.unit(k, v); }));
    QAPLAN_TRY(read_enum(w, "category", p.when.category, parse_question_category));
    QAPLAN_TRY(read_optional(w, "prefer_table", p.when.prefer_table,
                             [&](std::string_view k, bool& v) { return w.get(k, v); }));
    // Conditions that exclude each other: the patch would silently never fire.
    if (p.when.intent && p.when.intent_not && *p.when.intent == *p.when.intent_not)
      return w.err(*w.find("intent_not"), "intent_not", "equals `intent`: the patch can never fire");
    if (p.when.confidence_below && p.when.confidence_at_least &&
        *p.when.confidence_below <= *p.when.confidence_at_least)
      return w.err(*w.find("confidence_below"), "confidence_below",
                   "is not above confidence_at_least: the patch can never fire");
    return {};
  }));
  std::vector<PatchChange> changes;
  QAPLAN_TRY(read_changes(r, "set", PatchOp::kSet, changes));
  QAPLAN_TRY(read_changes(r, "at_least", PatchOp::kAtLeast, changes));
  QAPLAN_TRY(read_changes(r, "at_most", PatchOp::kAtMost, changes));
  // TOML inline tables are unordered; table order makes the trace deterministic.
  std::sort(changes.begin(), changes.end(),
            [](const PatchChange& a, const PatchChange& b) { return a.knob < b.knob; });
  for (std::size_t i = 1; i < changes.size(); ++i)
    if (changes[i - 1].knob == changes[i].knob)
      return r.err(r.v, kPlanKnobs[changes[i].knob].name, "field changed twice in one patch");
  p.changes = std::move(changes);
  if (p.changes.empty()) return r.err(r.v, "", "patch changes nothing (no set/at_least/at_most)");
  return {};
}

Status read_intent_rule(Reader& r, IntentRuleConfig& rule, Unique& ids) {
  QAPLAN_TRY(r.get("id", rule.id, true));
  if (rule.id.empty()) return r.err(*r.find("id"), "id", "must not be empty");
  QAPLAN_TRY(ids.add(r, "id", *r.find("id"), rule.id));
  std::optional<Intent> intent;
  QAPLAN_TRY(read_enum(r, "intent", intent, parse_intent));
  if (!intent) return r.missing("intent", true);
  rule.intent = *intent;
  QAPLAN_TRY(r.unit("score", rule.score, true));
  QAPLAN_TRY(r.get("requires_history", rule.requires_history));
  QAPLAN_TRY(read_cues(r, "contains_any", rule.contains_any, false, true));
  QAPLAN_TRY(read_cues(r, "unless_contains_any", rule.unless_contains_any, false, true));
  QAPLAN_TRY(read_cues(r, "starts_with_any", rule.starts_with_any, false, true));
  QAPLAN_TRY(read_cues(r, "ends_with_any", rule.ends_with_any, false, true));
  auto get_int = [&](std::string_view k, int& v) { return r.get_int(k, v); };
  QAPLAN_TRY(read_optional(r, "max_units", rule.max_units, get_int));
  QAPLAN_TRY(read_optional(r, "min_units", rule.min_units, get_int));
  QAPLAN_TRY(r.get("without_anchor", rule.without_anchor));
  QAPLAN_TRY(r.get("without_question", rule.without_question));
  if (rule.contains_any.empty() && rule.starts_with_any.empty() && rule.ends_with_any.empty() &&
      !rule.max_units && !rule.min_units)
    return r.err(r.v, "",
                 "rule has no condition (contains_any, starts_with_any, ends_with_any, "
                 "max_units or min_units)");
  return {};
}

Status read_route(Reader& r, RouteConfig& route) {
  QAPLAN_TRY(read_cue_lists(r, true, {{"greeting", &route.greeting}, {"thanks", &route.thanks},
                                      {"goodbye", &route.goodbye}, {"acknowledgement", &route.acknowledgement},
                                      {"politeness", &route.politeness}, {"handoff", &route.handoff},
                                      {"out_of_scope", &route.out_of_scope}, {"chit_chat", &route.chit_chat},
                                      {"context_words", &route.context_words}}));
  // Optional: without request_verbs / request_objects no request frame is recognised.
  QAPLAN_TRY(read_cue_lists(r, false, {{"connectives", &route.connectives}, {"vocatives", &route.vocatives},
                                       {"request_verbs", &route.request_verbs},
                                       {"request_objects", &route.request_objects}}));
  if (route.request_verbs.empty() != route.request_objects.empty())
    if (const auto* x = r.find(route.request_verbs.empty() ? "request_objects" : "request_verbs"))
      return r.err(*x, "request_verbs", "request_verbs and request_objects come together");
  QAPLAN_TRY(r.count("unclear_max_units", route.unclear_max_units, true));
  // A reply must exist for every direct answer: a host must never show an empty message.
  QAPLAN_TRY(r.section("replies", true, [&](Reader& rr) -> Status {
    for (RouteReason reason : kDirectReasons) {
      const std::string_view key = to_string(reason);
      std::string text;
      QAPLAN_TRY(rr.get(key, text, true));
      if (text.find_first_not_of(" \t") == std::string::npos)
        return rr.err(*rr.find(key), key, "reply must not be empty");
      route.replies[std::string(key)] = text;
    }
    return {};
  }));
  QAPLAN_TRY(r.get("foreign_script", route.foreign_script));
  if (route.foreign_script != "retrieval" && route.foreign_script != "out_of_scope")
    return r.err(*r.find("foreign_script"), "foreign_script",
                 "must be \"retrieval\" or \"out_of_scope\"");
  QAPLAN_TRY(r.section("evidence", false, [&](Reader& re) -> Status {
    auto& e = route.evidence;
    e.enabled = true;
    for (auto [key, list] : {std::pair{"interrogatives", &e.interrogatives},
                             std::pair{"service_verbs", &e.service_verbs},
                             std::pair{"problem_words", &e.problem_words},
                             std::pair{"info_words", &e.info_words},
                             std::pair{"time_words", &e.time_words},
                             std::pair{"assistant", &e.assistant},
                             std::pair{"institution", &e.institution},
                             std::pair{"self_reference", &e.self_reference},
                             std::pair{"self_possessive", &e.self_possessive},
                             std::pair{"emotive", &e.emotive}})
      QAPLAN_TRY(read_cues(re, key, *list, true));
    return re.count("id_min_digits", e.id_min_digits, true);
  }));
  return r.section("model", false, [&](Reader& rm) -> Status {
    for (const auto& [k, val] : table_of(rm.v)) {
      const std::string key(k.str());
      auto reason = parse_route_reason(key);
      const bool act = reason.ok() && *reason != RouteReason::kNeedsRetrieval &&
                       *reason != RouteReason::kSourceBoundary;
      if (!act && key != "anchored" && key != "evidenced")
        return rm.err(val, key,
                      "not a dialogue act the model decides (nor \"anchored\", \"evidenced\")");
      double score = 0;
      QAPLAN_TRY(rm.unit(key, score, true));
      route.model_min_score[key] = score;
    }
    return {};
  });
}

Status read_model(Reader& r, ModelConfig& m) {
  QAPLAN_TRY(r.get("enabled", m.enabled, true));
  QAPLAN_TRY(r.get("path", m.path, true));
  QAPLAN_TRY(r.get("sha256", m.sha256, true));
  if (m.sha256.size() != 64 ||
      m.sha256.find_first_not_of("0123456789abcdef") != std::string::npos)
    return r.err(*r.find("sha256"), "sha256", "must be 64 lower-case hex digits");
  QAPLAN_TRY(r.unit("category_min_score", m.category_min_score, true));
  QAPLAN_TRY(r.unit("source_min_score", m.source_min_score, true));
  QAPLAN_TRY(r.unit("source_agree_score", m.source_agree_score));
  QAPLAN_TRY(r.unit("open_dependent_min_score", m.open_dependent_min_score));
  QAPLAN_TRY(r.unit("sure_dependent_min_score", m.sure_dependent_min_score));
  QAPLAN_TRY(r.unit("source_cover", m.source_cover));
  QAPLAN_TRY(r.count("max_source_candidates", m.max_source_candidates));
  return r.unit("dependent_min_score", m.dependent_min_score, true);
}

Status read_rewrite(Reader& r, RewriteConfig& w) {
  QAPLAN_TRY(r.count("window_turns", w.window_turns, true));
  QAPLAN_TRY(r.count("max_growth", w.max_growth));
  QAPLAN_TRY(r.get("domain_word_break", w.domain_word_break));
  QAPLAN_TRY(read_cue_lists(r, true, {{"function_words", &w.function_words},
                                      {"person_pronouns", &w.person_pronouns},
                                      {"thing_pronouns", &w.thing_pronouns},
                                      {"ellipsis_markers", &w.ellipsis_markers},
                                      {"condition_markers", &w.condition_markers},
                                      {"comparison_markers", &w.comparison_markers},
                                      {"question_words", &w.question_words}}));
  // Optional: a rules file written before a list existed keeps working, without that list's rule.
  QAPLAN_TRY(read_cue_lists(r, false, {{"elaboration_markers", &w.elaboration_markers},
                                       {"sequence_markers", &w.sequence_markers},
                                       {"speaker_words", &w.speaker_words},
                                       {"speaker_openers", &w.speaker_openers},
                                       {"also_markers", &w.also_markers},
                                       {"confirm_markers", &w.confirm_markers},
                                       {"report_frames", &w.report_frames},
                                       {"addressee_words", &w.addressee_words},
                                       {"alternative_markers", &w.alternative_markers},
                                       {"answer_slots", &w.answer_slots},
                                       {"person_surnames", &w.person_surnames},
                                       {"person_titles", &w.person_titles},
                                       {"person_heads", &w.person_heads},
                                       {"not_person_nouns", &w.not_person_nouns},
                                       {"group_heads", &w.group_heads},
                                       {"discourse_openers", &w.discourse_openers}}));
  QAPLAN_TRY(r.get("prompt", w.prompt, true));
  for (auto [key, text, required] : {std::tuple{"hyde_prompt", &w.hyde_prompt, true},
                                     std::tuple{"step_back_prompt", &w.step_back_prompt, true},
                                     std::tuple{"decomposition_prompt", &w.decomposition_prompt, true},
                                     std::tuple{"condense_prompt", &w.condense_prompt, false}}) {
    QAPLAN_TRY(r.get(key, *text, required));
    if (text->find("{q}") == std::string::npos)
      return r.err(*r.find(key), key, "must contain {q} (where the question goes)");
  }
  if (w.prompt.find("{q}") == std::string::npos)
    return r.err(*r.find("prompt"), "prompt", "must contain {q} (where the question goes)");
  QAPLAN_TRY(r.get("hook", w.hook));
  QAPLAN_TRY(r.get("hook_kinds", w.hook_kinds));
  for (const std::string& k : w.hook_kinds)
    if (k != "multi_query" && k != "hyde" && k != "step_back" && k != "decomposition" &&
        k != "condense")
      return r.err(*r.find("hook_kinds"), "hook_kinds",
                   "unknown kind '" + k + "' (multi_query, hyde, step_back, decomposition, condense)");
  QAPLAN_TRY(r.count("max_variants", w.max_variants, true));
  return r.count("hook_budget_ms", w.hook_budget_ms, true);
}

Status read_glossary(Reader& r, GlossaryConfig& g, const std::vector<SourceConfig>& sources) {
  QAPLAN_TRY(r.get("dir", g.dir, true));
  return r.section("domains", false, [&](Reader& d) -> Status {
    for (const auto& [k, val] : table_of(d.v)) {
      const std::string key(k.str());
      std::string file;
      QAPLAN_TRY(d.get(key, file, true));
      const std::string& name = key;  // clang 14 (the fuzz build) cannot capture a binding
      if (std::none_of(sources.begin(), sources.end(),
                       [&](const SourceConfig& s) { return s.name == name; }))
        return d.err(val, key, "unknown source '" + key + "' (not in [[sources]])");
      if (file.empty()) return d.err(val, key, "must name a file");
      g.domains[key] = file;
    }
    return {};
  });
}

Status read_routing(Reader& r, RoutingConfig& c) {
  QAPLAN_TRY(r.get("default_index", c.default_index, true));
  QAPLAN_TRY(r.count("large_model_min_units", c.large_model_min_units, true));
  QAPLAN_TRY(r.count("large_model_min_parts", c.large_model_min_parts, true));
  QAPLAN_TRY(read_cues(r, "part_markers", c.part_markers, true));
  QAPLAN_TRY(r.get("large_model_categories", c.large_model_categories, true));
  for (const std::string& cat : c.large_model_categories)
    if (!parse_question_category(cat).ok())
      return r.err(*r.find("large_model_categories"), "large_model_categories",
                   "unknown category '" + cat + "'");
  Unique names{"index", {}};
  return each_table(r, "indexes", c.indexes, [&](Reader& x, RoutingIndex& i) -> Status {
    QAPLAN_TRY(x.get("name", i.name, true));
    if (i.name.empty()) return x.err(*x.find("name"), "name", "must not be empty");
    QAPLAN_TRY(names.add(x, "name", *x.find("name"), i.name));
    QAPLAN_TRY(read_cues(x, "cues", i.cues, false));
    QAPLAN_TRY(x.get("on_id", i.on_id));
    if (i.cues.empty() && !i.on_id) return x.err(x.v, "", "index has no cue and no on_id");
    return {};
  });
}

Status read_execution(Reader& r, ExecutionConfig& e) {
  QAPLAN_TRY(r.unit("min_confidence", e.min_confidence, true));
  QAPLAN_TRY(r.unit("explicit_confidence", e.explicit_confidence, true));
  QAPLAN_TRY(r.unit("cue_confidence", e.cue_confidence, true));
  QAPLAN_TRY(r.unit("semantic_confidence", e.semantic_confidence, true));
  QAPLAN_TRY(r.unit("mixed_cue_confidence", e.mixed_cue_confidence, true));
  for (auto [key, list] : {std::pair{"research_explicit", &e.research_explicit},
                           std::pair{"research_cues", &e.research_cues},
                           std::pair{"graph_cues", &e.graph_cues}})
    QAPLAN_TRY(read_cues(r, key, *list, true));
  QAPLAN_TRY(r.get("fallback", e.fallback, true));
  for (const std::string& step : e.fallback)
    if (step != "relax_filters" && step != "switch_tool" && step != "rewrite_query" &&
        step != "search_files" && step != "escalate")
      return r.err(*r.find("fallback"), "fallback",
                   "unknown step '" + step +
                       "' (relax_filters, switch_tool, rewrite_query, search_files, escalate)");
  QAPLAN_TRY(r.count("max_tool_calls", e.max_tool_calls, true));
  QAPLAN_TRY(r.count("budget_normal_tokens", e.budget_normal_tokens, true));
  QAPLAN_TRY(r.count("budget_stop_retrieval_tokens", e.budget_stop_retrieval_tokens, true));
  QAPLAN_TRY(r.unit("escalate_below_rerank_score", e.escalate_below_rerank_score, true));
  return r.count("max_research_rounds", e.max_research_rounds, true);
}

Status read_prompt_profile(Reader& r, PromptProfileConfig& p) {
  QAPLAN_TRY(r.get("id", p.id, true));
  QAPLAN_TRY(r.section("when", false, [&](Reader& w) -> Status {
    QAPLAN_TRY(read_enum(w, "category", p.category, parse_question_category));
    QAPLAN_TRY(read_enum(w, "intent", p.intent, parse_intent));
    return read_optional(w, "prefer_table", p.prefer_table,
                         [&](std::string_view k, bool& v) { return w.get(k, v); });
  }));
  QAPLAN_TRY(r.get("citation_style", p.citation_style, true));
  QAPLAN_TRY(r.get("caution", p.caution, true));
  return r.get("answer_format", p.answer_format, true);
}

Status read_gateway(Reader& r, GatewayConfig& g) {
  QAPLAN_TRY(r.unit("agree_score", g.agree_score, true));
  QAPLAN_TRY(r.unit("conflict_final_score", g.conflict_final_score, true));
  QAPLAN_TRY(r.unit("model_min_score", g.model_min_score, true));
  QAPLAN_TRY(r.unit("weak_rule_below", g.weak_rule_below, true));
  return r.count("model_budget_us", g.model_budget_us, true);
}

Status read_scenarios(Reader& top, Config& c) {
  auto t = top.table("scenarios", true);
  if (!t.ok()) return t.error();
  Reader r = top.sub(**t, "scenarios");
  for (const auto& [k, val] : table_of(**t)) {
    const std::string name(k.str());
    r.used.insert(name);
    if (!val.is_table()) return r.err(val, name, "must be a table ([scenarios." + name + "])");
    Reader s = r.sub(val, "scenarios." + name);
    ScenarioConfig sc;
    sc.name = name;
    QAPLAN_TRY(s.get("allowed_sources", sc.allowed_sources, true));
    QAPLAN_TRY(read_cues(s, "out_of_scope", sc.out_of_scope, false));
    const Value& allowed = *s.find("allowed_sources");
    if (sc.allowed_sources.empty())
      return s.err(allowed, "allowed_sources", "must not be empty (name at least one source)");
    Unique seen{"source", {}};
    for (std::size_t i = 0; i < sc.allowed_sources.size(); ++i) {
      const std::string& src = sc.allowed_sources[i];
      const Value& at = array_of(allowed)[i];
      if (std::none_of(c.sources.begin(), c.sources.end(),
                       [&](const SourceConfig& x) { return x.name == src; }))
        return element_error(s, at, "allowed_sources",
                             "unknown source '" + src + "' (not in [[sources]])");
      if (Status st = seen.add(s, "allowed_sources", at, src); !st.ok()) {
        Error e = std::move(st).error();
        return element_error(s, at, "allowed_sources", e.message);
      }
    }
    QAPLAN_TRY(s.finish());
    c.scenarios[name] = std::move(sc);
  }
  return {};
}

Status read_category(Reader& r, CategoryConfig& cat) {
  QAPLAN_TRY(read_cues(r, "table_keywords", cat.table_keywords, true));
  Unique cats{"category", {}};
  return each_table(r, "rules", cat.rules, [&](Reader& rr, CategoryRuleConfig& cr) -> Status {
    std::optional<QuestionCategory> c;
    QAPLAN_TRY(read_enum(rr, "category", c, parse_question_category));
    if (!c) return rr.missing("category", true);
    if (*c == QuestionCategory::kDefault)
      return rr.err(*rr.find("category"), "category", "'default' is what no rule matching means");
    cr.category = *c;
    QAPLAN_TRY(cats.add(rr, "category", *rr.find("category"), std::string(to_string(*c))));
    return read_cues(rr, "keywords", cr.keywords, true, true);
  });
}

// Every knob of the table is required: a default left out of the file is an error, not a
// silent built-in value.
Status read_defaults(Reader& r, PlanKnobs& d) {
  for (std::size_t i = 0; i < kPlanKnobs.size(); ++i) {
    const KnobInfo& k = kPlanKnobs[i];
    const auto id = static_cast<KnobId>(i);
    double v = 0;
    switch (k.kind()) {
      case KnobKind::kFlag: {
        bool b = false;
        QAPLAN_TRY(r.get(k.name, b, true));
        v = b ? 1 : 0;
        break;
      }
      case KnobKind::kCount: {
        int n = 0;
        QAPLAN_TRY(r.count(k.name, n, true));
        v = n;
        break;
      }
      case KnobKind::kUnit:
        QAPLAN_TRY(r.unit(k.name, v, true));
        break;
    }
    set_knob(d, id, v);
  }
  return {};
}

Result<Config> read_config(const Value& root, const std::string& origin) {
  Config c;
  c.origin = origin;
  Reader top{root, "", origin, {}};
  long long schema = 1;
  QAPLAN_TRY(top.get("schema_version", schema, true));
  if (schema != 1)
    return top.err(*top.find("schema_version"), "schema_version", "unsupported (expected 1)");
  QAPLAN_TRY(top.get("default_scenario", c.default_scenario, true));
  // Required tables and keys: every number and list the planner uses is written in the file (no
  // silent built-in value). Optional, and documented in config/rules.toml, are only the tables
  // whose absence switches a feature off: [matching], [route.model], [model], [glossary],
  // [filters], [[prompt_profiles]], the optional keys of [route] and [rewrite], and [ranking.*].
  QAPLAN_TRY(top.section("input", true, [&](Reader& r) -> Status {
    QAPLAN_TRY(r.count("max_question_chars", c.input.max_question_chars, true));
    QAPLAN_TRY(r.get_int("max_history_turns", c.input.max_history_turns, true));
    if (c.input.max_history_turns < 1)
      return r.err(*r.find("max_history_turns"), "max_history_turns",
                   "must be ≥ 1 (0 would refuse every request with history)");
    return {};
  }));
  QAPLAN_TRY(top.section("matching", false, [&](Reader& r) {
    return read_cues(r, "ignore_within", c.matching.ignore_within, false);
  }));
  QAPLAN_TRY(top.section("route", true, [&](Reader& r) { return read_route(r, c.route); }));
  Unique source_names{"source", {}};
  QAPLAN_TRY(each_table(top, "sources", c.sources, [&](Reader& r, SourceConfig& s) -> Status {
    QAPLAN_TRY(r.get("name", s.name, true));
    if (s.name.empty()) return r.err(*r.find("name"), "name", "must not be empty");
    QAPLAN_TRY(source_names.add(r, "name", *r.find("name"), s.name));
    // May be empty: a source known by name, its words from the domain lexicon or the model.
    return read_cues(r, "keywords", s.keywords, true);
  }));
  QAPLAN_TRY(read_scenarios(top, c));
  if (c.scenarios.find(c.default_scenario) == c.scenarios.end())
    return top.err(*top.find("default_scenario"), "default_scenario",
                   "scenario '" + c.default_scenario + "' is not defined in [scenarios]");
  QAPLAN_TRY(top.section("intent", true, [&](Reader& r) -> Status {
    QAPLAN_TRY(r.get("default_rule_id", c.intent.default_rule_id, true));
    if (c.intent.default_rule_id.empty())
      return r.err(*r.find("default_rule_id"), "default_rule_id", "must not be empty");
    QAPLAN_TRY(read_cues(r, "topic_switch", c.intent.topic_switch, true));
    QAPLAN_TRY(r.count("bare_question_max_units", c.intent.bare_question_max_units, false));
    QAPLAN_TRY(read_cues(r, "subjectless_openers", c.intent.subjectless_openers, false));
    QAPLAN_TRY(read_cues(r, "subjectless_times", c.intent.subjectless_times, false));
    QAPLAN_TRY(r.count("subjectless_max_units", c.intent.subjectless_max_units, false));
    QAPLAN_TRY(read_cues(r, "subjectless_which", c.intent.subjectless_which, false));
    std::optional<Intent> di;
    QAPLAN_TRY(read_enum(r, "default_intent", di, parse_intent));
    if (!di) return r.missing("default_intent", true);
    c.intent.default_intent = *di;
    QAPLAN_TRY(r.unit("default_score", c.intent.default_score, true));
    Unique ids{"rule id", {}};
    // The default rule's id is reported like a rule's: it must not be mistaken for one.
    ids.first.emplace(c.intent.default_rule_id, line_of(*r.find("default_rule_id")));
    return each_table(r, "rules", c.intent.rules,
                      [&](Reader& x, IntentRuleConfig& rule) { return read_intent_rule(x, rule, ids); });
  }));
  QAPLAN_TRY(top.section("category", true, [&](Reader& r) { return read_category(r, c.category); }));
  QAPLAN_TRY(top.section("retrieval_strategy", true, [&](Reader& r) -> Status {
    QAPLAN_TRY(r.section("defaults", true, [&](Reader& d) {
      return read_defaults(d, c.retrieval_strategy.defaults);
    }));
    Unique ids{"patch id", {}};
    return each_table(r, "patches", c.retrieval_strategy.patches,
                      [&](Reader& x, PlanPatchConfig& p) { return read_patch(x, p, ids); });
  }));
  QAPLAN_TRY(top.section("model", false, [&](Reader& r) { return read_model(r, c.model); }));
  QAPLAN_TRY(top.section("domain", false, [&](Reader& r) -> Status {
    QAPLAN_TRY(r.get("lexicon", c.domain.lexicon, true));
    QAPLAN_TRY(r.get("sha256", c.domain.sha256));
    QAPLAN_TRY(r.unit("generic_share", c.domain.generic_share));
    if (!c.domain.sha256.empty() &&
        (c.domain.sha256.size() != 64 ||
         c.domain.sha256.find_first_not_of("0123456789abcdef") != std::string::npos))
      return r.err(*r.find("sha256"), "sha256", "must be 64 lower-case hex digits");
    return {};
  }));
  QAPLAN_TRY(top.section("intent_gateway", true,
                         [&](Reader& r) { return read_gateway(r, c.intent_gateway); }));
  QAPLAN_TRY(top.section("rewrite", true, [&](Reader& r) { return read_rewrite(r, c.rewrite); }));
  QAPLAN_TRY(top.section("glossary", false,
                         [&](Reader& r) { return read_glossary(r, c.glossary, c.sources); }));
  QAPLAN_TRY(top.section("routing", true, [&](Reader& r) { return read_routing(r, c.routing); }));
  QAPLAN_TRY(top.section("execution", true,
                         [&](Reader& r) { return read_execution(r, c.execution); }));
  Unique profile_ids{"profile id", {}};
  int catch_all = 0;  // line of a profile without `when`: every later one is unreachable
  QAPLAN_TRY(each_table(top, "prompt_profiles", c.prompt_profiles,
                        [&](Reader& r, PromptProfileConfig& p) -> Status {
                          if (catch_all > 0)
                            return r.err(r.v, "",
                                         "can never be chosen: the profile at line " +
                                             std::to_string(catch_all) +
                                             " has no `when` and matches every question first");
                          QAPLAN_TRY(read_prompt_profile(r, p));
                          QAPLAN_TRY(profile_ids.add(r, "id", *r.find("id"), p.id));
                          if (!p.category && !p.intent && !p.prefer_table) catch_all = line_of(r.v);
                          return {};
                        }));
  if (!c.prompt_profiles.empty() && catch_all == 0)
    if (const Value* arr = top.find("prompt_profiles"))
      return top.err(array_of(*arr).back(), "prompt_profiles",
                     "the last profile must have no `when` (the default)");
  QAPLAN_TRY(top.section("filters", false,
                         [&](Reader& r) { return internal::read_filters_config(r, c.filters); }));
  // [ranking] belongs to the ranking room, which reads it strictly (qaplan/ranking/config.hpp).
  top.find("ranking");
  // [engines] likewise belongs to the engines room (qaplan/engines/engines.hpp).
  top.find("engines");
  QAPLAN_TRY(top.finish());
  QAPLAN_TRY(c.validate());
  return c;
}

}  // namespace

Result<Config> parse_config(std::string_view toml_text, std::string_view origin) {
  return internal::toml_reader::read_document(toml_text, origin, read_config);
}

namespace {

// A glossary file: `[[terms]] standard = "…", aliases = ["…"]`, strict like the rules file.
Result<std::vector<GlossaryTerm>> parse_glossary(std::string_view text, const std::string& origin) {
  return internal::toml_reader::read_document(
      text, origin, [](const Value& root, const std::string& o) -> Result<std::vector<GlossaryTerm>> {
        Reader top{root, "", o, {}};
        std::vector<GlossaryTerm> terms;
        QAPLAN_TRY(each_table(top, "terms", terms, [](Reader& r, GlossaryTerm& t) -> Status {
          QAPLAN_TRY(r.get("standard", t.standard, true));
          if (t.standard.find_first_not_of(" \t") == std::string::npos)
            return r.err(*r.find("standard"), "standard", "must not be empty");
          QAPLAN_TRY(read_cues(r, "aliases", t.aliases, true, true));
          return {};
        }));
        QAPLAN_TRY(top.finish());
        return terms;
      });
}

}  // namespace

Result<Config> load_config(const std::filesystem::path& path) {
  auto text = read_file(path, "config file");
  if (!text.ok()) return text.error();
  QAPLAN_ASSIGN_OR_RETURN(Config c, parse_config(*text, path.string()));
  // Glossaries live beside the rules file; a domain named in [glossary] must load.
  for (const auto& [source, file] : c.glossary.domains) {
    const std::filesystem::path p = path.parent_path() / c.glossary.dir / file;
    auto gtext = read_file(p, "glossary file");
    if (!gtext.ok()) return gtext.error();
    QAPLAN_ASSIGN_OR_RETURN(c.glossary.terms[source], parse_glossary(*gtext, p.string()));
  }
  QAPLAN_TRY(c.validate());
  return c;
}

}  // namespace qaplan
