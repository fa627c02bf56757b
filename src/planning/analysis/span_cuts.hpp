#pragma once
// Where a phrase of content words ends (PhraseReader::spans): the words that are no part of the
// thing a question is about — function words, verbs ICU left as lone characters, predicates it
// glued (花了, 最多, 好吃) — read off one text's words.
#include <cstddef>
#include <string_view>
#include <vector>

#include "planning/lexicon.hpp"
#include "planning/segment.hpp"

namespace qaplan::internal {

class SpanCuts {
 public:
  /// `fn` marks `tokens`' function words; `questions` are the text's question-word hits. All
  /// must outlive the SpanCuts.
  SpanCuts(std::string_view text, const std::vector<Token>& tokens, const std::vector<bool>& fn,
           const std::vector<CueHit>& questions)
      : text_(text), t_(tokens), fn_(fn), questions_(questions) {}

  /// How many tokens from `i` on stand outside any phrase (0: token `i` may be part of one).
  std::size_t outside(std::size_t i) const;
  /// A space between two ASCII content words (navicat premium): inside a phrase.
  bool space_inside(std::size_t i) const;

 private:
  std::string_view word(std::size_t i) const { return t_[i].text(text_); }
  bool single(std::size_t i) const;
  bool verb(std::size_t i) const;
  bool asks(std::size_t i) const;
  bool compound_between(std::size_t i) const;
  bool before_determiner(std::size_t i) const;
  bool predicate(std::size_t i) const;
  bool with_result(std::size_t i) const;
  std::size_t how_it_is(std::size_t i) const;

  std::string_view text_;
  const std::vector<Token>& t_;
  const std::vector<bool>& fn_;
  const std::vector<CueHit>& questions_;
};

}  // namespace qaplan::internal
