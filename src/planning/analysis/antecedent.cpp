#include "planning/analysis/antecedent.hpp"

#include <algorithm>

#include "common/icu.hpp"
#include "common/utf8.hpp"
#include "planning/analysis/statement_reply.hpp"

namespace qaplan::internal {
namespace {

// The noun phrase a who-question asks about (公司的DPO是谁 → 公司的DPO): the content spans before
// 谁, joined over linking words; nullopt when the question asks no "who" or asks who does something.
std::optional<std::string> who_was_asked(std::string_view prev, const std::vector<Span>& spans,
                                         const ScannedQuery& scan, const LexiconIds& ids) {
  std::optional<CueHit> who;
  for (const CueHit& h : scan.hits)
    if (h.list == ids.question_word && slice(prev, h.begin, h.end) == "谁") who = h;
  // Only "X is who" (前台主管是谁): in "who does X" (规培医生的排班谁负责) X is the task, not a person.
  if (!who) return std::nullopt;
  std::string_view after = trim_end(prev.substr(who->end));
  for (std::string_view p : {"啊", "呀", "呢", "吗", "啦", "哇", "哦"})
    if (after == p) after = {};
  if (!after.empty()) return std::nullopt;
  std::size_t last = spans.size();
  for (std::size_t k = 0; k < spans.size(); ++k)
    if (spans[k].end <= who->begin) last = k;
  // …and 是 or 有 between them (主办方都是谁, 作者有谁): 报销单交给谁 asks whom to give it to, and
  // the answer names them.
  const std::string_view gap = trim_end(slice(prev, spans[last < spans.size() ? last : 0].end, who->begin));
  if (last == spans.size() || !(gap.ends_with("是") || gap.ends_with("有"))) return std::nullopt;
  std::size_t first = last;
  while (first > 0 && is_link(slice(prev, spans[first - 1].end, spans[first].begin))) --first;
  return std::string(slice(prev, spans[first].begin, spans[last].end));
}

}  // namespace

std::optional<std::string_view> verb_asked_who_did(std::string_view prev) {
  const std::size_t who = prev.rfind("谁");
  if (who == std::string_view::npos) return std::nullopt;
  // The verb between 谁 and 的, the thing done after or before them (谁演的甄嬛, 甄嬛是谁演的).
  const std::string_view after = prev.substr(who + std::string_view("谁").size());
  const std::size_t de = after.find("的");
  if (de == std::string_view::npos) return std::nullopt;
  const std::string_view verb = after.substr(0, de);
  const std::size_t n = count_code_points(verb);
  if (n < 1 || n > 2) return std::nullopt;
  return verb;
}

namespace {

// Who an answer says did what a who-question asked (那部剧是谁演的 + 孙俪演的 → 孙俪, 谁唱的 +
// 是周深唱的 → 周深): the answer repeats the question's verb and 的 after the doer, whom ICU may not
// know as a name (王|一博, 孙|俪).
std::optional<std::string_view> agent_answered(std::string_view prev, std::string_view answer) {
  const auto verb = verb_asked_who_did(prev);
  if (!verb) return std::nullopt;
  std::string_view said = trim_end(answer);
  const std::string tail = std::string(*verb) + "的";
  if (!said.ends_with(tail)) return std::nullopt;
  std::string_view doer = said.substr(0, said.size() - tail.size());
  // What stands before the doer: a hedge ending in 是 (好像是周深), 由 / 被 (由张敏负责的).
  if (const std::size_t is = doer.rfind("是"); is != std::string_view::npos)
    doer.remove_prefix(is + std::string_view("是").size());
  for (std::string_view by : {"由", "被"})
    if (doer.starts_with(by)) doer.remove_prefix(by.size());
  // Who does not know says no one (不知道是谁唱的).
  if (doer.find("谁") != std::string_view::npos) return std::nullopt;
  const std::size_t k = count_code_points(doer);
  if (k < 2 || k > 6) return std::nullopt;
  for (std::string_view stop : {" ", ",", "，", "。", "、"})  // one doer, not a clause
    if (doer.find(stop) != std::string_view::npos) return std::nullopt;
  return doer;
}

// A Chinese personal name ICU's dictionary does not hold, read from its shape: 小 / 老 and a listed
// surname (小王), or a listed surname standing alone followed by one or two lone characters (张|敏
// in 张敏负责, 周|杰|伦), or by a title (陈|经理). ICU glues the name's characters to no word, and a run of content words (张敏负责)
// would otherwise carry the verb along with the name.
std::optional<std::string> surname_name(std::string_view turn, const PhraseReader& reader) {
  const RewriteConfig& cfg = reader.lex().config().rewrite;
  // ICU's own pieces: the host's vocabulary may hold the name (a KB's 刘洋), which would join them.
  const ScopedTerms icu_only{WordTerms{}};
  const std::vector<Token> t = words_of(turn);
  auto lone = [&](std::size_t i) {
    return i < t.size() && t[i].single_han && !reader.is_function(t[i].text(turn));
  };
  // 小 / 老 before a surname is how colleagues name each other (小王, 老张): ICU keeps it one word.
  for (const Token& w : t) {
    const std::string_view s = w.text(turn);
    if (w.word && !w.ascii && count_code_points(s) == 2 &&
        (s.starts_with("小") || s.starts_with("老")) && listed(cfg.person_surnames, s.substr(3)))
      return std::string(s);
  }
  for (std::size_t i = 0; i + 1 < t.size(); ++i) {
    if (!listed(cfg.person_surnames, t[i].text(turn))) continue;
    if (i > 0 && lone(i - 1)) continue;  // a character of an unknown word (社|保), not a surname
    std::size_t end = i + 1;
    while (end < t.size() && end <= i + 2 && lone(end)) ++end;
    if (end == i + 1 && !listed(cfg.person_titles, t[i + 1].text(turn))) continue;
    if (end == i + 1) ++end;
    return std::string(slice(turn, t[i].begin, t[end - 1].end));
  }
  return std::nullopt;
}

// A name (a run of characters ICU does not know) in `turn`, with the names coordinated with it
// (鹿晗和关晓彤) when `plural`.
std::optional<std::string> name_in(std::string_view turn, const PhraseReader& reader, bool plural) {
  if (!plural)
    if (auto name = surname_name(turn, reader)) return name;
  const std::vector<Span> spans = reader.spans(turn);
  for (std::size_t k = 0; k < spans.size(); ++k) {
    if (!spans[k].name_like) continue;
    std::size_t last = k;
    while (plural && last + 1 < spans.size() &&
           is_link(slice(turn, spans[last].end, spans[last + 1].begin)) &&
           slice(turn, spans[last].end, spans[last + 1].begin) != "的")
      ++last;
    return std::string(slice(turn, spans[k].begin, spans[last].end));
  }
  return std::nullopt;
}

// The subject of a clause that tells what someone did: its leading content words, two to four
// characters, right before an adverb (马斯克|又|上热搜了), a verb with its aspect (詹姆斯|拿|了…) or a
// verb that closes the clause with 的 (余华|写|的). Not a pronoun, a time word (去年|结|的) or words
// with a lone verb among them (方案|交|晚了: the one who handed it in is not named). A
// known name (ICU holds 马斯克 whole) has no shape of its own; its place before the predicate is
// what marks it.
std::optional<std::string> clause_subject(std::string_view clause, const PhraseReader& reader) {
  const std::vector<Token> t = words_of(clause);
  auto text = [&](std::size_t k) { return k < t.size() ? t[k].text(clause) : std::string_view(); };
  auto verb = [&](std::size_t k) { return t[k].single_han && !reader.is_function(text(k)); };
  // ICU glues an aspect to a count (拿|了三|十分) and a verb to a closing 的 (写的).
  auto acted = [&](std::size_t k) {
    return (verb(k) && (text(k + 1).starts_with("了") || text(k + 1).starts_with("过"))) ||
           (verb(k) && text(k + 1) == "的" && k + 2 == t.size()) ||
           (k + 1 == t.size() && count_code_points(text(k)) == 2 && text(k).ends_with("的"));
  };
  if (t.empty() || t[0].begin != 0) return std::nullopt;
  std::size_t k = 0, words = 0;
  for (; k < t.size() && !(k > 0 && (opens_with_adverb(text(k)) || acted(k))); ++k) {
    if (!t[k].word || reader.is_function(text(k)) || temporal(text(k)) ||
        text(k).find("他") != std::string_view::npos || text(k).find("她") != std::string_view::npos ||
        text(k).find("它") != std::string_view::npos)
      return std::nullopt;  // not a subject, or a pronoun ICU glued on (他有)
    words += !t[k].single_han;
  }
  if (k == t.size() || words > 1) return std::nullopt;  // 除了|电影|还…: not a name
  // Before a verb with its aspect or 的, a lone character after a word is that verb's part
  // (方案|交|晚了), and 好的好的 is an answer: only a name's lone pieces (余|华|写的) or one word.
  if (!opens_with_adverb(text(k))) {
    const bool closed = text(k).ends_with("的") || text(k + 1) == "的";
    for (std::size_t i = 0; i < k; ++i)
      if (!t[i].single_han && (closed || (i + 1 < k && t[i + 1].single_han))) return std::nullopt;
  }
  const std::string_view subject = clause.substr(0, t[k - 1].end);
  const std::size_t units = count_code_points(subject);
  const RewriteConfig& cfg = reader.lex().config().rewrite;
  if (units < 2 || units > 4 || listed(cfg.person_pronouns, subject) || listed(cfg.thing_pronouns, subject))
    return std::nullopt;
  return std::string(subject);
}

// The first name `find` reads in `turn`'s clauses, from the last.
template <typename Find>
std::optional<std::string> in_clauses_from_last(std::string_view turn, Find find) {
  for (std::string_view rest = trim_end(turn); !rest.empty();) {
    const std::string_view clause = last_clause(rest);
    if (auto name = find(clause)) return name;
    if (clause.empty() || clause.size() >= rest.size()) break;  // each pass drops one clause
    rest = trim_end(rest.substr(0, rest.size() - clause.size()));
  }
  return std::nullopt;
}

// A name in `turn`, its clauses read from the last (我喜欢曼城，哈兰德太猛了 → 哈兰德): the pronoun of
// the next turn takes up the person the turn spoke of last. A name read from its surname comes
// first, in any clause: a later clause's run that ICU did not know is as often a word (组长周强，
// 他负责…或退|货 → 周强).
std::optional<std::string> name_in_newest_clause(std::string_view turn, const PhraseReader& reader,
                                                 bool plural) {
  if (!plural)
    if (auto name = in_clauses_from_last(turn, [&](std::string_view c) { return surname_name(c, reader); }))
      return name;
  return in_clauses_from_last(turn, [&](std::string_view c) { return name_in(c, reader, plural); });
}

// How a 的-modifier right before the noun goes with it (外包的|员工, 参加培训的|人): it says which
// people, and the noun alone (员工, a lone 人) names others. Before a possessive 的 (他们的账号) a
// second 的 reads badly, so there the modifier comes only when the noun alone is no noun.
enum class Modifier { kNone, kKept, kWhenBare };

// Whether `modifier` is a whole one: a short run of words (a longer one holds a verb of its own
// clause: 显示至少有一笔贷款) that opens the text or a clause, or follows a preposition (跟楼下的大爷).
// After any other word it is the tail of a longer one (上过这门|课的, 最|高产的, 哪个|朝代的,
// 叫大卫·|希伯的), which would name the people wrongly.
bool whole_modifier(std::string_view turn, const std::vector<Token>& words, const Span& modifier) {
  if (modifier.words > 3) return false;
  for (const Token& t : words)
    if (t.end == modifier.begin) {
      const std::string_view w = t.text(turn);
      const bool stop = first_clause(w).size() < w.size() || w == " " || w == "?" || w == "!";
      return stop || w == "跟" || w == "和" || w == "与" || w == "给" || w == "对" ||
             w == "向";
    }
  return modifier.begin == 0;
}

// The first phrase of `turn` (its words up to one that ends it) that `names` holds of and the
// question does not say. With `asked` (the question an answer answers), a first word of two or more
// characters it repeats is passed over (交给|财务部 after 报销单交给谁), though not the first lone
// character of a run ICU cut (人|社|局 after 人才…); and a phrase with an ASCII word counts
// (IT运维组).
template <class Names>
std::optional<std::string> noun_of(std::string_view turn, std::string_view question,
                                   const PhraseReader& reader, Names names,
                                   std::optional<std::string_view> asked = std::nullopt,
                                   Modifier modifier = Modifier::kNone) {
  auto names_people = [&](std::string_view s) {
    return question.find(s) == std::string_view::npos && names(s);
  };
  const std::vector<Token> words = words_of(turn);
  const std::vector<Span> spans = reader.spans(turn);
  // The longest leading run of words from `from` inside the span that names people, from `begin`
  // (a modifier before it) on. The noun itself is held to the test (内部 of 公司的内部 names no
  // one); a lone head (人) with its modifier.
  auto leading = [&](std::uint32_t begin, std::uint32_t from,
                     std::uint32_t end) -> std::optional<std::string> {
    for (std::size_t k = words.size(); k-- > 0;) {
      if (words[k].end > end || words[k].end <= from) continue;
      const std::string_view noun = slice(turn, from, words[k].end);
      const std::string_view whole = slice(turn, begin, words[k].end);
      if ((count_code_points(noun) < 2 || names_people(noun)) && names_people(whole))
        return std::string(whole);
    }
    return std::nullopt;
  };
  for (std::size_t n = 0; n < spans.size(); ++n) {
    const Span& span = spans[n];
    if (span.ascii && !asked) continue;
    std::uint32_t begin = span.begin;
    if (asked)
      for (std::size_t i = 0; i + 1 < words.size(); ++i)
        if (words[i].begin == span.begin && words[i].end < span.end &&
            !(words[i].single_han && words[i + 1].single_han) &&
            asked->find(words[i].text(turn)) != std::string_view::npos)
          begin = words[i].end;
    const bool after_de = modifier != Modifier::kNone && n > 0 && !spans[n - 1].ascii &&
                          slice(turn, spans[n - 1].end, span.begin) == "的" &&
                          whole_modifier(turn, words, spans[n - 1]);
    const std::uint32_t mod = spans[n > 0 ? n - 1 : 0].begin;
    if (auto noun = leading(after_de && modifier == Modifier::kKept ? mod : begin, begin, span.end))
      return noun;
    if (after_de && modifier == Modifier::kWhenBare)
      if (auto noun = leading(mod, begin, span.end)) return noun;
  }
  return std::nullopt;
}

// A noun that names people by its ending (明星, 明星夫妻, 新员工): in the first span of `turn` that
// has one, its longest leading run of words, two or more characters long, that ends in one of
// `[rewrite] person_heads` (作家 of 作家得过诺贝尔奖), with a whole 的-modifier before it (离异的明星;
// before a possessive 他们的 only when the noun needs it: Modifier); never one of `not_person_nouns`
// nor one `question` repeats (他们平均有多少子女 after …明星夫妻有了子女…: the pronoun cannot stand
// for a noun its own turn names). Chinese marks a person noun by its last morpheme (员, 者, 人,
// 师), so no list of the nouns themselves is needed; the first one is the subject or topic, which
// a subject pronoun most often takes up.
std::optional<std::string> person_noun(std::string_view turn, std::string_view question,
                                       const PhraseReader& reader, bool possessive = false) {
  return noun_of(
      turn, question, reader, [&](std::string_view s) { return person_phrase(s, reader); },
      std::nullopt, possessive ? Modifier::kWhenBare : Modifier::kKept);
}

// A noun that names a group of people by its ending (`[rewrite] group_heads`: 学习发展中心, IT运维组)
// in the answer `turn` to the question `asked`.
std::optional<std::string> group_noun(std::string_view turn, std::string_view asked,
                                      std::string_view question, const PhraseReader& reader) {
  const RewriteConfig& rw = reader.lex().config().rewrite;
  auto group = [&](std::string_view s) {
    return count_code_points(s) >= 2 && !listed(rw.not_person_nouns, s) &&
           std::any_of(rw.group_heads.begin(), rw.group_heads.end(),
                       [&](const std::string& h) { return s.ends_with(h); });
  };
  return noun_of(turn, question, reader, group, asked);
}

// Where an English noun phrase begins with its definite determiner or possessive (the NDA
// template, our VPN): "it" stands for the whole phrase, so the rewrite keeps it ("can i modify
// the nda template", not "can i modify nda template"). An indefinite a/an is not carried.
std::uint32_t with_determiner(std::string_view prev, std::uint32_t begin) {
  std::size_t e = begin;
  while (e > 0 && prev[e - 1] == ' ') --e;
  std::size_t b = e;
  while (b > 0 && prev[b - 1] >= 'a' && prev[b - 1] <= 'z') --b;
  if (e == begin || b == e || (b > 0 && prev[b - 1] != ' ')) return begin;
  const std::string_view w = prev.substr(b, e - b);
  for (std::string_view d : {"the", "this", "that", "these", "those", "my", "our", "your", "his",
                             "her", "their"})
    if (w == d) return static_cast<std::uint32_t>(b);
  return begin;
}

// The noun an answer's clause gave without what its clause said before it (需|财务|总监 → 财务总监,
// 5|万|以上|需|部门|经理 → 部门经理), when the rest still names people: read back from its end, it
// stops at a number or a Latin word, and at a lone character that is none of a title's prefix
// (副|院长, 子|公司, 支|行), a surname before a title (辅导员|李|老师) or one of two lone characters
// ICU left of a word it does not know (客|服|专员).
std::string answered_noun(const std::string& noun, const PhraseReader& reader) {
  const RewriteConfig& rw = reader.lex().config().rewrite;
  const std::vector<Token> w = words_of(noun);
  auto text = [&](std::size_t k) { return w[k].text(noun); };
  auto kept = [&](std::size_t k) {  // a lone character that belongs to the noun after it
    if (std::string_view("副总子分支正代").find(text(k)) != std::string_view::npos) return true;
    return k + 1 < w.size() && listed(rw.person_surnames, text(k)) &&
           listed(rw.person_titles, text(k + 1));
  };
  for (std::size_t k = w.size(); k-- > 0;) {
    if (!w[k].single_han && !w[k].ascii) continue;
    if (w[k].single_han && kept(k)) continue;
    if (w[k].single_han && k > 0 && w[k - 1].single_han && w[k - 1].end == w[k].begin) {
      --k;  // a pair ICU cut (客|服): the noun goes on before it
      continue;
    }
    const std::string rest = noun.substr(w[k].end);
    return person_phrase(rest, reader) ? rest : noun;
  }
  return noun;
}

}  // namespace

// Whom 他 / 她 / 他们 stands for: a name in the newest turn; else the one the previous question
// asked about (公司的DPO是谁 → 公司的DPO); else 他 / 她 is the subject of what the newest turn, a
// statement, reports (马斯克又上热搜了); else a noun naming people in the previous question (新来
// 的实习生…), then in the newest turn (哪些明星); else a name or such a noun in an older turn of the
// window. Nullopt leaves it to the thing rule (the previous question's most specific phrase).
std::optional<std::string> person_antecedent(const std::vector<std::string_view>& window,
                                             std::string_view prev, const std::vector<Span>& prev_spans,
                                             const ScannedQuery& prev_scan, std::string_view question,
                                             std::string_view pronoun, const PhraseReader& reader,
                                             bool answered) {
  const bool plural = pronoun.ends_with("们") || pronoun == "they" || pronoun == "them";
  // A name by its surname first; a run ICU did not know (盘|点) is weaker than a noun that names
  // people in the question (店长助理负责哪些工作 + 负责排班、盘点… + 他们…).
  auto in_newest = [&](auto find) {
    return in_clauses_from_last(window.front(), [&](std::string_view c) { return find(c, reader); });
  };
  // The answer right after the who-question, and a name in what it says of the doer when it says
  // more (去年周深 → 周深).
  if (answered)
    if (const auto agent = agent_answered(prev, window.front())) {
      if (auto name = surname_name(*agent, reader); name && name->size() < agent->size()) return name;
      return std::string(*agent);
    }
  if (!plural)
    if (auto name = in_newest(surname_name)) return name;
  if (auto who = who_was_asked(prev, prev_spans, prev_scan, reader.lex().ids())) return who;
  // A statement's subject (a report of what someone did); in a question (粉丝数还不少，她出过多少歌)
  // the pronoun's person is named elsewhere.
  const std::string_view newest = trim_end(window.front());  // trims a closing ? too
  const Lexicon& lex = reader.lex();
  const bool statement = !question_like(window.front(), lex.scan(NormalizedQuery{std::string(newest), 0}), lex.ids()) &&
                         !newest.ends_with("吗") && !newest.ends_with("呢");
  if (!plural && statement)
    if (auto subject = in_newest(clause_subject)) return subject;
  // 他们 after an answer naming a group that does it (由学习发展中心组织): that group, before the
  // people its question named (领导力培训是哪个部门组织的).
  if (plural && statement)
    if (auto group = group_noun(window.front(), prev, question, reader)) return group;
  const bool possessive = question.find(std::string(pronoun) + "的") != std::string_view::npos;
  // 他 / 她 after the answer to a who-question: the person that answer named, its last clause
  // first (5万以下部门经理审批，5万以上需财务总监审批 → 财务总监), before people the question
  // named (供应商付款谁来审批: 供应商 is who is paid, not who approves).
  if (answered && !plural && prev.find("谁") != std::string_view::npos)
    if (auto noun = in_newest([&](std::string_view c, const PhraseReader& r) {
          return person_noun(c, question, r, possessive);
        }))
      return answered_noun(*noun, reader);
  if (auto noun = person_noun(prev, question, reader, possessive)) return noun;
  if (auto name = name_in_newest_clause(window.front(), reader, plural)) return name;
  if (auto noun = person_noun(window.front(), question, reader, possessive)) return noun;
  for (std::size_t i = 1; i < window.size(); ++i) {
    if (auto name = name_in(window[i], reader, plural)) return name;
    if (auto noun = person_noun(window[i], question, reader, possessive)) return noun;
  }
  return std::nullopt;
}

bool person_phrase(std::string_view s, const PhraseReader& reader) {
  const RewriteConfig& rw = reader.lex().config().rewrite;
  if (count_code_points(s) < 2 || listed(rw.not_person_nouns, s)) return false;
  return std::any_of(rw.person_heads.begin(), rw.person_heads.end(),
                     [&](const std::string& h) { return s.ends_with(h); });
}

bool names_a_person(std::string_view text, const PhraseReader& reader) {
  return name_in(text, reader, false) || person_noun(text, {}, reader);
}


bool place_pronoun(std::string_view w) {
  return w == "那里" || w == "这里" || w == "那儿" || w == "这儿" || w == "那边" || w == "这边";
}

namespace {

// The content words right after a word of going or being somewhere (在|市|一院|做的 → 市一院):
// 在, 到, 去, 来, 回, or a word ending in 到 / 在 (搬到, 住在) or in 了 / 过 after one of them
// (去了|趟|西湖); a count of trips (趟, 次) in between is skipped.
std::optional<std::string> located(std::string_view turn, const PhraseReader& reader) {
  const std::vector<Token> w = words_of(turn);
  auto going = [](std::string_view t) {
    for (std::string_view g : {"在", "到", "去", "来", "回"}) {
      if (t == g) return true;
      if (count_code_points(t) != 2) continue;
      if ((g == "在" || g == "到") && t.ends_with(g)) return true;                   // 搬到, 住在
      if (t.starts_with(g) && (t.ends_with("了") || t.ends_with("过"))) return true;  // 去了, 到过
    }
    return false;
  };
  for (std::size_t i = 0; i + 1 < w.size(); ++i) {
    if (!going(w[i].text(turn))) continue;
    std::size_t j = i + 1;
    while (j < w.size() && (w[j].text(turn) == "趟" || w[j].text(turn) == "次" || w[j].text(turn) == "了" ||
                            w[j].text(turn) == "过"))
      ++j;
    std::size_t e = j;
    // A run of lone characters is a name ICU does not know (中|关|村), whatever its pieces are.
    auto lone = [&](std::size_t k) {
      return k < w.size() && w[k].single_han && !reader.is_function(w[k].text(turn));
    };
    while (e < w.size() && w[e].single_han && lone(e + 1)) ++e;
    if (e > j && lone(e)) ++e;
    while (e < w.size() && w[e].word && !reader.is_function(w[e].text(turn)) &&
           !reader.of_function_chars(w[e].text(turn)))
      ++e;
    // The place, not its count (在一个度假村 → 度假村); a question (在几楼, 去哪) names none.
    const std::string_view place = e > j ? without_count(slice(turn, w[j].begin, w[e - 1].end)) : "";
    if (count_code_points(place) < 2) continue;
    const LexiconIds& ids = reader.lex().ids();
    if (!reader.lex().scan(NormalizedQuery{std::string(place), 0}).has_in_content(ids.question_word))
      return std::string(place);
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> place_antecedent(const std::vector<std::string_view>& window,
                                            std::string_view prev, bool located_first,
                                            const PhraseReader& reader) {
  // After a word of being somewhere (我也在那边) the pronoun is the place itself, which the
  // answer named (在中关村), not what the question asked the place of (你们公司在哪).
  if (located_first)
    for (std::string_view turn : window)
      if (auto place = located(turn, reader)) return place;
  // 健身房在哪: the place asked about (not 你 of 你在哪学的).
  for (std::string_view q : {"在哪", "在什么地方"})
    if (const std::size_t at = prev.find(q); at != std::string_view::npos) {
      const std::vector<Span> spans = reader.spans(prev.substr(0, at));
      if (spans.empty() || spans.back().end != at) continue;
      const std::string_view asked = prev.substr(spans.back().begin, at - spans.back().begin);
      if (count_code_points(asked) >= 2) return std::string(asked);
    }
  for (std::string_view turn : window)
    if (auto place = located(turn, reader)) return place;
  // 你在哪学的游泳 + 小区旁边那个游泳馆: a short answer naming the place.
  const std::string_view answer = trim_end(window.front());
  if (prev.find("哪") != std::string_view::npos && answer != prev && !answer.empty() &&
      count_code_points(answer) <= kShortAnswer + 4 && answer.find_first_of(" ,") == std::string_view::npos)
    return std::string(answer);
  return std::nullopt;
}

namespace {

// Whether an answer of two clauses or more opens with a step word (先提交申请，再…; ICU may glue 先
// to its verb: 先考|数学): its steps, not a name. 是钉钉 or 由人事部 still names the thing.
bool opens_steps(std::string_view clause, std::string_view answer) {
  const std::string_view c = trim_end(clause);
  return c.size() < trim_end(answer).size() && (c.starts_with("先") || c.starts_with("首先"));
}

}  // namespace

std::optional<std::string> answered_thing(std::string_view answer, std::string_view prev,
                                          const PhraseReader& reader) {
  const RewriteConfig& rw = reader.lex().config().rewrite;
  auto has_any = [&](const std::vector<std::string>& words) {
    return std::any_of(words.begin(), words.end(),
                       [&](const std::string& w) { return prev.find(w) != std::string_view::npos; });
  };
  if (!has_any(rw.answer_slots)) return std::nullopt;
  const std::string_view clause = first_clause(answer);
  // A question put to the user (你平时用什么看剧) is answered by the thing itself; an answer to the
  // user's own question (员工网络密码每季更新，…) is a statement about it, unless it is only a name
  // — not the first of its steps (先提交申请，再办交接，…).
  if (!has_any(rw.addressee_words) &&
      (count_code_points(trim_end(clause)) > kShortAnswer || opens_steps(clause, answer)))
    return std::nullopt;
  const std::vector<Span> spans = reader.spans(clause);
  if (spans.empty()) return std::nullopt;
  const std::string_view thing = slice(clause, spans.front().begin, phrase_end(clause, spans, 0));
  if (count_code_points(thing) < 2) return std::nullopt;
  return std::string(thing);
}

namespace {


// Nothing but spaces between the clause break before `at` (or the start) and `at`.
bool opens_clause(std::string_view turn, std::size_t at) { return last_clause(turn.substr(0, at)).empty(); }

// In one turn, the last phrase that ends in `head` as a word and is longer than it.
std::optional<std::string> headed_in(std::string_view turn, std::string_view head,
                                     const PhraseReader& reader) {
  const std::vector<Token> words = words_of(turn);
  const std::vector<Span> spans = reader.spans(turn);
  for (std::size_t k = words.size(); k-- > 0;) {
    const std::string_view w = words[k].text(turn);
    if (w.starts_with("《") && w.ends_with("》")) {  // a title, marks and all: one word
      if (w.substr(0, w.size() - 3).ends_with(head) && w.size() > head.size() + 6)
        return std::string(w);
      continue;
    }
    if (!w.ends_with(head)) continue;
    const std::uint32_t end = words[k].end;
    for (const Span& sp : spans) {
      if (sp.begin >= end || end > sp.end) continue;
      // What is counted, not the count or the set it is taken from (一部新剧 → 新剧, 所有机场 →
      // 机场: then nothing is left to name).
      std::uint32_t from = sp.begin;
      for (const Token& x : words)
        if (x.begin >= sp.begin && x.end < end && counts_or_picks(x.text(turn))) from = x.end;
      const std::string_view phrase = without_count(slice(turn, from, end));
      if (phrase.size() <= head.size()) continue;
      // A phrase opening a clause of a turn that asks nothing opens with its verb (列出指挥的姓名).
      if (opens_clause(turn, static_cast<std::size_t>(phrase.data() - turn.data())) &&
          !reader.lex().scan(NormalizedQuery{std::string(turn), 0}).has_in_content(
              reader.lex().ids().question_word))
        continue;
      return std::string(phrase);
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> headed_antecedent(const std::vector<std::string_view>& window,
                                             std::string_view head, const PhraseReader& reader) {
  if (head.empty()) return std::nullopt;
  for (std::string_view turn : window)
    if (auto a = headed_in(turn, head, reader)) return a;
  return std::nullopt;
}

// Bytes of the longest tail of `antecedent` that `rest` starts with (模板 of 供应商合同模板 in
// 模板能改…); 0 when none.
// A demonstrative and its classifier at token i, glued (那部) or apart (那|家): the index of the
// token after the classifier, 0 when there is none. `pointing(d, c)` says which pairs count.
template <typename Pointing>
std::size_t after_pointer(const std::vector<Token>& t, std::string_view turn, std::size_t i, Pointing pointing) {
  const std::string_view w = t[i].text(turn);
  const std::string_view last = last_code_point(w);
  if (count_code_points(w) == 2 && pointing(w.substr(0, w.size() - last.size()), last)) return i + 1;
  if (i + 1 < t.size() && t[i + 1].single_han && t[i + 1].begin == t[i].end &&
      pointing(w, t[i + 1].text(turn)))
    return i + 2;
  return 0;
}

std::optional<std::pair<std::size_t, std::size_t>> pointed_noun(std::string_view turn,
                                                               const WordSet& function_words) {
  static constexpr std::string_view kNotThings[] = {"月", "周", "年", "天", "季度", "星期", "周末",
                                                    "时候", "学期", "阶段", "回", "次", "人",
                                                    "样", "样子", "会儿", "边", "里"};
  auto pointing = [](std::string_view d, std::string_view c) {
    return demonstrative(d) && d != "哪" && classifier(c) && c != "个" && c != "次";
  };
  // Most turns hold no demonstrative right before a classifier (那 of 那年假呢 is none): no word
  // break for them — the garble check asks about every rewrite.
  bool any = false;
  for (std::size_t i = 0; i < turn.size() && !any;) {
    const std::size_t b = i;
    next_code_point(turn, i);
    std::size_t e = i;
    if (e < turn.size()) next_code_point(turn, e);
    any = pointing(turn.substr(b, i - b), turn.substr(i, e - i));
  }
  if (!any) return std::nullopt;
  const std::vector<Token> t = words_of(turn);
  for (std::size_t i = 0; i + 1 < t.size(); ++i) {
    // A classifier ICU glued to a one-character noun after the pointer (这|笔钱, 那|张票): the
    // pair is the noun phrase, as 这|张|卡 is. Only these few: most such words are nouns of
    // their own (条款, 部门, 项目, 支票).
    if (const std::string_view d = t[i].text(turn), c = t[i + 1].text(turn);
        t[i + 1].begin == t[i].end && (d == "这" || d == "那") &&
        (c == "笔钱" || c == "张票" || c == "张卡" || c == "张单"))
      return std::pair{std::size_t{t[i].begin}, std::size_t{t[i + 1].end}};
    const std::size_t noun = after_pointer(t, turn, i, pointing);  // 那部|片子, 那|家|公司
    if (noun == 0 || noun >= t.size()) continue;
    const Token& n = t[noun];
    // A function word after the pair (这家|能|带…) is no noun, nor the start of one.
    if (function_words.contains(n.text(turn))) return std::nullopt;
    // A word ICU does not know comes in one-character pieces (动|漫): the run is the noun — up to
    // a verb right before a question word (那部|剧|叫|什么: 叫 asks, it is no piece of the noun).
    std::size_t last_piece = noun;
    while (n.single_han && last_piece + 1 < t.size() && t[last_piece + 1].single_han &&
           t[last_piece + 1].begin == t[last_piece].end &&
           !function_words.contains(t[last_piece + 1].text(turn)) &&
           !(last_piece + 2 < t.size() && function_words.contains(t[last_piece + 2].text(turn)) &&
             !opens_with_adverb(t[last_piece + 2].text(turn))))
      ++last_piece;
    const std::string_view nw = turn.substr(n.begin, t[last_piece].end - n.begin);
    if (opens_with_adverb(nw)) return std::nullopt;  // 那部|挺好|看吗: the pointer stands alone
    // A time after the pointer (这家|周日营业吗) says when, not what is pointed at.
    if (!n.word || n.ascii || n.begin != t[noun - 1].end || count_code_points(nw) > 2 ||
        function_words.contains(nw) || temporal(nw) ||
        std::find(std::begin(kNotThings), std::end(kNotThings), nw) != std::end(kNotThings))
      return std::nullopt;
    return std::pair{std::size_t{t[i].begin}, std::size_t{t[last_piece].end}};
  }
  return std::nullopt;
}

std::optional<std::pair<std::size_t, std::size_t>> standing_pointer(std::string_view turn,
                                                                    const WordSet& function_words) {
  if (turn.find("这") == std::string_view::npos && turn.find("那") == std::string_view::npos)
    return std::nullopt;
  const std::vector<Token> t = words_of(turn);
  auto pointing = [](std::string_view d, std::string_view c) {
    return (d == "这" || d == "那") && classifier(c) && c != "个" && c != "次";
  };
  for (std::size_t i = 0; i < t.size(); ++i) {
    const std::size_t end = after_pointer(t, turn, i, pointing);  // 那部|挺好, 这|本|我
    if (end == 0) continue;
    if (pointed_noun(turn, function_words)) return std::nullopt;
    return std::pair{std::size_t{t[i].begin}, std::size_t{t[end - 1].end}};
  }
  return std::nullopt;
}

std::size_t shared_head(std::string_view antecedent, std::string_view rest) {
  std::size_t best = 0;
  for (std::size_t i = 0; i < antecedent.size();) {
    const std::string_view tail = antecedent.substr(i);
    if (tail.size() > best && rest.starts_with(tail)) best = tail.size();
    next_code_point(antecedent, i);
  }
  // The head is a whole word of the turn: 税 of 印花税 is no head of 税率, nor 额 of 额|度 (a
  // suffix after a lone character makes a word with it).
  if (best > 0) {
    const std::vector<Token> w = segment_words(rest);
    const auto end = std::find_if(w.begin(), w.end(), [&](const Token& k) { return k.end == best; });
    const auto next = end == w.end() ? end : end + 1;
    const bool suffixed = next != w.end() && end->single_han && next->single_han && suffix(next->text(rest));
    return end != w.end() && !suffixed ? best : 0;
  }
  // A lone character that abbreviates the head (这个证 for PMP证书, 那张卡 for 工资卡): one of the
  // antecedent's last two characters, with more of the turn after it.
  std::size_t c = 0;
  if (next_code_point(rest, c) < 0x3400 || c >= rest.size()) return 0;
  const std::string_view head = rest.substr(0, c);
  std::string_view last_two = antecedent;
  for (std::size_t n = count_code_points(antecedent); n > 2; --n) {
    std::size_t k = 0;
    next_code_point(last_two, k);
    last_two.remove_prefix(k);
  }
  return last_two.find(head) != std::string_view::npos ? c : 0;
}

namespace {

// Where the thing at span `k` begins with whose or which it is (供应商的廉洁协议, 会议室的投屏器,
// 联通的大王卡): the modifier tells it from others of its kind. Only a modifier opening the
// question, one noun — a word ICU knows, maybe with a lone noun suffix (会议|室, 交际|费) — and not
// the company every question of the host is about (公司的快递柜 → 快递柜) nor a time (之前的总部).
// After other words a modifier is as often a relative clause's verb or adjective (最常订购的产品),
// a run of lone characters a verb (新|买|的), two words a clause (农历|算的节日).
// Letters (A, B2), or digits with the unit of a numbered place or thing (3号, 5号线, 12层).
bool is_label(std::string_view w) {
  const auto ascii_alnum = [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); };
  std::size_t n = 0;
  while (n < w.size() && ascii_alnum(w[n])) ++n;
  if (n == 0) return false;
  if (n == w.size()) return !(w[0] >= '0' && w[0] <= '9');  // a bare number is a count or a year
  const std::string_view unit = w.substr(n);
  for (std::string_view u : {"号", "号线", "号楼", "栋", "楼", "层", "区", "期", "座", "单元", "室", "线"})
    if (unit == u) return true;
  return false;
}

std::uint32_t owner_begin(std::string_view prev, const std::vector<Span>& spans, std::size_t k) {
  const Span& m = spans[k - 1];
  const std::string_view owner = slice(prev, m.begin, m.end);
  if (slice(prev, m.end, spans[k].begin) != "的" || !trim_start(prev.substr(0, m.begin)).empty())
    return spans[k].begin;
  std::vector<Token> w = words_of(owner);
  // A label in front (3号|注塑机, A栋|会议室) numbers the noun, it is no word of its own; with
  // lone characters only (2号|楼, A|栋) it is a place's name. A count (3个月, 50块钱) is none.
  bool label = false;
  if (w.size() >= 2 && is_label(w[0].text(owner)) && w[1].word && !w[1].ascii) {
    w.erase(w.begin());
    label = std::all_of(w.begin(), w.end(), [](const Token& t) { return t.single_han; }) && w.size() <= 2;
  }
  const bool noun = label || (!w.empty() && !w[0].single_han &&
                              (w.size() == 1 || (w.size() == 2 && w[1].single_han &&
                                                 (suffix(w[1].text(owner)) || w[1].text(owner) == "商"))));
  static constexpr std::string_view kEveryones[] = {"公司", "本公司", "我司", "单位", "我们公司",
                                                    "咱们公司", "集团", "所有", "全部", "其他", "其它"};
  const bool everyones = std::find(std::begin(kEveryones), std::end(kEveryones), owner) != std::end(kEveryones);
  return noun && !everyones && !temporal(owner) ? m.begin : spans[k].begin;
}

// A place with its distance from another (首都机场T3航站楼|离|市区远, ICU's lone 离 before a phrase
// closing in 远 / 近): the place alone. 离 of a word ICU cut (退房离店, 离境) closes in neither.
std::string_view without_distance(std::string_view thing) {
  if (!thing.ends_with("远") && !thing.ends_with("近")) return thing;  // most things: no word break
  const std::vector<Token> w = words_of(thing);
  for (std::size_t i = 1; i + 1 < w.size(); ++i)
    if (w[i].text(thing) == "离") return thing.substr(0, w[i].begin);
  return thing;
}

}  // namespace

// A thing: the previous question's most specific span (the longest; 公司的保密协议在哪里签
// → 保密协议), the subject when they tie. A modifier (公司|的) and a quantity (几|条线) are
// what a thing is described by, not the thing: they come last.
// An identifier or a 《title》 is the entity the question is about, ahead of any longer
// run (合同台账里XH-HT-2025-0084是什么合同 → XH-HT-2025-0084), and keeps the container it was
// looked up in.
std::string thing_antecedent(std::string_view prev, const std::vector<Span>& prev_spans,
                             const ScannedQuery& prev_scan, const LexiconIds& ids) {
  // A run looked up in a container (软件授权清单里Navicat Premium) is such an entity too.
  auto entity = [&](std::size_t k) {
    return prev_spans[k].strong || container_begin(prev, prev_spans, k) != prev_spans[k].begin;
  };
  // A bare number (2002 of 在2002年之前) is a time or a quantity the thing is described by.
  auto describes = [&](std::size_t k) {
    const std::string_view s = slice(prev, prev_spans[k].begin, prev_spans[k].end);
    if (s.find_first_not_of("0123456789.,") == std::string_view::npos) return true;
    if (slice(prev, prev_spans[k].end, prev_spans[k].end + 3) == "的") return true;
    // What the thing is measured against (人民公园离|地铁站近吗, A比|B贵吗) is no thing asked about.
    const std::uint32_t b = prev_spans[k].begin;
    if (b >= 3 && (slice(prev, b - 3, b) == "离" || slice(prev, b - 3, b) == "比")) return true;
    for (const CueHit& h : prev_scan.hits)
      if (h.list == ids.question_word && h.end == prev_spans[k].begin) return true;
    return false;
  };
  std::size_t best = 0;
  for (std::size_t k = 1; k < prev_spans.size(); ++k) {
    const bool e = entity(k), eb = entity(best);
    const bool d = describes(k), db = describes(best);
    if (e != eb ? e : d != db ? !d : prev_spans[k].words > prev_spans[best].words) best = k;
  }
  std::uint32_t begin = entity(best) ? container_begin(prev, prev_spans, best)
                                     : prev_spans[best].begin;
  if (prev_spans[best].ascii && begin == prev_spans[best].begin)
    begin = with_determiner(prev, begin);
  if (begin == prev_spans[best].begin && best > 0) begin = owner_begin(prev, prev_spans, best);
  std::string_view thing = without_distance(slice(prev, begin, prev_spans[best].end));
  // What is the guest Wi-Fi called: the naming verb closing the phrase is no part of the thing.
  for (std::string_view naming : {" called", " named"})
    if (thing.ends_with(naming) && thing.size() > naming.size()) thing.remove_suffix(naming.size());
  return std::string(thing);
}

}  // namespace qaplan::internal
