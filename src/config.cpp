#include "internal/io.hpp"
#include "qaplan/config.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <fstream>
#include <set>
#include <sstream>
#include <toml.hpp>

#include "qaplan/text.hpp"

namespace qaplan {
namespace {

// One spelling table per enum: TOML, JSON and the CLI all use these strings.
constexpr std::array<std::pair<Intent, std::string_view>, 3> kIntentNames{{
    {Intent::kFaqQuery, "FAQ_QUERY"},
    {Intent::kKnowledgeQuery, "KNOWLEDGE_QUERY"},
    {Intent::kFollowUp, "FOLLOW_UP"},
}};
constexpr std::array<std::pair<QuestionCategory, std::string_view>, 5> kCategoryNames{{
    {QuestionCategory::kDefault, "default"},
    {QuestionCategory::kPricing, "pricing"},
    {QuestionCategory::kCompliance, "compliance"},
    {QuestionCategory::kTroubleshooting, "troubleshooting"},
    {QuestionCategory::kSummary, "summary"},
}};

enum class FieldKind { kFlag, kCount, kUnit };  // bool, integer > 0, real in [0, 1]
struct FieldInfo {
  PlanField field;
  std::string_view name;
  FieldKind kind;
};
constexpr std::array<FieldInfo, 13> kFields{{
    {PlanField::kRunFaq, "run_faq", FieldKind::kFlag},
    {PlanField::kRunDoc, "run_doc", FieldKind::kFlag},
    {PlanField::kFaqTopK, "faq_top_k", FieldKind::kCount},
    {PlanField::kDocTopK, "doc_top_k", FieldKind::kCount},
    {PlanField::kRerank, "rerank", FieldKind::kFlag},
    {PlanField::kFaqDirectThreshold, "faq_direct_threshold", FieldKind::kUnit},
    {PlanField::kFinalContextTopN, "final_context_top_n", FieldKind::kCount},
    {PlanField::kMinContextScore, "min_context_score", FieldKind::kUnit},
    {PlanField::kMaxContextChars, "max_context_chars", FieldKind::kCount},
    {PlanField::kMaxContextDocChars, "max_context_doc_chars", FieldKind::kCount},
    {PlanField::kUseQueryVariants, "use_query_variants", FieldKind::kFlag},
    {PlanField::kPreferTable, "prefer_table", FieldKind::kFlag},
    {PlanField::kFaqDirectExactOnly, "faq_direct_exact_only", FieldKind::kFlag},
}};

const FieldInfo* field_by_name(std::string_view name) {
  for (const auto& f : kFields)
    if (f.name == name) return &f;
  return nullptr;
}

const FieldInfo& field_info(PlanField f) {
  for (const auto& fi : kFields)
    if (fi.field == f) return fi;
  return kFields[0];
}

constexpr std::array<std::string_view, 4> kReplyReasons{"greeting", "handoff", "out_of_scope",
                                                        "source_boundary"};

// ---- checks shared by the TOML loader (which adds line numbers) and Config::validate() ----

std::string check_unit(double v) {
  return (std::isfinite(v) && v >= 0.0 && v <= 1.0) ? "" : "must be within [0, 1]";
}
std::string check_count(long long v) { return v > 0 ? "" : "must be > 0"; }
std::string check_words(const std::vector<std::string>& words) {
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (words[i].empty()) return "entry " + std::to_string(i) + " is empty";
    if (!is_valid_utf8(words[i])) return "entry " + std::to_string(i) + " is not valid UTF-8";
  }
  return "";
}
std::string check_change(const PatchChange& ch) {
  const FieldInfo& fi = field_info(ch.field);
  switch (fi.kind) {
    case FieldKind::kFlag:
      if (ch.op != PatchOp::kSet) return "is a flag: only `set` may change it";
      return (ch.value == 0 || ch.value == 1) ? "" : "must be true or false";
    case FieldKind::kCount:
      if (ch.value != std::floor(ch.value)) return "must be an integer";
      return check_count(static_cast<long long>(ch.value));
    case FieldKind::kUnit:
      return check_unit(ch.value);
  }
  return "";
}

// ---- strict TOML reading ----

using TomlValue = toml::value;

struct Reader {
  const TomlValue& v;
  std::string path;  // dotted table path for messages
  const std::string& origin;
  std::set<std::string> used;

  Error err(const TomlValue& at, std::string_view key, std::string msg) const {
    std::string ctx = origin;
    const auto line = at.location().line();
    if (line > 0 && at.location().file_name() != "unknown file") ctx += ":" + std::to_string(line);
    ctx += " [" + path + "]";
    if (!key.empty()) ctx += " " + std::string(key);
    return make_error(ErrorCode::kInvalidConfig, std::move(msg), std::move(ctx));
  }

  const TomlValue* find(std::string_view key) {
    used.insert(std::string(key));
    const auto& t = v.as_table();
    auto it = t.find(std::string(key));
    return it == t.end() ? nullptr : &it->second;
  }

  // Reports the first key nobody asked for: a typo must not be silently ignored.
  Status finish() const {
    std::vector<std::string> unknown;
    for (const auto& [k, val] : v.as_table())
      if (!used.count(k)) unknown.push_back(k);
    if (unknown.empty()) return {};
    std::sort(unknown.begin(), unknown.end());
    return err(v.as_table().at(unknown.front()), unknown.front(), "unknown key");
  }

  Status get(std::string_view key, bool& out, bool required = false) {
    const TomlValue* x = find(key);
    if (!x) return missing(key, required);
    if (!x->is_boolean()) return err(*x, key, "must be a boolean (true/false)");
    out = x->as_boolean();
    return {};
  }
  Status get(std::string_view key, long long& out, bool required = false) {
    const TomlValue* x = find(key);
    if (!x) return missing(key, required);
    if (!x->is_integer()) return err(*x, key, "must be an integer");
    out = x->as_integer();
    return {};
  }
  Status get_int(std::string_view key, int& out, bool required = false) {
    long long tmp = out;
    if (Status st = get(key, tmp, required); !st.ok()) return st;
    if (tmp < -2147483647LL || tmp > 2147483647LL) return err(*find(key), key, "out of range");
    out = static_cast<int>(tmp);
    return {};
  }
  Status get(std::string_view key, double& out, bool required = false) {
    const TomlValue* x = find(key);
    if (!x) return missing(key, required);
    if (x->is_integer()) out = static_cast<double>(x->as_integer());
    else if (x->is_floating()) out = x->as_floating();
    else return err(*x, key, "must be a number");
    return {};
  }
  Status get(std::string_view key, std::string& out, bool required = false) {
    const TomlValue* x = find(key);
    if (!x) return missing(key, required);
    if (!x->is_string()) return err(*x, key, "must be a string");
    out = x->as_string().str;
    if (!is_valid_utf8(out)) return err(*x, key, "is not valid UTF-8");
    return {};
  }
  Status get(std::string_view key, std::vector<std::string>& out, bool required = false) {
    const TomlValue* x = find(key);
    if (!x) return missing(key, required);
    if (!x->is_array()) return err(*x, key, "must be an array of strings");
    out.clear();
    for (const auto& e : x->as_array()) {
      if (!e.is_string()) return err(e, key, "must be an array of strings");
      out.push_back(e.as_string().str);
    }
    if (auto m = check_words(out); !m.empty()) return err(*x, key, m);
    return {};
  }
  Status unit(std::string_view key, double& out, bool required = false) {
    if (Status st = get(key, out, required); !st.ok()) return st;
    if (const TomlValue* x = find(key); x)
      if (auto m = check_unit(out); !m.empty()) return err(*x, key, m);
    return {};
  }
  Status count(std::string_view key, int& out, bool required = false) {
    if (Status st = get_int(key, out, required); !st.ok()) return st;
    if (const TomlValue* x = find(key); x)
      if (auto m = check_count(out); !m.empty()) return err(*x, key, m);
    return {};
  }
  Result<const TomlValue*> table(std::string_view key, bool required = false) {
    const TomlValue* x = find(key);
    if (!x) {
      if (required) return err(v, key, "missing required table");
      return static_cast<const TomlValue*>(nullptr);
    }
    if (!x->is_table()) return err(*x, key, "must be a table");
    return x;
  }
  Result<const TomlValue*> array_of_tables(std::string_view key) {
    const TomlValue* x = find(key);
    if (!x) return static_cast<const TomlValue*>(nullptr);
    if (!x->is_array()) return err(*x, key, "must be an array of tables ([[" + path + "." + std::string(key) + "]])");
    for (const auto& e : x->as_array())
      if (!e.is_table()) return err(e, key, "must be an array of tables");
    return x;
  }
  Status missing(std::string_view key, bool required) const {
    if (required) return err(v, key, "missing required key");
    return {};
  }
  Reader sub(const TomlValue& t, std::string sub_path) const {
    return Reader{t, std::move(sub_path), origin, {}};
  }
};

#define QAPLAN_CAT2(a, b) a##b
#define QAPLAN_CAT(a, b) QAPLAN_CAT2(a, b)
#define QAPLAN_TRY(expr) QAPLAN_TRY_IMPL(expr, QAPLAN_CAT(try_status_, __COUNTER__))
#define QAPLAN_TRY_IMPL(expr, name)                       \
  do {                                                    \
    if (Status name = (expr); !name.ok()) return name.error(); \
  } while (0)

template <class T, class Fn>
Status each_table(Reader& parent, std::string_view key, std::vector<T>& out, Fn&& fn) {
  auto arr = parent.array_of_tables(key);
  if (!arr.ok()) return arr.error();
  if (*arr == nullptr) return {};
  std::size_t i = 0;
  for (const auto& t : (*arr)->as_array()) {
    Reader r = parent.sub(t, parent.path.empty() ? std::string(key) + "[" + std::to_string(i) + "]"
                                                  : parent.path + "." + std::string(key) + "[" +
                                                        std::to_string(i) + "]");
    T item;
    if (Status st = fn(r, item); !st.ok()) return st;
    if (Status st = r.finish(); !st.ok()) return st;
    out.push_back(std::move(item));
    ++i;
  }
  return {};
}

Status read_intent_name(Reader& r, std::string_view key, std::optional<Intent>& out) {
  std::string s;
  QAPLAN_TRY(r.get(key, s));
  if (!r.find(key)) return {};
  auto p = parse_intent(s);
  if (!p.ok()) return r.err(*r.find(key), key, p.error().message);
  out = *p;
  return {};
}

Status read_changes(Reader& r, std::string_view key, PatchOp op, std::vector<PatchChange>& out) {
  auto t = r.table(key);
  if (!t.ok()) return t.error();
  if (*t == nullptr) return {};
  for (const auto& [name, val] : (*t)->as_table()) {
    const FieldInfo* fi = field_by_name(name);
    if (!fi) return r.err(val, std::string(key) + "." + name, "unknown RetrievalPlan field");
    PatchChange ch{fi->field, op, 0};
    if (val.is_boolean()) ch.value = val.as_boolean() ? 1 : 0;
    else if (val.is_integer()) ch.value = static_cast<double>(val.as_integer());
    else if (val.is_floating()) ch.value = val.as_floating();
    else return r.err(val, std::string(key) + "." + name, "must be a number or boolean");
    if (fi->kind == FieldKind::kFlag && !val.is_boolean())
      return r.err(val, std::string(key) + "." + name, "must be true or false");
    if (fi->kind != FieldKind::kFlag && val.is_boolean())
      return r.err(val, std::string(key) + "." + name, "must be a number");
    if (fi->kind == FieldKind::kCount && !val.is_integer())
      return r.err(val, std::string(key) + "." + name, "must be an integer");
    if (auto m = check_change(ch); !m.empty())
      return r.err(val, std::string(key) + "." + name, m);
    for (const auto& prev : out)
      if (prev.field == ch.field)
        return r.err(val, std::string(key) + "." + name, "field changed twice in one patch");
    out.push_back(ch);
  }
  return {};
}

Status read_patch(Reader& r, PlanPatchConfig& p) {
  QAPLAN_TRY(r.get("id", p.id, true));
  QAPLAN_TRY(r.get("tag", p.tag, true));
  auto when = r.table("when");
  if (!when.ok()) return when.error();
  if (*when != nullptr) {
    Reader w = r.sub(**when, r.path + ".when");
    QAPLAN_TRY(read_intent_name(w, "intent", p.when.intent));
    QAPLAN_TRY(read_intent_name(w, "intent_not", p.when.intent_not));
    if (w.find("max_units")) {
      int u = 0;
      QAPLAN_TRY(w.get_int("max_units", u));
      p.when.max_units = u;
    }
    double d = 0;
    if (w.find("confidence_below")) {
      QAPLAN_TRY(w.unit("confidence_below", d));
      p.when.confidence_below = d;
    }
    if (w.find("confidence_at_least")) {
      QAPLAN_TRY(w.unit("confidence_at_least", d));
      p.when.confidence_at_least = d;
    }
    if (w.find("category")) {
      std::string s;
      QAPLAN_TRY(w.get("category", s));
      auto c = parse_question_category(s);
      if (!c.ok()) return w.err(*w.find("category"), "category", c.error().message);
      p.when.category = *c;
    }
    if (w.find("prefer_table")) {
      bool b = false;
      QAPLAN_TRY(w.get("prefer_table", b));
      p.when.prefer_table = b;
    }
    QAPLAN_TRY(w.finish());
  }
  std::vector<PatchChange> changes;
  QAPLAN_TRY(read_changes(r, "set", PatchOp::kSet, changes));
  QAPLAN_TRY(read_changes(r, "at_least", PatchOp::kAtLeast, changes));
  QAPLAN_TRY(read_changes(r, "at_most", PatchOp::kAtMost, changes));
  for (std::size_t i = 0; i < changes.size(); ++i)
    for (std::size_t j = i + 1; j < changes.size(); ++j)
      if (changes[i].field == changes[j].field)
        return r.err(r.v, to_string(changes[i].field), "field changed twice in one patch");
  // TOML inline tables are unordered; field order makes the trace deterministic.
  std::sort(changes.begin(), changes.end(), [](const PatchChange& a, const PatchChange& b) {
    return static_cast<int>(a.field) < static_cast<int>(b.field);
  });
  p.changes = std::move(changes);
  if (p.changes.empty()) return r.err(r.v, "", "patch changes nothing (no set/at_least/at_most)");
  return {};
}

Status read_intent_rule(Reader& r, IntentRuleConfig& rule) {
  QAPLAN_TRY(r.get("id", rule.id, true));
  std::string intent;
  QAPLAN_TRY(r.get("intent", intent, true));
  auto pi = parse_intent(intent);
  if (!pi.ok()) return r.err(*r.find("intent"), "intent", pi.error().message);
  rule.intent = *pi;
  QAPLAN_TRY(r.unit("score", rule.score, true));
  QAPLAN_TRY(r.get("requires_history", rule.requires_history));
  QAPLAN_TRY(r.get("contains_any", rule.contains_any));
  QAPLAN_TRY(r.get("unless_contains_any", rule.unless_contains_any));
  QAPLAN_TRY(r.get("starts_with_any", rule.starts_with_any));
  QAPLAN_TRY(r.get("ends_with_any", rule.ends_with_any));
  if (r.find("max_units")) {
    int u = 0;
    QAPLAN_TRY(r.get_int("max_units", u));
    rule.max_units = u;
  }
  if (r.find("min_units")) {
    int u = 0;
    QAPLAN_TRY(r.get_int("min_units", u));
    rule.min_units = u;
  }
  if (rule.contains_any.empty() && rule.starts_with_any.empty() && rule.ends_with_any.empty() &&
      !rule.max_units && !rule.min_units)
    return r.err(r.v, "",
                 "rule has no condition (contains_any, starts_with_any, ends_with_any, "
                 "max_units or min_units)");
  return {};
}

Result<Config> read_config(const TomlValue& root, const std::string& origin) {
  Config c;
  c.origin = origin;
  Reader top{root, "", origin, {}};
  long long schema = 1;
  QAPLAN_TRY(top.get("schema_version", schema, true));
  if (schema != 1) return top.err(*top.find("schema_version"), "schema_version", "unsupported (expected 1)");
  QAPLAN_TRY(top.get("default_scenario", c.default_scenario));

  if (auto t = top.table("input"); !t.ok()) return t.error();
  else if (*t) {
    Reader r = top.sub(**t, "input");
    QAPLAN_TRY(r.count("max_question_chars", c.input.max_question_chars));
    QAPLAN_TRY(r.get_int("max_history_turns", c.input.max_history_turns));
    if (c.input.max_history_turns < 0) return r.err(*r.find("max_history_turns"), "max_history_turns", "must be ≥ 0");
    QAPLAN_TRY(r.finish());
  }
  if (auto t = top.table("matching"); !t.ok()) return t.error();
  else if (*t) {
    Reader r = top.sub(**t, "matching");
    QAPLAN_TRY(r.get("ignore_within", c.matching.ignore_within));
    QAPLAN_TRY(r.finish());
  }
  {
    auto t = top.table("route", true);
    if (!t.ok()) return t.error();
    Reader r = top.sub(**t, "route");
    QAPLAN_TRY(r.get("greeting", c.route.greeting, true));
    QAPLAN_TRY(r.get("politeness", c.route.politeness));
    QAPLAN_TRY(r.get("handoff", c.route.handoff, true));
    QAPLAN_TRY(r.get("handoff_standalone", c.route.handoff_standalone));
    QAPLAN_TRY(r.get("out_of_scope", c.route.out_of_scope, true));
    auto rep = r.table("replies");
    if (!rep.ok()) return rep.error();
    if (*rep) {
      Reader rr = r.sub(**rep, "route.replies");
      for (std::string_view reason : kReplyReasons) {
        std::string text;
        QAPLAN_TRY(rr.get(reason, text));
        if (rr.find(reason)) c.route.replies[std::string(reason)] = text;
      }
      QAPLAN_TRY(rr.finish());
    }
    QAPLAN_TRY(r.finish());
  }
  QAPLAN_TRY(each_table(top, "sources", c.sources, [](Reader& r, SourceConfig& s) -> Status {
    QAPLAN_TRY(r.get("name", s.name, true));
    QAPLAN_TRY(r.get("keywords", s.keywords, true));
    return {};
  }));
  {
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
  }
  {
    auto t = top.table("intent", true);
    if (!t.ok()) return t.error();
    Reader r = top.sub(**t, "intent");
    QAPLAN_TRY(r.get("default_rule_id", c.intent.default_rule_id));
    std::optional<Intent> di;
    QAPLAN_TRY(read_intent_name(r, "default_intent", di));
    if (di) c.intent.default_intent = *di;
    QAPLAN_TRY(r.unit("default_score", c.intent.default_score));
    QAPLAN_TRY(each_table(r, "rules", c.intent.rules, read_intent_rule));
    QAPLAN_TRY(r.finish());
  }
  {
    auto t = top.table("category", true);
    if (!t.ok()) return t.error();
    Reader r = top.sub(**t, "category");
    QAPLAN_TRY(r.get("table_keywords", c.category.table_keywords, true));
    QAPLAN_TRY(each_table(r, "rules", c.category.rules, [](Reader& rr, CategoryRuleConfig& cr) -> Status {
      std::string name;
      QAPLAN_TRY(rr.get("category", name, true));
      auto pc = parse_question_category(name);
      if (!pc.ok()) return rr.err(*rr.find("category"), "category", pc.error().message);
      if (*pc == QuestionCategory::kDefault)
        return rr.err(*rr.find("category"), "category", "'default' is what no rule matching means");
      cr.category = *pc;
      QAPLAN_TRY(rr.get("keywords", cr.keywords, true));
      return {};
    }));
    QAPLAN_TRY(r.finish());
  }
  {
    auto t = top.table("retrieval_strategy", true);
    if (!t.ok()) return t.error();
    Reader r = top.sub(**t, "retrieval_strategy");
    auto d = r.table("defaults", true);
    if (!d.ok()) return d.error();
    Reader dr = r.sub(**d, "retrieval_strategy.defaults");
    PlanDefaults& pd = c.retrieval_strategy.defaults;
    QAPLAN_TRY(dr.get("run_faq", pd.run_faq, true));
    QAPLAN_TRY(dr.get("run_doc", pd.run_doc, true));
    QAPLAN_TRY(dr.count("faq_top_k", pd.faq_top_k, true));
    QAPLAN_TRY(dr.count("doc_top_k", pd.doc_top_k, true));
    QAPLAN_TRY(dr.get("rerank", pd.rerank, true));
    QAPLAN_TRY(dr.unit("faq_direct_threshold", pd.faq_direct_threshold, true));
    QAPLAN_TRY(dr.count("final_context_top_n", pd.final_context_top_n, true));
    QAPLAN_TRY(dr.unit("min_context_score", pd.min_context_score, true));
    QAPLAN_TRY(dr.count("max_context_chars", pd.max_context_chars, true));
    QAPLAN_TRY(dr.count("max_context_doc_chars", pd.max_context_doc_chars, true));
    QAPLAN_TRY(dr.get("use_query_variants", pd.use_query_variants, true));
    QAPLAN_TRY(dr.get("faq_direct_exact_only", pd.faq_direct_exact_only, true));
    QAPLAN_TRY(dr.get("prefer_table", pd.prefer_table, true));
    QAPLAN_TRY(dr.finish());
    QAPLAN_TRY(each_table(r, "patches", c.retrieval_strategy.patches, read_patch));
    QAPLAN_TRY(r.finish());
  }
  if (auto t = top.table("ranking"); !t.ok()) return t.error();
  else if (*t) {
    Reader r = top.sub(**t, "ranking");
    RankingConfig& k = c.ranking;
    auto section = [&](std::string_view name, auto&& fn) -> Status {
      auto st = r.table(name);
      if (!st.ok()) return st.error();
      if (!*st) return {};
      Reader s = r.sub(**st, "ranking." + std::string(name));
      if (Status x = fn(s); !x.ok()) return x;
      return s.finish();
    };
    QAPLAN_TRY(section("bm25", [&](Reader& s) -> Status {
      QAPLAN_TRY(s.get("k1", k.bm25_k1));
      if (s.find("k1") && !(k.bm25_k1 >= 0 && std::isfinite(k.bm25_k1)))
        return s.err(*s.find("k1"), "k1", "must be a finite number ≥ 0");
      QAPLAN_TRY(s.unit("b", k.bm25_b));
      QAPLAN_TRY(s.get("norms", k.bm25_norms));
      if (k.bm25_norms != "exact" && k.bm25_norms != "lucene")
        return s.err(*s.find("norms"), "norms", "must be \"exact\" or \"lucene\"");
      return {};
    }));
    QAPLAN_TRY(section("hnsw", [&](Reader& s) -> Status {
      QAPLAN_TRY(s.get_int("m", k.hnsw_m));
      if (s.find("m") && k.hnsw_m < 2) return s.err(*s.find("m"), "m", "must be ≥ 2");
      QAPLAN_TRY(s.count("ef_construction", k.hnsw_ef_construction));
      QAPLAN_TRY(s.count("ef_search", k.hnsw_ef_search));
      long long seed = k.hnsw_seed;
      QAPLAN_TRY(s.get("seed", seed));
      if (seed < 0) return s.err(*s.find("seed"), "seed", "must be ≥ 0");
      k.hnsw_seed = seed;
      return {};
    }));
    QAPLAN_TRY(section("rrf", [&](Reader& s) -> Status {
      QAPLAN_TRY(s.get("k", k.rrf_k));
      if (s.find("k") && !(k.rrf_k > 0 && std::isfinite(k.rrf_k)))
        return s.err(*s.find("k"), "k", "must be > 0");
      return {};
    }));
    QAPLAN_TRY(section("bench", [&](Reader& s) -> Status {
      return s.unit("current_vector_threshold", k.current_vector_threshold);
    }));
    QAPLAN_TRY(r.finish());
  }
  QAPLAN_TRY(top.finish());
  if (Status st = c.validate(); !st.ok()) return st.error();
  return c;
}

}  // namespace

std::string_view to_string(Intent intent) noexcept {
  for (const auto& [v, s] : kIntentNames)
    if (v == intent) return s;
  return "KNOWLEDGE_QUERY";
}

Result<Intent> parse_intent(std::string_view s) {
  for (const auto& [v, name] : kIntentNames)
    if (name == s) return v;
  return make_error(ErrorCode::kInvalidInput,
                    "unknown intent '" + std::string(s) + "' (FAQ_QUERY, KNOWLEDGE_QUERY, FOLLOW_UP)");
}

std::string_view to_string(QuestionCategory c) noexcept {
  for (const auto& [v, s] : kCategoryNames)
    if (v == c) return s;
  return "default";
}

Result<QuestionCategory> parse_question_category(std::string_view s) {
  for (const auto& [v, name] : kCategoryNames)
    if (name == s) return v;
  return make_error(ErrorCode::kInvalidInput,
                    "unknown category '" + std::string(s) +
                        "' (default, pricing, compliance, troubleshooting, summary)");
}

std::string_view to_string(PlanField f) noexcept { return field_info(f).name; }

std::string_view to_string(PatchOp op) noexcept {
  switch (op) {
    case PatchOp::kSet: return "set";
    case PatchOp::kAtLeast: return "at_least";
    case PatchOp::kAtMost: return "at_most";
  }
  return "set";
}

Status Config::validate() const {
  auto bad = [&](std::string where, std::string msg) {
    return make_error(ErrorCode::kInvalidConfig, std::move(msg), origin + " " + where);
  };
  if (input.max_question_chars <= 0) return bad("[input] max_question_chars", "must be > 0");
  if (input.max_history_turns < 0) return bad("[input] max_history_turns", "must be ≥ 0");
  std::set<std::string> names;
  for (std::size_t i = 0; i < sources.size(); ++i) {
    if (sources[i].name.empty()) return bad("[[sources]] name", "must not be empty");
    if (!names.insert(sources[i].name).second)
      return bad("[[sources]] name", "duplicate source '" + sources[i].name + "'");
    if (auto m = check_words(sources[i].keywords); !m.empty())
      return bad("[[sources]] " + sources[i].name + " keywords", m);
  }
  if (scenarios.find(default_scenario) == scenarios.end())
    return bad("default_scenario", "scenario '" + default_scenario + "' is not defined in [scenarios]");
  for (const auto& [name, sc] : scenarios) {
    std::set<std::string> seen;
    for (const auto& s : sc.allowed_sources) {
      if (!names.count(s))
        return bad("[scenarios." + name + "] allowed_sources", "unknown source '" + s + "'");
      if (!seen.insert(s).second)
        return bad("[scenarios." + name + "] allowed_sources", "duplicate source '" + s + "'");
    }
  }
  for (const auto* list : {&matching.ignore_within, &route.greeting, &route.politeness,
                           &route.handoff, &route.handoff_standalone, &route.out_of_scope,
                           &category.table_keywords})
    if (auto m = check_words(*list); !m.empty()) return bad("word list", m);
  if (auto m = check_unit(intent.default_score); !m.empty()) return bad("[intent] default_score", m);
  std::set<std::string> rule_ids;
  for (const auto& r : intent.rules) {
    if (r.id.empty()) return bad("[[intent.rules]] id", "must not be empty");
    if (!rule_ids.insert(r.id).second) return bad("[[intent.rules]] id", "duplicate rule id '" + r.id + "'");
    if (auto m = check_unit(r.score); !m.empty()) return bad("[[intent.rules]] " + r.id + " score", m);
  }
  if (rule_ids.count(intent.default_rule_id))
    return bad("[intent] default_rule_id", "collides with a rule id");
  std::set<QuestionCategory> cats;
  for (const auto& cr : category.rules)
    if (!cats.insert(cr.category).second)
      return bad("[[category.rules]] category",
                 "duplicate category '" + std::string(to_string(cr.category)) + "'");
  const PlanDefaults& d = retrieval_strategy.defaults;
  for (int v : {d.faq_top_k, d.doc_top_k, d.final_context_top_n, d.max_context_chars,
                d.max_context_doc_chars})
    if (v <= 0) return bad("[retrieval_strategy.defaults]", "top_k/top_n/chars must be > 0");
  for (double v : {d.faq_direct_threshold, d.min_context_score})
    if (auto m = check_unit(v); !m.empty()) return bad("[retrieval_strategy.defaults]", "thresholds " + m);
  const RankingConfig& k = ranking;
  if (!(k.bm25_k1 >= 0 && std::isfinite(k.bm25_k1))) return bad("[ranking.bm25] k1", "must be ≥ 0");
  if (auto m = check_unit(k.bm25_b); !m.empty()) return bad("[ranking.bm25] b", m);
  if (k.bm25_norms != "exact" && k.bm25_norms != "lucene")
    return bad("[ranking.bm25] norms", "must be \"exact\" or \"lucene\"");
  if (k.hnsw_m < 2 || k.hnsw_ef_construction <= 0 || k.hnsw_ef_search <= 0 || k.hnsw_seed < 0)
    return bad("[ranking.hnsw]", "m must be ≥ 2, ef_construction and ef_search > 0, seed ≥ 0");
  if (!(k.rrf_k > 0 && std::isfinite(k.rrf_k))) return bad("[ranking.rrf] k", "must be > 0");
  if (auto m = check_unit(k.current_vector_threshold); !m.empty())
    return bad("[ranking.bench] current_vector_threshold", m);
  std::set<std::string> patch_ids;
  for (const auto& p : retrieval_strategy.patches) {
    if (p.id.empty()) return bad("[[retrieval_strategy.patches]] id", "must not be empty");
    if (!patch_ids.insert(p.id).second)
      return bad("[[retrieval_strategy.patches]] id", "duplicate patch id '" + p.id + "'");
    for (const auto& ch : p.changes)
      if (auto m = check_change(ch); !m.empty())
        return bad("[[retrieval_strategy.patches]] " + p.id + " " + std::string(to_string(ch.field)), m);
  }
  return {};
}

// toml11 parses nested arrays/inline tables recursively; 20 000 levels overflow the stack,
// which no catch can turn into an error. No rules file needs more than a few levels, so the
// nesting is checked with a linear scan (strings and comments skipped) before parsing.
constexpr int kMaxTomlNesting = 64;

std::optional<int> overly_nested_line(std::string_view t) {
  int depth = 0, line = 1;
  for (std::size_t i = 0; i < t.size(); ++i) {
    const char c = t[i];
    if (c == '\n') ++line;
    if (c == '#') {
      while (i + 1 < t.size() && t[i + 1] != '\n') ++i;
    } else if (c == '"' || c == '\'') {
      const bool multi = t.substr(i, 3) == std::string(3, c);
      const std::string_view close = multi ? std::string_view(c == '"' ? "\"\"\"" : "'''")
                                           : std::string_view(c == '"' ? "\"" : "'");
      i += multi ? 3 : 1;
      while (i < t.size() && t.substr(i, close.size()) != close) {
        if (t[i] == '\n') ++line;
        if (c == '"' && t[i] == '\\') ++i;  // basic strings have escapes
        ++i;
      }
      i += close.size() - 1;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxTomlNesting) return line;
    } else if (c == ']' || c == '}') {
      depth = std::max(0, depth - 1);
    }
  }
  return std::nullopt;
}

Result<Config> parse_config(std::string_view toml_text, std::string_view origin) {
  const std::string name(origin);
  if (!is_valid_utf8(toml_text))
    return make_error(ErrorCode::kInvalidConfig, "not valid UTF-8", name);
  if (auto line = overly_nested_line(toml_text))
    return make_error(ErrorCode::kInvalidConfig,
                      "nesting deeper than " + std::to_string(kMaxTomlNesting) + " levels",
                      name + ":" + std::to_string(*line));
  try {
    std::istringstream in{std::string(toml_text)};
    const TomlValue root = toml::parse(in, name);
    return read_config(root, name);
  } catch (const toml::exception& e) {
    // toml11 prints a multi-line caret diagram; keep the first line and the location.
    std::string what = e.what();
    std::string first = what.substr(0, what.find('\n'));
    if (first.starts_with("[error] ")) first = first.substr(8);
    const auto line = e.location().line();
    std::string ctx = line > 0 ? name + ":" + std::to_string(line) : name;
    // Name the key when the broken line is `key = …`, so the error points at what to fix.
    const std::string src = e.location().line_str();
    if (const auto eq = src.find('='); eq != std::string::npos) {
      std::string key = src.substr(0, eq);
      key.erase(0, key.find_first_not_of(" \t"));
      key.erase(key.find_last_not_of(" \t") + 1);
      if (!key.empty() && key.find_first_of("[]\"'#") == std::string::npos) ctx += " " + key;
    }
    return make_error(ErrorCode::kInvalidConfig, "TOML syntax error: " + first, ctx);
  } catch (const std::exception& e) {
    return make_error(ErrorCode::kInvalidConfig, std::string("cannot parse: ") + e.what(), name);
  }
}

Result<Config> load_config(const std::filesystem::path& path) {
  auto text = internal::read_whole_file(path, "config file");
  if (!text.ok()) return text.error();
  return parse_config(*text, path.string());
}

}  // namespace qaplan
