#include "planning/analysis/rewrite_turn.hpp"

// What a previous yes-or-no question asked about — the thing had (公司有餐补吗), the activity able
// or needed (里程可以兑换机票吗, 外币可以在网点兑换吗) — when a bare predicate goes on from it
// (docs/rewrite.md).
#include "common/icu.hpp"
#include "common/utf8.hpp"
#include "planning/analysis/coordination.hpp"

namespace qaplan::internal::rewriting {
namespace {

// The previous question's two phrases without what stands between them (公司|有|餐补 → 公司餐补).
std::string both_spans(const TurnView& t) {
  const std::vector<Span>& sp = t.h.prev_spans;
  return std::string(slice(t.h.prev, sp[0].begin, sp[0].end)) + std::string(slice(t.h.prev, sp[1].begin, sp[1].end));
}

// The thing a light verb only hands over or goes through (走|审批, 交|纸质版, 写|8D报告, 做|安全评估):
// what a question going on from "要走审批吗" asks about (多久批下来, 交给谁) is that thing.
std::optional<std::string_view> light_verb_object(std::string_view activity,
                                                  const PhraseReader& reader) {
  // The verb is the activity's first word as ICU reads it (开通, 交流 and 写作 are no 开, 交, 写).
  const std::vector<Token> w = words_of(activity);
  if (w.empty()) return std::nullopt;
  const std::string_view first = w.front().text(activity);
  for (std::string_view v : {"提交", "填写", "办理", "出具", "走", "做", "交", "写", "填", "开", "办"}) {
    if (first != v) continue;
    const std::string_view thing = activity.substr(v.size());
    std::size_t end = 0;
    if (count_code_points(thing) < 2 || !is_word_char(next_code_point(thing, end)) ||
        reader.is_function(thing.substr(0, end)))
      return std::nullopt;
    return thing;
  }
  return std::nullopt;
}

// Words asking what something costs or when it or its money arrives.
constexpr std::string_view kCostWords[] = {"多少钱", "手续费", "收费", "费用多少", "到账", "拿到", "收到"};

// An owner that only says whose the thing is in any conversation of this kind: the company
// itself (公司, 单位; 你们公司 reads as 公司, the spans leave 你们 out).
bool context_owner(std::string_view owner) { return owner == "公司" || owner == "单位"; }

// An answer saying yes to having (有 / 有，… / 有的，…), not one opening with a word of 有 (有点难说).
bool says_yes_having(std::string_view answer) {
  if (!answer.starts_with("有")) return false;
  std::string_view rest = answer.substr(std::string_view("有").size());
  for (std::string_view p : {"的", "啊", "呀"})
    if (rest.starts_with(p)) rest.remove_prefix(p.size());
  return rest.empty() || rest.starts_with("，") || rest.starts_with(",") || rest.starts_with("。") ||
         rest.starts_with(" ");
}

// The topic follows a word asking how (怎么|办理副卡, 如何|申请退款).
bool after_how(std::string_view prev, std::string_view topic) {
  const std::size_t at = prev.find(topic);
  if (at == std::string_view::npos) return false;
  const std::string_view before = prev.substr(0, at);
  for (std::string_view how : {"怎么", "如何", "怎样", "咋"})
    if (before.ends_with(how)) return true;
  return false;
}

}  // namespace

// What a question of having asked about (公司有餐补吗 → 公司餐补): its owner and the thing had, when
// the question is only "A 有 B 吗". The predicate that follows (每天多少, 怎么才能拿到)
// asks about the thing, not the owner.
std::optional<std::string> had_thing(const TurnView& t) {
  const std::vector<Span>& sp = t.h.prev_spans;
  if (t.h.resolved || sp.size() != 2) return std::nullopt;
  const std::string_view gap = slice(t.h.prev, sp[0].end, sp[1].begin);
  const std::string_view tail = trim_end(t.h.prev.substr(sp[1].end));
  if (gap != "有" || tail != "吗") return std::nullopt;
  // Once an answer has said yes, the thing is known and goes on without its owner when that owner
  // is only the company (公司有员工宿舍吗 + 有，… + 收费吗 → 员工宿舍收费吗).
  const std::string_view owner = slice(t.h.prev, sp[0].begin, sp[0].end);
  if (t.h.prev_at == 1 && says_yes_having(t.h.window.front()) && context_owner(owner))
    return std::string(slice(t.h.prev, sp[1].begin, sp[1].end));
  return both_spans(t);
}

// What a how-to question's procedure gets (怎么办理副卡 → 副卡, 怎么申请退款 → 退款), when the turn
// asks what it costs or when it arrives (每个月多少钱, 手续费多少, 多久能到账, 几天能拿到): a price or a payment
// belongs to the thing, not to the act of applying for it. The act stays for what the procedure
// itself asks (要交押金吗, 要谁批, 最晚提前多久).
std::optional<std::string> procured_thing(const TurnView& t, std::string_view frag) {
  const std::string_view anchor = t.r.topic_anchor;
  if (t.h.resolved || !after_how(t.h.prev, anchor)) return std::nullopt;
  const bool costs = std::any_of(
      std::begin(kCostWords), std::end(kCostWords),
      [&](std::string_view w) { return frag.find(w) != std::string_view::npos; });
  if (!costs) return std::nullopt;
  const std::vector<Token> w = words_of(anchor);
  if (w.size() < 2) return std::nullopt;
  const std::string_view verb = w.front().text(anchor);
  for (std::string_view v : {"申请", "办理", "开通", "开办", "领取", "购买"}) {
    if (verb != v) continue;
    const std::string_view thing = anchor.substr(w.front().end);
    if (count_code_points(thing) < 2 || t.reader.is_function(w[1].text(anchor)))
      return std::nullopt;
    return std::string(thing);
  }
  return std::nullopt;
}

// What an answer said yes to having (保密协议里有竞业限制吗 + 有，竞业限制期为离职后12个月，…补偿。 +
// 补偿是多少): the thing asked about, when the turn takes up a word of the answer — as the answer
// names it when that is its shorter form (竞业限制期 → 竞业限制; 试用期条款 + 试用期为… → 试用期).
std::optional<std::string> confirmed_thing(const TurnView& t, std::string_view frag) {
  const std::vector<Span>& sp = t.h.prev_spans;
  if (!t.h.prev_is_question || t.h.prev_at != 1 || sp.empty()) return std::nullopt;
  const std::string_view answer = t.h.window.front();
  const std::string_view tail = trim_end(t.h.prev.substr(sp.back().end));
  if (!answer.starts_with("有") || tail != "吗" ||
      !slice(t.h.prev, 0, sp.back().begin).ends_with("有"))
    return std::nullopt;
  const std::vector<Token> fw = words_of(frag);
  if (fw.empty() || !fw[0].word || count_code_points(fw[0].text(frag)) < 2 ||
      answer.find(fw[0].text(frag)) == std::string_view::npos)
    return std::nullopt;
  const std::string_view asked = slice(t.h.prev, sp.back().begin, sp.back().end);
  // The answer's own name for it: what its first clause after 有 says something of (…为 / 是).
  std::string_view said = trim_start(answer.substr(std::string_view("有").size()));
  // Past the comma or particle after 有 (有，… / 有的，…).
  if (const std::size_t comma = said.find(','); comma != std::string_view::npos && comma <= 6)
    said = trim_start(said.substr(comma + 1));
  for (std::string_view v : {"为", "是"})
    if (const std::size_t at = said.find(v); at != std::string_view::npos)
      said = said.substr(0, at);
  if (said.starts_with(asked) || said.empty()) return std::string(asked);
  if (asked.starts_with(said)) return std::string(said);
  return std::string(asked);
}

// What a question of ability asked about (里程可以兑换机票吗 → 里程兑换机票): its topic and the
// activity after 能 / 可以, when a wh-question (具体咋换, 找谁) goes on from it — how one does that
// activity or whom one asks for it, not the topic alone. Only "topic 能|可以 activity 吗", the
// activity one phrase of two or more words, or a lone verb and its object (工资卡能换银行吗 →
// 工资卡换银行: the phrases leave a lone character out).
std::optional<std::string> able_activity(const TurnView& t) {
  const std::vector<Span>& sp = t.h.prev_spans;
  if (t.h.resolved || sp.size() != 2 || !asks_wh(t.q, t.text, t.lex.ids()) ||
      asks_which(t.text, /*times_too=*/false))
    return std::nullopt;
  const std::string_view gap = slice(t.h.prev, t.h.subject_end, sp[1].begin);
  const std::string_view tail = trim_end(t.h.prev.substr(sp[1].end));
  if (tail != "吗" || t.h.subject_end != sp[0].end) return std::nullopt;
  std::optional<std::string_view> verb;  // what follows the modal
  for (std::string_view modal : {"能", "可以"})
    if (gap.starts_with(modal)) verb = gap.substr(modal.size());
  if (!verb) return std::nullopt;
  if (verb->empty()) return sp[1].words >= 2 ? std::optional(both_spans(t)) : std::nullopt;
  // A lone verb: one Han character that is no function word and no adverb (先, 再: 可以先垫付).
  std::size_t end = 0;
  if (!is_han(next_code_point(*verb, end)) || end != verb->size() || t.reader.is_function(*verb) ||
      opens_with_adverb(*verb) || *verb == "先")
    return std::nullopt;
  return std::string(slice(t.h.prev, sp[0].begin, sp[0].end)) + std::string(*verb) +
         std::string(slice(t.h.prev, sp[1].begin, sp[1].end));
}

// What a yes-or-no question of ability or need asked about (外币可以在网点兑换吗 → 外币在网点兑换,
// 合同归档要交纸质版吗 → 合同归档的纸质版): its topic and everything after the modal, when a bare
// predicate (需要提前预约吗, 交给谁) goes on from it — that predicate is said of the activity, and a
// retriever needs the activity's words, not the topic's alone; of a light verb's activity (交, 走)
// the thing handed over is what it asks about. Not when the turn says a word of
// the activity again (忘了申请怎么办 after 加班需要提前申请吗: it restates the activity its own way)
// nor when it asks which. A case closing in 呢 (只请半天呢) is put to the question, not after it.
std::optional<std::string> asked_activity(const TurnView& t, std::string_view frag) {
  const std::vector<Span>& sp = t.h.prev_spans;
  if (t.h.resolved || sp.size() < 2 || t.h.subject_end != sp[0].end || asks_which(t.text)) return std::nullopt;
  const std::string_view asked = trim_end(t.h.prev_text);
  if (!asked.ends_with("吗") || sp.back().end + std::string_view("吗").size() != asked.size())
    return std::nullopt;
  std::string_view rest = slice(t.h.prev, t.h.subject_end, sp.back().end);
  const bool modal = drop_modal(rest);
  // An adverb after the modal (可以先垫付吗) says when or how, and the verb after it may be a
  // step of its own: no activity is read.
  if (!modal || rest.empty() || opens_with_adverb(rest) || rest.starts_with("先") ||
      asks_wh(t.h.prev_scan, t.h.prev, t.lex.ids()))
    return std::nullopt;
  // The previous question's words (segmented once per turn) inside the activity.
  const auto from = static_cast<std::uint32_t>(rest.data() - t.h.prev.data());
  for (const Token& w : words_of(t.h.prev))
    if (w.word && w.begin >= from && w.end <= from + rest.size() &&
        count_code_points(w.text(t.h.prev)) >= 2 && frag.find(w.text(t.h.prev)) != std::string_view::npos)
      return std::nullopt;
  const std::string_view topic = slice(t.h.prev, sp[0].begin, sp[0].end);
  if (auto thing = light_verb_object(rest, t.reader))
    return std::string(topic) + "的" + std::string(*thing);
  // A lone verb after its object (工位可以换吗) goes in front of it, as one says the activity
  // (换工位要等多久; 工位换 reads as a broken clause).
  std::size_t end = 0;
  if (is_han(next_code_point(rest, end)) && end == rest.size() && !t.reader.is_function(rest))
    return std::string(rest) + std::string(topic);
  return std::string(topic) + std::string(rest);
}

}  // namespace qaplan::internal::rewriting
