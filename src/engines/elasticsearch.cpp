// Elasticsearch requests: BM25 and knn legs, fused by the server's retriever tree (rrf) where
// the version has it, else by the client.
#include "engines/request_shape.hpp"

namespace qaplan::engines::detail {
namespace {

// A kNN that returns `n` records (its k when `with_k`), examining num_candidates(n).
Json es_knn(const Shape& s, std::size_t text, int n, const Json& filters, bool with_k) {
  Json q = {{"field", s.c.vector_field}};
  if (!s.in.vectors.empty())
    q["query_vector"] = vector_json(s.in.vectors[text]);
  else
    q["query_vector_builder"] = {
        {"text_embedding",
         {{"model_id", s.c.es_embedding_model_id}, {"model_text", s.out.texts[text]}}}};
  if (with_k) q["k"] = n;
  q["num_candidates"] = num_candidates(s.c, n);
  if (!filters.empty()) q["filter"] = filters;
  return q;
}

}  // namespace

bool es_knn_k(const Version& v) { return v.at_least(8, 15); }

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
  const char* window_key = v.at_least(8, 15) ? "rank_window_size" : "window_size";
  const bool server = choose_mode(
      s.out, std::move(why_client),
      "retriever.rrf on " + v.str() + (v.at_least(8, 16) ? " (GA)" : " (technical preview)"));
  for (const auto& [col, doc, legs, k] : searched(s.out)) {
    if (server) {
      // Collapsed after fusion: each child and the window hold candidate_factor × k chunks, so
      // the collapse still finds k parents.
      const int w = s.c.dedupe == Dedupe::kAfterFusion ? candidates(s.c, k) : k;
      Json children = Json::array();
      for (std::size_t li : legs) {
        const Leg& l = s.out.legs[li];
        const Json filters = leg_filters(s, l);
        if (l.modality == "dense") {
          Json knn = es_knn(s, l.text, w, filters, true);
          knn["similarity"] = s.k->min_context_score;
          children.push_back({{"knn", knn}});
        } else {
          children.push_back({{"standard", {{"query", dsl_bm25_query(s, l.text, filters)}}}});
        }
      }
      Json rrf = {{"retrievers", children}, {"rank_constant", rank_constant(s.c.rrf_k)}};
      // Renamed in 8.15; from the plan's top k, never final_context_top_n.
      rrf[window_key] = w;
      Json body = {{"size", k}, {"retriever", {{"rrf", rrf}}}};
      if (s.c.dedupe == Dedupe::kAfterFusion) body["collapse"] = {{"field", s.c.parent_field}};
      body["_source"] = source_fields(s.c, doc);
      // 8.x documents highlighting beside an rrf retriever; 9.0 answered it with an error
      // (RankDocsQuery cannot be rewritten), so 9.x goes without and a note says so.
      if (s.c.highlight && !v.at_least(9, 0)) body["highlight"] = highlight_fields(s.c);
      s.out.requests.push_back(
          make_request(col + ":rrf", col, "search", index_of(s.c, col), body, "", legs));
      continue;
    }
    for (std::size_t li : legs) {
      const Leg& l = s.out.legs[li];
      const Json filters = leg_filters(s, l);
      Json body = {{"size", k}};
      // candidate_factor × k chunks, so the collapse finds k parents. The knn query takes k from
      // 8.15; 8.18 and 9.x default it to size (too few chunks to collapse), while 8.14 keeps
      // num_candidates per shard and has no k.
      if (l.modality == "dense")
        body["query"] = {{"knn", es_knn(s, l.text, candidates(s.c, k), filters, es_knn_k(v))}};
      else
        body["query"] = dsl_bm25_query(s, l.text, filters);
      // One hit per parent in every leg: what fuse_client and the in-process executor fuse.
      body["collapse"] = {{"field", s.c.parent_field}};
      body["_source"] = source_fields(s.c, doc);
      if (s.c.highlight && l.modality != "dense") body["highlight"] = highlight_fields(s.c);
      s.out.requests.push_back(
          make_request(leg_name(l), col, "search", index_of(s.c, col), body, "", {li}));
    }
  }
  report_knobs(s, server);
  if (s.c.highlight && server && v.at_least(9, 0))
    s.out.notes.push_back("highlight: not requested beside the rrf retriever on " + v.str() +
                          " (9.0 fails highlighting fused hits); highlight the returned ids in a "
                          "second search, or use client fusion");
  note_dense_highlight(s);
  if (s.dense && s.in.vectors.empty())
    s.out.notes.push_back("query_vector_builder: Elasticsearch embeds each text with model " +
                          s.c.es_embedding_model_id);
  return std::move(s.out);
}

}  // namespace qaplan::engines::detail
