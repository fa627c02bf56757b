#include "planning/model/model_view.hpp"

#include <algorithm>

namespace qaplan::internal {

Result<ModelLabelMap> map_model_labels(const RouterModel& model, const Config& config) {
  ModelLabelMap m;
  m.source.fill(-1);
  auto bad = [&](std::string_view head, const std::string& label) {
    return make_file_error(ErrorCode::kInvalidConfig,
                           "model " + model.name() + " has " + std::string(head) + " label '" +
                               label + "' that this config does not know",
                           config.origin, 0, "[model] path");
  };
  const auto& acts = model.labels(Head::kAct);
  for (std::size_t i = 0; i < acts.size(); ++i) {
    if (acts[i] == "question") {
      m.act[i] = RouteReason::kNeedsRetrieval;
      continue;
    }
    auto r = parse_route_reason(acts[i]);
    if (!r.ok() || *r == RouteReason::kSourceBoundary) return bad("act", acts[i]);
    m.act[i] = *r;
  }
  const auto& intents = model.labels(Head::kIntent);
  for (std::size_t i = 0; i < intents.size(); ++i) {
    auto r = parse_intent(intents[i]);
    if (!r.ok()) return bad("intent", intents[i]);
    m.intent[i] = *r;
  }
  const auto& cats = model.labels(Head::kCategory);
  for (std::size_t i = 0; i < cats.size(); ++i) {
    auto r = parse_question_category(cats[i]);
    if (!r.ok()) return bad("category", cats[i]);
    m.category[i] = *r;
  }
  const auto& sources = model.labels(Head::kSource);
  for (std::size_t i = 0; i < sources.size(); ++i) {
    if (sources[i] == "none") continue;
    const auto it = std::find_if(config.sources.begin(), config.sources.end(),
                                 [&](const SourceConfig& s) { return s.name == sources[i]; });
    // A source this config does not have (a host's own sources beside the shipped model) is no
    // evidence for any of its sources: the act, intent and category heads still serve.
    m.source[i] = it == config.sources.end() ? -1 : static_cast<int>(it - config.sources.begin());
  }
  const auto& dep = model.labels(Head::kDependent);
  for (std::size_t i = 0; i < dep.size(); ++i)
    if (dep[i] == "dependent") m.dependent_label = static_cast<int>(i);
  m.dependent_min_score = config.model.dependent_min_score;
  return m;
}

}  // namespace qaplan::internal
