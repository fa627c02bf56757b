#include "planning/analysis/cues.hpp"

#include <algorithm>

namespace qaplan::internal {

std::uint32_t CueLists::add(const std::vector<std::string>& words) {
  const std::uint32_t id = next_++;
  for (const std::string& w : words) matcher_->add(w, id);
  return id;
}

void CueLists::build() { matcher_->build(); }

std::vector<CueHit> CueLists::scan(std::string_view text) const {
  std::vector<CueHit> all;
  matcher_->scan(text, [&](std::uint32_t list, std::uint32_t b, std::uint32_t e) {
    if (at_word_boundaries(text, b, e)) all.push_back({list, b, e});
  });
  // Leftmost-longest: by start, the longer first; then skip anything overlapping a kept hit.
  std::sort(all.begin(), all.end(), [](const CueHit& a, const CueHit& b) {
    return a.begin != b.begin ? a.begin < b.begin : a.end != b.end ? a.end > b.end : a.list < b.list;
  });
  std::vector<CueHit> out;
  for (const CueHit& h : all)
    if (out.empty() || h.begin >= out.back().end) out.push_back(h);
  return out;
}

}  // namespace qaplan::internal
