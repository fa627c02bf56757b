#include "qaplan/planning/json.hpp"

#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "common/json_reader.hpp"

namespace qaplan {
namespace {

using nlohmann::ordered_json;

// Plan numbers come from config decimals (0.84); round to 12 significant digits so JSON shows
// 0.84, not 0.84000000000000008, while staying exact for every value a config can hold.
double tidy(double v) {
  if (v == 0 || !std::isfinite(v)) return v;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.12g", v);
  return std::strtod(buf, nullptr);
}

ordered_json optional_string(const std::optional<std::string>& s) {
  return s ? ordered_json(*s) : ordered_json(nullptr);
}

ordered_json candidate_json(const IntentCandidate& c) {
  return {{"intent", to_string(c.intent)},
          {"score", tidy(c.score)},
          {"rule_id", c.rule_id},
          {"matched_rules", c.matched_rules},
          {"requires_rewrite", c.requires_rewrite},
          {"suggested_source", optional_string(c.suggested_source)}};
}

// A knob value in its own type.
ordered_json knob_json(KnobId id, double v) {
  switch (kPlanKnobs[id].kind()) {
    case KnobKind::kFlag: return v != 0;
    case KnobKind::kCount: return static_cast<long long>(v);
    case KnobKind::kUnit: return tidy(v);
  }
  return v;
}

ordered_json plan_json(const RetrievalPlan& p) {
  ordered_json j;
  for (std::size_t i = 0; i < kPlanKnobs.size(); ++i) {
    const auto id = static_cast<KnobId>(i);
    j[std::string(kPlanKnobs[i].name)] = knob_json(id, get_knob(p.knobs(), id));
  }
  j["question_category"] = to_string(p.question_category());
  j["intent_rule_score"] = tidy(p.intent_rule_score());
  j["intent_decision_score"] = tidy(p.intent_decision_score());
  j["reason"] = p.reason();
  return j;
}

ordered_json trace_json(const PlanTrace& t) {
  ordered_json fired = ordered_json::array();
  for (const auto& f : t.fired) {
    ordered_json changes = ordered_json::array();
    for (const auto& ch : f.changes)
      changes.push_back({{"field", kPlanKnobs[ch.knob].name},
                         {"op", to_string(ch.op)},
                         {"value", knob_json(ch.knob, ch.value)},
                         {"before", knob_json(ch.knob, ch.before)},
                         {"after", knob_json(ch.knob, ch.after)}});
    fired.push_back({{"id", f.id}, {"tag", f.tag}, {"changes", std::move(changes)}});
  }
  return {{"fired", std::move(fired)}};
}

ordered_json strings_or_null(const std::optional<std::string>& s) { return optional_string(s); }

ordered_json analysis_json(const QueryAnalysis& a) {
  ordered_json j;
  const Rewrite& r = a.rewrite;
  j["rewrite"] = {{"query", r.query},
                  {"rewritten", r.rewritten},
                  {"by", r.by},
                  {"topic_anchor", r.topic_anchor},
                  {"history_summary", r.history_summary},
                  {"reasons", r.reasons},
                  {"hook_error", r.hook_error.empty() ? ordered_json(nullptr) : ordered_json(r.hook_error)}};
  ordered_json variants = ordered_json::array();
  for (const QueryVariant& v : a.variants)
    variants.push_back({{"text", v.text}, {"kind", v.kind}, {"hypothetical", v.hypothetical},
                        {"origin", v.origin}});
  j["variants"] = std::move(variants);
  j["variant_reasons"] = a.variant_reasons;
  ordered_json rejected = ordered_json::array();
  for (const RejectedVariant& v : a.rejected)
    rejected.push_back({{"text", v.text}, {"kind", v.kind}, {"reason", v.reason}});
  j["rejected_variants"] = std::move(rejected);
  ordered_json calls = ordered_json::array();
  for (const HookCall& h : a.hook_calls)
    calls.push_back({{"hook", h.hook}, {"kind", h.kind}, {"ok", h.ok},
                     {"error", h.error.empty() ? ordered_json(nullptr) : ordered_json(h.error)},
                     {"kept", h.kept}, {"rejected", h.rejected}});
  j["hook_calls"] = std::move(calls);
  const Filters& f = a.filters;
  auto range_json = [](const TimeRange& t) {
    ordered_json out = {{"from", t.from}, {"to", t.to}, {"expression", t.expression},
                        {"anchor", t.anchor}, {"timezone", t.timezone}, {"date", t.date}};
    if (!t.field.empty()) out["field"] = t.field;
    return out;
  };
  ordered_json time = f.time ? range_json(*f.time) : ordered_json(nullptr);
  ordered_json ranges = ordered_json::array();  // every period: a comparison has two
  for (const TimeRange& t : f.time_ranges) ranges.push_back(range_json(t));
  j["filters"] = {{"date_range", std::move(time)},
                  {"date_ranges", std::move(ranges)},
                  {"department", strings_or_null(f.department)},
                  {"tags", f.tags},
                  {"path_prefix", strings_or_null(f.path_prefix)},
                  {"is_signed", f.is_signed ? ordered_json(*f.is_signed) : ordered_json(nullptr)},
                  {"user", strings_or_null(f.user)},
                  {"uncertain", f.uncertain},
                  {"preferred", f.preferred},
                  {"reasons", f.reasons}};
  j["routing"] = {{"index", a.routing.index},     {"mode", a.routing.mode},
                  {"model_tier", a.routing.model_tier}, {"ids", a.routing.ids},
                  {"parts", a.routing.parts},      {"reasons", a.routing.reasons}};
  j["execution"] = {{"path", a.execution.path},
                    {"confidence", tidy(a.execution.confidence)},
                    {"explicit_request", a.execution.explicit_request},
                    {"reasons", a.execution.reasons}};
  ordered_json ladder = ordered_json::array();
  for (const FallbackStep& s : a.fallback) {
    ordered_json params = ordered_json::object();
    for (const auto& [k, v] : s.params) params[k] = v;
    ladder.push_back({{"step", s.step}, {"action", s.action}, {"params", std::move(params)}});
  }
  j["fallback"] = std::move(ladder);
  const BudgetPolicy& b = a.budget;
  j["budget"] = {{"normal_below_tokens", b.normal_below_tokens},
                 {"stop_retrieval_at_tokens", b.stop_retrieval_at_tokens},
                 {"max_tool_calls", b.max_tool_calls},
                 {"escalate_below_rerank_score", tidy(b.escalate_below_rerank_score)},
                 {"max_research_rounds", b.max_research_rounds},
                 {"escalate_when", b.escalate_when}};
  const PromptProfile& p = a.prompt;
  j["prompt_profile"] = {{"id", p.id},
                         {"citation_style", p.citation_style},
                         {"caution", p.caution},
                         {"answer_format", p.answer_format},
                         {"max_context_chars", p.max_context_chars},
                         {"max_context_doc_chars", p.max_context_doc_chars},
                         {"final_context_top_n", p.final_context_top_n},
                         {"reasons", p.reasons}};
  j["cost"] = {{"model_calls", a.cost.model_calls},
               {"retrieval_calls", a.cost.retrieval_calls},
               {"variant_paths", a.cost.variant_paths},
               {"hook_failures", a.cost.hook_failures},
               {"variants_rejected", a.cost.variants_rejected}};
  return j;
}

ordered_json preparation_json(const Preparation& p, const JsonOptions& opts,
                              const QueryAnalysis* analysis);

}  // namespace

std::string to_json(const Preparation& p, const JsonOptions& opts) {
  return preparation_json(p, opts, nullptr)
      .dump(opts.pretty ? 2 : -1, ' ', false, ordered_json::error_handler_t::replace);
}

std::string to_json(const Preparation& p, const QueryAnalysis& a, const JsonOptions& opts) {
  return preparation_json(p, opts, &a)
      .dump(opts.pretty ? 2 : -1, ' ', false, ordered_json::error_handler_t::replace);
}

std::string rewrite_to_json(const Preparation& p, const QueryAnalysis& a, const JsonOptions& opts) {
  ordered_json j;
  j["query"] = p.query;
  j["normalized_query"] = p.normalized.text;
  j["history"] = p.history;
  j["route"] = to_string(p.route.route);
  j["intent"] = p.intent ? ordered_json(to_string(p.intent->intent)) : ordered_json(nullptr);
  j["follow_up"] = p.intent && p.intent->intent == Intent::kFollowUp;
  j["matched_rules"] = p.intent ? ordered_json(p.intent->matched_rules) : ordered_json::array();
  j["rewrite"] = analysis_json(a)["rewrite"];
  return j.dump(opts.pretty ? 2 : -1, ' ', false, ordered_json::error_handler_t::replace);
}

std::string to_json(const QueryAnalysis& a, const JsonOptions& opts) {
  return analysis_json(a).dump(opts.pretty ? 2 : -1, ' ', false, ordered_json::error_handler_t::replace);
}

namespace {

ordered_json preparation_json(const Preparation& p, const JsonOptions& opts,
                              const QueryAnalysis* analysis) {
  ordered_json j;
  j["query"] = p.query;
  j["normalized_query"] = p.normalized.text;
  j["query_units"] = p.normalized.query_units;
  j["route"] = {{"route", to_string(p.route.route)},
                {"reason", to_string(p.route.reason)},
                {"detail", p.route.detail},
                {"reply", p.route.reply},
                {"decided_by", to_string(p.route.decided_by)},
                {"score", tidy(p.route.score)}};
  if (p.intent) {
    const IntentResult& i = *p.intent;
    j["intent"] = {{"intent", to_string(i.intent)},
                   {"rule_score", tidy(i.rule_score)},
                   {"confidence", tidy(i.confidence)},
                   {"requires_rewrite", i.requires_rewrite},
                   {"suggested_source", optional_string(i.suggested_source)},
                   {"decision_policy", to_string(i.decision_policy)},
                   {"matched_rules", i.matched_rules},
                   {"rule_candidate", candidate_json(i.rule_candidate)},
                   {"model_candidate", i.model_candidate ? candidate_json(*i.model_candidate)
                                                         : ordered_json(nullptr)},
                   {"model_error", i.model_error.empty() ? ordered_json(nullptr)
                                                         : ordered_json(i.model_error)}};
  } else {
    j["intent"] = nullptr;
  }
  j["effective_source"] = optional_string(p.effective_source);
  j["effective_sources"] = p.effective_sources;
  j["fallback_sources"] = p.fallback_sources ? ordered_json(*p.fallback_sources) : ordered_json(nullptr);
  j["signals"] = {
      {"source", {{"value", optional_string(p.source.value)},
                  {"decided_by", to_string(p.source.decided_by)},
                  {"score", tidy(p.source.score)},
                  {"detail", p.source.detail}}},
      {"category", {{"value", to_string(p.category.value)},
                    {"decided_by", to_string(p.category.decided_by)},
                    {"score", tidy(p.category.score)}}}};
  if (p.model) {
    const ModelVerdicts& m = *p.model;
    j["model"] = {{"name", m.model},
                  {"act", {{"label", m.act}, {"score", tidy(m.act_score)}}},
                  {"intent", {{"label", m.intent}, {"score", tidy(m.intent_score)}}},
                  {"category", {{"label", m.category}, {"score", tidy(m.category_score)}}},
                  {"source", {{"label", m.source}, {"score", tidy(m.source_score)}}},
                  {"dependent", tidy(m.dependent_score)}};
  } else {
    j["model"] = nullptr;
  }
  j["retrieval_plan"] = p.plan ? plan_json(*p.plan) : ordered_json(nullptr);
  j["plan_trace"] = p.plan_trace ? trace_json(*p.plan_trace) : ordered_json(nullptr);
  if (analysis) j["analysis"] = analysis_json(*analysis);
  if (opts.timings) {
    const auto us = [](std::int64_t ns) { return static_cast<double>(ns) / 1000.0; };
    j["timings_us"] = {{"text", us(p.timings.text_ns)},     {"route", us(p.timings.route_ns)},
                       {"intent", us(p.timings.intent_ns)}, {"category", us(p.timings.category_ns)},
                       {"plan", us(p.timings.plan_ns)},     {"total", us(p.timings.total_ns)}};
  }
  // Invalid UTF-8 never reaches here (normalize rejects it), but dump() replaces rather than throws.
  return j;
}

}  // namespace

std::string error_to_json(const Error& e, long batch_line) {
  ordered_json err{{"code", to_string(e.code)}, {"message", e.message}, {"context", e.where()}};
  if (!e.file.empty()) err["file"] = e.file;
  if (e.line > 0) err["line"] = e.line;
  if (e.column > 0) err["column"] = e.column;
  if (!e.field.empty()) err["field"] = e.field;
  ordered_json j;
  j["error"] = std::move(err);
  if (batch_line > 0) j["line"] = batch_line;
  return j.dump(-1, ' ', false, ordered_json::error_handler_t::replace);
}

namespace {

// A usable id: a string or an integer (a float would not compare back reliably).
bool valid_id(const internal::json::Json& v) { return v.is_string() || v.is_number_integer(); }

std::string id_text(const internal::json::Json& v) {
  return v.dump(-1, ' ', false, internal::json::Json::error_handler_t::replace);
}

}  // namespace

PrepareRequest BatchLine::request(const PrepareRequest& defaults) const {
  PrepareRequest r;
  r.question = question;
  r.history = history ? *history : defaults.history;
  r.scenario = scenario ? *scenario : defaults.scenario;
  r.source = source ? source : defaults.source;
  return r;
}

Result<BatchLine> parse_batch_line(std::string_view json_line) {
  namespace js = internal::json;
  return js::read_json("", 0, [&] {
    const js::Json j = js::parse_strict(json_line);
    if (!j.is_object()) js::fail("", "each line must be a JSON object");
    js::expect_keys(j, "", {"question"}, {"history", "scenario", "source", "id"});
    BatchLine r;
    const js::Json& q = j.at("question");
    if (!q.is_string()) js::fail("question", "must be a string");
    r.question = q.get<std::string>();
    if (auto it = j.find("history"); it != j.end() && !it->is_null()) {
      if (!it->is_array()) js::fail("history", "must be an array of strings");
      r.history.emplace();
      for (const auto& h : *it) {
        if (!h.is_string()) js::fail("history", "must be an array of strings");
        r.history->push_back(h.get<std::string>());
      }
    }
    for (const char* key : {"scenario", "source"}) {
      auto it = j.find(key);
      if (it == j.end() || it->is_null()) continue;
      if (!it->is_string()) js::fail(key, "must be a string");
      if (std::string_view(key) == "scenario") r.scenario = it->get<std::string>();
      else r.source = it->get<std::string>();
    }
    if (auto it = j.find("id"); it != j.end() && !it->is_null()) {
      if (!valid_id(*it)) js::fail("id", "must be a string or an integer");
      r.id = id_text(*it);
    }
    return r;
  });
}

std::optional<std::string> batch_line_id(std::string_view json_line) {
  namespace js = internal::json;
  const js::Json j = js::Json::parse(json_line, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object()) return std::nullopt;
  const auto it = j.find("id");
  if (it == j.end() || !valid_id(*it)) return std::nullopt;
  return id_text(*it);
}

Result<PrepareRequest> parse_prepare_request(std::string_view json_line) {
  QAPLAN_ASSIGN_OR_RETURN(BatchLine line, parse_batch_line(json_line));
  return line.request();
}

}  // namespace qaplan
