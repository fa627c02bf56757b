#include "planning/analysis/answer_fill.hpp"

#include <algorithm>

#include "common/utf8.hpp"
#include "planning/segment.hpp"

namespace qaplan::internal {
namespace {

bool starts_with_any(std::string_view s, const std::vector<std::string>& words) {
  return std::any_of(words.begin(), words.end(), [&](const std::string& w) { return s.starts_with(w); });
}

// [begin, end) of the slot a choice asks about (米饭还是面条 in 你想吃米饭还是面条): the second
// alternative runs to the end; the first has as many words before the marker. `use` is the
// alternative the answer completes (叫阿呆 for 阿呆), else the answer itself.
struct Slot {
  std::size_t begin = 0, end = 0;
  std::string use;
};

std::optional<Slot> choice_slot(std::string_view c, const std::vector<Token>& t, std::string_view answer,
                                const std::vector<std::string>& markers) {
  for (std::size_t m = 1; m + 1 < t.size(); ++m) {
    if (std::find(markers.begin(), markers.end(), t[m].text(c)) == markers.end()) continue;
    std::size_t words = 0;
    for (std::size_t k = m + 1; k < t.size(); ++k) words += t[k].word;
    if (words == 0 || words > m) return std::nullopt;
    std::size_t first = m - words;
    // Alternatives are as many words long, or as many characters when ICU cut the second into
    // lone ones it did not know (甜的还是咸|的): the words do not say. Alternatives that open
    // with the same verb (喝茶还是喝|咖啡) start there.
    std::size_t b_end = t[m + 1].begin;
    next_code_point(c, b_end);
    const std::string_view b_first = c.substr(t[m + 1].begin, b_end - t[m + 1].begin);
    // A closing particle (…还是咖啡呢) is no piece of the alternative.
    auto last = t.end();
    if (last - 1 > t.begin() + static_cast<std::ptrdiff_t>(m) + 1) {
      const std::string_view p = (last - 1)->text(c);
      if (p == "呢" || p == "吗" || p == "啊" || p == "呀" || p == "吧") --last;
    }
    const bool cut = words > 1 && std::any_of(t.begin() + static_cast<std::ptrdiff_t>(m) + 1, last,
                                              [](const Token& w) { return w.single_han; });
    const std::size_t chars = count_code_points(trim_end(c.substr(t[m].end)));
    for (std::size_t k = m, n = 0; cut && k-- > 0 && n < chars;)
      if ((n += count_code_points(t[k].text(c))) == chars) first = k;
    for (std::size_t k = m; k-- > 1 && k + 3 >= m;)
      if (t[k].text(c).starts_with(b_first) && !t[k].ascii) {
        first = k;
        break;
      }
    const std::string_view a = slice(c, t[first].begin, t[m].begin);
    const std::string_view b = trim_end(c.substr(t[m].end));
    Slot s{t[first].begin, c.size(), std::string(answer)};
    for (std::string_view alt : {a, b}) {
      if (alt.size() > answer.size() && alt.ends_with(answer)) s.use = std::string(alt);
      // An answer that says the verb again (坐地铁 of 你坐地铁还是开车) takes the verb's place too.
      const std::string_view verb = answer.substr(0, answer.size() - std::min(alt.size(), answer.size()));
      if (answer.size() > alt.size() && answer.ends_with(alt) && c.substr(0, s.begin).ends_with(verb)) {
        s.begin -= verb.size();
        break;
      }
    }
    return s;
  }
  return std::nullopt;
}

// The slot a question word asks about: from the word to the clause's end (什么类型的电影, 哪个宝可梦),
// without a closing one-character verb after a word of its own (几点|到).
std::optional<Slot> word_slot(std::string_view c, const std::vector<Token>& t, std::string_view answer,
                              const std::vector<std::string>& slots) {
  for (std::size_t k = 0; k < t.size(); ++k) {
    if (!starts_with_any(t[k].text(c), slots)) continue;
    // A word that asks for a place, a person or a time is the whole slot (你最想去哪里|旅游 → 我最
    // 想去冰岛旅游); 什么 / 哪个 ask with the noun after them (什么电影).
    constexpr std::string_view kWhole[] = {"哪里", "哪儿", "谁", "什么时候", "哪天", "几点"};
    if (std::find(std::begin(kWhole), std::end(kWhole), t[k].text(c)) != std::end(kWhole))
      return Slot{t[k].begin, t[k].end, std::string(answer)};
    std::size_t end = t.back().end;
    if (t.size() >= 2 && k + 2 == t.size() && t.back().single_han && !t[k].single_han)
      end = t.back().begin;
    return Slot{t[k].begin, end, std::string(answer)};
  }
  return std::nullopt;
}

}  // namespace

std::size_t opening_word(std::string_view text, const std::vector<std::string>& words,
                         const PhraseReader& reader) {
  const std::vector<Token> t = segment_words(text);
  if (t.empty()) return 0;
  const std::string_view first = t.front().text(text);
  for (const std::string& w : words)
    if (first.starts_with(w) && (first == w || reader.of_function_chars(first))) return w.size();
  return 0;
}

std::optional<std::string> fill_answer(std::string_view question, std::string_view answer,
                                       const PhraseReader& reader) {
  const RewriteConfig& cfg = reader.lex().config().rewrite;
  const std::string_view c = trim_end(last_clause(question));
  if (c.empty() || answer.empty() || cfg.speaker_words.empty()) return std::nullopt;
  const std::vector<Token> t = segment_words(c);
  const std::size_t addressee = opening_word(c, cfg.addressee_words, reader);
  std::optional<Slot> slot = choice_slot(c, t, answer, cfg.alternative_markers);
  const bool choice = slot.has_value();
  if (!slot && addressee) slot = word_slot(c, t, answer, cfg.answer_slots);
  if (!slot || slot->begin < addressee) return std::nullopt;
  // A modal ICU glued to the first alternative's verb (想|去 of 你想去食堂还是出去吃) frames the
  // choice, it is no part of it: 我想出去吃, not 我出去吃.
  const auto at = std::find_if(t.begin(), t.end(), [&](const Token& w) { return w.begin == slot->begin; });
  if (choice && at != t.end() && count_code_points(at->text(c)) == 2 &&
      reader.of_function_chars(at->text(c)) && slot->use == answer) {
    std::size_t first_char = 0;
    next_code_point(at->text(c), first_char);
    slot->begin += static_cast<std::uint32_t>(first_char);
  }
  std::string out;
  if (addressee) {
    // 你们 → the plural speaker (the list's first, 我们), 你 / 您 → the singular one (its shortest, 我).
    const bool plural = slice(c, 0, static_cast<std::uint32_t>(addressee)).ends_with("们");
    out = plural ? cfg.speaker_words.front() : *std::min_element(
        cfg.speaker_words.begin(), cfg.speaker_words.end(),
        [](const std::string& a, const std::string& b) { return a.size() < b.size(); });
  }
  out.append(c.substr(addressee, slot->begin - addressee));
  out += slot->use;
  out.append(c.substr(slot->end));
  return out;
}

}  // namespace qaplan::internal
