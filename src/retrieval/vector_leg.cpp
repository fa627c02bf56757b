// The vector leg (vector_leg.hpp).
#include "retrieval/vector_leg.hpp"

namespace qaplan::internal {

Result<RankedList> vector_leg(const VectorIndex& index, std::span<const float> query,
                              std::size_t k) {
  QAPLAN_ASSIGN_OR_RETURN(RankedList v, index.search(query, k));
  std::erase_if(v, [](const ScoredDoc& h) { return !(h.score > 0); });
  return v;
}

}  // namespace qaplan::internal
