#pragma once
// The one fusion pipeline of the retrieval room (docs/architecture.md#the-retrieval-room): ranked
// legs → RRF → dedupe by parent → cut. The executor, ask_index, HybridSearcher and the rewrite
// evaluation all fuse through it, so a change to the order of those steps happens once.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <vector>

#include "qaplan/export.hpp"
#include "qaplan/ranking/fusion.hpp"
#include "qaplan/ranking/types.hpp"
#include "qaplan/status.hpp"

namespace qaplan::internal {

/// No cut: every fused hit is kept.
inline constexpr std::size_t kKeepAll = std::numeric_limits<std::size_t>::max();

/// What is kept of the fused list, in this order: the best hit per parent (when `parent_of` is
/// set), then the first `limit`. The parent function is called lazily, best hit first, and not
/// past the limit, so a caller may compute parents on demand (a corpus line parsed per hit).
struct FuseCut {
  std::size_t limit = kKeepAll;
  std::function<std::uint32_t(std::uint32_t doc)> parent_of;
};

/// fuse_rrf over `legs` (each best first, one entry per document), then `cut`.
/// Errors: as fuse_rrf.
QAPLAN_API Result<std::vector<FusedHit>> fuse_legs(const std::vector<RankedList>& legs,
                                                   const RrfOptions& rrf, const FuseCut& cut = {});

/// A fused list as (doc, fused score), best first.
QAPLAN_API RankedList fused_scores(const std::vector<FusedHit>& fused);

}  // namespace qaplan::internal
