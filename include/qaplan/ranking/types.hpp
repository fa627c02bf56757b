#pragma once
/// Small value types shared by the ranking stages (bm25, vector_index, fusion, bench).
#include <cstdint>
#include <vector>

namespace qaplan {

/// One ranked item: `doc` is the document's position in its collection (input order), which
/// is also the tie-breaker everywhere in the ranking library: equal scores rank by lower `doc`.
struct ScoredDoc {
  std::uint32_t doc = 0;
  double score = 0.0;
  friend bool operator==(const ScoredDoc&, const ScoredDoc&) = default;
};

/// A ranked list, best first.
using RankedList = std::vector<ScoredDoc>;

}  // namespace qaplan
