#include "qaplan/json.hpp"

#include <cmath>
#include <nlohmann/json.hpp>

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

ordered_json plan_json(const RetrievalPlan& p) {
  return {{"run_faq", p.run_faq()},
          {"run_doc", p.run_doc()},
          {"faq_top_k", p.faq_top_k()},
          {"doc_top_k", p.doc_top_k()},
          {"rerank", p.rerank()},
          {"faq_direct_threshold", tidy(p.faq_direct_threshold())},
          {"final_context_top_n", p.final_context_top_n()},
          {"min_context_score", tidy(p.min_context_score())},
          {"max_context_chars", p.max_context_chars()},
          {"max_context_doc_chars", p.max_context_doc_chars()},
          {"use_query_variants", p.use_query_variants()},
          {"question_category", to_string(p.question_category())},
          {"prefer_table", p.prefer_table()},
          {"faq_direct_exact_only", p.faq_direct_exact_only()},
          {"intent_rule_score", tidy(p.intent_rule_score())},
          {"intent_decision_score", tidy(p.intent_decision_score())},
          {"reason", p.reason()}};
}

ordered_json field_value(PlanField f, double v) {
  switch (f) {
    case PlanField::kRunFaq: case PlanField::kRunDoc: case PlanField::kRerank:
    case PlanField::kUseQueryVariants: case PlanField::kPreferTable:
    case PlanField::kFaqDirectExactOnly:
      return v != 0;
    case PlanField::kFaqDirectThreshold: case PlanField::kMinContextScore:
      return tidy(v);
    default:
      return static_cast<long long>(v);
  }
}

ordered_json trace_json(const PlanTrace& t) {
  ordered_json fired = ordered_json::array();
  for (const auto& f : t.fired) {
    ordered_json changes = ordered_json::array();
    for (const auto& ch : f.changes)
      changes.push_back({{"field", to_string(ch.field)},
                         {"op", to_string(ch.op)},
                         {"value", field_value(ch.field, ch.value)},
                         {"before", field_value(ch.field, ch.before)},
                         {"after", field_value(ch.field, ch.after)}});
    fired.push_back({{"id", f.id}, {"tag", f.tag}, {"changes", std::move(changes)}});
  }
  return {{"fired", std::move(fired)}};
}

}  // namespace

std::string to_json(const Preparation& p, const JsonOptions& opts) {
  ordered_json j;
  j["query"] = p.query;
  j["normalized_query"] = p.normalized.text;
  j["query_units"] = p.normalized.query_units;
  j["route"] = {{"route", to_string(p.route.route)},
                {"reason", to_string(p.route.reason)},
                {"detail", p.route.detail},
                {"reply", p.route.reply}};
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
                                                         : ordered_json(nullptr)}};
  } else {
    j["intent"] = nullptr;
  }
  j["effective_source"] = optional_string(p.effective_source);
  j["retrieval_plan"] = p.plan ? plan_json(*p.plan) : ordered_json(nullptr);
  j["plan_trace"] = p.plan_trace ? trace_json(*p.plan_trace) : ordered_json(nullptr);
  if (opts.timings) {
    const auto us = [](std::int64_t ns) { return static_cast<double>(ns) / 1000.0; };
    j["timings_us"] = {{"text", us(p.timings.text_ns)},       {"route", us(p.timings.route_ns)},
                       {"intent", us(p.timings.intent_ns)},   {"category", us(p.timings.category_ns)},
                       {"plan", us(p.timings.plan_ns)},       {"total", us(p.timings.total_ns)}};
  }
  // Invalid UTF-8 never reaches here (normalize rejects it), but replace rather than throw.
  return j.dump(opts.pretty ? 2 : -1, ' ', false, ordered_json::error_handler_t::replace);
}

std::string error_to_json(const Error& e, long line) {
  ordered_json j;
  j["error"] = {{"code", to_string(e.code)}, {"message", e.message}, {"context", e.context}};
  if (line > 0) j["line"] = line;
  return j.dump(-1, ' ', false, ordered_json::error_handler_t::replace);
}

}  // namespace qaplan
