#pragma once
// What the host's domain lexicon (domain_lexicon.hpp) says about one question, for the route and
// source stages: the first KB term in the question's content (it anchors the message: the model
// may not answer it directly without strong evidence of its act), how many distinctive terms of
// each configured source it names, and which of its source keywords the KB uses across sources
// (员工, 系统: they never set a hard scope alone).
#include <string>
#include <vector>

#include "planning/domain_lexicon.hpp"
#include "planning/lexicon.hpp"
#include "planning/stages/source.hpp"

namespace qaplan::internal {

struct DomainView {
  /// First KB term in the content that characterises one of the KB's sources (any term when
  /// the KB has none); "" = none.
  std::string term;
  DomainSourceEvidence sources;
};

/// `source_map[i]` = the config source index of the lexicon's source i (-1: not configured).
/// Generic keywords are only judged when the lexicon knows at least two configured sources.
DomainView read_domain(const ScannedQuery& q, const DomainLexicon& domain,
                       const std::vector<int>& source_map, const Lexicon& lex);

/// The config source index of each of the lexicon's sources (-1 when the config has none).
std::vector<int> map_domain_sources(const DomainLexicon& domain, const Config& config);

}  // namespace qaplan::internal
