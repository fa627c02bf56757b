#include "planning/analysis/also_verdict.hpp"

// A subject with 也 and only a verdict (员工也不行吗, 外包也可以吗) asks the last question of that
// subject: the subject, 也 and the question's predicate (访客能带宠物进园区吗 → 员工也不能带宠物进园区吗;
// docs/rewrite.md).
#include <algorithm>
#include <array>

#include "planning/analysis/rewrite_turn.hpp"

namespace qaplan::internal {
namespace {

// What a verdict may say of the previous question's predicate: that it holds (可以, 也是) or,
// opening with 不, that it does not.
constexpr std::array<std::string_view, 13> kVerdicts = {"不行", "可以", "行", "要", "需要", "能", "是",
                                                        "一样", "不能", "不可以", "算", "适用", "有"};

// A modal opening the predicate: a denied verdict puts 不 before it (能带… → 不能带…).
bool opens_with_modal(std::string_view predicate) {
  for (std::string_view m : {"能", "可以", "要", "需要", "得", "用"})
    if (predicate.starts_with(m)) return true;
  return false;
}

}  // namespace

std::optional<std::pair<std::size_t, std::size_t>> also_verdict(std::string_view turn) {
  constexpr std::string_view kAlso = "也";
  const std::size_t also = turn.find(kAlso);
  if (also == std::string_view::npos || also == 0) return std::nullopt;
  const std::size_t begin = also + kAlso.size();
  const std::string_view particle = last_code_point(turn);
  if (particle != "吗" && particle != "嘛" && particle != "么") return std::nullopt;
  const std::size_t end = turn.size() - particle.size();
  if (end <= begin) return std::nullopt;
  const std::string_view verdict = turn.substr(begin, end - begin);
  if (std::find(kVerdicts.begin(), kVerdicts.end(), verdict) == kVerdicts.end()) return std::nullopt;
  return std::pair{begin, end};
}

namespace rewriting {

std::optional<Step> also_step(const TurnView& t) {
  const auto v = also_verdict(t.text);
  if (!v || !t.h.prev_is_question || !t.h.topic() || t.h.topic()->begin != 0) return std::nullopt;
  const std::string_view subject = t.text.substr(0, t.text.find("也"));
  const std::string_view predicate = trim_start(t.h.prev_text.substr(t.h.subject_end));
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
