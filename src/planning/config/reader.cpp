// rules.toml → Config: the strict section readers (common/toml_reader.hpp does the TOML
// mechanics). Cross-field checks live in validate.cpp and run at the end.
#include <algorithm>

#include "qaplan/io.hpp"
#include "common/toml_reader.hpp"
#include "qaplan/planning/config.hpp"

namespace qaplan {
namespace {

using internal::toml_reader::each_table;
using internal::toml_reader::Reader;
using internal::toml_reader::Value;

constexpr std::array<std::string_view, 4> kReplyReasons{"greeting", "handoff", "out_of_scope",
                                                        "source_boundary"};

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
  for (const auto& [name, val] : (*t)->as_table()) {
    const std::string field = std::string(key) + "." + name;
    const auto knob = find_knob(name);
    if (!knob) return r.err(val, field, "unknown RetrievalPlan field");
    const KnobKind kind = kPlanKnobs[*knob].kind();
    PatchChange ch{*knob, op, 0};
    if (val.is_boolean()) ch.value = val.as_boolean() ? 1 : 0;
    else if (val.is_integer()) ch.value = static_cast<double>(val.as_integer());
    else if (val.is_floating()) ch.value = val.as_floating();
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

Status read_patch(Reader& r, PlanPatchConfig& p) {
  QAPLAN_TRY(r.get("id", p.id, true));
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

Status read_intent_rule(Reader& r, IntentRuleConfig& rule) {
  QAPLAN_TRY(r.get("id", rule.id, true));
  std::optional<Intent> intent;
  QAPLAN_TRY(read_enum(r, "intent", intent, parse_intent));
  if (!intent) return r.missing("intent", true);
  rule.intent = *intent;
  QAPLAN_TRY(r.unit("score", rule.score, true));
  QAPLAN_TRY(r.get("requires_history", rule.requires_history));
  QAPLAN_TRY(r.get("contains_any", rule.contains_any));
  QAPLAN_TRY(r.get("unless_contains_any", rule.unless_contains_any));
  QAPLAN_TRY(r.get("starts_with_any", rule.starts_with_any));
  QAPLAN_TRY(r.get("ends_with_any", rule.ends_with_any));
  auto get_int = [&](std::string_view k, int& v) { return r.get_int(k, v); };
  QAPLAN_TRY(read_optional(r, "max_units", rule.max_units, get_int));
  QAPLAN_TRY(read_optional(r, "min_units", rule.min_units, get_int));
  if (rule.contains_any.empty() && rule.starts_with_any.empty() && rule.ends_with_any.empty() &&
      !rule.max_units && !rule.min_units)
    return r.err(r.v, "",
                 "rule has no condition (contains_any, starts_with_any, ends_with_any, "
                 "max_units or min_units)");
  return {};
}

Status read_route(Reader& r, RouteConfig& route) {
  QAPLAN_TRY(r.get("greeting", route.greeting, true));
  QAPLAN_TRY(r.get("politeness", route.politeness));
  QAPLAN_TRY(r.get("handoff", route.handoff, true));
  QAPLAN_TRY(r.get("handoff_standalone", route.handoff_standalone));
  QAPLAN_TRY(r.get("out_of_scope", route.out_of_scope, true));
  return r.section("replies", false, [&](Reader& rr) -> Status {
    for (std::string_view reason : kReplyReasons) {
      std::string text;
      QAPLAN_TRY(rr.get(reason, text));
      if (rr.find(reason)) route.replies[std::string(reason)] = text;
    }
    return {};
  });
}

Status read_scenarios(Reader& top, Config& c) {
  auto t = top.table("scenarios", true);
  if (!t.ok()) return t.error();
  Reader r = top.sub(**t, "scenarios");
  for (const auto& [name, val] : (*t)->as_table()) {
    r.used.insert(name);
    if (!val.is_table()) return r.err(val, name, "must be a table ([scenarios." + name + "])");
    Reader s = r.sub(val, "scenarios." + name);
    ScenarioConfig sc;
    sc.name = name;
    QAPLAN_TRY(s.get("allowed_sources", sc.allowed_sources, true));
    QAPLAN_TRY(s.get("out_of_scope", sc.out_of_scope));
    for (const auto& src : sc.allowed_sources)
      if (std::none_of(c.sources.begin(), c.sources.end(),
                       [&](const SourceConfig& x) { return x.name == src; }))
        return s.err(*s.find("allowed_sources"), "allowed_sources",
                     "unknown source '" + src + "' (not in [[sources]])");
    QAPLAN_TRY(s.finish());
    c.scenarios[name] = std::move(sc);
  }
  return {};
}

Status read_category(Reader& r, CategoryConfig& cat) {
  QAPLAN_TRY(r.get("table_keywords", cat.table_keywords, true));
  return each_table(r, "rules", cat.rules, [](Reader& rr, CategoryRuleConfig& cr) -> Status {
    std::optional<QuestionCategory> c;
    QAPLAN_TRY(read_enum(rr, "category", c, parse_question_category));
    if (!c) return rr.missing("category", true);
    if (*c == QuestionCategory::kDefault)
      return rr.err(*rr.find("category"), "category", "'default' is what no rule matching means");
    cr.category = *c;
    return rr.get("keywords", cr.keywords, true);
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
  QAPLAN_TRY(top.get("default_scenario", c.default_scenario));
  QAPLAN_TRY(top.section("input", false, [&](Reader& r) -> Status {
    QAPLAN_TRY(r.count("max_question_chars", c.input.max_question_chars));
    QAPLAN_TRY(r.get_int("max_history_turns", c.input.max_history_turns));
    if (c.input.max_history_turns < 0)
      return r.err(*r.find("max_history_turns"), "max_history_turns", "must be ≥ 0");
    return {};
  }));
  QAPLAN_TRY(top.section("matching", false, [&](Reader& r) {
    return r.get("ignore_within", c.matching.ignore_within);
  }));
  QAPLAN_TRY(top.section("route", true, [&](Reader& r) { return read_route(r, c.route); }));
  QAPLAN_TRY(each_table(top, "sources", c.sources, [](Reader& r, SourceConfig& s) -> Status {
    QAPLAN_TRY(r.get("name", s.name, true));
    return r.get("keywords", s.keywords, true);
  }));
  QAPLAN_TRY(read_scenarios(top, c));
  QAPLAN_TRY(top.section("intent", true, [&](Reader& r) -> Status {
    QAPLAN_TRY(r.get("default_rule_id", c.intent.default_rule_id));
    std::optional<Intent> di;
    QAPLAN_TRY(read_enum(r, "default_intent", di, parse_intent));
    if (di) c.intent.default_intent = *di;
    QAPLAN_TRY(r.unit("default_score", c.intent.default_score));
    return each_table(r, "rules", c.intent.rules, read_intent_rule);
  }));
  QAPLAN_TRY(top.section("category", true, [&](Reader& r) { return read_category(r, c.category); }));
  QAPLAN_TRY(top.section("retrieval_strategy", true, [&](Reader& r) -> Status {
    QAPLAN_TRY(r.section("defaults", true, [&](Reader& d) {
      return read_defaults(d, c.retrieval_strategy.defaults);
    }));
    return each_table(r, "patches", c.retrieval_strategy.patches, read_patch);
  }));
  // [ranking] belongs to the ranking room, which reads it strictly (qaplan/ranking/config.hpp).
  top.find("ranking");
  QAPLAN_TRY(top.finish());
  QAPLAN_TRY(c.validate());
  return c;
}

}  // namespace

Result<Config> parse_config(std::string_view toml_text, std::string_view origin) {
  return internal::toml_reader::read_document(toml_text, origin, read_config);
}

Result<Config> load_config(const std::filesystem::path& path) {
  auto text = read_file(path, "config file");
  if (!text.ok()) return text.error();
  return parse_config(*text, path.string());
}

}  // namespace qaplan
