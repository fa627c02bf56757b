#pragma once
// Word lists of the analysis stage (routing cues, part markers, execution cues, glossary
// aliases), compiled once into one Aho-Corasick automaton each (matcher.hpp): a scan is one
// linear pass over the text whatever the lists hold. Hits respect ASCII word boundaries like the
// lexicon's, and overlapping hits resolve leftmost-longest (社保公积金 over 社保).
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "planning/lexicon.hpp"
#include "planning/matcher.hpp"

namespace qaplan::internal {

class CueLists {
 public:
  /// Adds a list; returns its id (0, 1, …).
  std::uint32_t add(const std::vector<std::string>& words);
  void build();

  /// Non-overlapping hits, leftmost-longest, in text order.
  std::vector<CueHit> scan(std::string_view text) const;

 private:
  std::shared_ptr<PatternMatcher> matcher_ = std::make_shared<PatternMatcher>();
  std::uint32_t next_ = 0;
};

inline int count_of(const std::vector<CueHit>& hits, std::uint32_t list) {
  int n = 0;
  for (const CueHit& h : hits) n += h.list == list;
  return n;
}

inline const CueHit* first_of(const std::vector<CueHit>& hits, std::uint32_t list) {
  for (const CueHit& h : hits)
    if (h.list == list) return &h;
  return nullptr;
}

inline std::string_view text_of(std::string_view text, const CueHit& h) {
  return text.substr(h.begin, h.end - h.begin);
}

}  // namespace qaplan::internal
