// The built-in model is on in the shipped config (docs/guide.md): every plan it changes on the
// repository's plan tables is listed, with the gateway's decision_policy, in
// tests/support/model_on_diffs.jsonl. This test plans every row of tests/data/golden_plans.jsonl,
// labelled_plans.jsonl and own_plans.jsonl twice — shipped config (model on) and the same config
// with `[model] enabled = false` — and asserts that exactly the listed rows differ, each in
// exactly the listed fields, with the listed values on both sides and the listed policy. The
// worked examples (golden_plans) must print what they state.
//
// A row "differs" when any of these differs: route, route reason, intent, requires_rewrite,
// intent confidence, effective_source(s), category, suggested source, or any retrieval_plan field.
// To review a changed model: QAPLAN_WRITE_MODEL_DIFFS=/tmp/diffs.jsonl writes what this build
// sees (the test still compares against the checked-in file).
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "qaplan/planning/json.hpp"
#include "qaplan/planning/planner.hpp"
#include "test_support.hpp"

namespace {

using nlohmann::json;
using qaplan::Planner;

Planner make_planner(bool model_on) {
  auto cfg = qaplan::load_config(qaplan::test::shipped_config());
  EXPECT_TRUE(cfg.ok()) << cfg.error().to_string();
  qaplan::Config c = std::move(cfg).value();
  if (!model_on) c.model.enabled = false;
  auto p = Planner::create(std::move(c));
  EXPECT_TRUE(p.ok()) << p.error().to_string();
  return std::move(p).value();
}

const Planner& planner(bool model_on) {
  static const Planner on = make_planner(true);
  static const Planner off = make_planner(false);
  return model_on ? on : off;
}

std::vector<json> read_jsonl(const std::filesystem::path& p) {
  std::ifstream in(p);
  EXPECT_TRUE(in.good()) << p;
  std::vector<json> rows;
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) rows.push_back(json::parse(line));
  return rows;
}

// The decision-relevant fields of one plan, flattened ("route.reason", "plan.doc_top_k" …).
std::map<std::string, json> signature(const json& p) {
  std::map<std::string, json> s;
  s["route.route"] = p["route"]["route"];
  s["route.reason"] = p["route"]["reason"];
  s["effective_source"] = p.value("effective_source", json());
  s["effective_sources"] = p.value("effective_sources", json());
  if (p["intent"].is_object()) {
    s["intent.intent"] = p["intent"]["intent"];
    s["intent.requires_rewrite"] = p["intent"]["requires_rewrite"];
    s["intent.confidence"] = p["intent"]["confidence"];
    s["intent.suggested_source"] = p["intent"]["suggested_source"];
  }
  if (p.contains("signals") && p["signals"].is_object()) {
    s["category"] = p["signals"]["category"]["value"];
    s["source"] = p["signals"]["source"]["value"];
  }
  if (p["retrieval_plan"].is_object())
    for (const auto& [k, v] : p["retrieval_plan"].items()) s["plan." + k] = v;
  return s;
}

json plan_json(const Planner& planner, const json& row) {
  qaplan::PrepareRequest req;
  req.question = row.at("question").get<std::string>();
  if (row.contains("history")) req.history = row["history"].get<std::vector<std::string>>();
  if (row.contains("scenario")) req.scenario = row["scenario"].get<std::string>();
  if (row.contains("source")) req.source = row["source"].get<std::string>();
  auto prep = planner.prepare(req);
  EXPECT_TRUE(prep.ok()) << prep.error().to_string();
  if (!prep.ok()) return json::object();
  return json::parse(qaplan::to_json(*prep));
}

// Identity of a table row: table, question, history, scenario, source.
std::string key_of(const std::string& table, const json& row) {
  json k = {{"table", table}, {"question", row.at("question")}};
  for (const char* f : {"history", "scenario", "source"})
    if (row.contains(f)) k[f] = row[f];
  return k.dump();
}

struct Diff {
  std::string policy;
  json off = json::object();
  json on = json::object();
};

std::map<std::string, Diff> actual_diffs(std::set<std::string>* all_keys) {
  std::map<std::string, Diff> out;
  for (const std::string table : {"golden_plans", "labelled_plans", "own_plans"}) {
    for (const json& row : read_jsonl(qaplan::test::source_dir() / "tests" / "data" /
                                      (table + ".jsonl"))) {
      const std::string key = key_of(table, row);
      all_keys->insert(key);
      const json on = plan_json(planner(true), row);
      const json off = plan_json(planner(false), row);
      if (on.empty() || off.empty()) continue;
      const auto s_on = signature(on);
      const auto s_off = signature(off);
      Diff d;
      std::set<std::string> fields;
      for (const auto& [k, v] : s_on) fields.insert(k);
      for (const auto& [k, v] : s_off) fields.insert(k);
      for (const std::string& f : fields) {
        const json a = s_off.count(f) ? s_off.at(f) : json();
        const json b = s_on.count(f) ? s_on.at(f) : json();
        if (a != b) {
          d.off[f] = a;
          d.on[f] = b;
        }
      }
      if (d.on.empty()) continue;
      d.policy = on["intent"].is_object() ? on["intent"]["decision_policy"].get<std::string>()
                                          : "route:" + on["route"]["decided_by"].get<std::string>();
      out[key] = d;
    }
  }
  return out;
}

TEST(ModelOnPlans, ShippedConfigHasTheModelOn) {
  EXPECT_NE(planner(true).model_description(), "off");
  EXPECT_EQ(planner(false).model_description(), "off");
}

TEST(ModelOnPlans, ExactlyTheListedRowsDifferFromRuleOnly) {
  std::set<std::string> keys;
  const auto actual = actual_diffs(&keys);
  if (const char* w = std::getenv("QAPLAN_WRITE_MODEL_DIFFS")) {
    std::ofstream o(w);
    for (const auto& [k, d] : actual) {
      json line = json::parse(k);
      line["decision_policy"] = d.policy;
      line["off"] = d.off;
      line["on"] = d.on;
      o << line.dump() << "\n";
    }
  }
  std::map<std::string, json> expected;
  for (const json& e :
       read_jsonl(qaplan::test::source_dir() / "tests" / "support" / "model_on_diffs.jsonl")) {
    json k = {{"table", e.at("table")}, {"question", e.at("question")}};
    for (const char* f : {"history", "scenario", "source"})
      if (e.contains(f)) k[f] = e[f];
    const std::string key = k.dump();
    EXPECT_TRUE(keys.count(key)) << "listed row is not in the tables: " << key;
    EXPECT_TRUE(expected.emplace(key, e).second) << "listed twice: " << key;
  }
  for (const auto& [key, d] : actual) {
    SCOPED_TRACE(key);
    const auto it = expected.find(key);
    if (it == expected.end()) {
      ADD_FAILURE() << "unlisted difference (" << d.policy << "): off " << d.off.dump() << " on "
                    << d.on.dump();
      continue;
    }
    EXPECT_EQ(d.policy, it->second.at("decision_policy").get<std::string>());
    EXPECT_EQ(d.off, it->second.at("off"));
    EXPECT_EQ(d.on, it->second.at("on"));
  }
  for (const auto& [key, e] : expected)
    EXPECT_TRUE(actual.count(key)) << "listed difference no longer happens: " << key;
}

// The six worked examples (tests/data/golden_plans.jsonl) hold with the model on: every field the
// table pins (route, intent, rewrite, rule id, confidence ceiling, plan knobs, plan reason, plan
// minimums) is what the example states. (Where the model agrees, the decision score becomes 0.99 —
// the gateway's rule_model_agree — which no worked example pins; those rows are listed in
// model_on_diffs.jsonl.)
TEST(ModelOnPlans, SeedWorkedExamplesHold) {
  int rows = 0;
  for (const json& row :
       read_jsonl(qaplan::test::source_dir() / "tests" / "data" / "golden_plans.jsonl")) {
    ++rows;
    SCOPED_TRACE(row.dump());
    const json p = plan_json(planner(true), row);
    ASSERT_FALSE(p.empty());
    const json& e = row.at("expect");
    EXPECT_EQ(p["route"]["route"], e.at("route"));
    if (e.contains("query_units")) EXPECT_EQ(p["query_units"], e["query_units"]);
    if (e.contains("intent")) EXPECT_EQ(p["intent"]["intent"], e["intent"]);
    if (e.contains("requires_rewrite"))
      EXPECT_EQ(p["intent"]["requires_rewrite"], e["requires_rewrite"]);
    if (e.contains("rule_id")) EXPECT_EQ(p["intent"]["rule_candidate"]["rule_id"], e["rule_id"]);
    if (e.contains("confidence_max"))
      EXPECT_LE(p["intent"]["confidence"].get<double>(), e["confidence_max"].get<double>());
    if (e.contains("plan"))
      for (const auto& [k, v] : e["plan"].items()) {
        SCOPED_TRACE(k);
        if (v.is_number())
          EXPECT_DOUBLE_EQ(p["retrieval_plan"][k].get<double>(), v.get<double>());
        else
          EXPECT_EQ(p["retrieval_plan"][k], v);
      }
    if (e.contains("plan_min"))
      for (const auto& [k, v] : e["plan_min"].items())
        EXPECT_GE(p["retrieval_plan"][k].get<double>(), v.get<double>()) << k;
  }
  EXPECT_EQ(rows, 6);
}

}  // namespace

namespace {

// With history, a turn the follow-up rules recognise as continuing the conversation is a
// question: the act head reads it alone (后续谁来处置 looks like small talk there) and may not
// answer it directly. Rule-decided acts and turns no follow-up rule claims are unchanged.
TEST(ModelOnPlans, TheModelDoesNotRefuseATurnTheFollowUpRulesContinue) {
  struct Row {
    const char* question;
    const char* history;
    const char* route;
  } rows[] = {
      {"后续谁来处置", "发现数据泄露怎么上报", "retrieval"},
      {"之后谁来评估", "员工离职申请怎么提交", "retrieval"},  // act head: chit_chat 0.96
      {"给我唱首歌", "年假有几天", "direct_answer"},   // the chit-chat list decides, not the model
      {"好的，谢谢", "年假有几天", "direct_answer"},    // a social act
  };
  for (const Row& r : rows) {
    auto p = planner(true).prepare({r.question, {r.history}, "", std::nullopt});
    ASSERT_TRUE(p.ok()) << p.error().to_string();
    EXPECT_EQ(std::string(qaplan::to_string(p->route.route)), r.route) << r.question;
  }
  // Without history nothing continues, and the model's small-talk reading meets the evidence check
  // (docs/routing.md): 谁 asks about something other than the assistant, so it is retrieved and the
  // route says why.
  auto alone = planner(true).prepare({"后续谁来处置", {}, "", std::nullopt});
  ASSERT_TRUE(alone.ok());
  EXPECT_EQ(alone->route.route, qaplan::Route::kRetrieval);
  EXPECT_NE(alone->route.detail.find("overruled"), std::string::npos) << alone->route.detail;
}

}  // namespace

namespace {

// A follow-up's source: a keyword of its own, else the latest earlier turn's words, else none
// — never the model's guess from the fragment, which names no topic (a wrong scope finds
// nothing; no scope still finds the answer).
TEST(ModelOnPlans, AFollowUpsSourceComesFromTheConversationNotAModelGuessFromTheFragment) {
  // Without the domain lexicon the history names no source keyword (with it, its KB terms carry
  // hr: DomainScope.AFollowUpCarriesTheHistorysKbTerms).
  qaplan::Config c = qaplan::load_config(qaplan::test::shipped_config()).value();
  c.domain = {};
  const Planner no_lexicon = Planner::create(c).value();
  auto p = no_lexicon.prepare(
      {"它的年度限额是多少", {"补充商业医疗保险从什么时候开始享受"}, "", std::nullopt});
  ASSERT_TRUE(p.ok());
  ASSERT_EQ(p->intent->intent, qaplan::Intent::kFollowUp);
  ASSERT_TRUE(p->model.has_value());
  EXPECT_FALSE(p->model->source.empty());  // the model did guess one …
  EXPECT_FALSE(p->effective_source.has_value()) << *p->effective_source;  // … and it scopes nothing
  EXPECT_TRUE(p->effective_sources.empty()) << p->source.detail;
  // Carried from the history's keyword.
  auto carried = planner(true).prepare({"那审批呢", {"报销流程是什么"}, "", std::nullopt});
  ASSERT_TRUE(carried.ok());
  EXPECT_EQ(carried->effective_source, std::optional<std::string>("finance"));
  EXPECT_TRUE(carried->source.detail.starts_with("carried from history")) << carried->source.detail;
  // Without history the model's guess is reported, but below [model] source_min_score it scopes
  // nothing alone: a wrong scope hides the answer.
  auto alone = planner(true).prepare({"它的年度限额是多少", {}, "", std::nullopt});
  ASSERT_TRUE(alone.ok());
  EXPECT_LT(alone->model->source_score, 0.99);
  EXPECT_FALSE(alone->effective_source.has_value());
  EXPECT_NE(alone->source.detail.find("model finance"), std::string::npos) << alone->source.detail;
}

}  // namespace
