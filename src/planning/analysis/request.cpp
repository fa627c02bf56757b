#include "planning/analysis/rewrite_turn.hpp"

#include <span>

// A request the user made (显示所有男性的名字, 告诉我每个县的信息, 按年龄从大到小排列) is no statement
// whose words frame the next question: pasted in front, request and question run together (显示所有
// 男性的名字按年龄排列). What it asked for stands beside the turn instead (docs/rewrite.md).
namespace qaplan::internal::rewriting {

namespace {

// Verbs that open a request for data, after an optional 请 / 帮我 / 麻烦: a closed class of the
// language, not of a domain.
constexpr std::string_view kPolite[] = {"请", "帮我", "麻烦", "再"};
constexpr std::string_view kRequestVerbs[] = {"告诉我", "给我看看", "给我看", "看一下", "看看", "显示",
                                              "列出", "列一下", "给出", "查找", "找出", "查一下",
                                              "统计", "展示"};

std::string_view after_any(std::string_view text, std::span<const std::string_view> words) {
  for (std::string_view w : words)
    if (text.starts_with(w)) return text.substr(w.size());
  return text;
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

std::optional<std::string_view> requested(std::string_view turn) {
  std::string_view rest = after_any(turn, kPolite);
  // A sort (按年龄从大到小排列): a request that names no thing.
  if ((rest.starts_with("按") || rest.starts_with("根据")) &&
      (turn.ends_with("排序") || turn.ends_with("排列")))
    return std::string_view{};
  const std::string_view object = after_any(rest, kRequestVerbs);
  if (object.size() == rest.size()) return std::nullopt;
  std::string_view out = without_pick(trim_start(object));
  // A softening particle closing the request (列出每场比赛的详细信息吧) is no part of the thing.
  for (std::string_view p : {"吧", "呢", "啊"})
    if (out.ends_with(p) && out.size() > p.size()) out.remove_suffix(p.size());
  return out;
}

}  // namespace qaplan::internal::rewriting
