// Stage — plan: defaults ⊕ patches in file order, over the knob table of plan.hpp.
#include <algorithm>
#include <cmath>

#include "common/enum_table.hpp"
#include "common/toml_reader.hpp"
#include "qaplan/planning/config.hpp"
#include "qaplan/planning/plan.hpp"

namespace qaplan {
namespace {

constexpr internal::EnumTable<PatchOp, 3> kPatchOps{{{
    {PatchOp::kSet, "set"},
    {PatchOp::kAtLeast, "at_least"},
    {PatchOp::kAtMost, "at_most"},
}}};

bool holds(const PatchCondition& w, const IntentResult& intent, const PlanSignals& s) {
  if (w.intent && intent.intent != *w.intent) return false;
  if (w.intent_not && intent.intent == *w.intent_not) return false;
  if (w.max_units && s.query_units > *w.max_units) return false;
  if (w.confidence_below && !(intent.confidence < *w.confidence_below)) return false;
  if (w.confidence_at_least && !(intent.confidence >= *w.confidence_at_least)) return false;
  if (w.category && s.category != *w.category) return false;
  if (w.prefer_table && s.prefer_table != *w.prefer_table) return false;
  return true;
}

double apply(PatchOp op, double current, double operand) {
  switch (op) {
    case PatchOp::kSet: return operand;
    case PatchOp::kAtLeast: return std::max(current, operand);
    case PatchOp::kAtMost: return std::min(current, operand);
  }
  return current;
}

}  // namespace

std::string_view to_string(PatchOp op) noexcept { return kPatchOps.name(op); }

std::optional<KnobId> find_knob(std::string_view name) noexcept {
  for (std::size_t i = 0; i < kPlanKnobs.size(); ++i)
    if (kPlanKnobs[i].name == name) return static_cast<KnobId>(i);
  return std::nullopt;
}

double get_knob(const PlanKnobs& k, KnobId id) noexcept {
  return std::visit([&](auto member) { return static_cast<double>(k.*member); },
                    kPlanKnobs[id].member);
}

void set_knob(PlanKnobs& k, KnobId id, double value) noexcept {
  std::visit(
      [&](auto member) {
        using T = std::remove_reference_t<decltype(k.*member)>;
        if constexpr (std::is_same_v<T, bool>) k.*member = value != 0;
        else k.*member = static_cast<T>(value);
      },
      kPlanKnobs[id].member);
}

std::string check_knob_value(KnobId id, double v) {
  if (id >= kPlanKnobs.size()) return "unknown knob";
  switch (kPlanKnobs[id].kind()) {
    case KnobKind::kFlag:
      return (v == 0 || v == 1) ? "" : "must be true or false";
    case KnobKind::kCount:
      if (v != std::floor(v)) return "must be an integer";
      if (v > 2147483647.0) return "out of range";
      return internal::toml_reader::check_count(static_cast<long long>(v));
    case KnobKind::kUnit:
      return internal::toml_reader::check_unit(v);
  }
  return "";
}

// The only place that writes RetrievalPlan's fields.
struct PlanBuilder {
  static RetrievalPlan build(const PlanKnobs& knobs, const IntentResult& intent,
                             QuestionCategory category, std::string reason) {
    RetrievalPlan p;
    p.knobs_ = knobs;
    p.question_category_ = category;
    p.intent_rule_score_ = intent.rule_score;
    p.intent_decision_score_ = intent.confidence;
    // A config whose patches all stay silent still yields an explainable reason.
    p.reason_ = reason.empty() ? "default" : std::move(reason);
    return p;
  }
};

Result<PlanResult> build_retrieval_plan(const RouteDecision& route, const IntentResult& intent,
                                        const PlanSignals& signals,
                                        const RetrievalStrategyConfig& strategy) {
  if (route.route != Route::kRetrieval)
    return make_error(ErrorCode::kInvalidInput,
                      "build_retrieval_plan called for a direct answer (" +
                          std::string(to_string(route.reason)) + "); direct answers have no plan",
                      "plan");
  PlanKnobs knobs = strategy.defaults;
  std::string reason;
  reason.reserve(64);  // tags joined by '_': one allocation instead of regrowth
  PlanTrace trace;
  trace.fired.reserve(strategy.patches.size());  // one allocation instead of regrowth
  for (const PlanPatchConfig& patch : strategy.patches) {
    if (!holds(patch.when, intent, signals)) continue;
    FiredPatch fired{patch.id, patch.tag, {}};
    fired.changes.reserve(patch.changes.size());
    for (const PatchChange& ch : patch.changes) {
      const double before = get_knob(knobs, ch.knob);
      const double after = apply(ch.op, before, ch.value);
      set_knob(knobs, ch.knob, after);
      fired.changes.push_back({ch.knob, ch.op, ch.value, before, after});
    }
    if (!patch.tag.empty()) {
      if (!reason.empty()) reason += '_';
      reason += patch.tag;
    }
    trace.fired.push_back(std::move(fired));
  }
  return PlanResult{PlanBuilder::build(knobs, intent, signals.category, std::move(reason)),
                    std::move(trace)};
}

}  // namespace qaplan
