// The report of every plan knob (EngineRequests::knobs): what each engine's requests honour,
// leave to the client or host, or cannot carry, and why.
#include "engines/request_shape.hpp"

namespace qaplan::engines::detail {
namespace {

void knob(EngineRequests& r, std::string name, std::string status, std::string detail) {
  r.knobs.push_back({std::move(name), std::move(status), std::move(detail)});
}

// The headroom of an Elasticsearch client-fusion knn leg: the chunks each shard returns.
std::string es_client_knn_words(const Shape& s, int k) {
  if (!s.dense) return "";
  const int w = candidates(s.c, k);
  const std::string nc = std::to_string(num_candidates(s.c, w));
  if (!es_knn_k(s.version))
    return "; knn num_candidates " + nc + " chunks per shard (" + s.version.str() +
           "'s knn query has no k) so the collapse finds them";
  return "; knn k " + std::to_string(w) + " chunks per shard (num_candidates " + nc +
         ") so the collapse finds them";
}

// How many records each leg asks for, in the engine's words.
std::string window_words(const Shape& s, bool server, int k) {
  const std::string n = std::to_string(k);
  const std::string w = std::to_string(candidates(s.c, k));
  const bool fused_chunks = server && s.c.dedupe == Dedupe::kAfterFusion;
  const std::string per_leg_window = server && s.c.dedupe == Dedupe::kNone ? n : w;
  switch (s.engine) {
    case Engine::kElasticsearch:
      return server ? "size " + n + "; knn k and the RRF window " + per_leg_window +
                          (fused_chunks ? " chunks, collapsed to parents after fusion" : " chunks")
                    : "size " + n + " parents per leg (collapse)" + es_client_knn_words(s, k);
    case Engine::kOpenSearch:
      return server ? "size " + n + "; knn k and pagination_depth " + per_leg_window +
                          (fused_chunks ? " chunks, collapsed to parents after fusion" : " chunks")
                    : "size " + n + " parents per leg (collapse); knn k " + w + " per shard";
    case Engine::kMilvus:
      return server ? "limit " + n + " of every sub-request and of the fusion"
                    : "limit " + n + " groups per leg (group_by_field)";
  }
  return n;
}

std::string dedupe_words(const Shape& s, bool server) {
  const std::string p = s.c.parent_field;
  const std::string asked = "[engines] dedupe = \"" + std::string(to_string(s.c.dedupe)) + "\": ";
  if (!server)
    return asked + "every leg is deduped by " + p +
           " in the engine (one hit per parent, its best), " +
           "then fuse_client fuses parents, as the in-process executor does";
  if (s.c.dedupe == Dedupe::kAfterFusion)
    return asked + "the engine fuses chunks and collapses the fused list by " + p +
           " (a parent's chunks each count in RRF; the in-process executor fuses parents)";
  return asked + "no dedupe: the engine fuses chunks and a parent may appear more than once";
}

// The analysis' routing dimensions: what of them the requests carry.
void report_routing(Shape& s) {
  const Routing& g = s.a.routing;
  std::string ids;
  for (const std::string& id : g.ids) ids += (ids.empty() ? "" : ", ") + id;
  if (g.mode == "bm25")
    knob(s.out, "routing.mode", "host",
         "bm25 (" + ids +
             "): every leg still runs, as in the in-process executor; the BM25 legs "
             "match the id as written, and a host may drop the dense legs");
  else
    knob(s.out, "routing.mode", g.mode.empty() ? "not_set" : "request",
         g.mode.empty() ? "" : g.mode + ": dense and BM25 legs");
  knob(s.out, "routing.index", g.index.empty() ? "not_set" : "host",
       g.index.empty() ? ""
                       : g.index +
                             ": the requests search faq_index and doc_index; a host "
                             "with one index per domain picks it from this");
  knob(s.out, "routing.model_tier", g.model_tier.empty() ? "not_set" : "host",
       g.model_tier.empty() ? "" : g.model_tier + ": the answering model is the host's choice");
}

// The source scope and why it is what it is: one source named (by the question or the host),
// candidates because the evidence named several or was too weak for one, or the scenario's own.
void report_scope(Shape& s) {
  const Preparation& p = s.prep;
  std::string names;
  for (const std::string& x : p.effective_sources) names += (names.empty() ? "" : ", ") + x;
  if (names.empty()) return knob(s.out, "filters.sources", "not_set", "every source");
  const std::string what = s.c.source_field + " in [" + names + "] on both collections: ";
  const std::string said = p.source.detail.empty() ? "" : " (" + p.source.detail + ")";
  if (p.effective_source) {
    const bool host = p.effective_source != p.source.value;
    return knob(s.out, "filters.sources", "request",
                what + (host ? "the request's source filter"
                             : "decided by " + std::string(to_string(p.source.decided_by)) + said));
  }
  if (!p.source.detail.ends_with(kScopeWidenedToCandidates))
    return knob(s.out, "filters.sources", "request",
                what + "the scenario's allowed sources, no narrower source decided" + said);
  const std::string why = "the evidence named several sources or was too weak for one" + said;
  knob(s.out, "filters.sources", "request",
       what + "candidates: " + why + ", so the scope is widened to them, not narrowed to a guess");
  s.out.notes.push_back("sources: widened to the candidates " + names + ", not one source: " + why);
}

// The scope, and where to search again when qaplan's own scope finds nothing (the executor's
// fallback, Preparation::fallback_sources): the engine runs one request, the host the retry.
void report_sources(Shape& s) {
  report_scope(s);
  const auto& wider = s.prep.fallback_sources;
  if (!wider) return;
  std::string names;
  for (const std::string& x : *wider) names += (names.empty() ? "" : ", ") + x;
  s.out.notes.push_back("sources: the scope is the planner's, not the host's; if it returns no "
                        "evidence, search again " +
                        (names.empty() ? std::string("without the source filter")
                                       : "with " + s.c.source_field + " in [" + names + "]") +
                        " (fallback_sources)");
}

// Why the question's words gave no date filter, from the analysis' reasons ("" when none).
std::string no_time_reason(const Filters& f) {
  std::string why;
  for (const std::string& r : f.reasons)
    if (r.starts_with("time:no filter") || r.starts_with("time:skipped") ||
        r.starts_with("uncertain:time"))
      why += (why.empty() ? "" : "; ") + r;
  return why;
}

void report_time(Shape& s, const std::string& where) {
  const std::vector<TimeRange> ranges = time_ranges(s.a.filters);
  if (ranges.size() > 1) {
    std::string periods;
    for (const TimeRange& t : ranges)
      periods += (periods.empty() ? "" : ", ") + t.expression + " [" + t.from + ", " + t.to + ")";
    return knob(s.out, "filters.time", "host",
                std::to_string(ranges.size()) + " periods compared (" + periods +
                    "): no date filter in the requests (one range would drop a side, a span "
                    "would merge them); run one request per period to keep each side's evidence");
  }
  if (ranges.empty()) return knob(s.out, "filters.time", "not_set", no_time_reason(s.a.filters));
  const TimeRange& t = ranges.front();
  const std::string unit =
      s.engine == Engine::kMilvus && s.c.date_unit == "date" ? "epoch_seconds" : s.c.date_unit;
  knob(s.out, "filters.time", "request",
       "[" + t.from + ", " + t.to + ")" +
           (own_date_field(t) ? " on " + t.field + " (" + t.date + ")" : std::string()) +
           " anchored at " + t.anchor + " (" + t.timezone + ") as " + unit + ": " + where);
}

// The scope and metadata filters, and the legs the engine cannot run.
void report_filters(Shape& s, bool server) {
  EngineRequests& r = s.out;
  const Filters& f = s.a.filters;
  report_sources(s);
  const std::string where =
      s.engine == Engine::kMilvus
          ? "expr of every sub-request (documents)"
          : (server && s.engine == Engine::kOpenSearch && s.version.at_least(3, 0)
                 ? "hybrid.filter (documents)"
                 : "every leg's filter, inside kNN (documents)");
  report_time(s, where);
  // A preference (read from words) is required only by the preferred legs.
  auto word_filter = [&](const char* name, const char* key, bool set, const std::string& what) {
    if (!set) return knob(r, name, "not_set", "");
    knob(r, name, "request",
         f.prefers(key)
             ? "preferred (read from words): required only by the preferred document legs of the "
               "main text, so RRF ranks matching sections higher and the others still come back"
             : what);
  };
  word_filter("filters.department", "department", f.department.has_value(), where);
  word_filter("filters.tags", "tags", !f.tags.empty(), std::string("all of them: ") + where);
  word_filter("filters.path_prefix", "path_prefix", f.path_prefix.has_value(), where);
  knob(r, "filters.is_signed", f.is_signed ? "request" : "not_set", f.is_signed ? where : "");
  if (f.user)
    knob(r, "filters.user", s.c.owner_field.empty() ? "unsupported" : "request",
         s.c.owner_field.empty() ? "[engines] owner_field is not set" : where);
  else
    knob(r, "filters.user", "not_set", "");
  if (!s.dense)
    knob(r, "dense_legs", "unsupported",
         "no query vectors were given" +
             std::string(s.engine == Engine::kElasticsearch
                             ? " and [engines.elasticsearch] embedding_model_id is not set"
                             : "") +
             ": lexical legs only");
  if (!s.lexical)
    knob(r, "bm25_legs", "unsupported",
         "Milvus " + s.version.str() + " has no BM25 function (from 2.5): dense legs only");
}

}  // namespace

void report_knobs(Shape& s, bool server) {
  EngineRequests& r = s.out;
  const PlanKnobs& k = *s.k;
  const std::string eng(to_string(s.engine));
  knob(r, "run_faq", "request", k.run_faq ? "FAQ legs on " + s.c.faq_index : "no FAQ request");
  knob(r, "run_doc", "request",
       k.run_doc ? "document legs on " + s.c.doc_index : "no document request");
  auto top_k = [&](const char* name, bool run, int n, const char* what) {
    knob(r, name, run ? "request" : "not_set",
         std::to_string(n) + " " + what + ": " + window_words(s, server, n));
  };
  top_k("faq_top_k", k.run_faq, k.faq_top_k, "FAQ items");
  top_k("doc_top_k", k.run_doc, k.doc_top_k, "document sections");
  knob(r, "dedupe", "request", dedupe_words(s, server));
  knob(r, "rerank", "host",
       k.rerank ? "the host reranks the fused candidates (no engine-side reranker is configured)"
                : "no reranking");
  knob(r, "faq_direct_threshold", "client",
       "answer directly when the top FAQ's cosine ≥ " + Json(k.faq_direct_threshold).dump() +
           (server
                ? " (the fused hits carry only rank scores: the host reads the top FAQ's "
                  "cosine from its dense leg or stored vector)"
                : " (the FAQ dense leg's top score; ES/OpenSearch cosine _score = (1 + cos) / 2)"));
  knob(r, "faq_direct_exact_only", "client",
       k.faq_direct_exact_only ? "only an exact (normalized) question match is answered directly"
                               : "off");
  const bool es_server_threshold = server && s.engine == Engine::kElasticsearch && s.dense;
  if (es_server_threshold)
    knob(r, "min_context_score", "request",
         "knn similarity " + Json(k.min_context_score).dump() +
             " on the dense legs (cosine); hits found only lexically are not thresholded");
  else if (server)
    knob(r, "min_context_score", "unsupported",
         "the fused hits carry no cosine for " + eng +
             " server fusion; set [engines] dedupe = \"before_fusion\" for client fusion, where "
             "the client applies it");
  else
    knob(r, "min_context_score", "client",
         "context items need a dense-leg cosine ≥ " + Json(k.min_context_score).dump());
  for (const char* name : {"final_context_top_n", "max_context_chars", "max_context_doc_chars"})
    knob(r, name, "client", "context assembly after fusion");
  knob(r, "use_query_variants", "request",
       k.use_query_variants ? std::to_string(r.texts.size()) + " query texts, each its own legs"
                            : "off: the main query only");
  knob(r, "prefer_table", k.prefer_table ? "client" : "not_set",
       k.prefer_table ? s.c.table_field +
                            " is returned with every document hit; table rows go first, each group "
                            "in fused order" +
                            (server ? std::string(" (the host reorders the engine's fused hits)")
                                    : std::string(" (fuse_client does it)"))
                      : "off");
  report_routing(s);
  report_filters(s, server);
}

}  // namespace qaplan::engines::detail
