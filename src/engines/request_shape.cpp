// The request shape (request_shape.hpp): texts and legs, vectors checked, scope as query-DSL
// filters and the fusion mode (knobs.cpp reports what became of each plan knob).
#include "engines/request_shape.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "common/dates.hpp"

namespace qaplan::engines::detail {

namespace dates = internal::dates;

// A float as the shortest decimal that reads back to it (0.1f prints "0.1", not 0.10000000149…).
Json short_float(float f) {
  char buf[32];
  auto r = std::to_chars(buf, buf + sizeof buf, f);
  return Json(std::stod(std::string(buf, r.ptr)));
}

Json vector_json(const std::vector<float>& v) {
  Json a = Json::array();
  for (float f : v) a.push_back(short_float(f));
  return a;
}

EngineRequest make_request(std::string name, std::string collection, std::string api,
                           std::string index, const Json& body, std::string params,
                           std::vector<std::size_t> legs) {
  EngineRequest q;
  q.name = std::move(name);
  q.collection = std::move(collection);
  q.api = std::move(api);
  q.index = std::move(index);
  q.body = body.dump();
  q.params = std::move(params);
  q.legs = std::move(legs);
  return q;
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
                    const EngineInputs& in, const EnginesConfig& c,
                    const std::string& cfg_version) {
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
  s.dense =
      !in.vectors.empty() || (e == Engine::kElasticsearch && !c.es_embedding_model_id.empty());
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
    if (col[0] == 'd' && has_preferences(a.filters)) {  // the executor's order: after the texts
      if (s.dense) s.out.legs.push_back({col, "dense", 0, top_k, true});
      if (s.lexical) s.out.legs.push_back({col, "bm25", 0, top_k, true});
    }
  }
  // Nothing the engine can run is an error, never an empty success.
  if (s.out.legs.empty() && (s.k->run_faq || s.k->run_doc))
    return make_error(ErrorCode::kInvalidInput,
                      std::string(to_string(e)) + " " + v.str() +
                          " cannot search this plan: it has no BM25 function (from 2.5) and no "
                          "query vectors were given, so every leg would be empty",
                      "vectors");
  return s;
}

std::size_t legs_of(const EngineRequests& r, std::string_view col) {
  return static_cast<std::size_t>(std::count_if(r.legs.begin(), r.legs.end(),
                                                [&](const Leg& l) { return l.collection == col; }));
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
bool choose_mode(EngineRequests& r, std::vector<std::string> why_client,
                 std::string server_reason) {
  if (max_legs_per_collection(r) <= 1) {
    r.mode = "single_leg";
    r.mode_reasons = {"one leg per collection: nothing to fuse"};
    return false;
  }
  const bool server = why_client.empty();
  r.mode = server ? "server_fusion" : "client_fusion";
  r.mode_reasons =
      server ? std::vector<std::string>{std::move(server_reason)} : std::move(why_client);
  return server;
}

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

std::vector<TimeRange> time_ranges(const Filters& x) {
  if (!x.time_ranges.empty()) return x.time_ranges;
  if (x.time) return {*x.time};
  return {};
}

// The range the requests filter on. A comparison (two or more periods) is retrieved without a
// date filter: the in-process executor takes one range and the requests rank exactly like it,
// and a merged span or one side alone would be wrong. The knob says so.
std::optional<TimeRange> request_range(const Filters& x) {
  auto all = time_ranges(x);
  if (all.size() != 1) return std::nullopt;
  return all.front();
}

// The format a range states: a `date` field reads a bare number as epoch milliseconds, so
// seconds must say so; a `long` field takes no format.
const char* range_format(const EnginesConfig& c) {
  if (c.date_unit == "date") return "yyyy-MM-dd";
  if (c.date_field_type != "date") return nullptr;
  return c.date_unit == "epoch_millis" ? "epoch_millis" : "epoch_second";
}

// The query DSL clauses (all must hold) of one range.
Json dsl_range_clauses(const EnginesConfig& c, const TimeRange& t) {
  const Json from = bound(t.from, t, c.date_unit);
  const Json to = bound(t.to, t, c.date_unit);
  auto range = [&](const std::string& field, const char* op, const Json& v) {
    Json r = {{op, v}};
    if (const char* f = range_format(c)) r["format"] = f;
    return Json{{"range", {{field, r}}}};
  };
  auto or_missing = [&](const std::string& field, Json cond) {
    return Json{
        {"bool",
         {{"should", Json::array({std::move(cond),
                                  {{"bool", {{"must_not", {{"exists", {{"field", field}}}}}}}}})},
          {"minimum_should_match", 1}}}};
  };
  const bool single = own_date_field(t) || c.date_end_field.empty();
  if (single) {  // one date per record in [from, to): a record without it is not known to match
    Json r = {{"gte", from}, {"lt", to}};
    if (const char* f = range_format(c)) r["format"] = f;
    return Json::array({{{"range", {{own_date_field(t) ? t.field : c.date_field, r}}}}});
  }
  // in force on [start, end] overlaps [from, to); a missing bound is open
  return Json::array({or_missing(c.date_field, range(c.date_field, "lt", to)),
                      or_missing(c.date_end_field, range(c.date_end_field, "gte", from))});
}

bool has_preferences(const Filters& f) {
  return (f.department && f.prefers("department")) ||
         (!f.tags.empty() && f.prefers("tags")) ||
         (f.path_prefix && f.prefers("path_prefix"));
}

// Query DSL filters (Elasticsearch and OpenSearch share it). FAQ entries are scoped by source
// only: metadata filters describe documents. `which`: the required filters, the preferences, or
// both (a preferred leg).
Json dsl_filters(const Shape& s, bool doc, Clauses which) {
  const EnginesConfig& c = s.c;
  const Filters& x = s.a.filters;
  const bool required = which != Clauses::kPreferences;
  auto wanted = [&](const char* name) {
    return x.prefers(name) ? which != Clauses::kRequired : required;
  };
  Json f = Json::array();
  if (required && !s.prep.effective_sources.empty())
    f.push_back({{"terms", {{c.source_field, s.prep.effective_sources}}}});
  if (!doc) return f;
  if (const auto t = request_range(x); t && required)
    for (Json& clause : dsl_range_clauses(c, *t)) f.push_back(std::move(clause));
  if (x.department && wanted("department"))
    f.push_back({{"term", {{c.department_field, *x.department}}}});
  if (wanted("tags"))
    for (const std::string& tag : x.tags) f.push_back({{"term", {{c.tags_field, tag}}}});
  if (x.path_prefix && wanted("path_prefix"))
    f.push_back({{"prefix", {{c.path_field, *x.path_prefix}}}});
  if (x.is_signed && required) f.push_back({{"term", {{c.signed_field, *x.is_signed}}}});
  if (x.user && !c.owner_field.empty() && required)
    f.push_back({{"term", {{c.owner_field, *x.user}}}});
  return f;
}

std::string leg_name(const Leg& l) {
  return l.collection + ":" + l.modality + ":" + std::to_string(l.text) +
         (l.preferred ? ":preferred" : "");
}

Json leg_filters(const Shape& s, const Leg& l) {
  return dsl_filters(s, l.collection == "doc", l.preferred ? Clauses::kAll : Clauses::kRequired);
}

Json source_fields(const EnginesConfig& c, bool doc) {
  Json f = Json::array({c.id_field, c.parent_field, c.source_field});
  if (doc) f.push_back(c.table_field);
  for (const std::string& name : doc ? c.doc_return_fields : c.faq_return_fields)
    if (std::find(f.begin(), f.end(), name) == f.end()) f.push_back(name);
  return f;
}

Json highlight_fields(const EnginesConfig& c) { return {{"fields", {{c.text_field, Json::object()}}}}; }

void note_dense_highlight(Shape& s) {
  if (s.c.highlight && s.dense)
    s.out.notes.push_back("highlight: kNN legs have no query terms; only BM25 hits carry "
                          "highlighted fragments");
}

const std::string& index_of(const EnginesConfig& c, const std::string& col) {
  return col == "faq" ? c.faq_index : c.doc_index;
}

int candidates(const EnginesConfig& c, int parents) {
  return static_cast<int>(std::min<long long>(10000, 1LL * c.candidate_factor * parents));
}

int num_candidates(const EnginesConfig& c, int n) {
  return static_cast<int>(
      std::min<long long>(10000, std::max<long long>(n, 1LL * c.num_candidates_factor * n)));
}

std::string os_pipeline_id(const EnginesConfig& c) {
  return c.os_pipeline_id + "-k" + rank_constant(c.rrf_k).dump();
}

Json dsl_bm25_query(const Shape& s, std::size_t text, const Json& filters) {
  Json b = {
      {"must", Json::array({{{"match", {{s.c.text_field, {{"query", s.out.texts[text]}}}}}}})}};
  if (!filters.empty()) b["filter"] = filters;
  return {{"bool", b}};
}

}  // namespace qaplan::engines::detail
