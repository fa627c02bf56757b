// Fuzz target: a rules.toml, read as `qaplan config check` reads it — the planning config
// (parse_config), the [ranking] tables of the same text (parse_ranking_config), then
// Planner::create, which compiles the lexicon.
//
// Invariants: every error is one line naming the file; a config that parses also validates
// (Config::validate, RankingConfig::validate) and creates a Planner (with its router model
// turned off: the fuzzer cannot supply the model file); that Planner plans a few fixed questions
// deterministically with knobs inside the values the config can produce.
#include <algorithm>
#include <cmath>

#include "fuzz_support.hpp"
#include "qaplan/planning/config.hpp"
#include "qaplan/planning/json.hpp"
#include "qaplan/planning/planner.hpp"
#include "qaplan/ranking/config.hpp"

using namespace qaplan;

namespace {

constexpr const char* kOrigin = "fuzz-rules.toml";

void check_config_error(const Error& e) {
  fuzz::check_error(e);
  QAPLAN_FUZZ_CHECK(e.code == ErrorCode::kInvalidConfig, e.to_string());
  QAPLAN_FUZZ_CHECK(e.file == kOrigin, e.to_string());
}

void plan_some(const Planner& planner) {
  const Config& c = planner.config();
  for (const char* q : {"报销费用超过5000需要谁审批", "年假怎么申请", "它呢", "你好"}) {
    PrepareRequest req{q, {"年假有几天"}, "", std::nullopt};
    auto a = planner.prepare(req);
    auto b = planner.prepare(req);
    QAPLAN_FUZZ_CHECK(a.ok() == b.ok(), q);
    if (!a.ok()) {
      fuzz::check_error(a.error());
      continue;
    }
    QAPLAN_FUZZ_CHECK(to_json(*a) == to_json(*b), q);
    if (!a->plan) continue;
    for (std::size_t i = 0; i < kPlanKnobs.size(); ++i) {
      const auto id = static_cast<KnobId>(i);
      const double v = get_knob(a->plan->knobs(), id);
      bool reachable = v == get_knob(c.retrieval_strategy.defaults, id);
      for (const auto& p : c.retrieval_strategy.patches)
        for (const auto& ch : p.changes) reachable = reachable || (ch.knob == id && ch.value == v);
      QAPLAN_FUZZ_CHECK(reachable, std::string(kPlanKnobs[i].name) + " = " + std::to_string(v));
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = fuzz::as_view(data, size);
  auto ranking = parse_ranking_config(text, kOrigin);
  if (!ranking.ok()) check_config_error(ranking.error());
  else QAPLAN_FUZZ_CHECK(ranking->validate().ok(), ranking->validate().error().to_string());

  auto cfg = parse_config(text, kOrigin);
  if (!cfg.ok()) {
    check_config_error(cfg.error());
    return 0;
  }
  const Status valid = cfg->validate();
  QAPLAN_FUZZ_CHECK(valid.ok(), valid.error().to_string());
  // The model file and the domain lexicon are resolved beside a rules file on disk, which the
  // fuzzer does not have: plan with the rules alone (the shipped rules.toml names both).
  cfg->model.enabled = false;
  cfg->domain.lexicon.clear();
  auto planner = Planner::create(std::move(cfg).value());
  QAPLAN_FUZZ_CHECK(planner.ok(), planner.error().to_string());
  plan_some(*planner);
  return 0;
}
