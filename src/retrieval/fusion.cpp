// The fusion pipeline (fusion.hpp).
#include "retrieval/fusion.hpp"

#include <unordered_set>

namespace qaplan::internal {

Result<std::vector<FusedHit>> fuse_legs(const std::vector<RankedList>& legs, const RrfOptions& rrf,
                                        const FuseCut& cut) {
  QAPLAN_ASSIGN_OR_RETURN(std::vector<FusedHit> fused, fuse_rrf(legs, rrf));
  if (!cut.parent_of) {
    if (fused.size() > cut.limit) fused.resize(cut.limit);
    return fused;
  }
  // In place: a kept hit only ever moves towards the front.
  std::unordered_set<std::uint32_t> parents;
  std::size_t kept = 0;
  for (std::size_t i = 0; i < fused.size() && kept < cut.limit; ++i)
    if (parents.insert(cut.parent_of(fused[i].doc)).second) {
      if (kept != i) fused[kept] = std::move(fused[i]);
      ++kept;
    }
  fused.resize(kept);
  return fused;
}

RankedList fused_scores(const std::vector<FusedHit>& fused) {
  RankedList out;
  out.reserve(fused.size());
  for (const FusedHit& h : fused) out.push_back({h.doc, h.score});
  return out;
}

}  // namespace qaplan::internal
