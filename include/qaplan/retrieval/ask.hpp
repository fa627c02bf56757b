#pragma once
/// Question to passages in one step (`qaplan ask`): prepare → analyze → BM25 over a saved index
/// (index_dir.hpp) → passages with their text from the index's document store (doc_store.hpp).
///
/// What the plan and its analysis decide is applied as execute_plan applies it to the shipped KB:
///  - the query is the follow-up's rewrite, or the normalized question; with
///    `use_query_variants` the analysis's variants are searched too; each text gives one BM25
///    list, and the lists are fused by RRF ([ranking.rrf] k);
///  - filters: the Preparation's effective sources (or the analysis's), the time range (a
///    document's effective_from / effective_to overlap it), department, tags (all of them), path
///    prefix and signed flag — read from the corpus line's fields of those names (the schema of
///    eval_sets/kb/docs.jsonl). A document without the field is kept: an unknown value is not a
///    mismatch, and scoping a document away loses its answer (a note says so once);
///  - each list keeps its `doc_top_k` best documents in scope; the fused list is deduplicated by
///    `parent_id` (the id when there is none) and cut to `final_context_top_n`;
///  - a direct-answer route searches nothing: the reply is the answer.
///  - with query vectors and an index that has vectors, a cosine leg per vector joins the fusion.
/// Not yet: the FAQ / document split of the shipped KB (a saved index is one collection).
/// Python: Planner.ask over a qaplan.SavedIndex.
/// Thread-safe for concurrent calls on shared arguments.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "qaplan/export.hpp"
#include "qaplan/planning/analysis.hpp"
#include "qaplan/planning/planner.hpp"
#include "qaplan/ranking/doc_store.hpp"
#include "qaplan/ranking/fusion.hpp"
#include "qaplan/ranking/index_dir.hpp"
#include "qaplan/status.hpp"

namespace qaplan {

/// One ranked passage.
struct AskPassage {
  std::size_t doc = 0;  ///< document index in the saved index
  std::string id;
  double score = 0.0;   ///< RRF score over the query texts' lists
  std::string text;     ///< the document's "text"
  std::string line;     ///< its whole corpus line (JSON: title, source, dates, …)
};

/// Where an ask's time went (steady_clock, ns): planning against retrieval.
struct AskTimings {
  std::int64_t prepare_ns = 0;
  std::int64_t analyze_ns = 0;   ///< 0 for a direct answer
  std::int64_t retrieve_ns = 0;  ///< search, scope, fusion and passages; 0 for a direct answer
};

struct AskResult {
  Preparation preparation;
  std::optional<QueryAnalysis> analysis;  ///< absent when the route answered directly
  std::vector<std::string> queries;       ///< the texts searched, the main query first
  std::vector<AskPassage> passages;
  std::vector<std::string> notes;         ///< what was not applied, and why
  AskTimings timings;
};

/// Errors: as Planner::prepare / analyze (kInvalidInput naming the field), kInvalidInput when a
/// query text cannot be tokenized, kIo naming bm25.qidx when a mapped index changed on disk since
/// it was opened (CollectionIndex::unchanged(), checked before the searches).
///
/// `query_vectors`: embeddings of the query texts, the main query first, in the order of
/// AskResult::queries (the caller's embedder; qaplan embeds nothing). With an index that holds
/// vectors, each adds a cosine leg (its `doc_top_k` best documents in scope) to the fusion; more
/// vectors than query texts are ignored, fewer leave the rest lexical (a note says so).
/// Errors: also kInvalidInput when a vector's length is not the index's dimensions.
QAPLAN_API Result<AskResult> ask_index(const Planner& planner, const PrepareRequest& request,
                                       const AnalysisContext& context,
                                       const CollectionIndex& index, const DocStore& store,
                                       const RrfOptions& rrf = {},
                                       const std::vector<std::vector<float>>& query_vectors = {});

/// What `qaplan ask` prints (and Python's Planner.ask returns): question, route, then the reply
/// (direct answers) or queries, passages (rank, id, score, title, section, source, parent_id,
/// effective dates when the corpus line has them, text) and notes; with `explain` the plan and
/// analysis exactly as `qaplan plan` prints them.
QAPLAN_API std::string ask_to_json(const AskResult& r, bool explain, bool pretty);

}  // namespace qaplan
