#include "planning/analysis/rewrite_turn.hpp"

// The rewriter's reading of the history: the window, the previous question, its topic.
#include <algorithm>
#include <memory>
#include <optional>
#include <utility>

#include "common/utf8.hpp"
#include "planning/analysis/answer_fill.hpp"
#include "planning/analysis/time_expr.hpp"
#include "planning/bare_question.hpp"
#include "planning/segment.hpp"

namespace qaplan::internal::rewriting {
namespace {

// A count of how often (一次, 两趟): its units. A count of 栋, 部 or 号 names something (公寓12栋,
// 研发三部), and one of how long may belong to the topic's own event (社保断缴一个月): neither is
// such a count.
constexpr std::string_view kTimesUnits[] = {"次", "趟", "回", "遍"};

bool counts_times(std::string_view w) {
  auto numeral = [](std::string_view n) { return !n.empty() && count_end(n, 0) == n.size(); };
  for (std::string_view unit : kTimesUnits)
    if (w.size() > unit.size() && w.ends_with(unit) && numeral(w.substr(0, w.size() - unit.size())))
      return true;
  return false;
}

// Where the topic [begin, end) of `prev` ends without a count closing it (VPN一次|能连多久,
// 婚假一次|能休几天): the count says how often, not what the question is about.
std::uint32_t before_closing_count(std::string_view prev, std::uint32_t begin, std::uint32_t end) {
  const std::string_view topic = slice(prev, begin, end);
  // Every count of times ends in its unit: a topic ending otherwise is not split into words.
  const std::string_view last = last_code_point(topic);
  if (std::find(std::begin(kTimesUnits), std::end(kTimesUnits), last) == std::end(kTimesUnits))
    return end;
  const std::vector<Token> t = segment_words(topic);
  if (t.size() < 2) return end;
  std::size_t cut_at = t.size();
  if (counts_times(t.back().text(topic)))
    cut_at = t.size() - 1;  // 一次
  else if (t.size() >= 3 && counts_times(slice(topic, t[t.size() - 2].begin, t.back().end)))
    cut_at = t.size() - 2;  // 一|次
  return cut_at < t.size() ? begin + t[cut_at].begin : end;
}

// A previous question that is bare itself (需要提前几天 after 年假怎么申请; 好吃吗 after 周末去吃了
// 鮨然) has no topic of its own: rewritten against the turns before it (年假申请需要提前几天), it
// frames the current turn instead — else its verb (提前) would pass for the topic. A rewrite that
// fell back is no reading: the bare question stays.
// Returns where the topic put before the bare question ends in the reading (年假申请|需要提前几天),
// else 0.
std::uint32_t resolve_bare_prev(HistoryView& h, const std::vector<std::string>& history,
                                const Lexicon& lex, const WordSet& words) {
  const std::size_t after = h.back[h.prev_at];  // history turns after the bare question
  if (after + 1 >= history.size() || !bare_question(h.prev_scan, lex)) return 0;
  // A source keyword is a topic of its own (年假有几天).
  for (std::uint32_t id : lex.ids().source)
    if (h.prev_scan.has_in_content(id)) return 0;
  // The turns before it, read with a window of their own: an answer between two questions
  // (VPN怎么申请, 在IT服务台提交…, 要谁审批) leaves the first outside this turn's window. A chain
  // of bare questions is read two deep at most: each level is a whole rewrite, and a history of
  // [input] max_history_turns bare questions must not cost that many.
  thread_local int depth = 0;
  if (depth >= 2) return 0;
  const std::vector<std::string> older(history.begin(),
                                       history.end() - static_cast<std::ptrdiff_t>(after + 1));
  struct Deeper {
    int& d;
    explicit Deeper(int& v) : d(++v) {}
    ~Deeper() { --d; }
  };
  Rewrite inner = [&] {
    const Deeper level(depth);
    return rewrite_turn(h.prev, older, lex, words);
  }();
  const bool fell_back = std::any_of(inner.reasons.begin(), inner.reasons.end(), [](const std::string& r) {
    return r.starts_with("rewrite:fallback:");
  });
  if (!inner.rewritten || fell_back) return 0;
  const std::string_view bare = trim_end(h.prev);
  h.resolved = std::make_unique<const std::string>(std::move(inner.query));
  h.prev = *h.resolved;
  h.prev_scan = lex.scan(NormalizedQuery{*h.resolved, 0});
  const std::string_view read = trim_end(h.prev);
  if (!read.ends_with(bare) || read.size() == bare.size()) return 0;
  return static_cast<std::uint32_t>(read.size() - bare.size());
}

// An exclamation opening the turn or its content (这么贵，…; 好的，都挺合适的，…; 太好了！…): degree
// words (maybe after 都 / 也), the span and a clause break, maybe after 的 or a closing particle.
bool exclaimed(std::string_view prev, const Span& sp, std::size_t content_begin) {
  std::string_view before = trim_start(prev.substr(std::min<std::size_t>(content_begin, sp.begin),
                                                   sp.begin - std::min<std::size_t>(content_begin, sp.begin)));
  bool degree = false;
  for (bool cut = true; cut && !before.empty();) {
    cut = false;
    for (std::string_view d : {"这么", "那么", "多么", "太", "真", "好", "挺", "很", "非常", "特别"})
      if (before.starts_with(d)) before.remove_prefix(d.size()), cut = degree = true;
    for (std::string_view a : {"都", "也", "还"})
      if (before.starts_with(a)) before.remove_prefix(a.size()), cut = true;
  }
  std::string_view after = prev.substr(sp.end);
  for (std::string_view p : {"的", "了", "啊", "呀", "啦", "吧", "哦"})
    if (after.starts_with(p)) after.remove_prefix(p.size());
  return degree && before.empty() &&
         (after.empty() || after.starts_with("，") || after.starts_with(",") ||
          after.starts_with("。") || after.starts_with("！") || after.starts_with("!"));
}

// A leading span that names no topic: a time (周末), social words before the question (好吧 of
// 好吧，…: outside its content), an interjection (哇, 哈哈), an exclamation or a request's verb
// (显示|所有部门).
bool no_topic(const HistoryView& h, const Span& sp, const Lexicon& lex) {
  const std::string_view w = slice(h.prev, sp.begin, sp.end);
  const ScannedQuery& q = h.prev_scan;
  if (temporal(w) || sp.end <= q.content_begin || exclaimed(h.prev, sp, q.content_begin) || request_verb(w))
    return true;
  return std::any_of(q.hits.begin(), q.hits.end(), [&](const CueHit& c) {
    return c.list == lex.ids().ev_emotive && c.begin == sp.begin && c.end == sp.end;
  });
}

// The question's content opens with a third-person pronoun (它的…, 他们…) — not a demonstrative
// (这学期, 那边), which often opens a noun phrase of its own.
bool opens_with_pronoun(const ScannedQuery& q) {
  const std::string_view content = q.content();
  for (std::string_view p : {"它们", "他们", "她们", "它", "他", "她"})
    if (content.starts_with(p)) return true;
  return false;
}

// The text's spans, none across `seam` (0: none): the carried topic and the bare question's own
// words are two phrases, whatever runs they would make together (香山|人多吗, not 香山人多).
std::vector<Span> spans_split_at(std::string_view text, std::uint32_t seam, const PhraseReader& reader) {
  if (seam == 0) return reader.spans(text);
  std::vector<Span> out = reader.spans(text.substr(0, seam));
  for (Span sp : reader.spans(text.substr(seam))) {
    sp.begin += seam;
    sp.end += seam;
    sp.first_end += seam;
    sp.ascii_begin += seam;
    sp.ascii_end += seam;
    out.push_back(sp);
  }
  return out;
}

// A question that opens with how (怎么开对公账户, 如何申请转专业) asks about the activity after it:
// that whole activity is its topic, one span, though ICU cuts its object in pieces (对|公|账户) and a
// lone verb inside would end a phrase (申请|转|专业). Only when nothing after the activity asks.
void how_activity(HistoryView& h, const Lexicon& lex) {
  if (h.prev_spans.size() < 2) return;
  const LexiconIds& ids = lex.ids();
  const CueHit* how = nullptr;
  for (const CueHit& c : h.prev_scan.hits) {
    if (c.list != ids.question_word) continue;
    if (how) return;  // a second question word: the activity is not all that follows
    if (c.begin != h.prev_scan.content_begin || !manner_word(slice(h.prev, c.begin, c.end))) return;
    how = &c;
  }
  if (!how || h.prev_spans.front().begin < how->end) return;
  Span all = h.prev_spans.front();
  // From right after the question word (给|父母买意外险), but the disposal 把 / 将 in front of an
  // object is no part of the activity's name (把数据导出成Excel → 数据导出成Excel).
  const std::string_view rest = trim_start(h.prev.substr(how->end));
  if (!rest.starts_with("把") && !rest.starts_with("将"))
    all.begin = static_cast<std::uint32_t>(h.prev.size() - rest.size());
  for (const Span& sp : h.prev_spans) {
    all.end = sp.end;
    all.words += sp.begin == h.prev_spans.front().begin ? 0 : sp.words;
    if (sp.ascii && !all.ascii) {  // the first ASCII word's place (安装|Office), for ellipsis:ascii
      all.ascii_begin = sp.ascii_begin;
      all.ascii_end = sp.ascii_end;
    }
    all.ascii = all.ascii || sp.ascii;
    all.strong = all.strong || sp.strong;
  }
  all.name_like = false;
  h.prev_spans.assign(1, all);
}

// A choice put to the user (你平时坐地铁还是开车, 你会选文科还是理科): it opens with an addressee
// word and sets a content word before 还是 against words after it. No question word or mark,
// yet a question. 还是 after an adverb (你最好还是…) or closing in a particle (你还是去吧) advises.
bool offers_choice(std::string_view turn, const Lexicon& lex, const PhraseReader& reader) {
  const RewriteConfig& cfg = lex.config().rewrite;
  const std::string_view c = trim_end(last_clause(turn));
  // Most statements hold no marker: no word break for them.
  if (std::none_of(cfg.alternative_markers.begin(), cfg.alternative_markers.end(),
                   [&](const std::string& m) { return c.find(m) != std::string_view::npos; }) ||
      !opening_word(c, cfg.addressee_words, reader))
    return false;
  for (std::string_view p : {"吧", "了", "啊", "呀", "哦"})
    if (c.ends_with(p)) return false;
  const std::vector<Token> t = words_of(c);
  for (std::size_t m = 1; m + 1 < t.size(); ++m)
    if (listed(cfg.alternative_markers, t[m].text(c)))
      return t[m - 1].word && !reader.is_function(t[m - 1].text(c)) &&
             !opens_with_adverb(t[m - 1].text(c)) && t[m + 1].word && !reader.is_function(t[m + 1].text(c));
  return false;
}

// A classifier the question's count left at a phrase's start (有几|种|电商平台, 有多少|家|门店): the
// count is no part of the thing counted, and neither is its classifier.
void drop_counted_classifier(std::string_view prev, Span& sp) {
  std::size_t i = sp.begin;
  const std::int32_t cp = next_code_point(prev, i);
  if (cp < 0 || i >= sp.end || !classifier(prev.substr(sp.begin, i - sp.begin))) return;
  const std::string_view before = prev.substr(0, sp.begin);
  const std::string_view last = last_code_point(before);
  if (!before.ends_with("多少") && !counting(last)) return;
  sp.begin = static_cast<std::uint32_t>(i);
  if (sp.first_end <= sp.begin) sp.first_end = sp.end;
  --sp.words;
}

// The speaker's own statement: it opens with 我 (我家…, 我的…, 我想…) or with a wish or plan
// whose subject is the speaker (想给孩子办儿童票, 要重置API Key, 打算…).
bool first_person(std::string_view turn) {
  const std::string_view t = trim_start(turn);
  for (std::string_view w : {"我", "想", "要", "打算", "准备"})
    if (t.starts_with(w)) return true;
  return false;
}

// An answer's sentences, not a user's turn (合同审批完了, 报销第一步是在费控系统填单吧): two
// clauses or more, twelve characters or more (儿童可购儿童票，半价优惠; 可能是毛球或肠胃炎，建议…).
// The closing full stop is no evidence: normalization trims it.
bool reads_as_reply(std::string_view turn) {
  const std::string_view t = trim_end(turn);  // normalized: NFKC made "，" ","
  const bool clauses = t.find_first_of(",;") != std::string_view::npos ||
                       t.find("。") != std::string_view::npos;
  return clauses && count_code_points(t) >= 12;
}

}  // namespace

HistoryView read_history(const std::vector<std::string>& history, const Lexicon& lex,
                         const PhraseReader& reader, const WordSet& words, int window_turns) {
  HistoryView h;
  // Turns are read newest first until the previous question (the newest turn that reads like
  // one, else the newest turn); it keeps the scan that recognised it, and older turns are not
  // read. A turn that is only social (好啊, 嗯嗯, 是的) names nothing to point back to: it leaves
  // the window (周末想去故宫 + 好啊 + 怎么去 reads 周末想去故宫), unless no other turn is left.
  const std::size_t n = std::min<std::size_t>(history.size(), static_cast<std::size_t>(window_turns));
  // With no question in the window, the user's own statement (我家猫一直呕吐, 我想申请修改实名认证)
  // is what a bare question continues, not the answer after it (可能是毛球或肠胃炎，建议…).
  std::optional<std::pair<std::size_t, ScannedQuery>> said;
  for (std::size_t i = 0; i < n; ++i) {
    const std::string_view turn = history[history.size() - 1 - i];
    if (!h.prev_is_question) {
      ScannedQuery tq = lex.scan(NormalizedQuery{std::string(turn), 0});
      if (tq.content().empty() && (i + 1 < n || !h.window.empty())) continue;
      const bool question = question_like(turn, tq, lex.ids()) || offers_choice(turn, lex, reader);
      if (h.window.empty() || question) {
        h.prev = turn;
        h.prev_at = h.window.size();
        h.prev_scan = std::move(tq);
        h.prev_is_question = question;
      } else if (!said && first_person(turn) && !first_person(h.prev) && reads_as_reply(h.prev)) {
        said.emplace(h.window.size(), std::move(tq));
      }
    }
    h.window.push_back(turn);
    h.back.push_back(i);
  }
  if (!h.prev_is_question && said) {
    h.prev = h.window[said->first];
    h.prev_at = said->first;
    h.prev_scan = std::move(said->second);
  }
  const std::uint32_t seam = h.prev_is_question ? resolve_bare_prev(h, history, lex, words) : 0;
  h.prev_spans = spans_split_at(h.prev, seam, reader);
  if (h.prev_scan.content().empty()) h.prev_spans.clear();  // only social turns: no topic
  for (Span& sp : h.prev_spans) drop_counted_classifier(h.prev, sp);
  h.subject_unknown = h.prev_is_question && seam == 0 && opens_with_pronoun(h.prev_scan);
  // A leading word that only says when (周末|去爬了香山, 每天|…) is no topic when a phrase follows,
  // nor is a reaction opening the turn (好吧，普通影厅的屏幕大吗; 哇，他得过什么奖吗) or a request's
  // verb (显示|所有部门).
  while (h.prev_spans.size() > 1 && no_topic(h, h.prev_spans[0], lex))
    h.prev_spans.erase(h.prev_spans.begin());
  if (h.prev_is_question && seam == 0) how_activity(h, lex);
  // The topic, extended over linking words into its noun phrase (深圳园区的停车费, 仲裁和诉讼,
  // 合同台账里XH-HT-2025-0084).
  h.subject_end = h.topic() ? before_closing_count(h.prev, h.topic()->begin,
                                                   phrase_end(h.prev, h.prev_spans, 0))
                            : 0;
  // A span may keep characters trimming drops ("search_'"), and the rewrites cut this text at
  // the span's offsets (the analyze fuzzer's out_of_range; docs/reliability.md).
  h.prev_text = h.prev.substr(
      0, std::max<std::size_t>(trim_end(h.prev).size(), h.topic() ? h.topic()->end : 0));
  if (!h.prev_is_question) h.request = requested(h.prev_text);
  return h;
}


}  // namespace qaplan::internal::rewriting
