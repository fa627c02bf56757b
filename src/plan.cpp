#include "qaplan/plan.hpp"

#include <algorithm>

namespace qaplan {

// The only place that writes RetrievalPlan's fields.
struct PlanBuilder {
  RetrievalPlan p;

  double get(PlanField f) const {
    switch (f) {
      case PlanField::kRunFaq: return p.run_faq_;
      case PlanField::kRunDoc: return p.run_doc_;
      case PlanField::kFaqTopK: return p.faq_top_k_;
      case PlanField::kDocTopK: return p.doc_top_k_;
      case PlanField::kRerank: return p.rerank_;
      case PlanField::kFaqDirectThreshold: return p.faq_direct_threshold_;
      case PlanField::kFinalContextTopN: return p.final_context_top_n_;
      case PlanField::kMinContextScore: return p.min_context_score_;
      case PlanField::kMaxContextChars: return p.max_context_chars_;
      case PlanField::kMaxContextDocChars: return p.max_context_doc_chars_;
      case PlanField::kUseQueryVariants: return p.use_query_variants_;
      case PlanField::kPreferTable: return p.prefer_table_;
      case PlanField::kFaqDirectExactOnly: return p.faq_direct_exact_only_;
    }
    return 0;
  }

  void put(PlanField f, double v) {
    // Config validation guarantees integers for counts and 0/1 for flags.
    const int i = static_cast<int>(v);
    const bool b = v != 0;
    switch (f) {
      case PlanField::kRunFaq: p.run_faq_ = b; break;
      case PlanField::kRunDoc: p.run_doc_ = b; break;
      case PlanField::kFaqTopK: p.faq_top_k_ = i; break;
      case PlanField::kDocTopK: p.doc_top_k_ = i; break;
      case PlanField::kRerank: p.rerank_ = b; break;
      case PlanField::kFaqDirectThreshold: p.faq_direct_threshold_ = v; break;
      case PlanField::kFinalContextTopN: p.final_context_top_n_ = i; break;
      case PlanField::kMinContextScore: p.min_context_score_ = v; break;
      case PlanField::kMaxContextChars: p.max_context_chars_ = i; break;
      case PlanField::kMaxContextDocChars: p.max_context_doc_chars_ = i; break;
      case PlanField::kUseQueryVariants: p.use_query_variants_ = b; break;
      case PlanField::kPreferTable: p.prefer_table_ = b; break;
      case PlanField::kFaqDirectExactOnly: p.faq_direct_exact_only_ = b; break;
    }
  }

  void signals(const IntentResult& intent, QuestionCategory category) {
    p.question_category_ = category;
    p.intent_rule_score_ = intent.rule_score;
    p.intent_decision_score_ = intent.confidence;
  }

  void add_tag(const std::string& tag) {
    if (tag.empty()) return;
    if (!p.reason_.empty()) p.reason_ += '_';
    p.reason_ += tag;
  }

  RetrievalPlan finish() {
    // A config whose patches all stay silent still yields an explainable reason.
    if (p.reason_.empty()) p.reason_ = "default";
    return std::move(p);
  }

  void defaults(const PlanDefaults& d) {
    p.run_faq_ = d.run_faq;
    p.run_doc_ = d.run_doc;
    p.faq_top_k_ = d.faq_top_k;
    p.doc_top_k_ = d.doc_top_k;
    p.rerank_ = d.rerank;
    p.faq_direct_threshold_ = d.faq_direct_threshold;
    p.final_context_top_n_ = d.final_context_top_n;
    p.min_context_score_ = d.min_context_score;
    p.max_context_chars_ = d.max_context_chars;
    p.max_context_doc_chars_ = d.max_context_doc_chars;
    p.use_query_variants_ = d.use_query_variants;
    p.faq_direct_exact_only_ = d.faq_direct_exact_only;
    p.prefer_table_ = d.prefer_table;
  }
};

namespace {

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

Result<PlanResult> build_retrieval_plan(const RouteDecision& route, const IntentResult& intent,
                                        const PlanSignals& signals,
                                        const RetrievalStrategyConfig& strategy) {
  if (route.route != Route::kRetrieval)
    return make_error(ErrorCode::kInvalidInput,
                      "build_retrieval_plan called for a direct answer (" +
                          std::string(to_string(route.reason)) + "); direct answers have no plan",
                      "plan");
  PlanBuilder b;
  b.defaults(strategy.defaults);
  b.signals(intent, signals.category);
  PlanTrace trace;
  for (const PlanPatchConfig& patch : strategy.patches) {
    if (!holds(patch.when, intent, signals)) continue;
    FiredPatch fired{patch.id, patch.tag, {}};
    for (const PatchChange& ch : patch.changes) {
      const double before = b.get(ch.field);
      const double after = apply(ch.op, before, ch.value);
      b.put(ch.field, after);
      fired.changes.push_back({ch.field, ch.op, ch.value, before, after});
    }
    b.add_tag(patch.tag);
    trace.fired.push_back(std::move(fired));
  }
  return PlanResult{b.finish(), std::move(trace)};
}

}  // namespace qaplan
