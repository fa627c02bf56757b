// Elasticsearch requests: BM25 and knn legs, fused by the server's retriever tree (rrf) where
// the version has it, else by the client.
#include "engines/request_shape.hpp"

namespace qaplan::engines::detail {
namespace {

Json es_knn(const Shape& s, std::size_t text, int k, const Json& filters, bool with_k) {
  Json q = {{"field", s.c.vector_field}};
  if (!s.in.vectors.empty())
    q["query_vector"] = vector_json(s.in.vectors[text]);
  else
    q["query_vector_builder"] = {{"text_embedding",
                                  {{"model_id", s.c.es_embedding_model_id},
                                   {"model_text", s.out.texts[text]}}}};
  if (with_k) q["k"] = k;
  q["num_candidates"] = num_candidates(s.c, k);
  if (!filters.empty()) q["filter"] = filters;
  return q;
}

}  // namespace

Result<EngineRequests> build_es(Shape& s) {
  const Version& v = s.version;
  const bool licensed = s.c.es_license == "enterprise" || s.c.es_license == "trial";
  std::vector<std::string> why_client;
  if (!licensed)
    why_client.push_back("RRF retrievers need an Enterprise (or trial) licence; license = " +
                         s.c.es_license);
  if (s.c.dedupe == Dedupe::kBeforeFusion)
    why_client.push_back("dedupe before_fusion: a knn retriever cannot collapse by " +
                         s.c.parent_field + " before RRF");
  if (s.c.dedupe == Dedupe::kAfterFusion && !v.at_least(8, 16))
    why_client.push_back("collapse beside an rrf retriever needs 8.16");
  const bool server = choose_mode(
      s.out, std::move(why_client),
      "retriever.rrf on " + v.str() + (v.at_least(8, 16) ? " (GA)" : " (technical preview)"));
  for (const auto& [col, doc, legs, k] : searched(s.out)) {
    const Json filters = dsl_filters(s, doc);
    if (server) {
      Json children = Json::array();
      for (std::size_t li : legs) {
        const Leg& l = s.out.legs[li];
        if (l.modality == "dense") {
          Json knn = es_knn(s, l.text, k, filters, true);
          knn["similarity"] = s.k->min_context_score;
          children.push_back({{"knn", knn}});
        } else {
          children.push_back({{"standard", {{"query", dsl_bm25_query(s, l.text, filters)}}}});
        }
      }
      Json rrf = {{"retrievers", children}, {"rank_constant", rank_constant(s.c.rrf_k)}};
      // The window was renamed in 8.15; it is the plan's top k, never final_context_top_n.
      rrf[v.at_least(8, 15) ? "rank_window_size" : "window_size"] = k;
      Json body = {{"size", k}, {"retriever", {{"rrf", rrf}}}};
      if (s.c.dedupe == Dedupe::kAfterFusion) body["collapse"] = {{"field", s.c.parent_field}};
      body["_source"] = source_fields(s.c, doc);
      s.out.requests.push_back({std::string(col) + ":rrf", col, "search", index_of(s.c, col),
                                body.dump(), "", legs});
      continue;
    }
    for (std::size_t li : legs) {
      const Leg& l = s.out.legs[li];
      Json body = {{"size", k}};
      if (l.modality == "dense")
        body["query"] = {{"knn", es_knn(s, l.text, k, filters, false)}};
      else
        body["query"] = dsl_bm25_query(s, l.text, filters);
      // One hit per parent in every leg: what the in-process executor fuses.
      if (s.c.dedupe == Dedupe::kBeforeFusion) body["collapse"] = {{"field", s.c.parent_field}};
      body["_source"] = source_fields(s.c, doc);
      s.out.requests.push_back({std::string(col) + ":" + l.modality + ":" + std::to_string(l.text),
                                col, "search", index_of(s.c, col), body.dump(), "", {li}});
    }
  }
  report_knobs(s, server);
  if (s.out.mode == "client_fusion" && s.c.dedupe == Dedupe::kAfterFusion)
    s.out.notes.push_back("dedupe after_fusion with client fusion: fuse_client dedupes the fused list");
  if (s.dense && s.in.vectors.empty())
    s.out.notes.push_back("query_vector_builder: Elasticsearch embeds each text with model " +
                          s.c.es_embedding_model_id);
  return std::move(s.out);
}

}  // namespace qaplan::engines::detail
