#include "planning/analysis/rewrite_turn.hpp"

// A case put to the last question (如果超过了呢, 万一丢了呢, 如果是外包员工呢): where the topic goes
// and what is asked of the case (docs/rewrite.md#names-conditions-next-steps-and-why).
#include "common/utf8.hpp"
#include "planning/analysis/antecedent.hpp"
#include "planning/analysis/statement_reply.hpp"

namespace qaplan::internal::rewriting {
namespace {

// The event of a condition with its object back (请了 + 试用期能请病假吗 → 请了病假): a lone verb
// opening it, 了, then no object of its own, where the previous question has that verb before a
// noun phrase — which is what was taken, lent or exceeded. Else the body as it is.
std::string with_object(std::string_view body, const TurnView& t) {
  if (body.empty()) return std::string(body);  // 如果呢: a marker alone
  std::size_t i = 0;
  next_code_point(body, i);
  // A verb ICU holds whole (申请|了 after 孕期能申请调岗吗) as a lone one (请|了).
  if (const std::vector<Token> w = words_of(body);
      w.size() >= 2 && count_code_points(w[0].text(body)) == 2 && w[1].text(body) == "了")
    i = w[0].end;
  const std::string_view verb = body.substr(0, i);
  // Before 了 a function character is the verb it also is (请了: took leave, not "please").
  if (!body.substr(i).starts_with("了") || verb == "是") return std::string(body);
  const std::string_view prev = t.h.prev_text;
  const std::vector<Span>& spans = t.h.prev_spans;
  for (std::size_t k = 0; k < spans.size(); ++k) {
    // The verb before the run (能|请|病假) or opening it (请病假: a lone verb starts a run).
    std::uint32_t at = spans[k].begin;
    if (prev.substr(at).starts_with(verb) && spans[k].end > at + verb.size())
      at += static_cast<std::uint32_t>(verb.size());
    else if (at < verb.size() || prev.substr(at - verb.size(), verb.size()) != verb)
      continue;
    const std::string_view object = slice(prev, at, phrase_end(prev, spans, k));
    if (object.find(t.r.topic_anchor) != std::string_view::npos ||
        body.find(object) != std::string_view::npos)
      return std::string(body);
    const std::size_t le = i + std::string_view("了").size();
    return std::string(body.substr(0, le)) + std::string(object) + std::string(body.substr(le));
  }
  return std::string(body);
}

// Whether `text` names the topic: the whole anchor, or a word of two or more characters of it
// (工资 of 工资条 in 要是工资算错了呢) — the anchor put in front would say it twice.
bool names_topic(std::string_view text, const TurnView& t) {
  const std::string_view anchor = t.r.topic_anchor;
  if (text.find(anchor) != std::string_view::npos) return true;
  for (const Token& w : words_of(anchor))
    if (w.word && count_code_points(w.text(anchor)) >= 2 &&
        text.find(w.text(anchor)) != std::string_view::npos)
      return true;
  return false;
}

// The anchor's head when the case names its first word (专家劳务费 + 如果专家是外籍的呢 → 劳务费:
// what the question asks about), else "": the head left is a word of two or more characters.
std::string unnamed_rest(std::string_view text, const TurnView& t) {
  const std::string_view anchor = t.r.topic_anchor;
  const std::vector<Token> w = words_of(anchor);
  if (w.size() < 2 || text.find(anchor) != std::string_view::npos) return "";
  const std::string_view named = w.front().text(anchor);
  if (count_code_points(named) < 2 || text.find(named) == std::string_view::npos) return "";
  const std::string_view head = anchor.substr(w.front().end);
  return count_code_points(head) >= 2 && text.find(head) == std::string_view::npos ? std::string(head) : "";
}

// The case names the anchor's words but its last, a lone character (加班 of 加班|费): that head
// would be lost with the words the case names.
bool lone_head_left(std::string_view text, const TurnView& t) {
  const std::string_view anchor = t.r.topic_anchor;
  const std::vector<Token> w = words_of(anchor);
  if (w.size() < 2 || text.find(anchor) != std::string_view::npos || !w.back().single_han)
    return false;
  const std::string_view named = anchor.substr(0, w.back().begin);
  return count_code_points(named) >= 2 && text.find(named) != std::string_view::npos;
}

// Where the turn's words start after an opening 那 / 那么 (那如果是实习生呢), else 0.
std::uint32_t opening_marker_end(const TurnView& t) {
  const auto e = first_hit(t.q, t.lex.ids().ellipsis_marker);
  if (!e || e->begin != 0) return 0;
  const std::string_view rest = trim_start(t.text.substr(e->end));
  return static_cast<std::uint32_t>(t.text.size() - rest.size());
}

// True when `body` opens with a person — the speaker (我生病了) or a person word (部门经理不在) —
// and goes on to say something of them.
bool opens_with_person(std::string_view body, const TurnView& t) {
  if (const auto rest = after_speaker(body, t.reader)) return !rest->empty();
  // The person is one word (客户|不同意), or two whose second is a person noun of the list (部门|
  // 经理); something follows it. A verb before a person (送给|客户, 卖|给|客户) makes no subject.
  const std::vector<Token> words = words_of(body);
  if (words.size() < 2 || !words[0].word) return false;
  if (person_phrase(words[0].text(body), t.reader)) return true;
  const std::string_view first = words[0].text(body);
  // A first word ending in a preposition or a verb of giving (交给, 找, 对) governs the person.
  for (std::string_view g : {"给", "向", "对", "跟", "和", "找", "让", "被", "由"})
    if (first.ends_with(g)) return false;
  return words.size() > 2 && words[1].word && !words[0].single_han && !t.reader.is_function(first) &&
         !t.reader.of_function_chars(first) && person_phrase(words[1].text(body), t.reader);
}

// An adverb of negation, degree, scope or time opening a predicate (不|值钱, 很|小, 只是|吓唬人,
// 已经|抵扣了): a closed class, so the word before it is what the predicate is said of.
bool opens_predicate(std::string_view w) {
  for (std::string_view a : {"不", "没", "很", "太", "只", "也", "都", "还", "又", "挺"})
    if (w.starts_with(a)) return true;
  for (std::string_view a : {"已经", "比较", "特别", "非常", "一直"})
    if (w == a) return true;
  return false;
}

// A word that counts times or parts of the topic's event (第二次, 每次, 半天, 两次): the topic is
// what it counts.
bool a_count(std::string_view w) {
  return counting(w) || w.starts_with("第") || w.starts_with("每") || w.starts_with("半");
}

// True when `body` opens with a subject of its own: a person (opens_with_person), or a content
// word of two or more characters (not a time as in 晚上不舒服, a count or a function word) that an
// adverb opening a predicate follows, maybe after a localizer (金额|很小, 奖品|不值钱, 合同|里|没写).
bool opens_with_subject(std::string_view body, const TurnView& t) {
  if (opens_with_person(body, t)) return true;
  const std::vector<Token> words = words_of(body);
  if (words.size() < 2 || !words[0].word || words[0].ascii) return false;
  const std::string_view first = words[0].text(body);
  if (count_code_points(first) < 2 || t.reader.is_function(first) ||
      t.reader.of_function_chars(first) || temporal(first))
    return false;
  if (a_count(first)) return false;  // 第二次|还没过: a count
  std::size_t k = 1;
  const std::string_view next = words[k].text(body);
  if ((next == "里" || next == "上" || next == "中") && words.size() > 2) ++k;
  return opens_predicate(words[k].text(body));
}

// Where a case's own question starts: what to do (客户不同意|怎么办), or a yes-or-no question at
// its last modal with the adverbs right before it (对方只签字不盖章|能生效吗, 我还没转正|还能请吗);
// 0 when there is none after the case's first two words or the turn asks neither.
std::size_t own_question_at(std::string_view body) {
  // What to do in the person's case (如果对方不同意|怎么办): the topic goes before it.
  for (std::string_view what : {"怎么办", "咋办", "怎么处理"})
    if (body.ends_with(what) && body.size() > what.size()) return body.size() - what.size();
  if (!trim_end(body).ends_with("吗")) return 0;
  const std::vector<Token> w = words_of(body);
  const auto modal = [&](std::string_view x) {
    for (std::string_view m : {"能", "可以", "会", "要", "需要", "得", "能否", "可不可以", "能不能"})
      if (x == m) return true;
    return false;
  };
  std::size_t k = w.size();
  for (std::size_t i = 2; i < w.size(); ++i)
    if (w[i].word && modal(w[i].text(body))) k = i;
  if (k == w.size()) return 0;
  while (k > 2 && (w[k - 1].text(body) == "还" || w[k - 1].text(body) == "也")) --k;
  return w[k].begin;
}

// A yes-or-no question of what one may do: a modal of permission or ability before its verb
// (可以退保吗, 能撤回吗, 还能报吗).
bool asks_leave(std::string_view predicate) {
  if (!trim_end(predicate).ends_with("吗")) return false;
  for (std::string_view m : {"可以", "能", "可不可以"})
    if (predicate.find(m) != std::string_view::npos) return true;
  return false;
}

// Whether a case put to a yes-or-no question of what one may do (晚上能留在公司过夜吗 + 要是赶项目
// 走不了呢) asks whether one may in that case: the question again. Not after 万一, whose mishap
// asks what to do (计程车收据可以报帐吗 + 万一收据弄丢了呢); nor a bare event of one's own (要是拖欠了
// 呢), which asks what follows; nor a count of the topic's event (要是第二次还没过呢), which takes the
// topic into the case.
bool may_again(std::string_view marker, std::string_view body, const TurnView& t) {
  if (marker.ends_with("万一") || !asks_leave(t.h.prev_text)) return false;
  if (body.ends_with("了") && count_code_points(body) <= 3) return false;
  const std::vector<Token> words = words_of(body);
  return words.empty() || !a_count(words.front().text(body));
}

// A question of how long something takes (合同审批要几天, 报销多久到账) — not how many days one
// has (年假有几天) nor how long before one must ask (提前几天).
bool asks_duration(std::string_view question) {
  if (question.find("提前") != std::string_view::npos) return false;
  for (std::string_view d : {"多久", "多长时间", "几个工作日", "要几天", "需要几天", "几天能", "几天到"})
    if (const std::size_t at = question.find(d); at != std::string_view::npos) {
      // 能休多久, 可以请多久, 有多长时间: how long one has, not how long it takes.
      const std::string_view before = question.substr(0, at);
      return !(before.ends_with("休") || before.ends_with("请") || before.ends_with("有"));
    }
  return false;
}

// A case of time pressure: someone presses, it is needed at once, or the time runs short (客户催得
// 急, 明天就入职, 来不及). The words of haste are a closed class, each whole: not the 急 of 急诊 or
// the 赶 of 赶上.
bool pressed(std::string_view body) {
  for (std::string_view w : {"着急", "急着", "急用", "急需", "得急", "很急", "加急", "催", "赶时间",
                             "赶工", "赶项目", "马上", "立刻", "明天就", "今天就", "来不及", "等不及", "等不了"})
    if (const std::size_t at = body.find(w); at != std::string_view::npos) {
      // 不着急, 没催, 别急着, 无需加急: no haste.
      const std::string_view before = body.substr(0, at);
      for (std::string_view no : {"不", "没", "别", "无需", "不用"})
        if (before.ends_with(no)) return false;
      return true;
    }
  return false;
}

// Bytes of a time clause opening the question (离职后, 入职前, 出差时: a verb of one or two words
// and 后 / 前 / 时, four characters at most, more words after it), else 0.
std::size_t time_lead(std::string_view asked) {
  const std::vector<Token> w = words_of(asked);
  for (std::size_t k = 1; k < w.size() && k <= 2; ++k) {
    const std::string_view x = w[k].text(asked);
    if ((x == "后" || x == "前" || x == "时" || x == "以后" || x == "之后") && w[k - 1].word &&
        count_code_points(asked.substr(0, w[k].end)) <= 4 && k + 1 < w.size() && w[k + 1].word)
      return w[k].end;
  }
  return 0;
}

// The case, then the question asked in it. A comma between them where the case ends in the
// character the question opens with (如果是剖腹产,产假有多少天): run together they read as a
// character doubled at a seam, which is what a garbled splice looks like.
std::string case_then(std::string_view marker, std::string_view body, std::string_view asked) {
  // A question opening with when it applies (离职后|社保怎么办) keeps that first: the case is one
  // of that time (如果离职后下家还没找到社保怎么办).
  if (const std::size_t lead = time_lead(asked); lead > 0)
    return join(join(join(marker, asked.substr(0, lead)), body), asked.substr(lead));
  std::string out = join(marker, body);
  const std::string_view last = last_code_point(out);
  if (!last.empty() && static_cast<unsigned char>(last[0]) >= 0xE0 && asked.starts_with(last))
    out += ',';
  return join(out, asked);
}

// An English case put to an English question (Can I expense taxi rides? + what if I lose the
// receipt): the question asked in that case, the case after it as English says it (can i expense
// taxi rides if i lose the receipt). The topic put after the marker, as Chinese takes it, would
// read "what if expense taxi rides i lose".
std::optional<Step> english_case(const TurnView& t, std::string_view body) {
  std::string_view asked = trim_end(t.h.prev_text);
  while (asked.ends_with("?") || asked.ends_with("."))
    asked = trim_end(asked.substr(0, asked.size() - 1));
  while (body.ends_with("?")) body = trim_end(body.substr(0, body.size() - 1));
  body = trim_start(body);
  // A case that asks its own question (what if I'm part-time, how many days do I get) is asked.
  if (!t.h.prev_is_question || !ascii_text(asked) || asked.empty() || body.empty() ||
      body.find(',') != std::string_view::npos)
    return std::nullopt;
  return Step{std::string(asked) + " if " + std::string(body), "condition:same_question"};
}

}  // namespace

std::optional<std::string> named_limit(const TurnView& t, std::string_view frag) {
  constexpr std::string_view kExceeded = "超过了";
  const std::string_view asked = t.h.prev_text;
  if (!frag.starts_with(kExceeded) || !t.h.prev_is_question || t.h.newest_stated())
    return std::nullopt;
  auto names = [](std::string_view s, std::initializer_list<std::string_view> any) {
    return std::any_of(any.begin(), any.end(),
                       [&](std::string_view w) { return s.find(w) != std::string_view::npos; });
  };
  // Only a question of a maximum amount (最大多少, 最高多少, 上限是多少), not of years or times
  // (最多能贷多少年).
  if (!names(asked, {"最大多少", "最高多少", "最多多少", "上限多少", "上限是多少", "最大是多少",
                     "最高是多少", "最大金额", "最高金额"}) ||
      names(asked, {"多少天", "多少年", "多少次", "多少人", "多少个"}))
    return std::nullopt;
  // The limit's kind by what the maximum was of: an amount of money, the room of a space, or the
  // size of a thing.
  const std::string_view anchor = t.r.topic_anchor;
  std::string_view limit;
  // A space or a file first (报销附件, 免费网盘空间 hold a word of money but measure bytes).
  if (names(anchor, {"空间", "网盘", "云盘", "硬盘", "共享盘", "容量"}))
    limit = kLimits[1];
  else if (names(anchor, {"附件", "文件", "图片", "视频"}))
    limit = kLimits[2];
  else if (names(asked, {"金额", "多少钱"}) ||
           names(anchor, {"费用", "金额", "钱", "报销", "补贴", "预算", "价格", "借款", "招待费",
                          "餐费", "经费", "差旅费", "话费"}))
    limit = kLimits[0];
  else if (names(asked, {"最大"}))
    limit = kLimits[2];
  else
    return std::nullopt;
  return "超过" + std::string(limit) + std::string(frag.substr(kExceeded.size() - 3));
}

std::optional<Step> exceeded_part_step(const TurnView& t) {
  std::string_view verb;
  for (std::string_view v : {"超出", "超过"})
    if (t.text.starts_with(v)) verb = v;
  const std::string_view rest = t.text.substr(verb.size());
  if (verb.empty() || !(rest.starts_with("的那部分") || rest.starts_with("的部分") ||
                        rest.starts_with("的这部分")))
    return std::nullopt;
  // What is exceeded is the standard or limit asked about, without the word that says whose it
  // is (差旅|住宿标准, 员工|话费补贴标准): the own rows write it so.
  const std::string_view anchor = t.r.topic_anchor;
  bool limit = false;
  for (std::string_view l : {"标准", "上限", "额度", "限额", "预算"}) limit = limit || anchor.ends_with(l);
  if (!limit) return std::nullopt;
  const std::vector<Token> w = words_of(anchor);
  const std::size_t content = std::count_if(w.begin(), w.end(), [](const Token& k) { return k.word; });
  const std::string_view object =
      content >= 3 && w.front().word && !w.front().single_han ? anchor.substr(w[1].begin) : anchor;
  return Step{std::string(verb) + std::string(object) + std::string(rest), "pronoun:exceeded"};
}

// 2. A condition: the topic goes after its marker (如果没休完怎么办 → 如果年假没休完怎么办).
std::optional<Step> condition_step(const TurnView& t) {
  const auto m = first_hit(t.q, t.lex.ids().condition_marker);
  // After an opening 那 the case reads as it does without it (那如果是实习生呢, 那如果过期了怎么办
  // → 如果VPN密码过期了怎么办, as 如果过期了怎么办 does).
  if (!m || (m->begin != 0 && m->begin != opening_marker_end(t))) return std::nullopt;
  std::string_view rest = t.text.substr(m->end);
  if (ascii_text(t.text)) return english_case(t, rest);
  // A 呢 closing the case before the question asked in it (如果是因为发烧呢，要开证明吗) only
  // marks the case: the question reads without it.
  std::string unmarked;
  if (const std::size_t ne_at = rest.find("呢,");
      ne_at != std::string_view::npos && !trim_end(rest.substr(ne_at + 4)).empty()) {
    unmarked = std::string(rest.substr(0, ne_at)) + std::string(rest.substr(ne_at + 3));
    rest = unmarked;
  }
  // A case that asks nothing (假设还在试用期) is put to the question as one closing in 呢 is.
  const bool ne = rest.ends_with("呢") || !t.q.has_in_content(t.lex.ids().question_word);
  const std::string_view body = rest.ends_with("呢") ? trim_end(rest.substr(0, rest.size() - 3)) : rest;
  const std::string_view marker = t.text.substr(m->begin, m->end - m->begin);
  // 就算了 (never mind) puts no case.
  if (marker == "就算" && (body == "了" || body == "了吧" || body == "了啊")) return std::nullopt;
  const bool wh = asks_wh(t.h.prev_scan, t.h.prev, t.lex.ids());
  // The rest of the previous question after its topic (休学|最长可以多久), when it opens with it.
  const std::string_view after_topic =
      t.h.topic() && t.h.topic()->begin == 0 ? t.h.prev_text.substr(t.h.subject_end) : "";
  // 如果是台风假上班呢 after 加班费怎么算 asks that question again in another case: the
  // condition in front of the whole previous question. An event (硬盘坏了呢), a mishap (万一…,
  // 换不了班, 还没找到) or a previous question that only asks yes or no asks what to do instead —
  // unless that question asks what to do itself (离职后社保怎么办).
  const bool mishap = marker.ends_with("万一") || body.find("不") != std::string_view::npos ||
                      body.find("没") != std::string_view::npos;
  const bool event = body.find("了") != std::string_view::npos;  // 忘了续签, 硬盘坏了
  if (names_topic(rest, t)) {
    // 要是工资算错了呢 after 工资条在哪看: an event of the topic asks what to do; 如果是因病休学呢
    // after 休学最长可以多久, a case naming it, asks the question's predicate of it.
    if (ne && (event || mishap))
      return Step{std::string(marker) + std::string(body) + std::string(kWhatToDo), "condition"};
    // A case naming the word a lone head makes the topic with (加班 of 加班|费 in 如果是周末加班呢)
    // names an activity, not the topic: the whole question again after the case, the word it
    // ends with said once (如果是周末加班费怎么算).
    if (ne && t.h.prev_is_question && lone_head_left(rest, t)) {
      const std::string_view anchor = t.r.topic_anchor;
      const std::string_view named = anchor.substr(0, words_of(anchor).back().begin);
      const std::string_view asked = t.h.prev_text;
      if (body.ends_with(named) && asked.starts_with(named))
        return Step{join(std::string(marker), body) + std::string(asked.substr(named.size())),
                    "condition:same_question"};
      return Step{case_then(marker, body, asked), "condition:same_question"};
    }
    if (ne && !after_topic.empty() && t.h.prev_is_question)
      return Step{std::string(marker) + std::string(body) + unnamed_rest(rest, t) + std::string(after_topic),
                  "condition:same_question"};
    return Step{std::string(t.question), "condition_has_topic"};
  }
  const bool what_to_do = t.h.prev_text.ends_with("怎么办") || t.h.prev_text.ends_with("咋办");
  // Time pressure put right after a question of how long something takes asks whether it can be
  // sped up (合同审批要几天 + 要是客户催得急呢 → 要是客户催得急，合同审批能加急吗): the case, a
  // comma (the case's last word may run into the topic: 入职|工牌), the topic and 能加急吗.
  if (ne && t.h.prev_is_question && !t.h.newest_stated() && !t.r.topic_anchor.empty() &&
      asks_duration(t.h.prev_text) && pressed(body))
    return Step{join(std::string(marker), body) + "," + std::string(t.r.topic_anchor) +
                    std::string(kExpedite),
                "condition:expedite"};
  // A case whose subject is a person (如果部门经理不在呢, 假如我生病了呢) sets the scene for the
  // question asked, mishap or not: it is asked again in that case (如果部门经理不在请假谁审批). A
  // mishap after a yes-or-no question (万一我忘了呢) still asks what to do.
  if (ne && t.h.prev_is_question && !what_to_do && (wh || !marker.ends_with("万一")) &&
      !asks_wh(t.q, t.text, t.lex.ids()) && opens_with_subject(body, t))
    return Step{case_then(marker, body, t.h.prev_text), "condition:same_question"};
  if (ne && !event && wh && (!mishap || what_to_do))
    return Step{case_then(marker, body, t.h.prev_text), "condition:same_question"};
  // After a yes-or-no question, a case that is no mishap asks it again with the topic in the
  // case (病假要开证明吗 + 如果只请一天呢 → 如果病假只请一天要开证明吗).
  // A case that says what the thing is (如果是外包员工呢, 买的是特价商品), or a question that is
  // all topic and particle (培训费用公司出|吗 as the phrase reader cuts it), goes in front instead.
  // So does a case that opens with when (要是周末急着用, 如果晚上才到): the topic after the marker
  // would come between the case and its time (要是公司电脑周末…).
  const bool says_what = body.starts_with("是") || body.find("的是") != std::string_view::npos;
  const std::vector<Token> bw = words_of(body);
  const bool timed = !bw.empty() && temporal(bw.front().text(body));
  if (ne && !event && !wh && !mishap && t.h.prev_is_question && (says_what || !after_topic.empty())) {
    if (says_what || timed || count_code_points(trim_start(after_topic)) <= 1)
      return Step{case_then(marker, body, t.h.prev_text), "condition:same_question"};
    return Step{join(join(marker, t.r.topic_anchor), body) + std::string(after_topic),
                "condition:same_question"};
  }
  // A case of something already done (要是已经交了三年) after a yes-or-no question of what one may
  // do (保险可以退保吗) asks whether one still may, not what to do: the question again in that case.
  if (ne && !wh && t.h.prev_is_question && body.starts_with("已经") && !after_topic.empty() &&
      asks_leave(after_topic))
    return Step{join(join(marker, t.r.topic_anchor), body) + std::string(after_topic),
                "condition:same_question"};
  if (ne && !wh && t.h.prev_is_question && may_again(marker, body, t))
    return Step{case_then(marker, body, t.h.prev_text), "condition:same_question"};
  // A person's case with a question of its own (如果对方只签字不盖章能生效吗): the question asks
  // of the topic, which goes before it (…不盖章补充协议能生效吗), not into the person's case.
  if (!ne && !t.r.topic_anchor.empty() && opens_with_person(body, t))
    if (const std::size_t at = own_question_at(body); at > 0)
      return Step{join(join(marker, body.substr(0, at)), t.r.topic_anchor) +
                      std::string(body.substr(at)),
                  "condition:own_question"};
  // A case opening with the topic's head (额度不够 after 公司信用卡额度多少) takes the topic's
  // modifiers, not the head twice.
  const std::string joined = with_object(body, t);
  const std::size_t tail = shared_tail(t.r.topic_anchor, joined);
  // 要是 goes after the subject the question just asked about (发票抬头要写什么 + 要是写错了呢 →
  // 发票抬头要是写错了怎么办); after an answer, and for 如果 / 万一, the marker opens the sentence
  // (如果年假没休完怎么办, 要是合同到期忘了续签怎么办).
  const bool after_subject = marker == "要是" && !t.h.newest_stated();
  std::string out = tail ? join(marker, t.r.topic_anchor) + joined.substr(tail)
                   : after_subject ? join(join(t.r.topic_anchor, marker), joined)
                                   : join(join(marker, t.r.topic_anchor), joined);
  if (ne) out += kWhatToDo;
  return Step{std::move(out), "condition"};
}

}  // namespace qaplan::internal::rewriting
