// The knob table (kPlanKnobs) is the one description of the plan's patchable fields: these tests
// loop over it, so a knob that the config reader, validation, patching, JSON output or the trace
// forgets fails here by name.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>

#include "qaplan/qaplan.hpp"
#include "test_support.hpp"

namespace {

using namespace qaplan;

std::string shipped_text() { return test::slurp(test::shipped_config()); }

// The shipped text with the line `name = …` of [retrieval_strategy.defaults] removed.
std::string without_default(const std::string& name) {
  std::string s = shipped_text();
  const auto table = s.find("[retrieval_strategy.defaults]");
  const auto at = s.find("\n" + name + " = ", table);
  EXPECT_NE(at, std::string::npos) << name << " has no default line";
  const auto end = s.find('\n', at + 1);
  s.erase(at, end - at);
  return s;
}

// A value of the knob's kind that differs from the shipped default.
double other_value(KnobId id, const PlanKnobs& d) {
  const double v = get_knob(d, id);
  switch (kPlanKnobs[id].kind()) {
    case KnobKind::kFlag: return v != 0 ? 0 : 1;
    case KnobKind::kCount: return v + 3;
    case KnobKind::kUnit: return v > 0.5 ? v - 0.25 : v + 0.25;
  }
  return v;
}

TEST(PlanKnobs, NamesAreUniqueAndFindable) {
  std::set<std::string_view> names;
  for (std::size_t i = 0; i < kPlanKnobs.size(); ++i) {
    EXPECT_TRUE(names.insert(kPlanKnobs[i].name).second) << kPlanKnobs[i].name;
    EXPECT_EQ(find_knob(kPlanKnobs[i].name), static_cast<KnobId>(i));
  }
  EXPECT_FALSE(find_knob("no_such_knob").has_value());
}

TEST(PlanKnobs, EveryKnobIsARequiredDefault) {
  for (const KnobInfo& k : kPlanKnobs) {
    SCOPED_TRACE(std::string(k.name));
    auto r = parse_config(without_default(std::string(k.name)), "rules.toml");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().field, "[retrieval_strategy.defaults] " + std::string(k.name));
    EXPECT_EQ(r.error().message, "missing required key");
  }
}

TEST(PlanKnobs, GetSetRoundTripAndKindChecks) {
  PlanKnobs k;
  for (std::size_t i = 0; i < kPlanKnobs.size(); ++i) {
    const auto id = static_cast<KnobId>(i);
    SCOPED_TRACE(std::string(kPlanKnobs[i].name));
    const double v = other_value(id, PlanKnobs{});
    set_knob(k, id, v);
    EXPECT_DOUBLE_EQ(get_knob(k, id), v);
    EXPECT_EQ(check_knob_value(id, v), "");
    switch (kPlanKnobs[i].kind()) {
      case KnobKind::kFlag: EXPECT_NE(check_knob_value(id, 0.5), ""); break;
      case KnobKind::kCount:
        EXPECT_NE(check_knob_value(id, 0), "");
        EXPECT_NE(check_knob_value(id, 2.5), "");
        break;
      case KnobKind::kUnit: EXPECT_NE(check_knob_value(id, 1.5), ""); break;
    }
  }
  EXPECT_NE(k, PlanKnobs{});  // every member was written through the table
}

// One patch per knob, setting it to a non-default value: the plan, its JSON and the trace must
// all carry the change under the knob's name.
TEST(PlanKnobs, EveryKnobPatchesAndShowsInJsonAndTrace) {
  Config base = load_config(test::shipped_config()).value();
  for (std::size_t i = 0; i < kPlanKnobs.size(); ++i) {
    const auto id = static_cast<KnobId>(i);
    const std::string name(kPlanKnobs[i].name);
    SCOPED_TRACE(name);
    Config c = base;
    const double v = other_value(id, c.retrieval_strategy.defaults);
    PlanPatchConfig p;
    p.id = "knob_test";
    p.tag = "knob_test";
    p.changes = {{id, PatchOp::kSet, v}};
    c.retrieval_strategy.patches = {p};
    auto planner = Planner::create(c);
    ASSERT_TRUE(planner.ok()) << planner.error().to_string();
    auto prep = planner->prepare({"年假怎么申请", {}, "", std::nullopt});
    ASSERT_TRUE(prep.ok());
    EXPECT_DOUBLE_EQ(get_knob(prep->plan->knobs(), id), v);
    const auto j = nlohmann::json::parse(to_json(*prep));
    ASSERT_TRUE(j["retrieval_plan"].contains(name));
    const auto& out = j["retrieval_plan"][name];
    switch (kPlanKnobs[i].kind()) {
      case KnobKind::kFlag: EXPECT_EQ(out.get<bool>(), v != 0); break;
      case KnobKind::kCount: EXPECT_EQ(out.get<long long>(), static_cast<long long>(v)); break;
      case KnobKind::kUnit: EXPECT_DOUBLE_EQ(out.get<double>(), v); break;
    }
    const auto& fired = j["plan_trace"]["fired"];
    ASSERT_EQ(fired.size(), 1u);
    EXPECT_EQ(fired[0]["changes"][0]["field"], name);
  }
}

// The JSON plan holds every knob and nothing the table does not know, plus the four derived
// fields.
TEST(PlanKnobs, JsonPlanIsTheTablePlusDerivedFields) {
  auto planner = Planner::create(load_config(test::shipped_config()).value()).value();
  const auto j = nlohmann::ordered_json::parse(to_json(planner.prepare({"年假怎么申请", {}, "", {}}).value()));
  std::vector<std::string> expected;
  for (const KnobInfo& k : kPlanKnobs) expected.emplace_back(k.name);
  for (const char* d : {"question_category", "intent_rule_score", "intent_decision_score", "reason"})
    expected.emplace_back(d);
  std::vector<std::string> got;
  for (const auto& [key, value] : j["retrieval_plan"].items()) got.push_back(key);
  EXPECT_EQ(got, expected);
}

}  // namespace
