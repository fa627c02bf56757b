#include "qaplan/eval/scope.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "test_support.hpp"

namespace {

using nlohmann::json;
using qaplan::Dataset;
using qaplan::ExclusionReason;
using qaplan::ScopeResult;

// ---------------------------------------------------------------------------------------------
// Small hand-made datasets: each policy version gets one rule chunk "<prefix>-r" and one
// background chunk "<prefix>-s"; the time point is 2026-10-19T12:00:00+08:00 unless given.
// ---------------------------------------------------------------------------------------------
struct V {
  std::string prefix;  // chunk id prefix; must sort in the order versions are listed
  std::string policy_id;
  json version, status, from, to;
  json title = "T";
};

Dataset make(const std::vector<V>& versions,
             const std::string& time_point = "2026-10-19T12:00:00+08:00") {
  json j = {{"version", "fixture-1"},
            {"time_point", time_point},
            {"description", ""},
            {"policies", json::array()},
            {"queries", json::array({{{"id", "q"},
                                      {"query", "anything"},
                                      {"split", "dev"},
                                      {"relevant", json::array()},
                                      {"tags", {"lexical_negative"}},
                                      {"reason", "fixture"}}})}};
  for (const V& v : versions) {
    j["policies"].push_back(
        {{"policy_id", v.policy_id},
         {"source", v.policy_id + "-src"},
         {"title", v.title},
         {"version", v.version},
         {"status", v.status},
         {"effective_from", v.from},
         {"effective_to", v.to},
         {"chunks",
          {{{"id", v.prefix + "-r"}, {"section", "rule"}, {"kind", "rule"}, {"text", "规则"}},
           {{"id", v.prefix + "-s"},
            {"section", "notes"},
            {"kind", "revision_notes"},
            {"text", "修订"}}}}});
  }
  auto d = qaplan::parse_dataset(j.dump(), "fixture.json");
  EXPECT_TRUE(d.ok()) << (d.ok() ? "" : d.error().to_string());
  return std::move(d).value();
}

std::vector<std::string> kept(const ScopeResult& s) {
  std::vector<std::string> out;
  for (const auto& c : s.chunks) out.push_back(c.id);
  return out;
}

// "chunk_id:reason" for every exclusion, in result order.
std::vector<std::string> dropped(const ScopeResult& s) {
  std::vector<std::string> out;
  for (const auto& e : s.excluded)
    out.push_back(e.chunk_id + ":" + std::string(to_string(e.reason)));
  return out;
}

using Strings = std::vector<std::string>;

TEST(Scope, ReasonSpellingsRoundTrip) {
  for (auto r : {ExclusionReason::kIncompleteMetadata, ExclusionReason::kNotYetEffective,
                 ExclusionReason::kExpired, ExclusionReason::kSuperseded,
                 ExclusionReason::kConflictingVersions, ExclusionReason::kNonRuleSection}) {
    auto p = qaplan::parse_exclusion_reason(to_string(r));
    ASSERT_TRUE(p.ok());
    EXPECT_EQ(*p, r);
  }
  EXPECT_EQ(to_string(ExclusionReason::kConflictingVersions), "conflicting_versions");
  EXPECT_FALSE(qaplan::parse_exclusion_reason("stale").ok());
}

TEST(Scope, InEffectVersionKeepsRulesAndDropsNonRuleSections) {
  const auto s =
      qaplan::select_policy_scope(make({{"a", "a", "1.0", "effective", "2026-01-01", nullptr}}));
  EXPECT_EQ(kept(s), Strings{"a-r"});
  EXPECT_EQ(dropped(s), Strings{"a-s:non_rule_section"});
  EXPECT_EQ(s.excluded[0].policy_id, "a");
  EXPECT_EQ(s.excluded[0].version, "1.0");
  EXPECT_EQ(s.excluded[0].detail, "section \"notes\" is revision_notes, not rule");
}

TEST(Scope, IncompleteMetadata) {
  const auto s = qaplan::select_policy_scope(make({
      {"a", "a", nullptr, "effective", "2026-01-01", nullptr},
      {"b", "b", "1", nullptr, "2026-01-01", nullptr},
      {"c", "c", "1", "effective", nullptr, nullptr},
      {"d", "d", "1", "effective", "2026-01-01", nullptr, nullptr},  // title null
      {"e", "e", "1", "effective", "2026-01-01", nullptr},
  }));
  EXPECT_EQ(kept(s), Strings{"e-r"});
  EXPECT_EQ(
      dropped(s),
      (Strings{"a-r:incomplete_metadata", "a-s:incomplete_metadata", "b-r:incomplete_metadata",
               "b-s:incomplete_metadata", "c-r:incomplete_metadata", "c-s:incomplete_metadata",
               "d-r:incomplete_metadata", "d-s:incomplete_metadata", "e-s:non_rule_section"}));
  EXPECT_EQ(s.excluded[0].detail, "missing or malformed version");
  EXPECT_EQ(s.excluded[0].version, "");
  EXPECT_EQ(s.excluded[2].detail, "missing or malformed status");
  EXPECT_EQ(s.excluded[4].detail, "missing or malformed effective_from");
  EXPECT_EQ(s.excluded[6].detail, "missing or malformed title");
}

TEST(Scope, HandBuiltDatasetWithMalformedDatesIsIncompleteNotACrash) {
  Dataset d = make({{"a", "a", "1", "effective", "2026-01-01", nullptr}});
  d.policies[0].effective_from = "yesterday";
  d.policies[0].effective_to = "2026-13-01";
  const auto s = qaplan::select_policy_scope(d);
  EXPECT_TRUE(s.chunks.empty());
  EXPECT_EQ(s.excluded[0].detail, "missing or malformed effective_from, effective_to");
}

TEST(Scope, DateBoundariesUseTheTimePointsOffset) {
  // Time point 2026-10-19T12:00:00+08:00, i.e. local day 2026-10-19.
  const auto s = qaplan::select_policy_scope(make({
      {"a", "a", "1", "effective", "2026-10-19", nullptr},       // starts today: in
      {"b", "b", "1", "effective", "2026-10-20", nullptr},       // starts tomorrow
      {"c", "c", "1", "effective", "2026-01-01", "2026-10-19"},  // ends today (inclusive): in
      {"d", "d", "1", "effective", "2026-01-01", "2026-10-18"},  // ended yesterday
  }));
  EXPECT_EQ(kept(s), (Strings{"a-r", "c-r"}));
  EXPECT_EQ(dropped(s),
            (Strings{"a-s:non_rule_section", "b-r:not_yet_effective", "b-s:not_yet_effective",
                     "c-s:non_rule_section", "d-r:expired", "d-s:expired"}));
  EXPECT_EQ(s.excluded[1].detail, "effective_from 2026-10-20 is after 2026-10-19");
  EXPECT_EQ(s.excluded[4].detail, "effective_to 2026-10-18 is before 2026-10-19");
}

TEST(Scope, InstantsAtTheEdgesOfALocalDay) {
  const Dataset d = make({{"a", "a", "1", "effective", "2026-07-01", "2026-07-31"}});
  auto at = [&](const char* tp) {
    auto t = qaplan::parse_iso_time_point(tp);
    EXPECT_TRUE(t.ok()) << tp;
    return qaplan::select_policy_scope(d, *t).chunks.size();
  };
  EXPECT_EQ(at("2026-06-30T23:59:59+08:00"), 0u);  // one second before 07-01 00:00 +08:00
  EXPECT_EQ(at("2026-07-01T00:00:00+08:00"), 1u);
  EXPECT_EQ(at("2026-07-31T23:59:59.999+08:00"), 1u);
  EXPECT_EQ(at("2026-08-01T00:00:00+08:00"), 0u);
  // The offset of the time point decides which calendar the policy dates are read in:
  // 2026-08-01T00:30:00+08:00 is out (day 08-01 in +08:00), while the same instant written as
  // 2026-07-31T16:30:00Z is in (day 07-31 in UTC).
  EXPECT_EQ(at("2026-07-31T15:30:00Z"), 1u);
  EXPECT_EQ(at("2026-08-01T00:30:00+08:00"), 0u);
  EXPECT_EQ(at("2026-07-31T16:30:00Z"), 1u);
  // And at UTC-08:00 the first in-effect instant is 07-01T08:00Z.
  EXPECT_EQ(at("2026-06-30T23:59:59-08:00"), 0u);
  EXPECT_EQ(at("2026-07-01T00:00:00-08:00"), 1u);
}

TEST(Scope, SupersededByStatusOrByANewerVersionInEffect) {
  const auto s = qaplan::select_policy_scope(make({
      {"a1", "a", "1.0", "superseded", "2025-01-01", "2026-06-30"},
      {"a2", "a", "2.0", "effective", "2026-01-01", "2026-09-30"},  // ended; 10.0 is in effect
      {"a3", "a", "10.0", "effective", "2026-10-01", nullptr},
      {"b1", "b", "1.0", "effective", "2025-01-01", "2026-06-30"},  // ended, nothing newer: expired
      {"b2", "b", "2.0", "effective", "2027-01-01", nullptr},       // newer but not yet effective
  }));
  EXPECT_EQ(kept(s), Strings{"a3-r"});
  EXPECT_EQ(dropped(s),
            (Strings{"a1-r:superseded", "a1-s:superseded", "a2-r:superseded", "a2-s:superseded",
                     "a3-s:non_rule_section", "b1-r:expired", "b1-s:expired",
                     "b2-r:not_yet_effective", "b2-s:not_yet_effective"}));
  EXPECT_EQ(s.excluded[0].detail, "status is superseded");
  EXPECT_EQ(s.excluded[2].detail, "ended 2026-09-30; replaced by version 10.0");
}

TEST(Scope, ConflictingVersionsAreAllDropped) {
  const auto s = qaplan::select_policy_scope(make({
      {"a1", "a", "1.0", "effective", "2026-01-01", nullptr},
      {"a2", "a", "1.1", "effective", "2026-09-15", nullptr},
      {"a3", "a", "1.2", "effective", "2026-09-20", "2026-12-31"},
      {"b1", "b", "1.0", "superseded", "2026-01-01", nullptr},  // not "effective": no conflict
      {"b2", "b", "2.0", "effective", "2026-01-01", nullptr},
  }));
  EXPECT_EQ(kept(s), Strings{"b2-r"});
  EXPECT_EQ(dropped(s), (Strings{"a1-r:conflicting_versions", "a1-s:conflicting_versions",
                                 "a2-r:conflicting_versions", "a2-s:conflicting_versions",
                                 "a3-r:conflicting_versions", "a3-s:conflicting_versions",
                                 "b1-r:superseded", "b1-s:superseded", "b2-s:non_rule_section"}));
  EXPECT_EQ(s.excluded[0].detail,
            "version 1.0 and version 1.1, 1.2 are both effective on 2026-10-19");
  EXPECT_EQ(s.excluded[2].detail,
            "version 1.1 and version 1.0, 1.2 are both effective on 2026-10-19");
  // Two versions that do not overlap at the time point are not a conflict.
  const auto t = qaplan::select_policy_scope(make({
      {"a1", "a", "1.0", "effective", "2026-01-01", "2026-09-14"},
      {"a2", "a", "1.1", "effective", "2026-09-15", nullptr},
  }));
  EXPECT_EQ(kept(t), Strings{"a2-r"});
  EXPECT_EQ(t.excluded[0].reason, ExclusionReason::kSuperseded);
}

TEST(Scope, ChunksComeOutInIdOrderEvenFromAHandBuiltDataset) {
  Dataset d = make({{"a", "a", "1", "effective", "2026-01-01", nullptr},
                    {"b", "b", "1", "effective", "2026-01-01", nullptr}});
  std::swap(d.chunks[0].id, d.chunks[2].id);  // a-r <-> b-r: the file order is no longer id order
  const auto s = qaplan::select_policy_scope(d);
  EXPECT_EQ(kept(s), (Strings{"a-r", "b-r"}));
  EXPECT_EQ(s.chunks[0].policy_id, "b");  // the chunk now named a-r belongs to policy b
}

// ---------------------------------------------------------------------------------------------
// The frozen dataset
// ---------------------------------------------------------------------------------------------

Dataset load_real_scope() {
  auto d = qaplan::load_dataset_file(qaplan::test::source_dir() / "eval_sets" /
                                     "policy-retrieval-v1.json");
  EXPECT_TRUE(d.ok()) << (d.ok() ? "" : d.error().to_string());
  return std::move(d).value();
}

TEST(ScopeReal, Exactly18ChunksInIdOrder) {
  const Dataset d = load_real_scope();
  const auto s = qaplan::select_policy_scope(d);
  EXPECT_EQ(kept(s), (Strings{"cou-01", "cou-02", "cou-03", "cou-04", "cou-05", "cou-06", "ord-01",
                              "ord-02", "ord-03", "ord-04", "ord-05", "ord-06", "ret-01", "ret-02",
                              "ret-03", "ret-04", "ret-05", "ret-06"}));
  for (const auto& c : s.chunks) {
    EXPECT_EQ(c.kind, qaplan::ChunkKind::kRule);
    const auto& p = d.policies[c.policy_index];
    EXPECT_EQ(p.status, qaplan::PolicyStatus::kEffective);
  }
  // Deterministic: a second run gives the same result.
  const auto again = qaplan::select_policy_scope(d);
  EXPECT_EQ(kept(again), kept(s));
  EXPECT_EQ(dropped(again), dropped(s));
}

TEST(ScopeReal, EveryDroppedVersionHasItsReason) {
  const auto s = qaplan::select_policy_scope(load_real_scope());
  EXPECT_EQ(dropped(s),
            (Strings{"cou-v13-04:not_yet_effective", "prc-01:expired", "prc-02:expired",
                     "pts-v10-01:conflicting_versions", "pts-v10-02:conflicting_versions",
                     "pts-v11-01:conflicting_versions", "pts-v11-02:conflicting_versions",
                     "ret-00:non_rule_section", "ret-99:non_rule_section", "ret-v24-05:superseded",
                     "ret-v24-06:superseded"}));
  EXPECT_EQ(s.excluded[0].version, "1.3");
  EXPECT_EQ(s.excluded[0].detail, "effective_from 2027-01-01 is after 2026-10-19");
  EXPECT_EQ(s.excluded[1].detail, "effective_to 2026-06-30 is before 2026-10-19");
  EXPECT_EQ(s.excluded[3].detail, "version 1.0 and version 1.1 are both effective on 2026-10-19");
  EXPECT_EQ(s.excluded[9].policy_id, "returns-refunds");
  EXPECT_EQ(s.excluded[9].version, "2.4");
}

TEST(ScopeReal, LabelsResolveToExactlyOneScopedChunk) {
  const Dataset d = load_real_scope();
  const auto s = qaplan::select_policy_scope(d);
  EXPECT_TRUE(qaplan::check_labels_in_scope(d, s).ok());
  // t16 is labelled (order-cancellation 取消后退款与幂等, returns 退款原路返回与到账时效,
  // coupons 优惠券有效期与退回) = ord-04 (doc 9), ret-04 (doc 15), cou-03 (doc 2).
  for (const auto& q : d.queries) {
    if (q.id == "t16")
      EXPECT_EQ(qaplan::relevant_docs(s, q), (std::vector<std::uint32_t>{2, 9, 15}));
    if (q.id == "d11") EXPECT_TRUE(qaplan::relevant_docs(s, q).empty());
  }
  EXPECT_EQ(qaplan::find_section(s, "returns-refunds-policy", "大额退款审批"), 16u);
  // The superseded 2.4 has a section with the same title; only 3.0's is in scope.
  EXPECT_EQ(s.chunks[16].id, "ret-05");
  EXPECT_FALSE(qaplan::find_section(s, "returns-refunds-policy", "背景").has_value());
  EXPECT_FALSE(qaplan::find_section(s, "points-rewards-policy", "积分获取").has_value());
}

TEST(ScopeReal, ALabelOnADroppedSectionIsReported) {
  Dataset d = load_real_scope();
  const auto s = qaplan::select_policy_scope(d);
  d.queries[0].relevant.push_back({"points-rewards-policy", "积分抵扣"});
  const auto st = qaplan::check_labels_in_scope(d, s);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().code, qaplan::ErrorCode::kInvalidInput);
  EXPECT_EQ(st.error().to_string(),
            "query d01: relevant section \"积分抵扣\" of \"points-rewards-policy\" matches 0 "
            "in-scope chunks (must be exactly 1)");
}

TEST(ScopeReal, AnotherTimePointGivesAnotherScope) {
  const Dataset d = load_real_scope();
  // 2027-01-02: coupons 1.2 has ended and 1.3 replaces it (only cou-v13-04 remains of coupons).
  const auto s =
      qaplan::select_policy_scope(d, *qaplan::parse_iso_time_point("2027-01-02T09:00:00+08:00"));
  ASSERT_EQ(s.chunks.size(), 13u);
  EXPECT_EQ(s.chunks[0].id, "cou-v13-04");
  EXPECT_EQ(s.excluded[0].chunk_id, "cou-01");
  EXPECT_EQ(s.excluded[0].reason, ExclusionReason::kSuperseded);
  EXPECT_EQ(s.excluded[0].detail, "ended 2026-12-31; replaced by version 1.3");
}

}  // namespace
