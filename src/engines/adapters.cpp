// The three adapters. Shared first: what is searched (texts, legs, scope — the in-process
// executor's semantics), then one function per engine renders it for a server version and
// chooses server or client fusion. Gates live in versions.hpp's Version and are named here once.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "common/dates.hpp"
#include "engines/versions.hpp"
#include "qaplan/engines/engines.hpp"
#include "qaplan/planning/analysis.hpp"
#include "qaplan/planning/planner.hpp"

namespace qaplan::engines {
namespace {

using Json = nlohmann::ordered_json;
namespace dates = internal::dates;

// A float as the shortest decimal that reads back to it (0.1f prints "0.1", not 0.10000000149…).
Json short_float(float f) {
  char buf[32];
  auto r = std::to_chars(buf, buf + sizeof buf, f);
  return Json(std::stod(std::string(buf, r.ptr)));
}

// rrf_k is an integer (validated): written as one, as the engines' integer fields expect.
Json rank_constant(double k) { return Json(static_cast<std::int64_t>(k)); }

Json vector_json(const std::vector<float>& v) {
  Json a = Json::array();
  for (float f : v) a.push_back(short_float(f));
  return a;
}

// What one plan searches, engine-independent.
struct Shape {
  const Preparation& prep;
  const QueryAnalysis& a;
  const EngineInputs& in;
  const EnginesConfig& c;
  Engine engine;
  Version version;
  const PlanKnobs* k = nullptr;
  bool dense = false;  // dense legs present
  bool lexical = true;
  EngineRequests out;
};

void knob(EngineRequests& r, std::string name, std::string status, std::string detail) {
  r.knobs.push_back({std::move(name), std::move(status), std::move(detail)});
}

Result<EngineRequests> direct_answer(Engine e, const Version& v) {
  EngineRequests r;
  r.engine = e;
  r.version = v.str();
  r.mode = "none";
  r.mode_reasons.push_back("route_direct_answer: nothing is retrieved");
  return r;
}

Status check_vectors(const EngineInputs& in, std::size_t texts) {
  if (in.vectors.empty()) return {};
  if (in.vectors.size() != texts)
    return make_error(ErrorCode::kInvalidInput,
                      "one vector per query text: " + std::to_string(texts) + " texts, " +
                          std::to_string(in.vectors.size()) + " vectors",
                      "vectors");
  for (std::size_t i = 0; i < in.vectors.size(); ++i) {
    const auto& v = in.vectors[i];
    const std::string field = "vectors[" + std::to_string(i) + "]";
    if (v.empty()) return make_error(ErrorCode::kInvalidInput, "is empty", field);
    if (v.size() != in.vectors[0].size())
      return make_error(ErrorCode::kInvalidInput,
                        "has " + std::to_string(v.size()) + " dimensions, vectors[0] " +
                            std::to_string(in.vectors[0].size()),
                        field);
    for (float f : v)
      if (!std::isfinite(f)) return make_error(ErrorCode::kInvalidInput, "is not finite", field);
  }
  return {};
}

// Texts and legs (the executor's: main query, then variants when the plan uses them).
Result<Shape> shape(Engine e, const Preparation& prep, const QueryAnalysis& a,
                    const EngineInputs& in, const EnginesConfig& c, const std::string& cfg_version) {
  QAPLAN_ASSIGN_OR_RETURN(Version v,
                          parse_version(e, in.version.empty() ? cfg_version : in.version));
  Shape s{prep, a, in, c, e, v, nullptr, false, true, {}};
  s.out.engine = e;
  s.out.version = v.str();
  s.out.rrf_k = c.rrf_k;
  s.out.dedupe = c.dedupe;
  if (!prep.plan)
    return make_error(ErrorCode::kInvalidInput, "a retrieval Preparation has no plan", "plan");
  s.k = &prep.plan->knobs();
  s.out.prefer_table = s.k->prefer_table;
  const std::string main =
      a.rewrite.rewritten && !a.rewrite.query.empty() ? a.rewrite.query : prep.normalized.text;
  s.out.texts.push_back(main);
  if (s.k->use_query_variants)
    for (const QueryVariant& qv : a.variants) {
      if (qv.kind == "original" || qv.kind == "rewrite") continue;
      if (std::find(s.out.texts.begin(), s.out.texts.end(), qv.text) == s.out.texts.end())
        s.out.texts.push_back(qv.text);
    }
  QAPLAN_TRY(check_vectors(in, s.out.texts.size()));
  s.dense = !in.vectors.empty() || (e == Engine::kElasticsearch && !c.es_embedding_model_id.empty());
  // Milvus 2.4 has no BM25 function: the lexical legs cannot be expressed.
  s.lexical = !(e == Engine::kMilvus && !v.at_least(2, 5));
  for (const char* col : {"faq", "doc"}) {
    const bool run = col[0] == 'f' ? s.k->run_faq : s.k->run_doc;
    if (!run) continue;
    const int top_k = col[0] == 'f' ? s.k->faq_top_k : s.k->doc_top_k;
    for (std::size_t t = 0; t < s.out.texts.size(); ++t) {
      if (s.dense) s.out.legs.push_back({col, "dense", t, top_k});
      if (s.lexical) s.out.legs.push_back({col, "bm25", t, top_k});
    }
  }
  return s;
}

std::size_t legs_of(const EngineRequests& r, std::string_view col) {
  return static_cast<std::size_t>(
      std::count_if(r.legs.begin(), r.legs.end(), [&](const Leg& l) { return l.collection == col; }));
}
std::size_t max_legs_per_collection(const EngineRequests& r) {
  return std::max(legs_of(r, "faq"), legs_of(r, "doc"));
}

// Indexes into r.legs of one collection's legs, in fusion order.
std::vector<std::size_t> legs_in(const EngineRequests& r, std::string_view col) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < r.legs.size(); ++i)
    if (r.legs[i].collection == col) out.push_back(i);
  return out;
}

// A collection the plan searches: its name, whether it holds documents, its legs (fusion order)
// and their top k. Every builder loops over these.
struct Searched {
  std::string col;
  bool doc = false;
  std::vector<std::size_t> legs;
  int k = 0;
};
std::vector<Searched> searched(const EngineRequests& r) {
  std::vector<Searched> out;
  for (const char* col : {"faq", "doc"}) {
    std::vector<std::size_t> legs = legs_in(r, col);
    if (legs.empty()) continue;
    const int k = r.legs[legs[0]].top_k;
    out.push_back({col, col[0] == 'd', std::move(legs), k});
  }
  return out;
}

// Sets the fusion mode and its reasons: single leg when there is nothing to fuse, else server
// fusion unless the engine gave reasons it cannot (`why_client`). True for server fusion.
bool choose_mode(EngineRequests& r, std::vector<std::string> why_client, std::string server_reason) {
  if (max_legs_per_collection(r) <= 1) {
    r.mode = "single_leg";
    r.mode_reasons = {"one leg per collection: nothing to fuse"};
    return false;
  }
  const bool server = why_client.empty();
  r.mode = server ? "server_fusion" : "client_fusion";
  r.mode_reasons = server ? std::vector<std::string>{std::move(server_reason)} : std::move(why_client);
  return server;
}

// ---- scope ----------------------------------------------------------------------------------

// A time bound as the configured unit: "YYYY-MM-DD", or local midnight of that day in the range's
// zone (its offset that day: DST applies) — the anchor's UTC offset when the zone is unknown —
// in epoch seconds / milliseconds.
Json bound(const std::string& day, const TimeRange& t, const std::string& unit) {
  if (unit == "date") return Json(day);
  const auto d = dates::parse_date_prefix(day);
  std::int64_t secs = 0;
  if (const auto zone = dates::resolve_zone(t.timezone)) {
    secs = dates::local_midnight(*d, *zone);
  } else {
    const auto anchor = dates::parse_time_point(t.anchor);
    const std::int64_t offset_s = anchor ? std::int64_t{anchor->offset_minutes} * 60 : 0;
    secs = dates::to_days(*d) * 86400 - offset_s;
  }
  return Json(unit == "epoch_millis" ? secs * 1000 : secs);
}

// The periods of the question: every range of a comparison, else the one range (a host may
// have set `time` alone).
std::vector<TimeRange> time_ranges(const Filters& x) {
  if (!x.time_ranges.empty()) return x.time_ranges;
  if (x.time) return {*x.time};
  return {};
}

// The range the requests filter on. A comparison (two or more periods) is retrieved without a
// date filter: the in-process executor takes one range and the requests rank exactly like it,
// and a merged span or one side alone would be wrong (issue 22). The knob says so.
std::optional<TimeRange> request_range(const Filters& x) {
  auto all = time_ranges(x);
  if (all.size() != 1) return std::nullopt;
  return all.front();
}

// A "published" / "signed" range filters its own date field; "effective" the validity range.
bool own_date_field(const TimeRange& t) { return t.date != "effective" && !t.field.empty(); }

// The query DSL clauses (all must hold) of one range.
Json dsl_range_clauses(const EnginesConfig& c, const TimeRange& t) {
  const Json from = bound(t.from, t, c.date_unit);
  const Json to = bound(t.to, t, c.date_unit);
  auto range = [&](const std::string& field, const char* op, const Json& v) {
    Json r = {{op, v}};
    if (c.date_unit == "date") r["format"] = "yyyy-MM-dd";
    return Json{{"range", {{field, r}}}};
  };
  auto or_missing = [&](const std::string& field, Json cond) {
    return Json{{"bool",
                 {{"should", Json::array({std::move(cond),
                                          {{"bool", {{"must_not", {{"exists", {{"field", field}}}}}}}}})},
                  {"minimum_should_match", 1}}}};
  };
  const bool single = own_date_field(t) || c.date_end_field.empty();
  if (single) {  // one date per record in [from, to): a record without it is not known to match
    Json r = {{"gte", from}, {"lt", to}};
    if (c.date_unit == "date") r["format"] = "yyyy-MM-dd";
    return Json::array({{{"range", {{own_date_field(t) ? t.field : c.date_field, r}}}}});
  }
  // in force on [start, end] overlaps [from, to); a missing bound is open
  return Json::array({or_missing(c.date_field, range(c.date_field, "lt", to)),
                      or_missing(c.date_end_field, range(c.date_end_field, "gte", from))});
}

// Query DSL filters (Elasticsearch and OpenSearch share it). FAQ entries are scoped by source
// only: metadata filters describe documents.
Json dsl_filters(const Shape& s, bool doc) {
  const EnginesConfig& c = s.c;
  Json f = Json::array();
  if (!s.prep.effective_sources.empty())
    f.push_back({{"terms", {{c.source_field, s.prep.effective_sources}}}});
  if (!doc) return f;
  const Filters& x = s.a.filters;
  if (const auto t = request_range(x))
    for (Json& clause : dsl_range_clauses(c, *t)) f.push_back(std::move(clause));
  if (x.department) f.push_back({{"term", {{c.department_field, *x.department}}}});
  for (const std::string& tag : x.tags) f.push_back({{"term", {{c.tags_field, tag}}}});
  if (x.path_prefix) f.push_back({{"prefix", {{c.path_field, *x.path_prefix}}}});
  if (x.is_signed) f.push_back({{"term", {{c.signed_field, *x.is_signed}}}});
  if (x.user && !c.owner_field.empty()) f.push_back({{"term", {{c.owner_field, *x.user}}}});
  return f;
}

// Milvus boolean expression; strings in double quotes with \ and " escaped.
std::string quote(const std::string& v) {
  std::string o = "\"";
  for (char ch : v) {
    if (ch == '"' || ch == '\\') o += '\\';
    o += ch;
  }
  return o + "\"";
}

// One range as a Milvus condition. Milvus has no date type: epoch integers (seconds unless the
// config says millis).
std::string milvus_range(const Shape& s, const TimeRange& t) {
  const EnginesConfig& c = s.c;
  const std::string unit = c.date_unit == "epoch_millis" ? "epoch_millis" : "epoch_seconds";
  const std::string from = bound(t.from, t, unit).dump();
  const std::string to = bound(t.to, t, unit).dump();
  const bool nullable = s.version.at_least(2, 5);
  auto open = [&](const std::string& field, const std::string& cond) {
    return nullable ? "(" + field + " is null or " + cond + ")" : cond;
  };
  if (own_date_field(t) || c.date_end_field.empty()) {
    const std::string& field = own_date_field(t) ? t.field : c.date_field;
    return field + " >= " + from + " and " + field + " < " + to;
  }
  return open(c.date_field, c.date_field + " < " + to) + " and " +
         open(c.date_end_field, c.date_end_field + " >= " + from);
}

std::string milvus_expr(const Shape& s, bool doc) {
  const EnginesConfig& c = s.c;
  std::vector<std::string> parts;
  if (!s.prep.effective_sources.empty()) {
    std::string in = c.source_field + " in [";
    for (std::size_t i = 0; i < s.prep.effective_sources.size(); ++i)
      in += (i ? ", " : "") + quote(s.prep.effective_sources[i]);
    parts.push_back(in + "]");
  }
  if (doc) {
    const Filters& x = s.a.filters;
    if (const auto t = request_range(x)) parts.push_back(milvus_range(s, *t));
    if (x.department) parts.push_back(c.department_field + " == " + quote(*x.department));
    for (const std::string& tag : x.tags)
      parts.push_back("ARRAY_CONTAINS(" + c.tags_field + ", " + quote(tag) + ")");
    if (x.path_prefix) parts.push_back(c.path_field + " like " + quote(*x.path_prefix + "%"));
    if (x.is_signed)
      parts.push_back(c.signed_field + " == " + std::string(*x.is_signed ? "true" : "false"));
    if (x.user && !c.owner_field.empty()) parts.push_back(c.owner_field + " == " + quote(*x.user));
  }
  std::string e;
  for (std::size_t i = 0; i < parts.size(); ++i) e += (i ? " and " : "") + parts[i];
  return e;
}

Json source_fields(const EnginesConfig& c, bool doc) {
  Json f = Json::array({c.id_field, c.parent_field, c.source_field});
  if (doc) f.push_back(c.table_field);
  return f;
}

const std::string& index_of(const EnginesConfig& c, const std::string& col) {
  return col == "faq" ? c.faq_index : c.doc_index;
}

int num_candidates(const EnginesConfig& c, int k) {
  return std::min(10000, std::max(k, c.num_candidates_factor * k));
}

// ---- knob report ------------------------------------------------------------------------------

void report_knobs(Shape& s, bool server) {
  EngineRequests& r = s.out;
  const PlanKnobs& k = *s.k;
  const std::string eng(to_string(s.engine));
  knob(r, "run_faq", "request", k.run_faq ? "FAQ legs on " + s.c.faq_index : "no FAQ request");
  knob(r, "run_doc", "request", k.run_doc ? "document legs on " + s.c.doc_index : "no document request");
  const std::string window =
      s.engine == Engine::kElasticsearch
          ? (server ? "size, knn k and the RRF window" : "size (knn: k and num_candidates)")
      : s.engine == Engine::kOpenSearch
          ? (server ? "size, knn k (per shard) and pagination_depth" : "size (knn: k per shard)")
          : (server ? "limit of every sub-request and of the fusion" : "limit");
  knob(r, "faq_top_k", k.run_faq ? "request" : "not_set",
       std::to_string(k.faq_top_k) + ": " + window + " of each FAQ leg");
  knob(r, "doc_top_k", k.run_doc ? "request" : "not_set",
       std::to_string(k.doc_top_k) + ": " + window + " of each document leg");
  knob(r, "rerank", "host",
       k.rerank ? "the host reranks the fused candidates (no engine-side reranker is configured)"
                : "no reranking");
  knob(r, "faq_direct_threshold", "client",
       "answer directly when the top FAQ's cosine ≥ " + Json(k.faq_direct_threshold).dump() +
           (server ? " (the fused hits carry only rank scores: the host reads the top FAQ's "
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
                            "in fused order (fuse_client does it), in both modalities"
                      : "off");
  // Filters.
  const Filters& f = s.a.filters;
  knob(r, "filters.sources", s.prep.effective_sources.empty() ? "not_set" : "request",
       s.prep.effective_sources.empty() ? "every source" : s.c.source_field + " on both collections");
  const char* where = s.engine == Engine::kMilvus
                          ? "expr of every sub-request (documents)"
                          : (server && s.engine == Engine::kOpenSearch && s.version.at_least(3, 0)
                                 ? "hybrid.filter (documents)"
                                 : "every leg's filter, inside kNN (documents)");
  if (const std::vector<TimeRange> ranges = time_ranges(f); ranges.size() > 1) {
    std::string periods;
    for (const TimeRange& t : ranges)
      periods += (periods.empty() ? "" : ", ") + t.expression + " [" + t.from + ", " + t.to + ")";
    knob(r, "filters.time", "host",
         std::to_string(ranges.size()) + " periods compared (" + periods +
             "): no date filter in the requests (one range would drop a side, a span would merge "
             "them); run one request per period to keep each side's evidence");
  } else if (!ranges.empty()) {
    const TimeRange& t = ranges.front();
    std::string unit = s.engine == Engine::kMilvus && s.c.date_unit == "date" ? "epoch_seconds"
                                                                              : s.c.date_unit;
    knob(r, "filters.time", "request",
         "[" + t.from + ", " + t.to + ")" +
             (own_date_field(t) ? " on " + t.field + " (" + t.date + ")" : std::string()) +
             " anchored at " + t.anchor + " (" + t.timezone + ") as " + unit + ": " + where);
  } else {
    knob(r, "filters.time", "not_set", "");
  }
  knob(r, "filters.department", f.department ? "request" : "not_set", f.department ? where : "");
  knob(r, "filters.tags", f.tags.empty() ? "not_set" : "request",
       f.tags.empty() ? "" : std::string("all of them: ") + where);
  knob(r, "filters.path_prefix", f.path_prefix ? "request" : "not_set", f.path_prefix ? where : "");
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

// ---- Elasticsearch ----------------------------------------------------------------------------

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

Json es_bm25_query(const Shape& s, std::size_t text, const Json& filters) {
  Json b = {{"must", Json::array({{{"match", {{s.c.text_field, {{"query", s.out.texts[text]}}}}}}})}};
  if (!filters.empty()) b["filter"] = filters;
  return {{"bool", b}};
}

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
          children.push_back({{"standard", {{"query", es_bm25_query(s, l.text, filters)}}}});
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
        body["query"] = es_bm25_query(s, l.text, filters);
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

// ---- OpenSearch -------------------------------------------------------------------------------

Json os_knn(const Shape& s, std::size_t text, int k, const Json& filters) {
  Json q = {{"vector", vector_json(s.in.vectors[text])}, {"k", k}};
  if (!filters.empty()) q["filter"] = {{"bool", {{"filter", filters}}}};
  return {{"knn", {{s.c.vector_field, q}}}};
}

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
  const bool server =
      choose_mode(s.out, std::move(why_client),
                  "hybrid query + search pipeline " + s.c.os_pipeline_id + " (RRF) on " + v.str());
  if (server) {
    const Json pipeline = {
        {"description", "qaplan: reciprocal rank fusion of the hybrid sub-queries"},
        {"phase_results_processors",
         Json::array({{{"score-ranker-processor",
                        {{"combination", {{"technique", "rrf"}, {"rank_constant", rank_constant(s.c.rrf_k)}}}}}}})}};
    s.out.requests.push_back({"pipeline", "", "put_search_pipeline", s.c.os_pipeline_id,
                              pipeline.dump(), "", {}});
  }
  for (const auto& [col, doc, legs, k] : searched(s.out)) {
    const Json filters = dsl_filters(s, doc);
    if (server) {
      // 3.0 filters the whole hybrid query; 2.x needs the filter repeated in every sub-query.
      const bool top_filter = v.at_least(3, 0);
      const Json sub_filters = top_filter ? Json::array() : filters;
      Json queries = Json::array();
      for (std::size_t li : legs) {
        const Leg& l = s.out.legs[li];
        queries.push_back(l.modality == "dense" ? os_knn(s, l.text, k, sub_filters)
                                                : es_bm25_query(s, l.text, sub_filters));
      }
      Json hybrid = {{"queries", queries}, {"pagination_depth", k}};
      if (top_filter && !filters.empty()) hybrid["filter"] = {{"bool", {{"filter", filters}}}};
      Json body = {{"size", k}, {"query", {{"hybrid", hybrid}}}};
      if (s.c.dedupe == Dedupe::kAfterFusion) body["collapse"] = {{"field", s.c.parent_field}};
      body["_source"] = source_fields(s.c, doc);
      s.out.requests.push_back({std::string(col) + ":hybrid", col, "search", index_of(s.c, col),
                                body.dump(), Json{{"search_pipeline", s.c.os_pipeline_id}}.dump(),
                                legs});
      continue;
    }
    for (std::size_t li : legs) {
      const Leg& l = s.out.legs[li];
      Json body = {{"size", k}};
      body["query"] = l.modality == "dense" ? os_knn(s, l.text, k, filters)
                                            : es_bm25_query(s, l.text, filters);
      if (s.c.dedupe == Dedupe::kBeforeFusion) body["collapse"] = {{"field", s.c.parent_field}};
      body["_source"] = source_fields(s.c, doc);
      s.out.requests.push_back({std::string(col) + ":" + l.modality + ":" + std::to_string(l.text),
                                col, "search", index_of(s.c, col), body.dump(), "", {li}});
    }
  }
  report_knobs(s, server);
  if (s.dense)
    s.out.notes.push_back("knn k is per shard: each shard returns up to k neighbours before the "
                          "top k are chosen");
  return std::move(s.out);
}

// ---- Milvus -----------------------------------------------------------------------------------

Result<EngineRequests> build_milvus(Shape& s) {
  const Version& v = s.version;
  constexpr int kMaxTopK = 16384;
  for (const Leg& l : s.out.legs)
    if (l.top_k > kMaxTopK)
      return make_error(ErrorCode::kInvalidInput,
                        "top k " + std::to_string(l.top_k) + " exceeds Milvus' limit 16384",
                        l.collection + "_top_k");
  std::vector<std::string> why_client;
  if (s.c.dedupe == Dedupe::kBeforeFusion)
    why_client.push_back("dedupe before_fusion: hybrid_search groups only the fused list");
  if (s.c.dedupe == Dedupe::kAfterFusion && !v.at_least(2, 5))
    why_client.push_back("group_by_field on hybrid_search needs 2.5");
  const bool server =
      choose_mode(s.out, std::move(why_client), "hybrid_search with RRFRanker on " + v.str());
  if (!s.lexical && s.dense)
    s.out.mode_reasons.push_back("Milvus " + v.str() + " has no BM25 function: dense legs only");
  Json params = Json::object();
  for (const auto& [key, val] : s.c.milvus_search_params) params[key] = val;
  for (const auto& [col, doc, legs, k] : searched(s.out)) {
    const std::string expr = milvus_expr(s, doc);
    auto data_of = [&](const Leg& l) {
      return l.modality == "dense" ? Json::array({vector_json(s.in.vectors[l.text])})
                                   : Json::array({s.out.texts[l.text]});
    };
    auto field_of = [&](const Leg& l) {
      return l.modality == "dense" ? s.c.vector_field : s.c.sparse_field;
    };
    if (server) {
      Json subs = Json::array();
      for (std::size_t li : legs) {
        const Leg& l = s.out.legs[li];
        Json sub = {{"data", data_of(l)}, {"anns_field", field_of(l)}};
        sub["params"] = l.modality == "dense" ? params : Json::object();
        if (!expr.empty()) sub["expr"] = expr;  // repeated: Milvus filters per sub-request
        subs.push_back(sub);
      }
      Json body = {{"collection_name", index_of(s.c, col)},
                   {"data", subs},
                   {"rerank", {{"strategy", "rrf"}, {"params", {{"k", rank_constant(s.c.rrf_k)}}}}},
                   {"limit", k},
                   {"output_fields", source_fields(s.c, doc)}};
      if (s.c.dedupe == Dedupe::kAfterFusion) body["group_by_field"] = s.c.parent_field;
      s.out.requests.push_back({std::string(col) + ":hybrid", col, "hybrid_search",
                                index_of(s.c, col), body.dump(), "", legs});
      continue;
    }
    for (std::size_t li : legs) {
      const Leg& l = s.out.legs[li];
      Json body = {{"collection_name", index_of(s.c, col)},
                   {"anns_field", field_of(l)},
                   {"data", data_of(l)},
                   {"limit", k}};
      if (!expr.empty()) body["filter"] = expr;
      body["output_fields"] = source_fields(s.c, doc);
      body["metric_type"] = l.modality == "dense" ? s.c.milvus_metric_type : "BM25";
      if (l.modality == "dense" && !params.empty()) body["params"] = params;
      if (s.c.dedupe == Dedupe::kBeforeFusion) {
        body["group_by_field"] = s.c.parent_field;
        // 2.4 groups one hit per value and has no group_size (its SDK types refuse the field).
        if (v.at_least(2, 5)) body["group_size"] = 1;
      }
      s.out.requests.push_back({std::string(col) + ":" + l.modality + ":" + std::to_string(l.text),
                                col, "search", index_of(s.c, col), body.dump(), "", {li}});
    }
  }
  report_knobs(s, server);
  if (const auto t = request_range(s.a.filters))
    s.out.notes.push_back("Milvus has no date type: " +
                          (own_date_field(*t) ? t->field
                           : s.c.date_field + (s.c.date_end_field.empty()
                                                   ? ""
                                                   : " and " + s.c.date_end_field)) +
                          " are INT64 epoch " +
                          (s.c.date_unit == "epoch_millis" ? "milliseconds" : "seconds") +
                          (v.at_least(2, 5) ? " (nullable = open)"
                                            : " (2.4 has no null: store 0 / INT64 max for open)"));
  if (s.a.filters.path_prefix)
    s.out.notes.push_back("path prefix uses `like \"…%\"`: a % or _ inside the prefix is a wildcard");
  return std::move(s.out);
}

}  // namespace

std::string_view to_string(Engine e) noexcept {
  switch (e) {
    case Engine::kElasticsearch: return "elasticsearch";
    case Engine::kOpenSearch: return "opensearch";
    case Engine::kMilvus: return "milvus";
  }
  return "elasticsearch";
}

Result<Engine> parse_engine(std::string_view name) {
  if (name == "elasticsearch" || name == "es") return Engine::kElasticsearch;
  if (name == "opensearch" || name == "os") return Engine::kOpenSearch;
  if (name == "milvus") return Engine::kMilvus;
  return make_error(ErrorCode::kInvalidInput,
                    "unknown engine '" + std::string(name) + "' (es, opensearch, milvus)", "engine");
}

std::string_view to_string(Dedupe d) noexcept {
  switch (d) {
    case Dedupe::kBeforeFusion: return "before_fusion";
    case Dedupe::kAfterFusion: return "after_fusion";
    case Dedupe::kNone: return "none";
  }
  return "before_fusion";
}

namespace {

// What every adapter does first: a direct answer needs no request; else the shape, then the
// engine's builder.
Result<EngineRequests> render(Engine e, const std::string& cfg_version, const Preparation& prep,
                              const QueryAnalysis& analysis, const EngineInputs& inputs,
                              const EnginesConfig& config,
                              Result<EngineRequests> (*build)(Shape&)) {
  if (prep.route.route == Route::kDirectAnswer) {
    QAPLAN_ASSIGN_OR_RETURN(Version v,
                            parse_version(e, inputs.version.empty() ? cfg_version : inputs.version));
    return direct_answer(e, v);
  }
  QAPLAN_ASSIGN_OR_RETURN(Shape s, shape(e, prep, analysis, inputs, config, cfg_version));
  return build(s);
}

}  // namespace

Result<EngineRequests> to_elasticsearch(const Preparation& prep, const QueryAnalysis& analysis,
                                        const EngineInputs& inputs, const EnginesConfig& config) {
  return render(Engine::kElasticsearch, config.es_version, prep, analysis, inputs, config, build_es);
}

Result<EngineRequests> to_opensearch(const Preparation& prep, const QueryAnalysis& analysis,
                                     const EngineInputs& inputs, const EnginesConfig& config) {
  return render(Engine::kOpenSearch, config.os_version, prep, analysis, inputs, config, build_os);
}

Result<EngineRequests> to_milvus(const Preparation& prep, const QueryAnalysis& analysis,
                                 const EngineInputs& inputs, const EnginesConfig& config) {
  return render(Engine::kMilvus, config.milvus_version, prep, analysis, inputs, config,
                build_milvus);
}

Result<EngineRequests> to_engine(Engine engine, const Preparation& prep,
                                 const QueryAnalysis& analysis, const EngineInputs& inputs,
                                 const EnginesConfig& config) {
  switch (engine) {
    case Engine::kElasticsearch: return to_elasticsearch(prep, analysis, inputs, config);
    case Engine::kOpenSearch: return to_opensearch(prep, analysis, inputs, config);
    case Engine::kMilvus: return to_milvus(prep, analysis, inputs, config);
  }
  return make_error(ErrorCode::kInternal, "unknown engine", "engine");
}

std::string to_json(const EngineRequests& r, bool pretty) {
  Json j;
  j["engine"] = to_string(r.engine);
  j["version"] = r.version;
  j["mode"] = r.mode;
  j["mode_reasons"] = r.mode_reasons;
  j["texts"] = r.texts;
  Json legs = Json::array();
  for (const Leg& l : r.legs)
    legs.push_back({{"collection", l.collection}, {"modality", l.modality}, {"text", l.text},
                    {"top_k", l.top_k}});
  j["legs"] = legs;
  Json reqs = Json::array();
  for (const EngineRequest& q : r.requests) {
    if (q.api == "put_search_pipeline") {  // set up once, before the searches
      j["pipeline"] = {{"id", q.index}, {"body", Json::parse(q.body)}};
      continue;
    }
    Json x = {{"name", q.name}, {"collection", q.collection}, {"api", q.api}, {"index", q.index}};
    if (!q.params.empty()) x["params"] = Json::parse(q.params);
    x["legs"] = q.legs;
    x["body"] = Json::parse(q.body);
    reqs.push_back(x);
  }
  j["requests"] = reqs;
  if (r.mode == "client_fusion" || r.mode == "single_leg")
    j["client_fusion"] = {{"rrf_k", rank_constant(r.rrf_k)},
                          {"dedupe", to_string(r.dedupe)},
                          {"prefer_table", r.prefer_table},
                          {"how", "per collection: each leg deduped by parent and cut to its top_k, "
                                  "RRF in leg order, cut to top_k (qaplan::engines::fuse_client)"}};
  Json knobs = Json::array();
  for (const KnobMapping& m : r.knobs)
    knobs.push_back({{"name", m.name}, {"status", m.status}, {"detail", m.detail}});
  j["knobs"] = knobs;
  j["notes"] = r.notes;
  return pretty ? j.dump(2) : j.dump();
}

}  // namespace qaplan::engines
