#include "planning/answer_word.hpp"

#include <algorithm>

#include "common/utf8.hpp"
#include "planning/analysis/phrases.hpp"
#include "planning/segment.hpp"
#include "planning/text.hpp"

namespace qaplan::internal {
namespace {

// A turn that asks: a question mark, a closing 吗 / 呢, or a question word.
bool asks(std::string_view text, const Lexicon& lex) {
  const std::string_view core = core_text(text);
  if (text.find('?') != std::string_view::npos || text.find("？") != std::string_view::npos ||
      core.ends_with("吗") || core.ends_with("呢"))
    return true;
  return lex.scan(NormalizedQuery{std::string(text), 0}).has(lex.ids().question_word);
}

// The words of `text` as a follow-up reads them: ICU's, a run of lone characters it did not know
// as one (签|到|表), and a word with a lone suffix after it as one (会议|室: no 会议 of 会议通知).
std::vector<std::string_view> units(std::string_view text, const std::vector<std::string>& function_words) {
  std::vector<std::string_view> out;
  const std::vector<Token> t = segment_words(text);
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (!t[i].word || t[i].ascii) continue;
    std::size_t j = i + 1;
    while (t[i].single_han && j < t.size() && t[j].single_han && t[j].begin == t[j - 1].end &&
           !listed(function_words, t[j].text(text)))
      ++j;
    if (!t[i].single_han && j < t.size() && t[j].single_han && t[j].begin == t[i].end &&
        suffix(t[j].text(text)))
      ++j;
    out.push_back(text.substr(t[i].begin, t[j - 1].end - t[i].begin));
    i = j - 1;
  }
  return out;
}

}  // namespace

bool takes_up_answer_word(const ScannedQuery& q, const std::vector<NormalizedQuery>& history,
                          const Lexicon& lex) {
  const RewriteConfig& rw = lex.config().rewrite;
  const int max_units = lex.config().intent.subjectless_max_units;
  const std::string_view text = q.query.text;
  if (history.size() < 2 || max_units <= 0 || count_query_units(text) > max_units) return false;
  for (const std::string& s : rw.speaker_words)
    if (text.starts_with(s)) return false;
  const std::string_view answer = history.back().text, asked = history[history.size() - 2].text;
  // A word of the turn that is a whole word of the answer and no piece of the question.
  const std::vector<std::string_view> said = units(answer, rw.function_words);
  bool candidate = false;
  for (std::string_view w : units(text, rw.function_words)) {
    if (count_code_points(w) < 2 || listed(rw.function_words, w) || listed(rw.question_words, w)) continue;
    if (std::find(said.begin(), said.end(), w) != said.end() && asked.find(w) == std::string_view::npos)
      candidate = true;
  }
  return candidate && !asks(answer, lex) && asks(asked, lex);
}

}  // namespace qaplan::internal
