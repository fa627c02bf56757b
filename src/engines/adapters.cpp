// The engine adapters' entry points: names, and the one path every adapter takes — a direct answer
// needs no request; else the request shape, then the engine's builder (elasticsearch.cpp,
// opensearch.cpp, milvus.cpp).
#include <string>

#include "engines/request_shape.hpp"
#include "qaplan/engines/engines.hpp"

namespace qaplan::engines {
namespace {
using detail::Json;
using detail::Shape;
using detail::build_es;
using detail::build_os;
using detail::build_milvus;
using detail::direct_answer;
using detail::rank_constant;
using detail::shape;
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
  for (const Leg& l : r.legs) {
    Json x = {{"collection", l.collection}, {"modality", l.modality}, {"text", l.text},
              {"top_k", l.top_k}};
    if (l.preferred) x["preferred"] = true;
    legs.push_back(std::move(x));
  }
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
    if (!q.pymilvus.empty()) x["pymilvus"] = Json::parse(q.pymilvus);
    if (!q.rest.empty()) x["rest"] = Json::parse(q.rest);
    reqs.push_back(x);
  }
  j["requests"] = reqs;
  if (r.mode == "client_fusion" || r.mode == "single_leg")
    j["client_fusion"] = {{"rrf_k", rank_constant(r.rrf_k)},
                          {"dedupe", to_string(r.dedupe)},
                          {"prefer_table", r.prefer_table},
                          {"how", "per collection: each leg deduped by parent and cut to its top_k, "
                                  "RRF in leg order, cut to top_k (qaplan::engines::fuse_client)"}};
  if (r.mode == "server_fusion")  // the engine fuses; what the host still does with its hits
    j["after_fusion"] = {{"dedupe", to_string(r.dedupe)},
                         {"prefer_table", r.prefer_table},
                         {"how", r.prefer_table ? "put table rows first, each group in the "
                                                  "engine's fused order"
                                                : "keep the engine's fused order"}};
  Json knobs = Json::array();
  for (const KnobMapping& m : r.knobs)
    knobs.push_back({{"name", m.name}, {"status", m.status}, {"detail", m.detail}});
  j["knobs"] = knobs;
  j["notes"] = r.notes;
  return pretty ? j.dump(2) : j.dump();
}

}  // namespace qaplan::engines
