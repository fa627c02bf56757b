#pragma once
// A labelled question set (the chain set, the follow-up set) against the knowledge base it was
// written for: the same KB version, and every expected FAQ and chunk id present in it.
#include <string>

#include "qaplan/retrieval/executor.hpp"
#include "qaplan/status.hpp"

namespace qaplan::internal {

/// `Set` has name, version, kb_version and questions, each with id, expected_faq_id (optional)
/// and expected_chunk_ids. Errors: kFingerprintMismatch (another KB version), kInvalidInput
/// naming the set, the question and the field.
template <class Set>
Status check_labels_against_kb(const Set& set, const KbIndex& kb) {
  if (set.kb_version != kb.kb().version)
    return make_error(ErrorCode::kFingerprintMismatch,
                      set.version + " labels refer to knowledge base " + set.kb_version +
                          ", but the knowledge base is " + kb.kb().version,
                      set.name);
  for (const auto& q : set.questions) {
    if (q.expected_faq_id && !kb.faq_index(*q.expected_faq_id))
      return make_file_error(ErrorCode::kInvalidInput, "unknown FAQ id " + *q.expected_faq_id,
                             set.name, 0, q.id + " expected_faq_id");
    for (const std::string& c : q.expected_chunk_ids)
      if (!kb.section_of_chunk(c))
        return make_file_error(ErrorCode::kInvalidInput, "unknown chunk id " + c, set.name, 0,
                               q.id + " expected_chunk_ids");
  }
  return {};
}

}  // namespace qaplan::internal
