#include "planning/analysis/direction.hpp"

#include <algorithm>
#include <vector>

#include "common/utf8.hpp"
#include "planning/segment.hpp"

namespace qaplan::internal {
namespace {

constexpr std::string_view kDirections[] = {"到", "去", "往", "从", "至"};

// The content words of `text` from byte `from` on, up to what it asks: their end, or `from`.
std::size_t place_end(std::string_view text, std::size_t from, int words,
                      const std::vector<CueHit>& asks, const PhraseReader& reader) {
  std::size_t end = from;
  for (const Token& t : words_of(text)) {
    if (t.begin < from) continue;
    const bool asked = std::any_of(asks.begin(), asks.end(), [&](const CueHit& h) {
      return h.begin < t.end && h.end > t.begin;
    });
    if (t.begin != end || !t.word || asked || reader.is_function(t.text(text)) || words-- == 0) break;
    end = t.end;
  }
  return end;
}

}  // namespace

std::optional<std::string> redirected(std::string_view prev, std::string_view frag,
                                      const PhraseReader& reader) {
  for (std::string_view d : kDirections) {
    const std::size_t at = frag.rfind(d);
    if (at == std::string_view::npos) continue;
    const std::string_view place = frag.substr(at + d.size());
    if (count_code_points(place) < 2 || reader.spans(place).empty()) continue;
    // The question names the direction once, a place after it, then what it asks.
    const std::size_t p = prev.find(d);
    if (p == std::string_view::npos || prev.find(d, p + d.size()) != std::string_view::npos) continue;
    thread_local std::vector<CueHit> asks;
    reader.lex().question_word_hits(prev, asks);
    const std::vector<Token> place_words = words_of(place);
    const int words = static_cast<int>(std::count_if(place_words.begin(), place_words.end(),
                                                     [](const Token& t) { return t.word; }));
    const std::size_t from = p + d.size();
    const std::size_t end = place_end(prev, from, std::max(words, 1), asks, reader);
    if (end == from || end == prev.size() || prev.substr(from, end - from) == place) continue;
    std::string out(prev.substr(0, from));
    out += place;
    out += prev.substr(end);
    return out;
  }
  return std::nullopt;
}

}  // namespace qaplan::internal
