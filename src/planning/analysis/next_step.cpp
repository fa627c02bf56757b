#include "planning/analysis/rewrite_turn.hpp"

// "What next" after an answer that gave a step (预付款怎么申请 + 在费控系统提交预付款申请，附合同和
// 付款计划。 + 然后呢): the question is what follows that step (docs/rewrite.md).
#include "common/utf8.hpp"

namespace qaplan::internal::rewriting {
namespace {

// Adverbs that order the steps of an answer (先…再…, 然后, 最后): a clause opening with one after
// the first is a later step.
constexpr std::string_view kOrder[] = {"再", "然后", "接着", "之后", "最后", "随后"};

// The step the answer leaves the user at: its last clause that a later-step adverb opens (先填单，
// 再送主管签核 → 送主管签核), else its first clause of three or more characters (在费控系统提交预付款
// 申请，附合同… → 在费控系统提交预付款申请: what follows is what the rest attaches to it; 可以，… opens
// with a yes, no step).
std::string_view reached_step(std::string_view answer) {
  std::string_view first, later;
  // The clauses one after another (phrases.hpp's clause breaks).
  for (std::string_view rest = answer; !rest.empty();) {
    const std::string_view clause = first_clause(rest);
    const std::string_view said = trim_end(clause);
    // A yes or no opening the answer (可以，…; 需要，…) is no step: the first clause is the next.
    if (first.empty() && count_code_points(said) >= 3) first = said;
    for (std::string_view a : kOrder)
      if (said.data() != answer.data() && said.starts_with(a)) later = said;
    if (clause.size() == rest.size()) break;
    rest = trim_start(rest.substr(clause.size()));
  }
  if (later.empty()) return first;
  // The answer's words (segmented once per turn): the one the later clause opens with.
  const auto at = static_cast<std::uint32_t>(later.data() - answer.data());
  for (const Token& w : words_of(answer))
    if (w.begin == at)
      for (std::string_view a : kOrder)
        if (w.text(answer) == a) return later.substr(w.end - at);
  return later;
}

}  // namespace

std::optional<Step> next_after_answer_step(const TurnView& t, std::string_view frag) {
  if (!t.h.prev_is_question || t.h.prev_at != 1 || t.h.window.empty()) return std::nullopt;
  // Only the marker itself (然后呢, 接下来): a turn with words of its own asks those.
  const std::size_t frag_at = static_cast<std::size_t>(frag.data() - t.question.data());
  bool only_marker = false;
  for (const CueHit& h : t.q.hits)
    only_marker = only_marker || (h.list == t.lex.ids().sequence_marker && h.begin <= frag_at &&
                                  h.end >= frag_at + trim_end(frag).size());
  if (!only_marker || frag.empty() || ascii_text(frag)) return std::nullopt;
  std::string_view step = statement_core(reached_step(trim_end(t.h.window.front())), t.reader);
  for (std::string_view enough : {"即可", "就行", "就可以"})
    if (step.ends_with(enough)) step.remove_suffix(enough.size());
  if (count_code_points(step) < 2) return std::nullopt;
  // The step said without what it is a step of (再送主管签核 after 报账流程是什么) takes the topic
  // in front: a retriever needs both.
  // Who the step goes to or is done by opens it (送|主管签核, 由|部门主管核准): the step is what they
  // do. And the topic's 流程 is what the closing phrase asks again (报账流程 → 报账…之后的流程).
  const std::vector<Token> sw = words_of(step);
  bool hands_on = false;  // ICU may keep the order's 再 with it (再送)
  for (std::string_view v : {"送", "由", "交", "再送", "再由", "再交"})
    hands_on = hands_on || (!sw.empty() && sw[0].text(step) == v);
  if (sw.size() >= 3 && hands_on && !sw[1].single_han) step.remove_prefix(sw[1].begin);
  std::string out(step);
  std::string_view anchor = t.r.topic_anchor;
  constexpr std::string_view kProcess = "流程";
  if (anchor.ends_with(kProcess) && count_code_points(anchor) > 3)
    anchor.remove_suffix(kProcess.size());
  bool named = false;
  for (const Token& w : words_of(anchor))
    named = named || (w.word && count_code_points(w.text(anchor)) >= 2 &&
                      step.find(w.text(anchor)) != std::string_view::npos);
  if (!named) out = join(anchor, out);
  return Step{out + std::string(kWhatNext), "next_step"};
}

}  // namespace qaplan::internal::rewriting
