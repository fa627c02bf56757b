#pragma once
// What the host's domain lexicon (domain_lexicon.hpp) says about one question, for the route and
// source stages: the first KB term in the question's content (it anchors the message: the model
// may not answer it directly without strong evidence of its act), how many distinctive terms of
// each configured source it names, and which of its source keywords the KB uses across sources
// (员工, 系统: they never set a hard scope alone).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "planning/domain_lexicon.hpp"
#include "planning/lexicon.hpp"
#include "planning/stages/source.hpp"

namespace qaplan::internal {

struct DomainView {
  /// First KB term in the content that characterises one of the KB's sources (any term when
  /// the KB has none); "" = none.
  std::string_view term;  // the lexicon's own text of the term (folded)
  DomainSourceEvidence sources;
};

/// The lexicon read against one config, prepared when the planner is made: per term, the
/// configured source it characterises, whether it may anchor a message and whether it holds a
/// question word (几天, 多少钱: the KB's phrasing, not a topic); and the generic keywords. Per
/// question, read() is then one fold, one scan and a table lookup per hit.
class DomainReader {
 public:
  DomainReader(DomainLexicon lexicon, const Config& config);

  /// The view points into `q` and into this reader.
  DomainView read(const ScannedQuery& q, const Lexicon& lex) const;

  const DomainLexicon& lexicon() const noexcept { return lexicon_; }
  /// The configured source keywords the KB uses across its sources ([domain] generic_share),
  /// sorted. Only judged when the lexicon knows at least two configured sources.
  const std::vector<std::string>& generic_keywords() const noexcept { return generic_; }

 private:
  struct Role {
    std::int32_t source = -1;  // config source index it characterises (-1: none configured)
    bool anchors = false;      // characterises one of the KB's sources (any term without sources)
    bool asks = false;         // holds a question word
  };
  DomainLexicon lexicon_;
  std::vector<Role> roles_;  // per term
  std::vector<std::string> generic_;
};

}  // namespace qaplan::internal
