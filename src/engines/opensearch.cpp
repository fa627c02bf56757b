// OpenSearch requests: BM25 and knn legs, fused by a hybrid query and its RRF search pipeline
// where the version has them, else by the client.
#include "engines/request_shape.hpp"

namespace qaplan::engines::detail {
namespace {

// A kNN returning `n` records per shard. From 2.16 a query may set HNSW's ef_search: the
// candidates it examines, as Elasticsearch's num_candidates.
Json os_knn(const Shape& s, std::size_t text, int n, const Json& filters) {
  Json q = {{"vector", vector_json(s.in.vectors[text])}, {"k", n}};
  if (s.version.at_least(2, 16) && num_candidates(s.c, n) > n)
    q["method_parameters"] = {{"ef_search", num_candidates(s.c, n)}};
  if (!filters.empty()) q["filter"] = {{"bool", {{"filter", filters}}}};
  return {{"knn", {{s.c.vector_field, q}}}};
}

}  // namespace

Result<EngineRequests> build_os(Shape& s) {
  const Version& v = s.version;
  constexpr std::size_t kMaxHybridQueries = 5;
  std::vector<std::string> why_client;
  if (!v.at_least(2, 19))
    why_client.push_back("RRF (score-ranker-processor) needs 2.19; " + v.str() +
                         " only normalizes scores");
  if (max_legs_per_collection(s.out) > kMaxHybridQueries)
    why_client.push_back(std::to_string(max_legs_per_collection(s.out)) +
                         " legs: a hybrid query takes at most 5 sub-queries");
  if (s.c.dedupe == Dedupe::kBeforeFusion)
    why_client.push_back("dedupe before_fusion: hybrid sub-queries cannot collapse by " +
                         s.c.parent_field + " before fusion");
  if (s.c.dedupe == Dedupe::kAfterFusion && !v.at_least(3, 1))
    why_client.push_back("collapse with a hybrid query needs 3.1");
  const std::string pipeline_id = os_pipeline_id(s.c);
  const bool server =
      choose_mode(s.out, std::move(why_client),
                  "hybrid query + search pipeline " + pipeline_id + " (RRF) on " + v.str());
  if (server) {
    const Json pipeline = {
        {"description", "qaplan: reciprocal rank fusion of the hybrid sub-queries"},
        {"phase_results_processors",
         Json::array(
             {{{"score-ranker-processor",
                {{"combination",
                  {{"technique", "rrf"}, {"rank_constant", rank_constant(s.c.rrf_k)}}}}}}})}};
    s.out.requests.push_back(
        make_request("pipeline", "", "put_search_pipeline", pipeline_id, pipeline, "", {}));
  }
  for (const auto& [col, doc, legs, k] : searched(s.out)) {
    if (server) {
      // 3.0 filters the whole hybrid query (a preferred sub-query adds its preferences); 2.x
      // needs the filter repeated in every sub-query.
      const bool top_filter = v.at_least(3, 0);
      const Json filters = dsl_filters(s, doc, Clauses::kRequired);
      // Collapsed after fusion: candidate_factor × k chunks per sub-query hold k parents.
      const int w = s.c.dedupe == Dedupe::kAfterFusion ? candidates(s.c, k) : k;
      Json queries = Json::array();
      for (std::size_t li : legs) {
        const Leg& l = s.out.legs[li];
        const Json sub_filters = !top_filter   ? leg_filters(s, l)
                                 : l.preferred ? dsl_filters(s, doc, Clauses::kPreferences)
                                               : Json::array();
        queries.push_back(l.modality == "dense" ? os_knn(s, l.text, w, sub_filters)
                                                : dsl_bm25_query(s, l.text, sub_filters));
      }
      Json hybrid = {{"queries", queries}, {"pagination_depth", w}};
      if (top_filter && !filters.empty()) hybrid["filter"] = {{"bool", {{"filter", filters}}}};
      Json body = {{"size", k}, {"query", {{"hybrid", hybrid}}}};
      if (s.c.dedupe == Dedupe::kAfterFusion) body["collapse"] = {{"field", s.c.parent_field}};
      body["_source"] = source_fields(s.c, doc);
      s.out.requests.push_back(make_request(col + ":hybrid", col, "search", index_of(s.c, col),
                                            body, Json{{"search_pipeline", pipeline_id}}.dump(),
                                            legs));
      continue;
    }
    for (std::size_t li : legs) {
      const Leg& l = s.out.legs[li];
      const Json filters = leg_filters(s, l);
      Json body = {{"size", k}};
      // candidate_factor × k chunks per shard, so the collapse finds k parents.
      body["query"] = l.modality == "dense" ? os_knn(s, l.text, candidates(s.c, k), filters)
                                            : dsl_bm25_query(s, l.text, filters);
      body["collapse"] = {{"field", s.c.parent_field}};  // what fuse_client fuses: parents
      body["_source"] = source_fields(s.c, doc);
      if (s.c.highlight && l.modality != "dense") body["highlight"] = highlight_fields(s.c);
      s.out.requests.push_back(
          make_request(leg_name(l), col, "search", index_of(s.c, col), body, "", {li}));
    }
  }
  report_knobs(s, server);
  if (s.c.highlight && server)
    s.out.notes.push_back("highlight: not requested inside a hybrid query (qaplan does not rely on "
                          "highlighting of fused hybrid hits); highlight the returned ids in a "
                          "second search, or use client fusion");
  note_dense_highlight(s);
  if (s.dense)
    s.out.notes.push_back(
        "knn k is per shard: each shard returns up to k neighbours before the "
        "top k are chosen");
  return std::move(s.out);
}

}  // namespace qaplan::engines::detail
