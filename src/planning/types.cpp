#include "qaplan/planning/types.hpp"

#include "common/enum_table.hpp"

namespace qaplan {
namespace {

using internal::EnumTable;

constexpr EnumTable<Intent, 3> kIntents{{{
    {Intent::kFaqQuery, "FAQ_QUERY"},
    {Intent::kKnowledgeQuery, "KNOWLEDGE_QUERY"},
    {Intent::kFollowUp, "FOLLOW_UP"},
}}};
constexpr EnumTable<QuestionCategory, 5> kCategories{{{
    {QuestionCategory::kDefault, "default"},
    {QuestionCategory::kPricing, "pricing"},
    {QuestionCategory::kCompliance, "compliance"},
    {QuestionCategory::kTroubleshooting, "troubleshooting"},
    {QuestionCategory::kSummary, "summary"},
}}};
constexpr EnumTable<Route, 2> kRoutes{{{
    {Route::kDirectAnswer, "direct_answer"},
    {Route::kRetrieval, "retrieval"},
}}};
constexpr EnumTable<RouteReason, 5> kRouteReasons{{{
    {RouteReason::kGreeting, "greeting"},
    {RouteReason::kHandoff, "handoff"},
    {RouteReason::kOutOfScope, "out_of_scope"},
    {RouteReason::kSourceBoundary, "source_boundary"},
    {RouteReason::kNeedsRetrieval, "needs_retrieval"},
}}};
constexpr EnumTable<DecisionPolicy, 1> kPolicies{{{
    {DecisionPolicy::kRuleOnly, "rule_only"},
}}};

}  // namespace

std::string_view to_string(Intent v) noexcept { return kIntents.name(v); }
Result<Intent> parse_intent(std::string_view s) { return kIntents.parse(s, "intent"); }
std::string_view to_string(QuestionCategory v) noexcept { return kCategories.name(v); }
Result<QuestionCategory> parse_question_category(std::string_view s) {
  return kCategories.parse(s, "category");
}
std::string_view to_string(Route v) noexcept { return kRoutes.name(v); }
std::string_view to_string(RouteReason v) noexcept { return kRouteReasons.name(v); }
std::string_view to_string(DecisionPolicy v) noexcept { return kPolicies.name(v); }

}  // namespace qaplan
