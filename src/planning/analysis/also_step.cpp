#include "planning/analysis/rewrite_turn.hpp"

// A subject with 也 and only a verdict (员工也不行吗, 外包也可以吗) asks the last question of that
// subject: the subject, 也 and the question's predicate (访客能带宠物进园区吗 → 员工也不能带宠物进园区吗;
// docs/rewrite.md).
#include <algorithm>

#include "planning/analysis/also_verdict.hpp"

namespace qaplan::internal {
namespace {

// A modal opening the predicate that 不 denies as it is (能带… → 不能带…, 需要 → 不需要); 不要 and
// 不得 would forbid instead.
bool opens_with_modal(std::string_view predicate) {
  for (std::string_view m : {"能", "可以", "需要"})
    if (predicate.starts_with(m)) return true;
  return false;
}

}  // namespace

namespace rewriting {

std::optional<Step> also_step(const TurnView& t) {
  const auto v = also_verdict(t.text);
  if (!v || !t.h.prev_is_question || !t.h.topic() || t.h.topic()->begin != 0) return std::nullopt;
  const std::string_view subject = t.text.substr(0, v->first - std::string_view("也").size());
  // prev_text may end before the topic's phrase does (a span keeps characters trimming drops).
  const std::string_view predicate =
      trim_start(t.h.prev_text.substr(std::min<std::size_t>(t.h.subject_end, t.h.prev_text.size())));
  if (predicate.starts_with("也")) return std::nullopt;  // 访客也能…: 也 would be said twice
  // The subject names someone or something, or is the speaker (我也可以吗).
  const std::vector<std::string>& speakers = t.lex.config().rewrite.speaker_words;
  const bool speaker = std::find(speakers.begin(), speakers.end(), subject) != speakers.end();
  if ((!speaker && content_words(subject, t.reader) < 1) || !predicate.ends_with("吗")) return std::nullopt;
  const bool denied = t.text.substr(v->first).starts_with("不");
  if (denied && !opens_with_modal(predicate)) return std::nullopt;
  std::string out(subject);
  out += "也";
  if (denied) out += "不";
  out += predicate;
  return Step{std::move(out), "also:subject"};
}

}  // namespace rewriting
}  // namespace qaplan::internal
