#include "planning/analysis/topic_cut.hpp"

#include <algorithm>
#include <vector>

#include "common/utf8.hpp"
#include "planning/analysis/antecedent.hpp"
#include "planning/segment.hpp"

namespace qaplan::internal {
namespace {

// The last of the glued lone characters from `i` on (i itself when no run starts there). A name
// is two or three characters: a longer run (家|狗|狗|打) holds more than one word.
std::size_t lone_run_end(const std::vector<Token>& t, std::size_t i) {
  std::size_t e = i;
  while (t[i].single_han && e + 1 < t.size() && t[e + 1].single_han && t[e + 1].begin == t[e].end)
    ++e;
  return e - i <= 2 ? e : i;
}

// A word of two or more characters inside the topic after token `i`: the head a run modifies.
bool head_after(const std::vector<Token>& t, std::size_t i, const Span& topic) {
  for (std::size_t k = i + 1; k < t.size() && t[k].end <= topic.end; ++k)
    if (t[k].word && !t[k].single_han) return true;
  return false;
}

// 能 / 可以 alone or glued to a verb (能吃, 能用); not the nouns 能源, 能力 ….
bool modal_verb(std::string_view w) {
  if (w == "能" || w == "能够" || w == "可以") return true;
  if (w.size() != 6 || !w.starts_with("能")) return false;
  for (std::string_view noun : {"能源", "能力", "能量", "能耗", "能效", "能手"})
    if (w == noun) return false;
  return true;
}

// The words of `frag`, a run of glued lone characters counting as one.
int words_with_runs(std::string_view frag) {
  const std::vector<Token> t = words_of(frag);
  int n = 0;
  for (std::size_t i = 0; i < t.size(); ++i)
    if (t[i].word) {
      ++n;
      i = lone_run_end(t, i);
    }
  return n;
}

}  // namespace

std::optional<std::uint32_t> modifier_end(std::string_view prev_text, const Span& topic,
                                          std::string_view frag, const PhraseReader& reader) {
  const int keep = std::min(words_with_runs(frag), topic.words - 1);
  const std::vector<Token> tokens = segment_words(prev_text);
  std::size_t last = tokens.size();
  for (std::size_t i = 0; i < tokens.size() && tokens[i].end <= topic.end; ++i)
    if (tokens[i].word && tokens[i].begin >= topic.begin) last = i;
  if (last == tokens.size()) return std::nullopt;
  std::size_t head_begin = last;
  auto glued_lone = [&](std::size_t k) {  // lone, glued to the lone character before it
    return tokens[k].single_han && tokens[k - 1].single_han && tokens[k - 1].end == tokens[k].begin &&
           tokens[k - 1].begin >= topic.begin;
  };
  while (head_begin > 0 && glued_lone(head_begin)) --head_begin;
  // A clause (a modal glued to its verb: 仓|鼠|能吃|葡萄) opened by a name ICU did not know: which
  // of its nouns the fragment stands for is not known (仓鼠 or 葡萄 for 苹果) — the safe form.
  std::size_t first = 0;
  while (first < last && (!tokens[first].word || tokens[first].begin < topic.begin)) ++first;
  if (lone_run_end(tokens, first) > first)
    for (std::size_t i = first; i <= last; ++i)
      if (modal_verb(tokens[i].text(prev_text))) return std::nullopt;
  const std::string_view topic_text = prev_text.substr(topic.begin, topic.end - topic.begin);
  if (tokens[last].single_han && last - head_begin >= 2 && words_with_runs(topic_text) == 2)
    return std::nullopt;  // a word and a name's run: 厦门|鼓|浪|屿
  int seen = 0;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    Token t = tokens[i];
    if (!t.word || t.begin < topic.begin || t.end > topic.end) continue;
    const std::size_t run_end = lone_run_end(tokens, i);
    if (run_end > i && head_after(tokens, run_end, topic)) {
      t.end = tokens[run_end].end;  // the run opening the topic, a word before its head
      t.single_han = false;
      i = run_end;
    }
    if (++seen != keep) continue;
    if (t.single_han && i + 1 < tokens.size() && tokens[i + 1].single_han) return std::nullopt;
    // A suffix glued after the cut goes with its word (软件著作|权: the cut moves past 权).
    const bool suffixed = i + 1 < tokens.size() && tokens[i + 1].begin == t.end &&
                          tokens[i + 1].end <= topic.end && suffix(tokens[i + 1].text(prev_text));
    // People for people: a fragment naming people (实习生) takes the place of the people the
    // modifier qualifies too (正式|员工|体检 → 实习生体检, not 实习生员工体检).
    const std::size_t next = suffixed ? i + 2 : i + 1;
    if (next < tokens.size() && tokens[next].end <= topic.end && person_phrase(frag, reader) &&
        person_phrase(tokens[next].text(prev_text), reader))
      return tokens[next].end;
    // A fragment ending in a character of the next word (网银 beside 手机|银行) abbreviates both.
    if (next < tokens.size() && tokens[next].end <= topic.end && !tokens[next].single_han &&
        tokens[next].text(prev_text).find(last_code_point(frag)) != std::string_view::npos)
      return tokens[next].end;
    return suffixed ? tokens[i + 1].end : t.end;
  }
  return std::nullopt;
}

std::uint32_t before_time_words(std::string_view prev_text, std::uint32_t begin, std::uint32_t end,
                                std::string_view frag) {
  // Only the replaced run is read (a few words), and the fragment only when it ends in a time word.
  const std::string_view run = prev_text.substr(begin, end - begin);
  const std::vector<Token> t = words_of(run);
  std::size_t i = t.size();
  while (i > 1 && temporal(t[i - 1].text(run))) --i;
  if (i == t.size()) return end;
  for (const Token& w : words_of(frag))
    if (temporal(w.text(frag))) return end;
  return begin + t[i].begin;
}

}  // namespace qaplan::internal
