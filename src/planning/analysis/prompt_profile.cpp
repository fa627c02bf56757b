// build_answer_prompt_profile(): the answer prompt's parameters chosen from the plan.
#include "qaplan/planning/analysis.hpp"
#include "qaplan/planning/config.hpp"
#include "qaplan/planning/plan.hpp"

namespace qaplan {

PromptProfile build_answer_prompt_profile(const RetrievalPlan& plan, const IntentResult& intent,
                                          const Config& config) {
  PromptProfile p;
  const PlanKnobs& k = plan.knobs();
  p.max_context_chars = k.max_context_chars;
  p.max_context_doc_chars = k.max_context_doc_chars;
  p.final_context_top_n = k.final_context_top_n;
  for (const PromptProfileConfig& c : config.prompt_profiles) {
    if (c.category && *c.category != plan.question_category()) continue;
    if (c.intent && *c.intent != intent.intent) continue;
    if (c.prefer_table && *c.prefer_table != k.prefer_table) continue;
    p.id = c.id;
    p.citation_style = c.citation_style;
    p.caution = c.caution;
    p.answer_format = c.answer_format;
    // Appended in place into one buffer (every analysis builds it: no temporaries).
    std::string why;
    why.reserve(64);
    why.append("profile:").append(c.id);
    if (c.category) why.append(" category ").append(to_string(*c.category));
    if (c.intent) why.append(" intent ").append(to_string(*c.intent));
    if (c.prefer_table) why.append(" prefer_table ").append(*c.prefer_table ? "true" : "false");
    if (!c.category && !c.intent && !c.prefer_table) why.append(" default");
    p.reasons.push_back(std::move(why));
    return p;
  }
  p.id = "default";
  p.reasons.push_back("profile:default no [[prompt_profiles]]");
  return p;
}

}  // namespace qaplan
