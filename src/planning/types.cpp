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
constexpr EnumTable<RouteReason, 10> kRouteReasons{{{
    {RouteReason::kGreeting, "greeting"},
    {RouteReason::kThanks, "thanks"},
    {RouteReason::kGoodbye, "goodbye"},
    {RouteReason::kAcknowledgement, "acknowledgement"},
    {RouteReason::kChitChat, "chit_chat"},
    {RouteReason::kHandoff, "handoff"},
    {RouteReason::kOutOfScope, "out_of_scope"},
    {RouteReason::kUnclear, "unclear"},
    {RouteReason::kSourceBoundary, "source_boundary"},
    {RouteReason::kNeedsRetrieval, "needs_retrieval"},
}}};
constexpr EnumTable<DecidedBy, 3> kDecidedBy{{{
    {DecidedBy::kRule, "rule"},
    {DecidedBy::kModel, "model"},
    {DecidedBy::kDefault, "default"},
}}};
constexpr EnumTable<DecisionPolicy, 5> kPolicies{{{
    {DecisionPolicy::kRuleOnly, "rule_only"},
    {DecisionPolicy::kRuleModelAgree, "rule_model_agree"},
    {DecisionPolicy::kModelOverride, "model_override"},
    {DecisionPolicy::kConflict, "conflict"},
    {DecisionPolicy::kModelFailed, "model_failed"},
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
Result<RouteReason> parse_route_reason(std::string_view s) {
  return kRouteReasons.parse(s, "route reason");
}
std::string_view to_string(DecidedBy v) noexcept { return kDecidedBy.name(v); }
std::string_view to_string(DecisionPolicy v) noexcept { return kPolicies.name(v); }
Result<DecisionPolicy> parse_decision_policy(std::string_view s) {
  return kPolicies.parse(s, "decision policy");
}

}  // namespace qaplan
