#pragma once
// Where one execution ranked a labelled piece of evidence: the judgement eval-chain and
// eval-rewrite share, so both read an execution the same way.
#include <cstddef>
#include <optional>
#include <string_view>

#include "qaplan/retrieval/executor.hpp"

namespace qaplan::internal {

// 1-based rank of FAQ `faq_id` among the execution's FAQ hits, or nullopt.
inline std::optional<std::size_t> faq_rank(const Execution& e, std::string_view faq_id) {
  for (std::size_t i = 0; i < e.faq_hits.size(); ++i)
    if (e.faq_hits[i].id == faq_id) return i + 1;
  return std::nullopt;
}

// 1-based rank of the section holding chunk `chunk_id` among the document hits, or nullopt
// (also for a chunk the knowledge base does not hold).
inline std::optional<std::size_t> chunk_rank(const KbIndex& kb, const Execution& e,
                                             std::string_view chunk_id) {
  const std::optional<std::size_t> s = kb.section_of_chunk(chunk_id);
  if (!s) return std::nullopt;
  for (std::size_t i = 0; i < e.doc_hits.size(); ++i)
    if (e.doc_hits[i].item == *s) return i + 1;
  return std::nullopt;
}

}  // namespace qaplan::internal
