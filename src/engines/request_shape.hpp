// The request shape the three engine adapters share (elasticsearch.cpp, opensearch.cpp,
// milvus.cpp): what one plan searches — texts, legs, scope, the in-process executor's semantics —
// and the helpers each adapter renders it with. Gates live in versions.hpp's Version.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

// The nlohmann adapter, from a header: every declaration below builds or takes a request body,
// and only the engines' .cpp files, which all build JSON, include this one (the one exception
// allow-listed in scripts/third_party_headers.py).
#include "common/json_reader.hpp"
#include "engines/versions.hpp"
#include "qaplan/engines/engines.hpp"
#include "qaplan/planning/analysis.hpp"
#include "qaplan/planning/planner.hpp"

namespace qaplan::engines::detail {

using Json = nlohmann::ordered_json;

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

// A collection the plan searches: its name, whether it holds documents, its legs (fusion order)
// and their top k. Every builder loops over these.
struct Searched {
  std::string col;
  bool doc = false;
  std::vector<std::size_t> legs;
  int k = 0;
};

// rrf_k is an integer (validated): written as one, as the engines' integer fields expect.
inline Json rank_constant(double k) { return Json(static_cast<std::int64_t>(k)); }

// A "published" / "signed" range filters its own date field; "effective" the validity range.
inline bool own_date_field(const TimeRange& t) { return t.date != "effective" && !t.field.empty(); }

Json vector_json(const std::vector<float>& v);
// One request (no Milvus shapes; milvus.cpp adds them).
EngineRequest make_request(std::string name, std::string collection, std::string api,
                           std::string index, const Json& body, std::string params,
                           std::vector<std::size_t> legs);
Result<EngineRequests> direct_answer(Engine e, const Version& v);
Result<Shape> shape(Engine e, const Preparation& prep, const QueryAnalysis& a,
                    const EngineInputs& in, const EnginesConfig& c, const std::string& cfg_version);
std::size_t max_legs_per_collection(const EngineRequests& r);
std::vector<Searched> searched(const EngineRequests& r);
bool choose_mode(EngineRequests& r, std::vector<std::string> why_client, std::string server_reason);
// The periods of the question: every range of a comparison, else the one range (a host may
// have set `time` alone).
std::vector<TimeRange> time_ranges(const Filters& x);
std::optional<TimeRange> request_range(const Filters& x);
// A time bound as the configured unit (a day, or epoch seconds / milliseconds of its midnight).
Json bound(const std::string& day, const TimeRange& t, const std::string& unit);
// Which filter clauses: those every leg requires, the preferences (Filters::preferred) alone,
// or both (a preferred leg).
enum class Clauses { kRequired, kPreferences, kAll };
bool has_preferences(const Filters& f);
Json dsl_filters(const Shape& s, bool doc, Clauses which);
// "doc:dense:0", "doc:bm25:0:preferred": a single-leg request's name.
std::string leg_name(const Leg& l);
// A leg's filters: the required ones, and the preferences on a preferred leg.
Json leg_filters(const Shape& s, const Leg& l);
// The BM25 leg in the query DSL (Elasticsearch and OpenSearch): a match on the text field.
Json dsl_bm25_query(const Shape& s, std::size_t text, const Json& filters);
// What every hit returns: id, parent, source (and table for documents), then the return fields.
Json source_fields(const EnginesConfig& c, bool doc);
/// `highlight` of a search body: fragments of text_field, the engine's default tags.
Json highlight_fields(const EnginesConfig& c);
/// With highlight on and dense legs: the note that kNN hits carry no fragments.
void note_dense_highlight(Shape& s);
const std::string& index_of(const EnginesConfig& c, const std::string& col);
// Records a leg asks for to yield `parents` parents once chunks are deduped by parent.
int candidates(const EnginesConfig& c, int parents);
// ANN candidates examined to return `n` records (ES num_candidates, OpenSearch ef_search).
int num_candidates(const EnginesConfig& c, int n);
// Whether an Elasticsearch knn query takes `k` (from 8.15; the 8.14 client types refuse it).
bool es_knn_k(const Version& v);
// The OpenSearch search pipeline: its id carries k, so two configs never share one.
std::string os_pipeline_id(const EnginesConfig& c);
// Every plan knob and filter with its fate (knobs.cpp).
void report_knobs(Shape& s, bool server);

// A Milvus request (its Node SDK body) as pymilvus keyword arguments and as a REST v2 call
// (milvus_shapes.cpp).
Json milvus_pymilvus(const EnginesConfig& c, std::string_view api, const Json& node);
Json milvus_rest(const EnginesConfig& c, std::string_view api, const Json& node);

// One builder per engine: the shape rendered for its server version, server or client fusion.
Result<EngineRequests> build_es(Shape& s);
Result<EngineRequests> build_os(Shape& s);
Result<EngineRequests> build_milvus(Shape& s);

}  // namespace qaplan::engines::detail
