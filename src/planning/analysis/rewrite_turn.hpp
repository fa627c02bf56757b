#pragma once
// The rewriter's reading of one turn, shared by its steps (rewrite.cpp), its reading of the history
// (history_view.cpp) and its replies in conversation (reply_steps.cpp). Internal to the rewriter.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "planning/analysis/constraints.hpp"
#include "planning/analysis/phrases.hpp"
#include "planning/analysis/rewrite.hpp"
#include "planning/lexicon.hpp"

namespace qaplan::internal::rewriting {

// What the rewrite reads of the history: the window (newest turn first), the previous question
// — the newest turn that reads like one (history may hold the assistant's answers too), else the
// newest turn — with its content spans, scan and topic.
struct HistoryView {
  std::vector<std::string_view> window;
  std::string_view prev;
  std::size_t prev_at = 0;  // prev's place in the window
  std::vector<std::size_t> back;  // per window turn: how many history turns come after it
  // A bare previous question read through its own history (below); prev views it. On the heap:
  // the view survives the HistoryView's moves.
  std::unique_ptr<const std::string> resolved;
  bool prev_is_question = false;
  std::vector<Span> prev_spans;
  ScannedQuery prev_scan;
  std::uint32_t subject_end = 0;
  std::string_view prev_text;  // prev without trailing punctuation, never shorter than its topic
  // prev's subject is a pronoun nothing resolved (它的人口有多少, 他们属于哪些省份): its first phrase
  // is the subject's attribute or its predicate, not the thing — no subject for a bare predicate
  // or a pronoun of the turn (an ellipsis still replaces its words in place).
  bool subject_unknown = false;
  // What the previous turn asked for when it is a request (requested(): "" for a sort), read once.
  std::optional<std::string_view> request;

  /// The previous question's first content span, or null.
  const Span* topic() const { return prev_spans.empty() ? nullptr : &prev_spans.front(); }
  /// The newest turn is a statement (an answer, or the user's own): the previous question, if
  /// any, is an older turn.
  bool newest_stated() const { return !prev_is_question || prev_at != 0; }
};

/// The turn rewritten against its history (rewrite.cpp); a bare previous question is read with it.
/// `scanned`: the caller's scan of `question`, when it has one (else it is scanned here).
Rewrite rewrite_turn(std::string_view question, const std::vector<std::string>& history,
                     const Lexicon& lex, const WordSet& words, const ScannedQuery* scanned = nullptr);

/// The window of `history` (newest first), its previous question and that question's topic
/// (history_view.cpp).
HistoryView read_history(const std::vector<std::string>& history, const Lexicon& lex,
                         const PhraseReader& reader, const WordSet& words, int window_turns);

// One step's rewrite and its reason; `note` is a reason recorded before it (a fallback the step
// already chose).
struct Step {
  std::string text;
  const char* reason;
  const char* note = nullptr;
};

// The turn as the steps read it.
struct TurnView {
  std::string_view question;
  const ScannedQuery& q;
  std::string_view text;  // without trailing punctuation
  const HistoryView& h;
  const Rewrite& r;       // topic_anchor is set
  const PhraseReader& reader;
  const Lexicon& lex;
  const WordSet& words;
};

/// Bytes of the longest tail of `topic` — whole words, two characters or more — that `frag`
/// opens with (鲁迅的作品 + 作品有多少页); 0 when none (rewrite.cpp).
std::size_t shared_tail(std::string_view topic, std::string_view frag);
/// True when `q` asks with a question word (怎么, 多少, 谁), not only yes or no (吗, 是否).
bool asks_wh(const ScannedQuery& q, std::string_view text, const LexiconIds& ids);
/// What a short answer says in its first clause, without a closing particle (火锅吧，好久没吃了 → 火锅).
std::string_view answer_of(std::string_view turn);
/// True when `text` opens with a word that says when (下个月底, 周末, 明天下午).
bool opens_with_time_word(std::string_view text);
/// Where a person word starting at byte `at` of `q` ends (你|孩子, 你|爸), else `at`.
std::size_t person_after(std::string_view q, std::size_t at, const TurnView& t);
/// What an answer to a yes-or-no question put to the user states in the speaker's words (我也是
/// says it of the user too), or nullopt.
std::optional<std::string> answered_yes_no(std::string_view question, std::string_view answer,
                                           const TurnView& t);

/// An item of a list the conversation gave in the place of the turn's pointer into it (第二个,
/// 后者; list_step.cpp); the turn as it is when there is no such item; nullopt when the turn has
/// no pointer.
std::optional<Step> list_step(const TurnView& t);
/// What a previous yes-or-no question asked about (asked_activity.cpp), for a bare predicate that
/// goes on from it: the owner and the thing of "A 有 B 吗" (公司餐补); the topic and the activity
/// after 能 / 可以 before a wh-question (里程兑换机票); the topic and all after a modal of ability or
/// need (外币在网点兑换) unless the turn `frag` restates the activity. nullopt otherwise.
std::optional<std::string> had_thing(const TurnView& t);
/// What an answer said yes to having, when the turn takes up a word of the answer (保密协议里有竞业
/// 限制吗 + 有，竞业限制期为… + 补偿是多少 → 竞业限制).
std::optional<std::string> confirmed_thing(const TurnView& t, std::string_view frag);
/// What a how-to question's procedure gets, when the turn asks its price or its arrival (怎么办理
/// 副卡 + 每个月多少钱 → 副卡).
std::optional<std::string> procured_thing(const TurnView& t, std::string_view frag);
std::optional<std::string> able_activity(const TurnView& t);
/// What the other one has, said in answer to a question put to 你 (养了一只橘猫 → 你的橘猫;
/// answer_names.cpp), or nullopt.
std::optional<std::string> owned_answer(const TurnView& t);
/// The place an answer sends one to (到IT服务台领取 → IT服务台), when the turn `frag` asks where
/// (answer_names.cpp); nullopt otherwise.
std::optional<std::string> destination(const TurnView& t, std::string_view frag);
/// `frag` with the adverb of time the question `asked` gave the verb it repeats (提前申请 + 忘了申请
/// → 忘了提前申请; answer_names.cpp).
std::string with_manner(std::string_view frag, std::string_view asked);
/// An English predicate after an English question: the activity or thing asked about after it,
/// else the question whole (english_turn.cpp); nullopt for other turns.
std::optional<Step> english_predicate(const TurnView& t, std::string_view frag);
std::optional<std::string> asked_activity(const TurnView& t, std::string_view frag);
/// A statement without the function words in front of what it is about (我想学游泳 → 学游泳):
/// the frame a question about it continues (rewrite.cpp).
std::string_view statement_core(std::string_view statement, const PhraseReader& reader);
/// The subject of a statement of something done (理赔申请提交了 → 理赔申请), or nullopt (rewrite.cpp).
std::optional<std::string_view> done_subject(std::string_view statement, const PhraseReader& reader);
/// A word for "other" (别的, 其他的): what else there is, no thing of its own (more_step.cpp).
bool other_word(std::string_view w);
/// "What else" after a question word's question (还有呢, 还有其他的吗): the question again for more,
/// keeping the turn's word for "other" (more_step.cpp); nullopt otherwise.
std::optional<Step> more_of_step(const TurnView& t);
/// Examples asked after a question of which things do something (哪些费用不能报销 + 举个例子): the
/// set in front of the turn (more_step.cpp); nullopt otherwise.
std::optional<Step> examples_step(const TurnView& t);
/// What comes after the step an answer gave (next_step.cpp): that step and 之后的流程是什么, when
/// the turn is only a marker of what comes next (然后呢) right after the answer; else nullopt.
std::optional<Step> next_after_answer_step(const TurnView& t, std::string_view frag);
/// A case put to the last question (condition_step.cpp): nullopt when no condition marker opens
/// the turn.
std::optional<Step> condition_step(const TurnView& t);
/// `word` opens with one of the rewriter's Chinese question words (几点, 多少钱, 谁来) (rewrite.cpp).
bool opens_with_question_word(std::string_view word, const RewriteConfig& rw);
/// A turn with a verb of its own after a question word, a modal, 谁, 才 or 亲自 (需要谁|批,
/// 需要谁|签字): it asks with that verb (rewrite.cpp).
bool has_own_verb(std::string_view turn, const PhraseReader& reader);
/// A turn that only names something: no sentence punctuation, as an answer has (rewrite.cpp).
bool names_only(std::string_view turn);
/// A bare noun after an answer of cases to a query that asked no question: another case of the
/// query (港澳出差补贴标准); nullopt otherwise (fragment_items.cpp).
std::optional<Step> case_of_asked(const TurnView& t, std::string_view frag);
/// Two items of one kind joined by 和 / 跟 / 与 in the place of the topic opening the question
/// (培训协议和保密协议要保存几年); nullopt otherwise (fragment_items.cpp).
std::optional<Step> pair_in_place(const TurnView& t, std::string_view frag, const std::vector<Span>& spans);
/// A case closed by 的话 with no marker (de_hua_step.cpp): nullopt when the turn has none, or the
/// previous turn is no question.
std::optional<Step> de_hua_step(const TurnView& t);
/// A fragment with no predicate that only says when (平时呢, 周日下午呢, 春节期间呢): the previous
/// question with it in the place of its own time word or break, else after its subject; nullopt
/// for any other fragment (time_fragment.cpp).
std::optional<Step> time_step(const TurnView& t, std::string_view frag);
/// 超过了… after a question of a maximum (邮箱附件最大多少 + 超过了怎么发): what is exceeded is
/// that limit, named (超过大小限制了怎么发); nullopt for any other turn (condition_step.cpp).
std::optional<std::string> named_limit(const TurnView& t, std::string_view frag);
/// 超出的那部分… after a question of a standard or a limit: what is exceeded is that standard
/// (超出住宿标准的那部分自己出吗); nullopt for any other turn (condition_step.cpp).
std::optional<Step> exceeded_part_step(const TurnView& t);
/// What a request asked for (显示所有男性的名字 → 男性的名字; request.cpp): "" for a sort, which names
/// no thing; nullopt when `turn` is no request.
std::optional<std::string_view> requested(std::string_view turn);
/// The thing a request asked for (requested()) without the information asked of it (家具的所有信息 →
/// 家具), and with `owner` the one whose attributes were asked for (会议室的名称 → 会议室).
std::string_view requested_thing(std::string_view asked, bool owner);
/// `w` is a verb that opens a request for data (显示, 列出, 找到) or closes one (将…列出).
bool request_verb(std::string_view w);
/// What a which-question asked for runs on into its predicate (哪款|音箱排名第一): three words or
/// more after the which-word and no 的 (pronoun_step.cpp).
bool asked_clause(const TurnView& t, std::string_view thing);
/// 1. A pronoun of the turn (它, 这个, 他们): its antecedent in its place, the turn as typed or the
/// safe form (pronoun_step.cpp); nullopt when the turn holds none.
std::optional<Step> pronoun_step(const TurnView& t);
/// 1'. A demonstrative phrase with a short noun (那部片子哪年的): the thing in its place; `known` is
/// the antecedent the pronoun step found already.
std::optional<Step> pointed_noun_step(const TurnView& t,
                                      const std::optional<std::string>& known = std::nullopt);
/// A turn that is itself a request or a sort (按评分排序, 同时显示配送费): the topic beside it, the
/// safe form; nullopt when the turn is no request.
std::optional<Step> request_step(const TurnView& t);
/// The phrase right after question word `w` of the previous question (附近有哪些|咖啡店, 几|个|食堂 →
/// 食堂; subset_step.cpp), nullopt when a word stands between them.
std::optional<std::string_view> phrase_after_question_word(const TurnView& t, const CueHit& w);

/// The set the previous question asked for with 哪些, 哪几, 几 or 多少 (园区有几个食堂 → 食堂):
/// what a plural pronoun standing alone (它们, 这些) picks up. nullopt for any other question.
std::optional<std::string_view> set_asked_for(const TurnView& t);

/// A pick from the set the previous question named (其中哪家的网点最多; subset_step.cpp): the topic
/// in 其中's place; nullopt unless the turn opens with 其中.
std::optional<Step> subset_step(const TurnView& t);
/// The last question asked of another subject (员工也不行吗; also_step.cpp): nullopt unless the turn
/// is a subject, 也, a verdict and a closing particle, after a yes-or-no question opening with
/// its subject.
std::optional<Step> also_step(const TurnView& t);
// Replies in conversation (reply_steps.cpp): why of a yes-or-no question or its answer, a verb's
// object from the frame, a question asked back.
std::optional<Step> why_of_yes_no_step(const TurnView& t, std::string_view frag);
std::optional<Step> verb_object_step(const TurnView& t, std::string_view frag);
std::optional<Step> asked_back_step(const TurnView& t, std::string_view frag, bool asks_ne);

}  // namespace qaplan::internal::rewriting
