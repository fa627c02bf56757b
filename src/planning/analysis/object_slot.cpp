#include "planning/analysis/object_slot.hpp"

#include <algorithm>

#include "common/utf8.hpp"
#include "planning/analysis/phrases.hpp"

namespace qaplan::internal {
namespace {

// The verb a history turn put right before `topic` (喝|咖啡, 去过|大理): a content word of one or two
// characters, an aspect particle between them allowed; "" when none.
std::string_view verb_before(std::string_view turn, std::string_view topic, const PhraseReader& reader) {
  const std::size_t at = turn.find(topic);
  if (at == std::string_view::npos || at == 0) return {};
  const std::vector<Token> w = words_of(turn);
  for (std::size_t k = 0; k < w.size(); ++k) {
    if (w[k].end != at) continue;
    std::size_t v = k;
    const std::string_view aspect = w[v].text(turn);
    if ((aspect == "了" || aspect == "过" || aspect == "着") && v > 0) --v;
    const std::string_view verb = w[v].text(turn);
    // The rewriter's function words hold a few light verbs (去西安, 看世界杯, 用ChatGPT); the rest
    // of them (的, 把, 我们) are no verb.
    static constexpr std::string_view kLightVerbs[] = {"有", "要", "去", "做", "用", "看", "想", "喜欢"};
    auto light = [](std::string_view x) {
      return std::find(std::begin(kLightVerbs), std::end(kLightVerbs), x) != std::end(kLightVerbs);
    };
    if (!w[v].word || w[v].ascii || (reader.is_function(verb) && !light(verb)) || count_code_points(verb) > 2)
      return {};
    // An adverb ICU glued to the verb (还|看 read as 还看): the verb is its last character, when
    // it is one (还有, 都有: 有 is too light a verb to find again); an aspect glued to it (读过):
    // its first.
    std::size_t first = 0;
    next_code_point(verb, first);
    if (first < verb.size() && reader.is_function(verb.substr(0, first))) {
      const std::string_view rest = verb.substr(first);
      const bool none = rest == "有" || classifier(rest) || (reader.is_function(rest) && !light(rest));
      if (!none) return rest;  // 几|个 is a count, not an adverb and a verb
    }
    if (first < verb.size() && (verb.substr(first) == "过" || verb.substr(first) == "了"))
      return verb.substr(0, first);
    return verb;
  }
  return {};
}

// The turn closes with the verb (its end at verb_end), which starts a word or ends one after an
// adverb or a negation (想|学, 不|学; ICU glues them); inside another word it is none (好看 is no
// 看). Read by characters, as ICU cuts 完了 and 想学 apart from the verb.
bool closes_with_verb(std::string_view frag, std::size_t verb_end, std::string_view verb,
                      const PhraseReader& reader) {
  const std::string_view core = frag.substr(0, verb_end);
  if (!core.ends_with(verb) || classifier(verb)) return false;  // 每|个 + 有两|个: a count
  const auto from = static_cast<std::uint32_t>(core.size() - verb.size());
  for (const Token& w : words_of(frag))
    if (w.begin <= from && from < w.end) {
      const std::string_view before = frag.substr(w.begin, from - w.begin);
      if (!before.empty())
        return before == "不" || before == "没" || reader.is_function(before);
      // 好看, 难学 say how a thing is (ICU may cut 最好|看): no verb to take an object.
      const std::size_t prev = from - std::min<std::size_t>(from, 3);
      return frag.substr(prev, from - prev) != "好" && frag.substr(prev, from - prev) != "难";
    }
  return false;
}

struct VerbObject {
  std::string_view verb, object;
};

// The verb the history put before the topic; or, when the topic is an adverb glued to its verb,
// then the object (在学|日语: the question's phrase kept whole), that verb and the object. Only
// that shape: a lone character opening a topic is as often a piece of a name ICU does not know.
std::optional<VerbObject> history_verb(const std::vector<std::string_view>& window,
                                       std::string_view topic, const PhraseReader& reader) {
  for (std::string_view turn : window)
    if (const std::string_view verb = verb_before(turn, topic, reader); !verb.empty())
      return VerbObject{verb, topic};
  const std::vector<Token> w = words_of(topic);
  if (w.size() != 2 || !w[1].word || w[1].single_han || count_code_points(w[0].text(topic)) != 2)
    return std::nullopt;
  std::size_t b = 0;
  next_code_point(topic, b);
  const std::string_view adverb = topic.substr(0, b), verb = topic.substr(b, w[0].end - b);
  if (!reader.is_function(adverb) || reader.is_function(verb) || classifier(verb) || counting(verb))
    return std::nullopt;
  return VerbObject{verb, topic.substr(w[1].begin)};
}

// A request closing with a count and a classifier (推荐几个呗, 帮我订一张吧): the noun they count is
// missing, and goes after them. Counts of times and of money (去几次吧, 给几块吧) are whole; a
// question (有多少个) may count what it names itself.
std::size_t closing_count_end(std::string_view frag) {
  static constexpr std::string_view kWhole[] = {"次", "场", "顿", "趟", "块", "段", "笔", "把"};
  std::string_view core = trim_end(frag);
  if (!core.ends_with("呗") && !core.ends_with("吧")) return std::string_view::npos;
  core.remove_suffix(std::string_view("吧").size());
  const std::string_view unit = last_code_point(core);
  const std::string_view before = core.substr(0, core.size() - unit.size());
  if (before.empty() || !classifier(unit) ||
      std::find(std::begin(kWhole), std::end(kWhole), unit) != std::end(kWhole))
    return std::string_view::npos;
  const bool counted = before.ends_with("多少") || counting(last_code_point(before));
  return counted ? core.size() : std::string_view::npos;
}

// The turn's own verb taking the object: after the verb, its aspect and its count.
std::optional<std::string> after_turn_verb(std::string_view frag, const VerbObject& vo,
                                           const PhraseReader& reader) {
  const std::string_view verb = vo.verb;
  const std::vector<Token> w = words_of(frag);
  for (std::size_t i = 0; i < w.size(); ++i) {
    const std::string_view v = w[i].text(frag);
    // The verb, the verb with its result (读 → 读完, 看 → 看完), or glued to a function word before
    // it (我|去 read as 我去).
    const bool one = count_code_points(verb) == 1 && count_code_points(v) == 2;
    if (v != verb && !(one && v.starts_with(verb)) &&
        !(one && v.ends_with(verb) && reader.is_function(v.substr(0, v.size() - verb.size()))))
      continue;
    std::size_t j = i + 1, at = w[i].end;
    auto take = [&](bool ok) {
      if (j < w.size() && ok) at = w[j++].end;
    };
    const bool aspect = j < w.size() && (w[j].text(frag) == "了" || w[j].text(frag) == "过");
    take(aspect);
    // After an aspect only a count comes before the object (戴了几年隐形眼镜): 爬了多久 keeps the
    // topic in front (香山爬了多久).
    if (aspect && !(j < w.size() && counting(w[j].text(frag)))) return std::nullopt;
    take(j < w.size() && counting(w[j].text(frag)));
    take(j < w.size() && at == w[j - 1].end && classifier(w[j].text(frag)) && counting(w[j - 1].text(frag)));
    // An object of its own after the verb: nothing to put back. A lone last character is a
    // sentence-final particle (带我去呗, 试试嘛).
    const bool final_particle = j + 1 == w.size() && w[j].single_han;
    if (j < w.size() && w[j].word && !reader.is_function(w[j].text(frag)) && !final_particle)
      return std::nullopt;
    return join(join(std::string(frag.substr(0, at)), vo.object), frag.substr(at));
  }
  return std::nullopt;
}

}  // namespace

std::size_t object_slot(std::string_view turn, std::size_t* verb_end) {
  static constexpr std::string_view kResult[] = {"完", "好", "懂", "到", "会"};
  std::string_view core = trim_end(turn);  // a prefix of turn: its offsets are turn's
  auto drop = [&](std::string_view tail) {
    if (!core.ends_with(tail) || core.size() == tail.size()) return false;
    core.remove_suffix(tail.size());
    return true;
  };
  // A final particle, or 没 closing a V没 question (读完了没).
  if (const std::string_view bare = without_closing_particle(core); bare.size() < core.size())
    core = bare;
  else
    drop("没");
  const std::size_t before_aspect = core.size();
  const bool le = drop("了");
  const std::size_t at = le || !drop("过") ? core.size() : before_aspect;
  for (std::string_view r : kResult)
    if (drop(r)) break;
  if (verb_end) *verb_end = core.size();
  return at;
}

std::optional<std::string> with_object_at(std::string_view turn, std::size_t at, std::string_view object) {
  std::string out = join(std::string(turn.substr(0, at)), object);
  const std::size_t end = out.size();
  out = join(std::move(out), turn.substr(at));
  // The object may make one word with the verb before it (回|家 → 回家), not with what follows:
  // its last word stays a word, and a lone last character before 了 would read as a verb (春|晚了).
  const std::vector<Token> w = words_of(out);
  for (const Token& x : w)
    if (x.end == end) return x.single_han && std::string_view(out).substr(end).starts_with("了")
                                 ? std::nullopt
                                 : std::optional(std::move(out));
  return end == out.size() ? std::optional(std::move(out)) : std::nullopt;
}

std::optional<std::string> object_after_verb(const std::vector<std::string_view>& window,
                                             std::string_view topic, std::string_view frag,
                                             const PhraseReader& reader) {
  if (topic.empty() || frag.find(topic) != std::string_view::npos) return std::nullopt;
  const std::optional<VerbObject> vo = history_verb(window, topic, reader);
  if (!vo || frag.find(vo->object) != std::string_view::npos) return std::nullopt;
  if (std::size_t verb_end = 0, at = object_slot(frag, &verb_end);
      closes_with_verb(frag, verb_end, vo->verb, reader))
    return with_object_at(frag, at, vo->object);
  if (auto placed = after_turn_verb(frag, *vo, reader)) return placed;
  if (const std::size_t at = closing_count_end(frag); at != std::string_view::npos)
    return with_object_at(frag, at, vo->object);
  return std::nullopt;
}

}  // namespace qaplan::internal
