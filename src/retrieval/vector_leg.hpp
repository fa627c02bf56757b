#pragma once
// The one vector leg over an HNSW index (docs/architecture.md#the-retrieval-room): what
// HybridSearcher, `qaplan search --index` and ask_index rank by cosine.
#include <cstddef>
#include <span>

#include "qaplan/export.hpp"
#include "qaplan/ranking/types.hpp"
#include "qaplan/ranking/vector_index.hpp"
#include "qaplan/status.hpp"

namespace qaplan::internal {

/// VectorIndex::search's top `k` (k == 0: every row) with cosine > 0: like BM25, only a
/// document with some similarity is a hit. Returns rows. Errors: as VectorIndex::search.
QAPLAN_API Result<RankedList> vector_leg(const VectorIndex& index, std::span<const float> query,
                                         std::size_t k);

}  // namespace qaplan::internal
