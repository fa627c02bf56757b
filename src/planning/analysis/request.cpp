#include "planning/analysis/rewrite_turn.hpp"

#include <algorithm>
#include <span>

#include "common/utf8.hpp"

// A request the user made (显示所有男性的名字, 告诉我每个县的信息, 按年龄从大到小排列) is no statement
// whose words frame the next question: pasted in front, request and question run together (显示所有
// 男性的名字按年龄排列). What it asked for stands beside the turn instead (docs/rewrite.md).
namespace qaplan::internal::rewriting {

namespace {

// Verbs that open a request for data, after an optional 请 / 帮我 / 麻烦: a closed class of the
// language, not of a domain.
constexpr std::string_view kPolite[] = {"请", "帮我", "帮忙", "麻烦", "再", "同时", "另外", "还",
                                        "也", "只", "仅"};
constexpr std::string_view kRequestVerbs[] = {
    "告诉我", "给我看看", "给我看", "给我介绍一下", "给我介绍", "介绍一下", "看一下", "看看", "显示",
    "列出", "列一下", "列举出", "列举", "给出", "提供", "查找", "找出", "找到", "查一下", "查询",
    "统计", "展示", "保留"};
// A request that puts its object before the verb (将超过2学分的课程的全部信息列出).
constexpr std::string_view kFronting[] = {"将", "把"};
constexpr std::string_view kClosingVerbs[] = {"列出来", "列出", "显示出来", "显示", "找出来", "找出"};

std::string_view after_any(std::string_view text, std::span<const std::string_view> words) {
  for (std::string_view w : words)
    if (text.starts_with(w)) return text.substr(w.size());
  return text;
}

// The text after the polite and linking words that open a request (请, 帮我, 同时, 只 …), in any
// number and order (同时|也|显示, 请|只|列出).
std::string_view after_openers(std::string_view text) {
  for (std::string_view rest = after_any(text, kPolite); rest.size() != text.size();
       rest = after_any(text, kPolite)) {
    text = trim_start(rest);
    if (text.starts_with("，") || text.starts_with(",")) text = trim_start(text.substr(text.starts_with(",") ? 1 : 3));
  }
  return text;
}

// What follows the request's verb: right at the start, after a sort phrase that comes first
// (按码率从小到大|列出|所有歌曲名称), or, with 将 / 把, the words before a closing verb.
std::optional<std::string_view> request_object(std::string_view rest) {
  const std::string_view object = after_any(rest, kRequestVerbs);
  if (object.size() != rest.size()) {
    // The verb is a word of its own (显示|器 is no request) and asks, not reports (找到|了).
    const std::size_t end = rest.size() - object.size();
    const std::vector<Token> w = words_of(rest);
    const auto at = std::find_if(w.begin(), w.end(), [&](const Token& k) { return k.end == end; });
    // …nor glued to a lone noun suffix ICU left apart (显示|器).
    const bool whole = at != w.end() && !(std::next(at) != w.end() && std::next(at)->single_han &&
                                          suffix(std::next(at)->text(rest)));
    const bool aspect = object.starts_with("了") || object.starts_with("过") || object.starts_with("着");
    return whole && !aspect ? std::optional(object) : std::nullopt;
  }
  if (rest.starts_with("按")) {
    std::size_t best = std::string_view::npos, len = 0;
    for (std::string_view v : kRequestVerbs)
      if (const std::size_t at = rest.find(v); at < best) best = at, len = v.size();
    // Only after words that sort (从小到大, 顺序, 降序): 按 also opens a manner (按学生名计算…给出).
    const std::string_view sort = rest.substr(0, best == std::string_view::npos ? 0 : best);
    bool sorts = false;
    for (std::string_view w : {"从", "顺序", "升序", "降序", "排"}) sorts = sorts || sort.find(w) != std::string_view::npos;
    if (best != std::string_view::npos && sorts) return rest.substr(best + len);
  }
  const std::string_view fronted = after_any(rest, kFronting);
  if (fronted.size() != rest.size())
    for (std::string_view v : kClosingVerbs)
      if (trim_end(fronted).ends_with(v)) return trim_end(fronted).substr(0, trim_end(fronted).size() - v.size());
  return std::nullopt;
}

// Without the word that picks what of it is asked for (所有城市, 每|个|县的, with the classifier ICU
// left apart): no part of the thing.
std::string_view without_pick(std::string_view object) {
  const std::vector<Token> w = words_of(object);
  if (w.size() < 2 || !counts_or_picks(w.front().text(object))) return object;
  const std::string_view pick = w.front().text(object);
  const bool apart = (pick == "每" || pick == "各") && w.size() > 2 && w[1].single_han &&
                     classifier(w[1].text(object));
  const std::size_t k = apart ? 2 : 1;
  std::string_view rest = object.substr(w[k].begin);
  if (rest.starts_with("的")) rest.remove_prefix(std::string_view("的").size());
  return rest;
}

}  // namespace

namespace {

// A thing without the information asked of it (家具的所有信息 → 家具, 县的详细信息 → 县).
std::string_view without_information(std::string_view asked) {
  for (std::string_view info : {"信息", "详情", "资料"}) {
    if (!asked.ends_with(info)) continue;
    std::string_view rest = asked.substr(0, asked.size() - info.size());
    for (std::string_view which : {"所有", "全部", "详细", "具体", "基本"})
      if (rest.ends_with(which)) rest.remove_suffix(which.size());
    if (rest.ends_with("的") && rest.size() > 3) return rest.substr(0, rest.size() - 3);
  }
  return asked;
}

}  // namespace

// The thing a request asked for, as a pronoun takes it up: without the information asked of it,
// and with `owner` (它们的导演 after 显示所有电影的标题和年份) the one whose attributes they are.
std::string_view requested_thing(std::string_view asked, bool owner) {
  std::string_view thing = without_information(asked);
  for (std::string_view about : {"关于", "有关"})
    if (thing.starts_with(about) && thing.size() > about.size() + 3) thing.remove_prefix(about.size());
  if (thing.size() != asked.size() || !owner) return thing;
  const std::size_t de = thing.rfind("的");
  if (de == std::string_view::npos || de < 6) return thing;
  // 李清照所有的诗词: the words before 的 pick, they own nothing.
  const std::string_view before = thing.substr(0, de), after = thing.substr(de + 3);
  if (before.ends_with("所有") || before.ends_with("全部")) return thing;
  // Attributes: a list of them (型号和马力), one short word (名称) or one named after the owner
  // (航班的航班号). A longer phrase (已完结的网络小说) is a noun its clause describes.
  const bool listed = after.find("和") != std::string_view::npos || after.find("、") != std::string_view::npos ||
                      after.find("以及") != std::string_view::npos;
  // The short word only after an owner without 所 (会议室的名称; not 专业人士所在的州, where 所在 is
  // a clause's verb and 州 its noun).
  bool clause = false;  // a 所 that is no 所有 (所在, 所发行)
  for (std::size_t at = before.find("所"); at != std::string_view::npos && !clause; at = before.find("所", at + 3))
    clause = before.substr(at + 3, 3) != "有";
  const bool short_attribute = count_code_points(after) <= 2 && !clause;
  const bool attribute = listed || short_attribute ||
                         after.starts_with(before.substr(before.size() - std::min<std::size_t>(6, before.size())));
  return attribute ? before : thing;
}

bool request_verb(std::string_view w) {
  return std::find(std::begin(kRequestVerbs), std::end(kRequestVerbs), w) != std::end(kRequestVerbs) ||
         std::find(std::begin(kClosingVerbs), std::end(kClosingVerbs), w) != std::end(kClosingVerbs);
}

std::optional<std::string_view> requested(std::string_view turn) {
  std::string_view rest = after_openers(turn);
  // A sort (按年龄从大到小排列): a request that names no thing.
  if ((rest.starts_with("按") || rest.starts_with("根据")) &&
      (turn.ends_with("排序") || turn.ends_with("排列")))
    return std::string_view{};
  const auto object = request_object(rest);
  if (!object) return std::nullopt;
  std::string_view out = without_pick(trim_start(first_clause(*object)));
  // A softening particle closing the request (列出每场比赛的详细信息吧) is no part of the thing.
  for (std::string_view p : {"吧", "呢", "啊"})
    if (out.ends_with(p) && out.size() > p.size()) out.remove_suffix(p.size());
  return out;
}

// A request of the turn's own (按评分排序, 同时显示配送费): no fragment to put in the previous
// question's place nor a predicate to give a subject; the topic stands beside it (the safe form).
std::optional<Step> request_step(const TurnView& t) {
  const std::string& anchor = t.r.topic_anchor;
  if (anchor.empty() || !requested(t.text)) return std::nullopt;
  if (t.h.subject_unknown) return Step{std::string(t.question), "no_antecedent:pronoun_subject"};
  if (t.text.find(anchor) != std::string_view::npos) return Step{std::string(t.question), "has_topic"};
  return Step{anchor + " " + std::string(t.text), "request", "rewrite:fallback:request"};
}

}  // namespace qaplan::internal::rewriting
