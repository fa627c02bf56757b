#include "planning/analysis/statement_reply.hpp"

#include <algorithm>

#include "common/utf8.hpp"
#include "planning/analysis/phrases.hpp"
#include "planning/segment.hpp"
#include "planning/analysis/time_expr.hpp"

namespace qaplan::internal {
namespace {

// 比 opening a turn compares (intent rule follow_up_comparison_open; 比较 is one word, not 比).
constexpr std::string_view kThan = "比";

}  // namespace

// `text` without the speaker it opens with (我 of 我不打篮球了; ICU glues 我 to a function word: 我是,
// 我把): the rest, or nullopt when the text opens otherwise (我国 is a noun), nothing follows, or
// a plural speaker only owns the subject (我们部门周五要团建: two content words of two or more
// characters follow it; after 我 they are a predicate: 我从来不吃香菜).
std::optional<std::string_view> after_speaker(std::string_view text, const PhraseReader& reader) {
  const std::vector<Token> t = segment_words(text);
  if (t.empty()) return std::nullopt;
  const std::string_view first = t.front().text(text);
  auto content = [&](std::size_t i) {
    const std::string_view w = t[i].text(text);
    return t[i].word && !t[i].single_han && !reader.is_function(w) && !reader.of_function_chars(w);
  };
  // ICU glues the speaker to an adverb after it (我不|想去, 我也|…): still the speaker.
  for (const std::string& w : reader.lex().config().rewrite.speaker_words) {
    if (!first.starts_with(w) ||
        (first != w && !reader.of_function_chars(first) && !adverbs_only(first.substr(w.size()))))
      continue;
    const std::string_view rest = trim_start(text.substr(w.size()));
    if (rest.empty() || rest.starts_with("的")) return std::nullopt;  // 我的加班申请: an owner
    if (first == w && count_code_points(w) > 1 && t.size() > 2 && content(1) && content(2))
      return std::nullopt;
    return rest;
  }
  return std::nullopt;
}

namespace {

// `text` from where a first-person statement with its speaker left out starts its predicate
// (最近|在看三体, 周末|想去故宫, 养了一只橘猫): after words that only say when, a word opening with
// one of `[rewrite] speaker_openers` (在, 想, 打算 …; ICU glues some to the verb: 想去, 在学) or a
// one-character verb with its aspect (养了, 去|过). Nullopt otherwise: a statement opening with a
// noun (兰州拉面关门了) is about that noun, not about what the speaker does.
std::optional<std::string_view> after_implied_speaker(std::string_view text, const PhraseReader& reader) {
  const std::vector<Token> t = segment_words(text);
  std::size_t i = 0;
  while (i < t.size() && temporal(t[i].text(text))) ++i;
  if (i + 1 >= t.size()) return std::nullopt;
  const std::string_view w = t[i].text(text);
  const std::string_view rest = text.substr(t[i].begin);
  for (const std::string& o : reader.lex().config().rewrite.speaker_openers)
    if (w.starts_with(o) && (w.size() == o.size() || count_code_points(w) == 2)) return rest;
  const bool aspect = (count_code_points(w) == 2 && (w.ends_with("了") || w.ends_with("过"))) ||
                      (t[i].single_han && (t[i + 1].text(text) == "了" || t[i + 1].text(text) == "过"));
  if (aspect && !reader.is_function(w.substr(0, 3))) return rest;
  return std::nullopt;
}

// The statement without a hearsay frame in front (听说…, 你知道吗，…): what it reports.
std::string_view reported(std::string_view said, const std::vector<std::string>& frames) {
  for (bool again = true; again;) {
    again = false;
    for (const std::string& f : frames)
      if (said.starts_with(f) && said.size() > f.size()) {
        said = trim_start(said.substr(f.size()));
        again = true;
      }
  }
  return said;
}


// What a statement compares or is about (我觉得喜茶比奈雪好喝 → 喜茶; 新版红楼梦拍得一般 → 新版红楼梦):
// what stands before its own 比 (a word opening with it: ICU glues 比奈 of 比奈雪; 这个比较贵 compares
// 这个 too), else its first noun phrase; a turn that opens with 比 compares that.
std::optional<std::string> compared_subject(std::string_view said, const PhraseReader& reader) {
  const std::vector<Token> t = segment_words(said);
  for (const Token& w : t)
    if (w.text(said).starts_with(kThan)) {
      const std::string_view subject = trim_end(said.substr(0, w.begin));
      if (count_code_points(subject) < 2) return std::nullopt;
      return std::string(subject);
    }
  const std::vector<Span> spans = reader.spans(said);
  if (spans.empty()) return std::nullopt;
  const std::string_view subject = slice(said, spans.front().begin, phrase_end(said, spans, 0));
  if (count_code_points(subject) < 2) return std::nullopt;
  return std::string(subject);
}

// The report asked back: 真的吗 puts its 真的 after the report's subject, where a doubt stands
// (郑钦文拿了奥运冠军 → 郑钦文真的拿了奥运冠军); 是吗 asks it back as it was.
std::string doubted(std::string_view s, std::string_view turn, const PhraseReader& reader) {
  constexpr std::string_view kReally = "真的";
  if (turn.find(kReally) == std::string_view::npos || s.find(kReally) != std::string_view::npos)
    return std::string(s);
  const std::vector<Span> spans = reader.spans(s);
  if (spans.empty()) return std::string(s);
  const std::uint32_t end = phrase_end(s, spans, 0);
  if (end >= s.size()) return std::string(s);
  return std::string(s.substr(0, end)) + std::string(kReally) + std::string(s.substr(end));
}

// A count opening the object (一只|橘猫, 两|张|沙丘2的票, 两百|个|饺子): the token after it, else
// `first`. The count says how many, not what: 它 and a bare predicate ask about the thing.
// A count with its numeral (一只, 两|张) opening at `first`: the token after it, else `first`.
std::size_t after_numeral_count(std::string_view said, const std::vector<Token>& t, std::size_t first) {
  auto numeral = [](std::string_view w) { return !w.empty() && count_end(w, 0) == w.size(); };
  if (first >= t.size()) return first;
  const std::string_view w = t[first].text(said);
  const std::string_view last = last_code_point(w);
  if (w.size() > last.size() && classifier(last) && numeral(w.substr(0, w.size() - last.size())))
    return first + 1;  // 一只
  if (numeral(w) && first + 1 < t.size() && classifier(t[first + 1].text(said))) return first + 2;
  return first;
}

std::size_t after_count(std::string_view said, const std::vector<Token>& t, std::size_t first,
                        bool verb_too) {
  if (const std::size_t k = after_numeral_count(said, t, first); k > first) return k;
  if (first >= t.size()) return first;
  const std::string_view w = t[first].text(said);
  // A classifier alone after a verb counts one (买了|个|手机). `verb_too`: a verb opening the run
  // goes with it (买|个|ipad → ipad); a determiner does not (这|个, 每|个: pointed at, not counted).
  if (classifier(w) && first > 0 && (t[first - 1].single_han || t[first - 1].text(said).ends_with("了")))
    return first + 1;
  constexpr std::string_view kDeterminers = "这那哪每各某几";
  if (verb_too && t[first].single_han && kDeterminers.find(w) == std::string_view::npos &&
      first + 2 < t.size() && classifier(t[first + 1].text(said)))
    return first + 2;
  return first;
}

// A contrast word after the first word (成功了但没收到, 充值了不过没到账): the second half of an
// event. Closed class of the language.
bool tells_a_contrast(std::string_view said) {
  const std::vector<Token> t = segment_words(said);
  for (std::size_t i = 1; i < t.size(); ++i)
    for (std::string_view c : {"但", "但是", "可是", "不过", "却"})
      if (t[i].text(said) == c) return true;
  return false;
}

}  // namespace

std::string_view without_count(std::string_view phrase) {
  const std::vector<Token> t = segment_words(phrase);
  for (std::size_t i = 0; i < t.size(); ++i)
    if (const std::size_t k = after_numeral_count(phrase, t, i); k > i && k < t.size())
      return phrase.substr(t[k].begin);
  return phrase;
}

std::optional<std::string> spoken_object(std::string_view said, const PhraseReader& reader,
                                         bool with_verb, bool implied) {
  // A contrast told after what went well (我预约成功了，但是没收到短信; 我充值了不过没到账) is one
  // event, not a thing the speaker does: all the speaker said is kept.
  if (const auto all = after_speaker(trim_end(said), reader); all && tells_a_contrast(*all))
    return std::string(trim_end(*all));
  // The speaker's own clause (我挺喜欢张译的，演技很扎实 → 我挺喜欢张译的); an opinion (我觉得喜茶比
  // 奈雪好喝) is about its own subject, not about what the speaker does.
  said = trim_end(first_clause(said));
  if (reported(said, reader.lex().config().rewrite.report_frames).size() != said.size())
    return std::nullopt;
  auto rest = after_speaker(said, reader);
  if (!rest && implied) rest = after_implied_speaker(said, reader);
  if (!rest) return std::nullopt;
  const std::vector<Span> spans = reader.spans(said);
  if (spans.empty() || spans.back().begin < said.size() - rest->size()) return std::nullopt;
  std::size_t k = spans.size() - 1;
  // A 的 between two spans joins them; so does a bare numeral, which a name holds (长安|三|万里; a
  // count has its classifier: 两百|个|饺子), and a demonstrative between two nouns (明朝|那些|事儿).
  auto joins = [&](std::string_view gap) {  // the numeral or the demonstrative (的: below)
    for (std::string_view d : {"那些", "这些", "那个", "这个", "那种", "这种"})
      if (gap == d) return true;
    return !gap.empty() && count_end(gap, 0) == gap.size();
  };
  const std::vector<Token> t = segment_words(said);
  // A span opening after a lone character that is no function word (新|东方, 老|北京) is the rest
  // of a name ICU cut: no whole noun to join a numeral or a demonstrative to.
  auto whole = [&](const Span& s) {
    for (const Token& w : t)
      if (w.end == s.begin) return !w.single_han || reader.is_function(w.text(said));
    return true;
  };
  while (k > 0) {
    const std::string_view gap = slice(said, spans[k - 1].end, spans[k].begin);
    if (gap != "的" && !(joins(gap) && whole(spans[k - 1]))) break;
    --k;
  }
  std::uint32_t begin = spans[k].begin;
  const std::uint32_t end = spans.back().end;
  std::size_t first = 0;
  while (first < t.size() && t[first].begin < begin) ++first;
  // Asked about the activity (考个会计证 + 难不难), the verb and its count stay.
  const std::size_t counted = after_count(said, t, first, /*verb_too=*/!with_verb);
  const bool is_counted = counted > first && counted < t.size() && t[counted].end <= end;
  if (is_counted) begin = t[first = counted].begin;
  // After the progressive 在 (我最近在玩|艾|尔|登…, 在追|狂|飙) a lone character opens the verb, even
  // where ICU left it in the run of a name it does not know: the object starts after it.
  if (first > 0 && first + 1 < t.size() && t[first + 1].end <= end && t[first].single_han &&
      !reader.is_function(t[first].text(said)) && t[first - 1].text(said).ends_with("在"))
    begin = t[++first].begin;
  // ICU glues the progressive 在 to a one-character verb (在学|吉他): the thing asked about is
  // what follows. (The activity keeps the glued word: 学 alone would split ICU's 在学.)
  if (!with_verb && first + 1 < t.size() && t[first].begin == begin &&
      count_code_points(t[first].text(said)) == 2 && t[first].text(said).starts_with("在") &&
      t[first + 1].end <= end)
    begin = t[++first].begin;
  // A one-character verb right before an object of one word ICU knows makes an activity (学|吉他,
  // 学|游泳): kept with it. A name or a phrase (狂|飙, 漫长的季节) is asked about on its own.
  const bool one_word = first < t.size() && t[first].end == end && !t[first].single_han;
  // A counted object is a thing (买个|ipad), not an activity.
  if (with_verb && one_word && first > 0 && !is_counted && t[first - 1].single_han &&
      !reader.is_function(t[first - 1].text(said)) && !classifier(t[first - 1].text(said)))
    begin = t[first - 1].begin;
  const std::string_view object = slice(said, begin, end);
  if (count_code_points(object) < 2) return std::nullopt;
  return std::string(object);
}

namespace {

// A turn that only asks whether what was said is all right or right (可以吗, 行吗, 对吗, 对不对):
// closed classes of the language.
bool asks_of_said(std::string_view turn) {
  const std::string_view t = trim_end(turn);
  for (std::string_view a : {"可以吗", "行吗", "好吗", "对吗", "可以不", "行不行", "可不可以", "对不对",
                             "是不是", "这样可以吗", "这样行吗", "这样对吗", "可以么", "行么", "对么"})
    if (t == a) return true;
  return false;
}

}  // namespace

std::optional<StatementReply> reply_to_statement(std::string_view said, bool statement,
                                                 std::string_view turn, const PhraseReader& reader) {
  const RewriteConfig& cfg = reader.lex().config().rewrite;
  said = trim_end(said);
  if (said.empty() || turn.empty()) return std::nullopt;
  // A question that only frames a report (你知道吗，柯南已经连载三十年了) states it all the same.
  if (!statement && reported(said, cfg.report_frames).size() == said.size()) return std::nullopt;
  const auto rest = after_speaker(said, reader);
  if (rest && bare_why(turn))
    return StatementReply{std::string(turn) + std::string(*rest), "statement_why:speaker"};
  if (rest && listed(cfg.also_markers, turn)) {
    // The marker's own speaker (我, 我们) says it too: 我也 + what was said after its speaker.
    const auto own = after_speaker(turn, reader);
    const std::string_view who = own ? turn.substr(0, turn.size() - own->size()) : turn.substr(0, 0);
    if (who.empty()) return std::nullopt;
    const std::string_view body = rest->starts_with("也") ? rest->substr(3) : *rest;
    return StatementReply{std::string(trim_end(who)) + "也" + std::string(body), "also"};
  }
  if (const std::vector<Token> own = segment_words(turn); !own.empty() && own.front().text(turn) == kThan)
    if (auto subject = compared_subject(reported(said, cfg.report_frames), reader))
      return StatementReply{*subject + std::string(turn), "comparison:statement"};
  // Asked of what the speaker said they will do or believe (我想下周一请年假 + 可以吗, 我理解年假
  // 是按工龄算的 + 对吗): all of it, not its object, is what is asked about.
  if (statement && asks_of_said(turn)) {
    const std::string_view s = reported(said, cfg.report_frames);
    const auto own = after_speaker(s, reader);
    const std::string_view body = trim_end(own ? *own : s);
    if (count_code_points(body) >= 2)
      return StatementReply{std::string(body) + std::string(turn), "asked_of_statement"};
  }
  if (listed(cfg.confirm_markers, turn)) {
    const std::string_view s = reported(said, cfg.report_frames);
    if (s.empty() || s.ends_with("吗")) return std::nullopt;
    return StatementReply{doubted(s, turn, reader) + "吗", "confirm"};
  }
  return std::nullopt;
}

}  // namespace qaplan::internal
