#include "planning/analysis/rewrite_turn.hpp"

#include <algorithm>

#include "common/utf8.hpp"
#include "planning/analysis/antecedent.hpp"
#include "planning/analysis/coordination.hpp"
#include "planning/analysis/english_slot.hpp"
#include "planning/analysis/phrases.hpp"
#include "planning/analysis/statement_reply.hpp"
#include "planning/analysis/time_expr.hpp"
#include "planning/text.hpp"

// 1. A pronoun or a pointing phrase of the turn (它, 这个, 那部片子, 他们): its antecedent in its
// place, or the turn as typed when the thing it would name is no modifier of the turn's own noun
// (docs/rewrite.md).
namespace qaplan::internal::rewriting {

namespace {


// The thing an answer says is used (统一使用腾讯会议企业版, 有，内部使用GitLab) after a question of
// which or whether there is one (视频会议软件是哪个, 有代码托管平台吗): the phrase right after
// 使用 / 采用 in the answer's clauses, when the question does not hold it.
std::optional<std::string> used_thing(const TurnView& t, std::string_view answer) {
  const std::string_view prev = t.h.prev;
  const bool which = asks_which(prev) || prev.find("什么") != std::string_view::npos;
  if (!which && !(prev.find("有") != std::string_view::npos && trim_end(prev).ends_with("吗")))
    return std::nullopt;
  for (std::string_view verb : {"使用", "采用"}) {
    const std::size_t at = answer.find(verb);
    if (at == std::string_view::npos) continue;
    const std::string_view rest = answer.substr(at + verb.size());
    const std::vector<Span> spans = t.reader.spans(rest);
    if (spans.empty() || spans.front().begin != 0) continue;
    const std::string_view thing = slice(rest, 0, phrase_end(rest, spans, 0));
    if (count_code_points(thing) < 2 || prev.find(thing) != std::string_view::npos) continue;
    return std::string(thing);
  }
  return std::nullopt;
}

bool names_pronoun(std::string_view s) {
  for (std::string_view p : {"它", "他", "她"})
    if (s.find(p) != std::string_view::npos) return true;
  return false;
}

// The turn's pronoun owns what follows it (它们的导演, 它的ID).
bool possessive(const TurnView& t) {
  for (std::string_view p : {"它们的", "它的", "他们的", "她们的"})
    if (t.text.find(p) != std::string_view::npos) return true;
  return false;
}

// The noun a pointer stands before (这个|岗位, 这|家|公司, 这些|台风): a word of two or more
// characters after the pointer and a classifier ICU left apart; empty when there is none.
std::string_view noun_after_pointer(const TurnView& t, std::size_t end) {
  const std::vector<Token> w = words_of(t.text);
  auto k = std::find_if(w.begin(), w.end(), [&](const Token& x) { return x.begin == end; });
  if (k != w.end() && k->single_han && classifier(k->text(t.text))) ++k;
  if (k == w.end() || !k->word || k->ascii || count_code_points(k->text(t.text)) < 2 ||
      t.reader.is_function(k->text(t.text)))
    return {};
  return k->text(t.text);
}

// After a request (显示所有组织, 列出价格最低的家具的信息) a pronoun without a noun of its own
// stands for what it asked for, not for its verb (对显示进行排序): the thing itself, without the
// information asked of it.
std::optional<std::string> request_thing(const TurnView& t, const CueHit& pronoun) {
  // 它 / 它们, or 那些 / 这些 closing the turn (只显示少于100人的那些): a demonstrative before more
  // words (那些四缸的, 那里) points at something of its own.
  const std::string_view said = slice(t.text, pronoun.begin, pronoun.end);
  const bool closing = (said == "那些" || said == "这些") && pronoun.end == t.text.size();
  const auto& asked = t.h.request;
  if (!(said.starts_with("它") || closing) || !asked || count_code_points(*asked) < 2 ||
      names_pronoun(*asked))
    return std::nullopt;
  return std::string(requested_thing(*asked, possessive(t)));
}

// The previous question ends by asking how much of `thing` (公司邮箱容量是多少, 共享盘的容量多大),
// not in an amount of its own (冰心全集多少钱: the price of the thing).
bool asks_amount_of(std::string_view prev, std::string_view thing) {
  const std::size_t at = prev.find(thing);
  if (at == std::string_view::npos) return false;
  std::string_view after = trim_end(prev.substr(at + thing.size()));
  for (std::string_view v : {"是", "有"})
    if (after.starts_with(v)) after.remove_prefix(v.size());
  for (std::string_view p : {"呢", "啊", "呀"})
    if (after.ends_with(p)) after.remove_suffix(p.size());
  for (std::string_view a : {"多少", "多大", "多长", "多高", "多重"})
    if (after == a) return true;
  return false;
}

// What the turn says of its pronoun is said of an amount (它怎么算, 它还能提高吗, 它够用吗): a verb
// of reckoning or of degree, after any modals, adverbs and how-words in any order.
bool said_of_amount(std::string_view said) {
  for (bool cut = true; cut;) {
    cut = false;
    for (std::string_view m : {"可以", "能", "会", "要", "还", "也", "再", "怎么", "如何", "咋"})
      if (said.starts_with(m)) said.remove_prefix(m.size()), cut = true;
  }
  for (std::string_view v : {"算", "计算", "提高", "降低", "增加", "减少", "调", "上调", "下调", "够",
                             "包括", "包含", "含", "超", "变", "涨", "降", "固定", "高于", "低于"})
    if (said.starts_with(v)) return true;
  return false;
}

// The owner X of an attribute asked as X的Y, `thing` being Y or all of X的Y (公司邮箱的|容量):
// the previous question's phrase before the last 的. Empty when there is none, or when it is a
// count (一个的人口) or a modal or an adverb (具体的热量, [intent] subjectless_openers).
std::string_view owner_of(const TurnView& t, std::string_view thing) {
  const std::string_view prev = t.h.prev;
  const std::size_t at = prev.find(thing);
  if (at == std::string_view::npos) return {};
  constexpr std::string_view kDe = "的";
  std::size_t de = thing.rfind(kDe);
  de = de != std::string_view::npos ? at + de : prev.substr(0, at).ends_with(kDe) ? at - kDe.size() : 0;
  if (de == 0) return {};
  const auto sp = std::find_if(t.h.prev_spans.begin(), t.h.prev_spans.end(), [&](const Span& s) {
    return s.begin < de && s.end >= de;
  });
  if (sp == t.h.prev_spans.end() || sp->end != de) return {};
  const std::string_view owner = slice(prev, sp->begin, sp->end);
  const auto& adverbs = t.lex.config().intent.subjectless_openers;
  if (count_end(owner, 0) > 0 || std::find(adverbs.begin(), adverbs.end(), owner) != adverbs.end())
    return {};
  return owner;
}

// A question of how much asks an attribute of a thing (共享盘的|容量是多少). 它 / 这个 standing alone
// after it is the thing (它能扩容吗: 共享盘), unless the turn says something of an amount (它怎么算,
// 它能提高吗, 比它高的) or names the attribute itself (这个额度可以累积吗). Without 的, or with an
// attribute of more words, the owner's end is unsure (公司|邮箱|容量 but 汽车|平均|重量): the thing
// stays.
std::string owner_of_asked_amount(const TurnView& t, const CueHit& pronoun, std::string thing) {
  // 这些信息, 这个周末: a demonstrative with a noun of its own points at that.
  const bool demonstrative = !slice(t.text, pronoun.begin, pronoun.end).starts_with("它");
  if (!asks_amount_of(t.h.prev, thing) || said_of_amount(t.text.substr(pronoun.end)) ||
      t.text.substr(0, pronoun.begin).ends_with("比") ||
      (demonstrative && !noun_after_pointer(t, pronoun.end).empty()))
    return thing;
  const std::string_view owner = owner_of(t, thing);
  std::string_view attribute = std::string_view(thing);
  if (const std::size_t de = attribute.rfind("的"); de != std::string_view::npos)
    attribute.remove_prefix(de + std::string_view("的").size());
  // An attribute of more than one word (意外险|保额, 云端硬盘|容量) may hold its own owner.
  const std::vector<Token> w = words_of(attribute);
  if (w.size() != 1 || count_code_points(owner) < 2 || count_code_points(attribute) < 2 ||
      t.text.find(attribute) != std::string_view::npos)
    return thing;
  return std::string(owner);
}

// What 它 / 这个 / 那部片子 stands for: the thing the newest turn answered with or said the user
// does, else the previous question's most specific phrase.
std::optional<std::string> thing_of(const TurnView& t, const CueHit* pronoun = nullptr) {
  const std::string_view newest = t.h.window.front();
  std::optional<std::string> antecedent;
  // 它 / 这个 after a turn that answered a question (你平时用什么看剧 + 我一般用腾讯视频) or that
  // said what the user does (我最近开始练瑜伽): the thing it named.
  // An answer to how much (起存金额是多少 + 20万起存) is a value, no thing.
  // An answer to who (动火作业票谁来签发 + 由安环部签发) names a person or a body: 它 is still the
  // thing the question asked about.
  const bool asked_who = t.h.prev_is_question && t.h.prev.find("谁") != std::string_view::npos;
  if (t.h.newest_stated() && t.h.prev_is_question && t.h.prev.find("多少") == std::string_view::npos &&
      !asked_who)
    antecedent = answered_thing(newest, t.h.prev, t.reader);
  if (!antecedent && t.h.newest_stated() && t.h.prev_is_question && !asked_who)
    antecedent = used_thing(t, newest);
  if (t.h.newest_stated() && !antecedent && !asked_who)
    antecedent = spoken_object(newest, t.reader, /*with_verb=*/false);
  if (!antecedent && t.h.topic()) {
    std::string thing = thing_antecedent(t.h.prev, t.h.prev_spans, t.h.prev_scan, t.lex.ids());
    antecedent = pronoun ? owner_of_asked_amount(t, *pronoun, std::move(thing)) : std::move(thing);
  }
  if (antecedent) antecedent = std::string(without_count(*antecedent));
  return antecedent;
}

// 这个 / 那个 / 该 before a noun the history named in a longer phrase (这个系统 after 在SPD系统提交…):
// that phrase takes the place of both.
std::optional<Step> headed_step(const TurnView& t, const CueHit& pronoun) {
  const std::vector<Token> w = words_of(t.text);
  const auto next = std::find_if(w.begin(), w.end(), [&](const Token& k) { return k.begin == pronoun.end; });
  // A noun of two or more characters: a lone one may be a piece of a word ICU did not know (额|度).
  // Letters are a name's whole word (这个App after …身份验证器App).
  if (next == w.end() || !next->word || count_code_points(next->text(t.text)) < 2 ||
      t.reader.is_function(next->text(t.text)))
    return std::nullopt;
  const auto antecedent = headed_antecedent(t.h.window, next->text(t.text), t.reader);
  if (!antecedent) return std::nullopt;
  return Step{join(join(std::string(t.text.substr(0, pronoun.begin)), *antecedent),
                   t.text.substr(next->end)),
              "pronoun:head"};
}

// The previous question named `noun` before the thing read from it (这个岗位 after 哪个岗位的员工
// 最多, 这些台风 after 台风导致的经济损失…): the thing is the noun's attribute or what it did, no
// modifier of it, and placing it before the noun says something else (员工岗位, 经济损失台风).
bool named_before(const TurnView& t, std::string_view noun, std::string_view thing) {
  // A thing that holds the noun but does not end in it (名为X的城市的所有地址 for 这个城市) is no
  // modifier of it either.
  if (noun.empty() || thing.starts_with(noun)) return !noun.empty();
  if (count_code_points(noun) >= 2 && thing.find(noun) != std::string_view::npos && !thing.ends_with(noun))
    return true;
  const std::size_t at = t.h.prev.find(thing), n = t.h.prev.find(noun);
  return at != std::string_view::npos && n != std::string_view::npos && n < at;
}

}  // namespace

// The thing the previous question asked for with which, running on into what it does (哪款|音箱排名
// 第一, 哪些|公司生产智能音箱): three words or more after 哪 and its classifier are as often the noun
// and its predicate as one noun, and only the noun stands for 它. Without word classes the two
// cannot be told apart, so such a thing goes beside the turn (the safe form), not into it.
bool asked_clause(const TurnView& t, std::string_view thing) {
  const std::size_t at = t.h.prev.find(thing);
  if (at == std::string_view::npos) return false;
  std::string_view before = t.h.prev.substr(0, at);
  for (int n = 0; n < 3 && !before.empty(); ++n) before.remove_suffix(last_code_point(before).size());
  if (t.h.prev.substr(before.size(), at - before.size()).find("哪") == std::string_view::npos)
    return false;
  // A phrase with 的 (公司的起步价格, 参加选拔的大学) ends in its noun.
  if (thing.find("的") != std::string_view::npos) return false;
  const std::vector<Token> w = words_of(thing);
  return std::count_if(w.begin(), w.end(), [](const Token& k) { return k.word; }) >= 3;
}

// 1'. A demonstrative phrase with a short noun (那部片子哪年的, 这个证有用吗): the whole phrase
// stands for the thing — the noun only says what kind of thing it is.
// `known`: the antecedent the pronoun step found already (read once, not twice).
std::optional<Step> pointed_noun_step(const TurnView& t, const std::optional<std::string>& known) {
  const auto at = pointed_noun(t.text, t.words);
  if (!at) return std::nullopt;
  // The phrase the history named with the same noun (这张表 → 职业暴露登记表), else the thing.
  const std::vector<Token> w = words_of(t.text.substr(0, at->second));
  const std::string_view noun = w.empty() ? std::string_view{} : w.back().text(t.text);
  auto antecedent = headed_antecedent(t.h.window, noun, t.reader);
  if (!antecedent) {
    antecedent = known ? known : thing_of(t);
    if (antecedent && named_before(t, noun, *antecedent))
      return Step{std::string(t.question), "pronoun:named_before"};
  }
  // A lone character is no thing to point at (年 of 年|会).
  if (!antecedent || count_code_points(*antecedent) < 2 ||
      t.text.find(*antecedent) != std::string_view::npos)
    return std::nullopt;
  return Step{join(join(std::string(t.text.substr(0, at->first)), *antecedent),
                   t.text.substr(at->second)),
              "pronoun:noun"};
}

namespace {

// 那个 right before a noun phrase of three or more characters of its own (那个会议室预订系统).
// The turn's own runs are read (its word break is kept from earlier steps), not the rest's anew.
bool determines_noun_phrase(const TurnView& t, const CueHit& hit) {
  const std::string_view pronoun = slice(t.text, hit.begin, hit.end);
  // 那里 / 那边 point at a place, never before a noun (那里|周末开门吗). 这 points back at what was
  // just said (这个有效期多长 asks the topic's 有效期); 那个 before a phrase of its own often opens a
  // new one (那个保密协议到底要不要签).
  if (!pronoun.starts_with("那") || place_pronoun(pronoun)) return false;
  std::size_t i = hit.end;
  if (i >= t.text.size() || next_code_point(t.text, i) < 0x3400) return false;
  for (const Span& sp : t.reader.spans(t.text))
    if (sp.begin == hit.end) return count_code_points(slice(t.text, sp.begin, sp.end)) >= 3;
  return false;
}

// What 这 / 这个 stand for as the subject of a modal or of 算 (这个要排队吗, 这算违规吗): the act the
// previous question asked about, not a thing — its thing and the verb after its question word
// (公司的车位怎么申请 → 车位申请), or the event it reported before the question word (电脑装了
// 盗版软件会怎样 → 电脑装盗版软件). Nullopt: no act to read.
std::optional<std::string> act_of(const TurnView& t, const CueHit& pronoun) {
  const std::string_view said = slice(t.text, pronoun.begin, pronoun.end);
  if ((said != "这" && said != "这个") || !t.h.prev_is_question || !t.h.topic()) return std::nullopt;
  const std::string_view rest = t.text.substr(pronoun.end);
  bool modal = false;
  for (std::string_view m : {"要", "需要", "得", "能", "可以", "算", "会"}) modal = modal || rest.starts_with(m);
  if (!modal) return std::nullopt;
  const auto q = first_hit(t.h.prev_scan, t.lex.ids().question_word);
  const std::string_view prev = t.h.prev_text;
  if (!q || q->end > prev.size()) return std::nullopt;
  std::string_view before = trim_end(prev.substr(0, q->begin));
  // A modal before the question word (…会|怎样) asks; it is no part of the event.
  // Its words are dropped from the one reading (a shorter text read again costs a word break).
  for (std::vector<Token> w = words_of(before); !w.empty() && t.reader.is_function(w.back().text(before));) {
    before = trim_end(before.substr(0, w.back().begin));
    while (!w.empty() && w.back().end > before.size()) w.pop_back();
  }
  const std::string_view after = trim_end(prev.substr(q->end));
  const std::vector<Token> tail = words_of(after);
  // One word, or a verb of two characters ICU left in pieces (申|领).
  const bool one_verb = (tail.size() == 1 && tail[0].word) ||
                        (tail.size() == 2 && tail[0].single_han && tail[1].single_han &&
                         !t.reader.is_function(tail[1].text(after)));
  // The turn says the verb itself (申请这个要多久): 这个 is the thing alone.
  if (one_verb && count_code_points(after) >= 2 &&
      !trim_end(t.text.substr(0, pronoun.begin)).ends_with(after)) {
    std::string thing = thing_antecedent(t.h.prev, t.h.prev_spans, t.h.prev_scan, t.lex.ids());
    if (thing.empty() || thing.find(after) != std::string::npos) return std::nullopt;
    return thing + std::string(after);
  }
  const std::size_t le = before.find("了");
  if (!after.empty() || le == std::string_view::npos || t.reader.spans(before).size() < 2)
    return std::nullopt;
  return std::string(before.substr(0, le)) + std::string(before.substr(le + 3));
}

// Bytes of the classifier after 这 / 那 (这本|我一直想看, 这家|健身房): the antecedent takes the
// place of both, not of 这 alone (白夜行本我…, 乐刻家健身房).
std::size_t standing_classifier(const TurnView& t, const CueHit& pronoun, std::size_t head) {
  if (head != 0) return 0;
  const auto standing = standing_pointer(t.text, t.words);
  return standing && standing->first == pronoun.begin ? standing->second - pronoun.end : 0;
}

// 他们 after the people a question of which people does an act asked for (合同审批要经过哪些人 +
// 业务负责人、法务、财务… + 他们一般多久审完): the role of those who do it (合同审批人), which the
// knowledge base names, not the list the answer gave.
std::optional<std::string> role_asked_for(const TurnView& t) {
  const std::string_view anchor = t.r.topic_anchor;
  if (t.h.prev_text.find("哪些人") == std::string_view::npos || anchor.empty()) return std::nullopt;
  for (std::string_view act : {"审批", "审核", "签字", "签批", "评审"})
    if (anchor.ends_with(act) && anchor.size() > act.size()) return std::string(anchor) + "人";
  return std::nullopt;
}

// 这 / 那 of 这两个 / 那两家: the pair stands for both, which the which-step puts in its place.
bool counts_a_pair(const TurnView& t, const CueHit& hit) {
  const auto both = both_pronoun_at(t.text);
  return both && hit.begin >= both->begin && hit.begin < both->count_end;
}

bool coordinator(std::string_view w) { return w == "和" || w == "与" || w == "及" || w == "跟" || w == "、"; }

// 他们 after an answer that coordinates the person it found with others (覆盖配偶和子女, 找部门经理
// 和财务总监, 业务负责人、法务、财务): all of them, as the answer listed them. Each other item is as
// many words as the one found, or fewer where a function word or a mark ends it. In a question
// or a request 和 as often means "with" (哪个团队和老舍有关) or lists attributes (id和名称).
std::string coordinated_people(const TurnView& t, std::string found) {
  if (!t.h.newest_stated() || t.h.request || t.h.window.empty()) return found;
  const std::string_view turn = t.h.window.front();
  const std::size_t at = turn.find(found);
  if (at == std::string_view::npos) return found;
  const std::vector<Token> w = words_of(turn);
  const auto content = [&](std::size_t k) { return w[k].word && !t.reader.is_function(w[k].text(turn)); };
  const auto index_of = [&](auto pred) {
    return static_cast<std::size_t>(std::find_if(w.begin(), w.end(), pred) - w.begin());
  };
  const auto n = static_cast<std::size_t>(std::count_if(w.begin(), w.end(), [&](const Token& k) {
    return k.word && k.begin >= at && k.end <= at + found.size();
  }));
  std::size_t b = at, e = at + found.size();
  // Items after it, up to four in all.
  std::size_t i = index_of([&](const Token& k) { return k.begin == e; });
  for (int items = 1; items < 4 && i + 1 < w.size() && coordinator(w[i].text(turn)) && content(i + 1); ++items) {
    std::size_t k = i + 1;
    for (std::size_t m = 0; m < n && k < w.size() && content(k); ++m) e = w[k++].end;
    i = k;
  }
  // Or one before it (配偶和子女).
  const std::size_t j = index_of([&](const Token& k) { return k.end == at; });
  if (e == at + found.size() && j > 0 && j < w.size() && coordinator(w[j].text(turn)) && content(j - 1))
    for (std::size_t k = j, m = 0; m < n && k > 0 && content(k - 1); ++m) b = w[--k].begin;
  return std::string(turn.substr(b, e - b));
}

bool plural(std::string_view pronoun) { return pronoun == "它们" || pronoun == "这些" || pronoun == "那些"; }

// A function word, a question word, a mark or the end after the pronoun (它们|分别…, 它们|几点…,
// 这些|的): no noun of its own (这些|县, 这些|山).
bool stands_alone(const TurnView& t, std::size_t end) {
  for (const CueHit& h : t.q.hits)
    if (h.list == t.lex.ids().question_word && h.begin == end) return true;
  const std::string_view rest = t.text.substr(end);
  const std::vector<Token> w = words_of(rest);
  // A word of when comes before the predicate, no noun of the pronoun's (它们|晚上|都开吗).
  const std::size_t k = !w.empty() && temporal(w.front().text(rest)) ? 1 : 0;
  return w.size() <= k || !w[k].word || t.reader.is_function(w[k].text(rest)) ||
         t.reader.of_function_chars(w[k].text(rest));  // 都要
}

bool manner_pointer(std::string_view w) {
  return w == "这样" || w == "那样" || w == "这样子" || w == "那样子";
}

// 这样 / 那样 opening the turn after a statement (报销单我先手写再补录系统 + 这样可以吗) is what the
// statement said it does: its first clause (after a yes or no), without a speaker opening it,
// takes its place when short. An answer to how long or how much (坚持多久了 + 快一个月了) says a value, no
// manner.
std::optional<Step> manner_step(const TurnView& t, const CueHit& hit) {
  if (hit.begin != 0 || !t.h.newest_stated() || t.h.request) return std::nullopt;
  if (t.h.prev_is_question && t.h.prev_at == 1)
    for (std::string_view v : {"多久", "多少", "几", "多长", "什么时候", "哪天"})
      if (t.h.prev.find(v) != std::string_view::npos) return std::nullopt;
  // A first clause of one or two characters says yes or no (可以，先手写再补录系统): the next says how.
  std::string_view said = trim_end(first_clause(t.h.window.front()));
  if (count_code_points(said) <= 2) {
    const std::string_view rest = t.h.window.front().substr(first_clause(t.h.window.front()).size());
    said = trim_end(first_clause(trim_start(rest)));
  }
  const auto rest = after_speaker(said, t.reader);
  const std::string_view done = statement_core(rest ? *rest : said, t.reader);
  if (done.empty() || count_query_units(done) > 16) return std::nullopt;
  return Step{join(done, t.text.substr(hit.end)), "pronoun:manner"};
}

// The set a question asked for with the thing that has it in front (公司的食堂有几个档口 → 公司的
// 食堂档口): the question's topic, when only 有 stands between it and the question word (not
// 市场上有…, 两个洲分别有…); else the set alone.
std::string owned_set(const TurnView& t, std::string_view set) {
  const auto w = first_hit(t.h.prev_scan, t.lex.ids().question_word);
  if (!w || !t.h.topic() || t.h.subject_end >= w->begin) return std::string(set);
  if (trim_end(slice(t.h.prev, t.h.subject_end, w->begin)) != "有") return std::string(set);
  const std::string_view owner = slice(t.h.prev, t.h.topic()->begin, t.h.subject_end);
  if (count_code_points(owner) < 2 || owner.find(set) != std::string_view::npos)
    return std::string(set);
  return std::string(owner) + std::string(set);
}

// its, and her before a noun (her email, not email her the form): the antecedent takes 's (my hr
// business partner's email). His and their are no pronouns the lists resolve: they would take
// the place of it in the same turn (… get it for their families).
bool english_possessive(std::string_view pronoun, std::string_view after) {
  // A longer word the pronoun opens (hers, itself) is no possessive of it.
  if (!after.empty() && is_ascii_alnum(static_cast<unsigned char>(after.front()))) return false;
  if (pronoun == "its") return true;
  if (pronoun != "her") return false;
  const std::vector<Token> w = words_of(after);
  const auto next = std::find_if(w.begin(), w.end(), [](const Token& k) { return k.word; });
  if (next == w.end() || !next->ascii) return false;
  const std::string_view n = next->text(after);
  for (std::string_view f : {"the", "a", "an", "to", "for", "about", "with", "on", "in", "at",
                             "and", "or", "if", "when", "now", "today", "again", "back", "up"})
    if (n == f) return false;
  return true;
}

// it / they / them in an English turn right after an English question: what the question is
// about, read from its shape (How many days of annual leave do I get? + Can I carry them over? →
// days of annual leave, not the person path's "many days").
std::optional<std::string> english_antecedent(const TurnView& t, std::string_view pronoun) {
  if (!ascii_text(t.text) || !t.h.prev_is_question || t.h.newest_stated() ||
      !ascii_text(t.h.prev_text))
    return std::nullopt;
  static constexpr std::string_view kThings[] = {"it",   "its",  "this", "that",
                                                 "these", "those", "they", "them"};
  if (std::find(std::begin(kThings), std::end(kThings), pronoun) == std::end(kThings))
    return std::nullopt;
  const bool plural = pronoun == "they" || pronoun == "them";
  const auto thing = english_thing(t.h.prev_text, plural);
  return thing ? std::optional<std::string>(*thing) : std::nullopt;
}

}  // namespace

std::optional<Step> pronoun_step(const TurnView& t) {
  const LexiconIds& ids = t.lex.ids();
  if (const auto hit = first_hit(t.q, ids.thing_pronoun); hit && hit->end <= t.text.size()) {
    if (counts_a_pair(t, *hit)) return std::nullopt;
    if (auto act = act_of(t, *hit))
      return Step{join(join(std::string(t.text.substr(0, hit->begin)), *act), t.text.substr(hit->end)),
                  "pronoun:act"};
  }
  for (auto [list, person] : {std::pair{ids.person_pronoun, true}, std::pair{ids.thing_pronoun, false}}) {
    const auto hit = first_hit(t.q, list);
    if (!hit || hit->end > t.text.size()) continue;
    // 他 / 它 of 其他 / 其它 ("other"): no pronoun to resolve.
    if (t.text.substr(0, hit->begin).ends_with("其")) continue;
    // 这样 / 那样 point at a manner, not at a thing; 这样的 + noun (这样的产品) at a kind the
    // history described, which no phrase of it names: the turn goes beside the topic. 这样的话 (if
    // so) and 这样吧 (let's do this) point at nothing to put in their place.
    if (manner_pointer(slice(t.text, hit->begin, hit->end))) {
      const std::string_view after = t.text.substr(hit->end);
      if (after.starts_with("的") && !after.starts_with("的话") && !t.r.topic_anchor.empty())
        return Step{t.r.topic_anchor + " " + std::string(t.text), "pronoun:kind", "rewrite:fallback:kind"};
      if (!after.starts_with("的") && count_code_points(trim_end(after)) > 1)
        if (auto done = manner_step(t, *hit)) return done;
      continue;
    }
    // 哪些明星…告诉我他们…: the turn names whom its own pronoun means.
    if (person && names_a_person(t.text.substr(0, hit->begin), t.reader))
      return Step{std::string(t.question), "pronoun:in_turn"};
    if (!person)
      if (auto s = headed_step(t, *hit)) return s;
    // 那里 / 这边: the place the history named, when it named one.
    const std::string_view before = t.text.substr(0, hit->begin);
    const bool after_locative = before.ends_with("在") || before.ends_with("到") || before.ends_with("去");
    if (place_pronoun(slice(t.text, hit->begin, hit->end)))
      if (auto place = place_antecedent(t.h.window, t.h.prev, after_locative, t.reader))
        return Step{join(join(std::string(t.text.substr(0, hit->begin)), *place), t.text.substr(hit->end)),
                    "pronoun:place"};
    // A person is looked for over the whole window (a name two turns back); a thing is the
    // previous question's, which names none when its own subject is a pronoun.
    if (!person && t.h.subject_unknown)
      return Step{std::string(t.question), "no_antecedent:pronoun_subject"};
    std::optional<std::string> antecedent =
        english_antecedent(t, slice(t.text, hit->begin, hit->end));
    if (!antecedent)
      antecedent = person ? person_antecedent(t.h.window, t.h.prev, t.h.prev_spans, t.h.prev_scan,
                                              t.text, slice(t.text, hit->begin, hit->end), t.reader,
                                              t.h.prev_is_question && t.h.prev_at == 1)
                          : request_thing(t, *hit);
    // 它们 / 这些 / 那些 standing alone after a question of which or how many (园区有几个食堂 +
    // 它们几点开门) are the things it asked for, not its topic (园区).
    if (!person && !antecedent && plural(slice(t.text, hit->begin, hit->end)) && stands_alone(t, hit->end))
      if (const auto set = set_asked_for(t)) antecedent = owned_set(t, *set);
    if (!person && !antecedent) antecedent = thing_of(t, &*hit);
    // Not after an English question that asks who does something (his after Who approves
    // expenses over $500?): the person is its answer, and its words are no person.
    // Nor after a Chinese one (这首歌是谁唱的 with no answer yet: 他 is not the song).
    if (person && !antecedent && t.h.topic() && !asks_who_does(t.h.prev_text) &&
        !verb_asked_who_did(t.h.prev))
      antecedent = thing_antecedent(t.h.prev, t.h.prev_spans, t.h.prev_scan, ids);
    if (!antecedent) return std::nullopt;
    if (person) antecedent = std::string(without_count(*antecedent));  // 一个女生 → 女生
    const std::string_view pronoun = slice(t.text, hit->begin, hit->end);
    if (person && pronoun.ends_with("们")) {
      antecedent = coordinated_people(t, std::move(*antecedent));
      if (auto role = role_asked_for(t)) antecedent = std::move(*role);
    }
    // A plural pronoun after a question whose topic coordinated its antecedent with another (年假和
    // 调休怎么请 + 它们有什么区别, 张三和李四是哪个部门的 + 他们几点上班) means both.
    if ((pronoun.ends_with("们") || plural(pronoun)) && t.h.prev_is_question)
      if (auto pair = coordinated_pair(trim_end(t.h.prev_text), t.words);
          pair && pair->size() > antecedent->size() && pair->find(*antecedent) != std::string::npos &&
          t.r.topic_anchor.find(*pair) != std::string::npos)
        antecedent = std::move(*pair);
    // A demonstrative with its noun (这个模板, 这个假): the noun is the antecedent's head, and the
    // whole phrase takes the antecedent's place (供应商合同模板能改…, 休产假期间…).
    const std::size_t head = shared_head(*antecedent, t.text.substr(hit->end));
    if (!person && head == 0) {
      if (auto s = pointed_noun_step(t, antecedent)) return s;
      // 那个 right before a noun phrase of its own (那个会议室预订系统) determines it: the turn
      // names what it asks about.
      if (determines_noun_phrase(t, *hit)) return Step{std::string(t.question), "pronoun:determiner"};
      if (named_before(t, noun_after_pointer(t, hit->end), *antecedent))
        return Step{std::string(t.question), "pronoun:named_before"};
      // 这家餐厅 after 园区里有两家餐厅吗: the pointing phrase names its noun, which the history's
      // thing adds nothing to; splicing the thing before it would say the noun twice.
      if (pointed_noun(t.text, t.words)) return Step{std::string(t.question), "pronoun:determiner"};
    }
    if (!person && head == 0 && asked_clause(t, *antecedent))
      return Step{*antecedent + " " + std::string(t.text), "pronoun", "rewrite:fallback:clause"};
    std::string out(t.text.substr(0, hit->begin));
    if (english_possessive(pronoun, t.text.substr(hit->end)))
      *antecedent += antecedent->ends_with("s") ? "'" : "'s";  // interns', the template's
    out = join(out, *antecedent);
    out = join(out, t.text.substr(hit->end + head + standing_classifier(t, *hit, head)));
    return Step{std::move(out), person ? "pronoun:person" : head ? "pronoun:head" : "pronoun"};
  }
  return std::nullopt;
}

}  // namespace qaplan::internal::rewriting
