// Routing dimensions (docs/guide.md#query-analysis-planneranalyze): which index, keyword or
// hybrid, which model tier. Rules only, each decision with its reason tag; the seed's advice
// "含订单号必须进订单库" is the index cue.
#include <algorithm>

#include "planning/analysis/analyzer.hpp"
#include "planning/analysis/constraints.hpp"

namespace qaplan::internal {

Routing decide_routing(std::string_view query, const std::vector<CueHit>& hits,
                       const AnalysisLists& lists, QuestionCategory category, int query_units,
                       const RoutingConfig& config) {
  Routing r;
  r.ids = id_shapes(query);

  // Index: the first [[routing.indexes]] entry (file order) whose cue occurs, or that takes ID
  // shapes when the query has one.
  r.index = config.default_index;
  std::string index_reason = "index:" + config.default_index + " default";
  for (std::size_t i = 0; i < config.indexes.size(); ++i) {
    const RoutingIndex& ix = config.indexes[i];
    if (const CueHit* h = first_of(hits, lists.index[i])) {
      r.index = ix.name;
      index_reason = "index:" + ix.name + " cue " + std::string(text_of(query, *h));
      break;
    }
    if (ix.on_id && !r.ids.empty()) {
      r.index = ix.name;
      index_reason = "index:" + ix.name + " id " + r.ids.front();
      break;
    }
  }
  r.reasons.push_back(std::move(index_reason));

  // Mode: an exact token (ID, error code, SKU, version) is found by BM25; a vector search would
  // return its near misses.
  if (!r.ids.empty()) {
    r.mode = "bm25";
    r.reasons.push_back("mode:bm25 id " + r.ids.front());
  } else {
    r.mode = "hybrid";
    r.reasons.push_back("mode:hybrid no id");
  }

  // Model tier: length, sub-question count, category.
  // (NFKC has already made every ？ an ASCII ?.)
  const int questions = static_cast<int>(std::count(query.begin(), query.end(), '?'));
  r.parts = std::max({1, questions, 1 + count_of(hits, lists.part)});
  const auto& large = config.large_model_categories;
  const std::string cat(to_string(category));
  if (query_units >= config.large_model_min_units) {
    r.model_tier = "large";
    r.reasons.push_back("tier:large " + std::to_string(query_units) + " units");
  } else if (r.parts >= config.large_model_min_parts) {
    r.model_tier = "large";
    r.reasons.push_back("tier:large " + std::to_string(r.parts) + " parts");
  } else if (std::find(large.begin(), large.end(), cat) != large.end()) {
    r.model_tier = "large";
    r.reasons.push_back("tier:large category " + cat);
  } else {
    r.model_tier = "small";
    r.reasons.push_back("tier:small");
  }
  return r;
}

}  // namespace qaplan::internal
