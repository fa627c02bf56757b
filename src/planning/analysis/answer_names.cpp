#include "planning/analysis/rewrite_turn.hpp"

// What an answer names that the next turn asks about (docs/rewrite.md): the other one's thing
// (养了一只橘猫 → 你的橘猫) and the place it sends one to (到IT服务台领取 → IT服务台). And what a
// question asked to do in time (提前申请), which the turn's verb keeps.
#include "common/utf8.hpp"
#include "planning/analysis/phrases.hpp"

namespace qaplan::internal::rewriting {

// What the other one has, said in answer to a question put to them (你养猫吗 + 养了一只橘猫 +
// 叫什么名字): 你的 and the thing counted after 了一 / 有一 and its classifier (你的橘猫). nullopt
// when the question was not put to 你 or the answer names no thing so.
std::optional<std::string> owned_answer(const TurnView& t) {
  if (!t.h.prev_is_question || t.h.prev_at != 1) return std::nullopt;
  // Put to 你 (ICU may glue its verb: 你有|种花), not to 你们 nor a greeting (你好).
  const std::string_view asked = t.h.prev;
  if (!asked.starts_with("你") || asked.starts_with("你们") || asked.starts_with("你好"))
    return std::nullopt;
  const std::string_view answer = first_clause(t.h.window.front());
  for (std::string_view counted : {"了一", "有一"}) {
    const std::size_t at = answer.find(counted);
    if (at == std::string_view::npos || at + counted.size() >= answer.size()) continue;
    std::size_t i = at + counted.size();
    const std::size_t c = i;
    if (next_code_point(answer, i) < 0 || !classifier(answer.substr(c, i - c))) continue;
    // The thing closes the clause: a clause that goes on (一只猫叫咪咪) says more than what it is.
    const std::string_view thing = trim_end(answer.substr(i));
    const std::size_t n = count_code_points(thing);
    if (n < 2 || n > 4) continue;
    bool more = false;
    for (std::string_view v : {"叫", "是", "在", "有", "给", "和"})
      more = more || thing.find(v) != std::string_view::npos;
    if (!more) return "你的" + std::string(thing);
  }
  return std::nullopt;
}

// Where to go, asked after an answer that sends one somewhere (到IT服务台领取 + 在哪儿): that place,
// the words after 到 / 去 up to the clause's closing verb (IT服务台在哪儿). nullopt when the turn
// asks no place or the answer names none so.
std::optional<std::string> destination(const TurnView& t, std::string_view frag) {
  bool where = false;
  for (std::string_view w : {"在哪", "在几楼", "在什么地方", "怎么走", "怎么去", "具体在哪"})
    where = where || frag.starts_with(w);
  if (!where || !t.h.prev_is_question || t.h.prev_at != 1) return std::nullopt;
  const std::string_view answer = t.h.window.front();
  // 到 / 去 as a word of their own (收到, 到期, 过去 are other words).
  for (const Token& k : words_of(answer)) {
    const std::string_view to = k.text(answer);
    if (to != "到" && to != "去") continue;
    const std::string_view rest = first_clause(answer.substr(k.end));
    std::vector<Token> w = words_of(rest);
    while (!w.empty() && !w.back().word) w.pop_back();
    if (w.size() >= 2) w.pop_back();  // the verb the place is for (领取, 办理)
    if (w.empty()) continue;
    const std::string_view place = trim_end(rest.substr(0, w.back().end));
    if (count_code_points(place) >= 2 && count_code_points(place) <= 10) return std::string(place);
  }
  return std::nullopt;
}

// The turn's verb with the adverb of time the question gave it (加班需要提前申请吗 + 忘了申请怎么办 →
// 忘了提前申请怎么办): what was asked was to do it in time, and what is missed is that.
std::string with_manner(std::string_view frag, std::string_view asked) {
  for (std::string_view adverb : {"提前", "事先", "预先", "按时", "及时", "准时"}) {
    const std::size_t at = asked.find(adverb);
    if (at == std::string_view::npos || frag.find(adverb) != std::string_view::npos) continue;
    const std::string_view after = asked.substr(at + adverb.size());
    const std::vector<Token> w = words_of(after);
    if (w.empty() || !w[0].word || count_code_points(w[0].text(after)) < 2) continue;
    const std::string_view verb = w[0].text(after);
    // A verb: not what the question asks (提前|几天, 提前|多久).
    bool asks = false;
    for (std::string_view q : {"几", "多", "哪", "什么", "怎"})
      asks = asks || verb.find(q) != std::string_view::npos;
    std::size_t v = std::string_view::npos;
    if (!asks)
      for (const std::vector<Token> fw = words_of(frag); const Token& k : fw) {
        // A whole word, not glued to a lone character after it (申请|表 is a form, not a verb).
        const auto next = &k + 1;
        const bool glued = next != fw.data() + fw.size() && next->single_han &&
                           next->begin == k.end && next->text(frag) != "了" &&
                           next->text(frag) != "吗" && next->text(frag) != "呢";
        if (k.text(frag) == verb && !glued && v == std::string_view::npos) v = k.begin;
      }
    if (v == std::string_view::npos) continue;
    return std::string(frag.substr(0, v)) + std::string(adverb) + std::string(frag.substr(v));
  }
  return std::string(frag);
}

}  // namespace qaplan::internal::rewriting
