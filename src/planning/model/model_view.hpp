#pragma once
// The planner's view of the router model: its output for one question, with label indexes mapped
// once (at Planner::create) onto the planner's enums and sources, so a stage reads "the model
// thinks this is chit_chat with p = 0.93" without any string comparison per question.
#include <array>
#include <optional>
#include <string>

#include "planning/model/router_model.hpp"
#include "qaplan/planning/config.hpp"
#include "qaplan/planning/types.hpp"

namespace qaplan::internal {

/// Label index → meaning, built from a model's label names and a Config.
struct ModelLabelMap {
  std::array<RouteReason, kMaxLabels> act{};  ///< "question" → kNeedsRetrieval
  std::array<std::optional<Intent>, kMaxLabels> intent{};
  std::array<std::optional<QuestionCategory>, kMaxLabels> category{};
  std::array<int, kMaxLabels> source{};  ///< index into Config::sources; -1 for "none"
  int dependent_label = -1;              ///< index of "dependent" in the dependent head
  double dependent_min_score = 1.0;      ///< [model] dependent_min_score
};

/// Maps `model`'s labels onto `config`. Errors: kInvalidConfig when a label is unknown (a model
/// trained for other sources or acts than this config names).
Result<ModelLabelMap> map_model_labels(const RouterModel& model, const Config& config);

/// One question's model verdicts (empty when the model is off).
struct ModelVerdict {
  const ModelLabelMap* map = nullptr;
  ModelOutput out{};

  bool on() const noexcept { return map != nullptr; }
  const HeadOutput& head(Head h) const noexcept { return out[static_cast<std::size_t>(h)]; }
  /// The dialogue act. A turn the dependent head calls a follow-up (P(dependent) ≥
  /// [model] dependent_min_score; only with history) is a question whatever the act head says:
  /// the act head reads the turn alone, and 深圳呢 / 然后呢 / 为什么 alone look like small talk.
  RouteReason act() const noexcept {
    return follow_up() ? RouteReason::kNeedsRetrieval : map->act[head(Head::kAct).best];
  }
  double act_score() const noexcept {
    return follow_up() ? dependent_score() : head(Head::kAct).score;
  }
  bool follow_up() const noexcept { return dependent_score() >= map->dependent_min_score; }
  /// P(dependent) from the dependent head.
  double dependent_score() const noexcept {
    return map->dependent_label < 0 ? 0.0
                                    : head(Head::kDependent).probs[static_cast<std::size_t>(
                                          map->dependent_label)];
  }
};

}  // namespace qaplan::internal
