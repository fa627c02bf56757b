#include "planning/analysis/kind_slot.hpp"

// Which place a fragment of another kind than the topic takes (docs/rewrite.md): a thing is no
// parallel of people, a place or a body, so it stands for the thing the question did something
// with, or for the owner's thing.
#include <algorithm>

#include "common/utf8.hpp"
#include "planning/analysis/antecedent.hpp"

namespace qaplan::internal {
namespace {

// What kind of thing a phrase names, as far as a fragment's place goes: people (员工, 孕妇), a
// place (办公区, 会议室), or anything else.
enum class Kind { kPeople, kPlace, kBody, kThing };

Kind kind_of(std::string_view phrase, const PhraseReader& reader) {
  if (person_phrase(phrase, reader)) return Kind::kPeople;
  static constexpr std::string_view kPlaceHeads = "区室楼厅馆场园站库间";
  static constexpr std::string_view kBodyHeads = "部处科组";  // 研发部, 人事处: a body of people
  const std::string_view head = last_code_point(phrase);
  if (head.size() == 3 && kPlaceHeads.find(head) != std::string_view::npos) return Kind::kPlace;
  if (head.size() == 3 && count_code_points(phrase) >= 3 &&
      kBodyHeads.find(head) != std::string_view::npos)
    return Kind::kBody;
  return Kind::kThing;
}

// A fragment that can name a thing: short, and not opening with a preposition (按账户名称显示总数,
// 从高到低进行排列 say how, not what).
bool noun_like(std::string_view frag) {
  if (count_code_points(frag) > 6) return false;
  for (std::string_view p : {"按", "从", "在", "把", "以", "对", "向", "用", "由", "给", "跟", "和"})
    if (frag.starts_with(p)) return false;
  return true;
}

// A lone character that makes a compound with the short word after it (打|车费), not a verb
// before an object: a word precedes it, and the next word has at most two characters (家属|进|
// 健身房 keeps 进 apart).
bool glued_to_next(std::string_view text, const std::vector<Token>& t, std::size_t i,
                   const PhraseReader& reader) {
  if (i == 0 || i + 1 >= t.size() || !t[i].single_han || reader.is_function(t[i].text(text)))
    return false;
  const Token& before = t[i - 1];
  return before.word && !before.single_han && !reader.is_function(before.text(text)) &&
         t[i + 1].word && t[i + 1].begin == t[i].end && count_code_points(t[i + 1].text(text)) <= 2;
}

// The units of a phrase: its words, a lone character glued to the next (报销|打|车费 → 报销,
// 打车费); each as its byte range.
std::vector<std::pair<std::uint32_t, std::uint32_t>> units_of(std::string_view text, const Span& sp,
                                                              const PhraseReader& reader) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> out;
  const std::vector<Token> t = words_of(text);
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (t[i].begin < sp.begin || t[i].end > sp.end) continue;
    if (glued_to_next(text, t, i, reader) && t[i + 1].end <= sp.end) {
      out.emplace_back(t[i].begin, t[i + 1].end);
      ++i;
    } else {
      out.emplace_back(t[i].begin, t[i].end);
    }
  }
  return out;
}

// Where a phrase starts with the lone character glued before it (报销|打|车费: 打车费); right
// after a modal or another function word the character is the verb (能|用|个人热点).
std::uint32_t with_glued_character(std::string_view text, std::uint32_t begin,
                                   const PhraseReader& reader) {
  const std::vector<Token> t = words_of(text);
  for (std::size_t i = 0; i + 1 < t.size(); ++i)
    if (t[i + 1].begin == begin && glued_to_next(text, t, i, reader)) return t[i].begin;
  return begin;
}

}  // namespace

// A thing after a topic M followed by 的 and its head H, M people or a body (离职员工的邮件, 研发部的
// 周报), stands for H: 那聊天记录呢 → 离职员工的聊天记录; M is no parallel of a thing.
std::optional<std::string> head_in_place(std::string_view prev_text, const Span& topic,
                                         std::string_view frag, const PhraseReader& reader) {
  constexpr std::string_view kDe = "的";
  if (!prev_text.substr(topic.end).starts_with(kDe) || frag.ends_with(kDe) || !noun_like(frag))
    return std::nullopt;
  // Not after a place: a name of another place reads as a thing (上海办公室的门禁 + 深圳呢).
  const Kind owner = kind_of(slice(prev_text, topic.begin, topic.end), reader);
  if (owner == Kind::kThing || owner == Kind::kPlace || kind_of(frag, reader) != Kind::kThing)
    return std::nullopt;
  const auto at = static_cast<std::uint32_t>(topic.end + kDe.size());
  for (const Span& sp : reader.spans(prev_text)) {
    if (sp.begin != at) continue;
    const std::string_view head = slice(prev_text, sp.begin, sp.end);
    if (count_code_points(head) < 2 || kind_of(head, reader) != Kind::kThing) return std::nullopt;
    return std::string(prev_text.substr(0, at)) + std::string(frag) +
           std::string(prev_text.substr(sp.end));
  }
  return std::nullopt;
}

// The object a fragment of another kind than the subject stands for in a question of what the
// subject may do (员工能报销打车费吗 + 那高铁呢 → 员工能报销高铁吗; 办公区能用个人热点吗 + 那蓝牙
// 耳机呢): a thing is no parallel of people or a place. The question's last phrase, when of the
// fragment's kind: as many of its last units as the fragment has words, in the fragment's place;
// nullopt when the kinds agree or that phrase is of another kind.
std::optional<std::string> object_in_place(std::string_view prev_text, const Span& topic,
                                           std::string_view frag, const PhraseReader& reader) {
  // Only "S 能|可以 V O 吗": what S may do with a thing, the shape whose object is unambiguous.
  const std::string_view after = prev_text.substr(topic.end);
  const bool may =
      after.starts_with("能") || after.starts_with("可以") || after.starts_with("可不可以");
  if (!may || !trim_end(prev_text).ends_with("吗")) return std::nullopt;
  const Kind subject = kind_of(slice(prev_text, topic.begin, topic.end), reader);
  const Kind own = kind_of(frag, reader);
  if (subject == Kind::kThing || own == subject) return std::nullopt;
  const std::vector<Span> spans = reader.spans(prev_text);
  const std::vector<Token> fw = words_of(frag);
  const auto frag_words = static_cast<std::size_t>(
      std::count_if(fw.begin(), fw.end(), [](const Token& w) { return w.word; }));
  // The question's last phrase, when it is of the fragment's kind (a place after the thing, 带相机
  // 进研发楼, leaves no object to be sure of).
  if (spans.empty() || spans.back().begin <= topic.end) return std::nullopt;
  const auto units = units_of(prev_text, spans.back(), reader);
  // A lone character left among the units is a verb of a clause of its own (家属|进|健身房).
  const bool lone_verb = std::any_of(units.begin(), units.end(), [&](const auto& u) {
    return count_code_points(slice(prev_text, u.first, u.second)) == 1;
  });
  if (units.empty() || lone_verb ||
      kind_of(slice(prev_text, units.back().first, units.back().second), reader) != own)
    return std::nullopt;
  const std::size_t n = std::min(std::max<std::size_t>(frag_words, 1), units.size());
  std::uint32_t begin = units[units.size() - n].first;
  const std::uint32_t end = units.back().second;
  if (n == units.size()) begin = with_glued_character(prev_text, begin, reader);
  if (count_code_points(slice(prev_text, begin, end)) < 2) return std::nullopt;
  return join(join(std::string(prev_text.substr(0, begin)), frag), prev_text.substr(end));
}

}  // namespace qaplan::internal
