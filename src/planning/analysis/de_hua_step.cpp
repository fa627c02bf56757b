#include "planning/analysis/rewrite_turn.hpp"

// A case closed by 的话 with no marker before it (当天临时来的话能进吗, 入职前来不及做的话怎么办):
// the verbs of the case and its question take back the object the last question gave them, and
// the topic goes in front when the turn still does not name it
// (docs/rewrite.md, "Constructions the dev rows lack", rule 8).
#include "common/utf8.hpp"
#include "planning/case_clause.hpp"

namespace qaplan::internal::rewriting {
namespace {

constexpr std::string_view kDeHua = "的话";

// The object the previous question gives the verb (进 of 能进吗 → 园区 of 访客车辆能进园区吗):
// the content words right after that verb there, up to a function word or a question word, at
// the first place the verb has one the turn does not say already; "" when there is none.
std::string_view object_of(std::string_view verb, const TurnView& t) {
  const std::string_view prev = t.h.prev_text;
  auto asking = [&](std::string_view x) {  // 几点, 多少钱: a question word opens it
    return opens_with_question_word(x, t.lex.config().rewrite);
  };
  const std::vector<Token> w = words_of(prev);
  for (std::size_t k = 0; k + 1 < w.size(); ++k) {
    if (w[k].text(prev) != verb) continue;
    std::size_t e = k + 1;
    while (e < w.size() && e < k + 4 && w[e].word && w[e].begin == w[e - 1].end &&
           !t.reader.is_function(w[e].text(prev)) && !asking(w[e].text(prev)))
      ++e;
    if (e == k + 1) continue;
    const std::string_view object = prev.substr(w[k + 1].begin, w[e - 1].end - w[k + 1].begin);
    if (count_code_points(object) < 2 || t.text.find(object) != std::string_view::npos) continue;
    return object;
  }
  return {};
}

// `part` with the object back after its closing verb: the last word before `end` (the case's
// 的话, the question's 吗), a lone character or two. `object` is set to what was put back.
std::string with_object_back(std::string_view part, std::string_view end, const TurnView& t,
                             std::string_view& object) {
  if (!part.ends_with(end)) return std::string(part);
  const std::string_view before = part.substr(0, part.size() - end.size());
  const std::vector<Token> w = words_of(before);
  if (w.empty() || !w.back().word || w.back().ascii || w.back().end != before.size()) return std::string(part);
  // The rewriter lists 做 and 办 among its function words; only a copula or a modal is no verb
  // that takes an object here, nor a word of when (晚上的话).
  const std::string_view verb = w.back().text(before);
  for (std::string_view no : {"是", "有", "在", "要", "会", "能", "可以", "需要", "得", "了"})
    if (verb == no) return std::string(part);
  if (count_code_points(verb) > 2 || temporal(verb)) return std::string(part);
  std::string_view found = object_of(verb, t);
  // Read alone, a modal and its verb may come as one word (能做): the verb is its last character.
  if (found.empty() && count_code_points(verb) == 2) found = object_of(last_code_point(verb), t);
  if (found.empty()) return std::string(part);
  object = found;
  return std::string(before) + std::string(found) + std::string(end);
}

// The topic's words before the object put back, without the verb and the modals that led to it
// (访客|车辆 of 访客车辆|能进|园区 when 园区 is put back): the subject the turn leaves out. The
// whole topic when it does not hold the object.
std::string_view subject_before(std::string_view anchor, std::string_view object,
                                const PhraseReader& reader) {
  const std::size_t at = object.empty() ? std::string_view::npos : anchor.find(object);
  if (at == std::string_view::npos) return anchor;
  std::vector<Token> lead = words_of(anchor.substr(0, at));
  if (!lead.empty()) lead.pop_back();
  while (!lead.empty() && reader.is_function(lead.back().text(anchor))) lead.pop_back();
  return lead.empty() ? anchor.substr(0, 0) : anchor.substr(0, lead.back().end);
}

}  // namespace

std::optional<Step> de_hua_step(const TurnView& t) {
  const std::string_view text = t.text;
  const std::size_t at = case_de_hua(text);
  if (at == std::string_view::npos || ascii_text(text) || t.r.topic_anchor.empty() ||
      !t.h.prev_is_question)
    return std::nullopt;
  const std::string_view ask = text.substr(at + kDeHua.size());
  const std::string_view asked = trim_start(ask.starts_with(",") ? ask.substr(1) : ask);
  if (asked.empty() || asked == "呢") return std::nullopt;  // 换货的话呢: the fragment step's
  std::string_view object;
  std::string out = with_object_back(text.substr(0, at + kDeHua.size()), kDeHua, t, object);
  out += std::string(ask.substr(0, ask.size() - asked.size()));
  // One object put back: the question's verb takes it only when the case's did not.
  if (object.empty())
    out += with_object_back(asked, "吗", t, object);
  else
    out += std::string(asked);
  // The topic in front when nothing of it is in the turn yet (访客车辆当天临时来的话能进园区吗);
  // an object put back may say its last words already: only what comes before them goes. Named:
  // it is there whole (核磁, put back as an object), or the subject's first word of two or more
  // characters is (访客 of 访客车辆).
  const std::string_view anchor = t.r.topic_anchor;
  const std::string_view subject = subject_before(anchor, object, t.reader);
  const std::vector<Token> w = words_of(subject);
  const auto first = std::find_if(w.begin(), w.end(), [&](const Token& k) {
    return k.word && count_code_points(k.text(subject)) >= 2 && !t.reader.is_function(k.text(subject));
  });
  const bool named = subject.empty() || out.find(anchor) != std::string::npos ||
                     (first != w.end() && out.find(first->text(subject)) != std::string::npos);
  if (out == text && named) return std::nullopt;
  return Step{named ? std::move(out) : join(subject, out), "condition:de_hua"};
}

}  // namespace qaplan::internal::rewriting
