// Fuzz target: question + history → Planner::prepare (the shipped rules, with and without the
// router model). Input: byte 0 picks the planner, scenario and source filter; the rest is split
// at '\n' into the question and the history turns (oldest first).
//
// Invariants: prepare is deterministic (twice → identical JSON); the JSON is valid and its
// strings valid UTF-8; a retrieval route has an intent, plan and trace and a direct answer has
// none; every plan knob stays within the values the defaults and patches can give it; the reason
// is the fired tags joined by "_" ("default" when none); confidence in [0, 1]; an error is
// kInvalidInput, one line, naming a request field.
#include <algorithm>
#include <cmath>
#include <memory>
#include <nlohmann/json.hpp>

#include "fuzz_support.hpp"
#include "qaplan/planning/config.hpp"
#include "qaplan/planning/json.hpp"
#include "qaplan/planning/planner.hpp"

namespace {

using namespace qaplan;

struct Bounds {
  double lo = 0, hi = 0;
};

struct Target {
  std::unique_ptr<Planner> planner;
  std::array<Bounds, kPlanKnobs.size()> bounds{};
};

std::vector<Target>* g_targets = nullptr;

// The shipped rules.toml (its [model] is on); `with_model` = false turns the router model off.
Target make_target(bool with_model) {
  auto cfg = load_config(fuzz::config_dir() / "rules.toml");
  if (!cfg.ok()) {
    std::fprintf(stderr, "cannot load rules.toml: %s\n", cfg.error().to_string().c_str());
    std::abort();
  }
  cfg->model.enabled = cfg->model.enabled && with_model;
  Target t;
  const Config& c = *cfg;
  for (std::size_t i = 0; i < kPlanKnobs.size(); ++i) {
    const double d = get_knob(c.retrieval_strategy.defaults, static_cast<KnobId>(i));
    t.bounds[i] = {d, d};
  }
  for (const auto& p : c.retrieval_strategy.patches)
    for (const auto& ch : p.changes) {
      Bounds& b = t.bounds[ch.knob];
      b.lo = std::min(b.lo, ch.value);
      b.hi = std::max(b.hi, ch.value);
    }
  auto planner = Planner::create(std::move(cfg).value());
  if (!planner.ok()) {
    std::fprintf(stderr, "cannot create planner: %s\n", planner.error().to_string().c_str());
    std::abort();
  }
  t.planner = std::make_unique<Planner>(std::move(planner).value());
  return t;
}

void check_strings_utf8(const nlohmann::json& j) {
  if (j.is_string()) {
    QAPLAN_FUZZ_CHECK(fuzz::valid_utf8(j.get_ref<const std::string&>()), j.dump());
  } else if (j.is_structured()) {
    for (const auto& [k, v] : j.items()) {
      QAPLAN_FUZZ_CHECK(fuzz::valid_utf8(k), k);
      check_strings_utf8(v);
    }
  }
}

void check_preparation(const Target& t, const Preparation& p, const std::string& json) {
  const Config& c = t.planner->config();
  const bool retrieval = p.route.route == Route::kRetrieval;
  QAPLAN_FUZZ_CHECK(retrieval == p.plan.has_value(), json);
  QAPLAN_FUZZ_CHECK(retrieval == p.intent.has_value(), json);
  QAPLAN_FUZZ_CHECK(retrieval == p.plan_trace.has_value(), json);
  QAPLAN_FUZZ_CHECK(p.normalized.query_units >= 0, json);
  QAPLAN_FUZZ_CHECK(fuzz::valid_utf8(p.normalized.text), json);
  if (p.effective_source) {
    const bool known = std::any_of(c.sources.begin(), c.sources.end(),
                                   [&](const SourceConfig& s) { return s.name == *p.effective_source; });
    QAPLAN_FUZZ_CHECK(known, json);
  }
  if (!retrieval) {
    QAPLAN_FUZZ_CHECK(!p.route.reply.empty(), json);
    return;
  }
  const IntentResult& in = *p.intent;
  QAPLAN_FUZZ_CHECK(in.confidence >= 0.0 && in.confidence <= 1.0, json);
  QAPLAN_FUZZ_CHECK(in.rule_score >= 0.0 && in.rule_score <= 1.0, json);
  const RetrievalPlan& plan = *p.plan;
  for (std::size_t i = 0; i < kPlanKnobs.size(); ++i) {
    const double v = get_knob(plan.knobs(), static_cast<KnobId>(i));
    QAPLAN_FUZZ_CHECK(std::isfinite(v) && v >= t.bounds[i].lo && v <= t.bounds[i].hi,
                      std::string(kPlanKnobs[i].name) + " = " + std::to_string(v) + " in " + json);
    QAPLAN_FUZZ_CHECK(check_knob_value(static_cast<KnobId>(i), v).empty(), json);
  }
  std::string reason;
  for (const auto& f : p.plan_trace->fired)
    if (!f.tag.empty()) reason += (reason.empty() ? "" : "_") + f.tag;
  if (reason.empty()) reason = "default";
  QAPLAN_FUZZ_CHECK(plan.reason() == reason, plan.reason() + " vs " + reason);
  QAPLAN_FUZZ_CHECK(plan.intent_decision_score() == in.confidence, json);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  g_targets = new std::vector<Target>();
  g_targets->push_back(make_target(false));
  g_targets->push_back(make_target(true));
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const std::uint8_t opts = data[0];
  const Target& t = (*g_targets)[opts & 1];
  PrepareRequest req;
  static constexpr const char* kScenarios[] = {"", "default", "hr_helpdesk", "nope"};
  static constexpr const char* kSources[] = {nullptr, "hr", "finance", "nope"};
  req.scenario = kScenarios[(opts >> 1) & 3];
  if (const char* s = kSources[(opts >> 3) & 3]) req.source = s;
  const auto parts = fuzz::split(fuzz::as_view(data + 1, size - 1), '\n');
  req.question = std::string(parts[0]);
  for (std::size_t i = 1; i < parts.size(); ++i) req.history.emplace_back(parts[i]);

  auto a = t.planner->prepare(req);
  auto b = t.planner->prepare(req);
  QAPLAN_FUZZ_CHECK(a.ok() == b.ok(), req.question);
  if (!a.ok()) {
    const Error& e = a.error();
    fuzz::check_error(e);
    QAPLAN_FUZZ_CHECK(e.code == ErrorCode::kInvalidInput, e.to_string());
    QAPLAN_FUZZ_CHECK(e.field == "question" || e.field.starts_with("history") ||
                          e.field == "scenario" || e.field == "source",
                      e.to_string());
    QAPLAN_FUZZ_CHECK(e.to_string() == b.error().to_string(), e.to_string());
    return 0;
  }
  const std::string ja = to_json(*a), jb = to_json(*b);
  QAPLAN_FUZZ_CHECK(ja == jb, ja + "\n  vs\n  " + jb);
  const auto parsed = nlohmann::json::parse(ja, nullptr, /*allow_exceptions=*/false);
  QAPLAN_FUZZ_CHECK(!parsed.is_discarded(), ja);
  check_strings_utf8(parsed);
  QAPLAN_FUZZ_CHECK(parsed.at("query") == req.question, ja);
  check_preparation(t, *a, ja);
  return 0;
}
