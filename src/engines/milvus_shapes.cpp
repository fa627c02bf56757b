// The Milvus request in its users' other two shapes, derived from the Node SDK body the adapter
// builds (milvus.cpp), so the three never disagree:
//  - pymilvus: the keyword arguments of MilvusClient.search / MilvusClient.hybrid_search, with
//    each AnnSearchRequest and the RRFRanker as {"<class>": {constructor keyword arguments}};
//  - REST v2: the path and camelCase body of /v2/vectordb/entities/search | hybrid_search.
#include "engines/request_shape.hpp"

namespace qaplan::engines::detail {
namespace {

// The metric a sub-request searches with: BM25 on the sparse field, else the dense metric.
std::string metric_of(const EnginesConfig& c, const Json& anns_field) {
  return anns_field == c.sparse_field ? "BM25" : c.milvus_metric_type;
}

Json params_of(const Json& node) {
  return node.contains("params") ? node["params"] : Json::object();
}

Json pymilvus_search(const EnginesConfig& c, const Json& n) {
  Json kw = {{"collection_name", n["collection_name"]},
             {"data", n["data"]},
             {"anns_field", n["anns_field"]},
             {"limit", n["limit"]}};
  if (n.contains("filter")) kw["filter"] = n["filter"];
  kw["output_fields"] = n["output_fields"];
  kw["search_params"] = {{"metric_type", metric_of(c, n["anns_field"])}, {"params", params_of(n)}};
  for (const char* key : {"group_by_field", "group_size"})
    if (n.contains(key)) kw[key] = n[key];
  return {{"method", "MilvusClient.search"}, {"kwargs", kw}};
}

Json pymilvus_hybrid(const EnginesConfig& c, const Json& n) {
  Json reqs = Json::array();
  for (const Json& sub : n["data"]) {
    // pymilvus gives every sub-request its own limit; the Node SDK uses the request's.
    Json a = {
        {"data", sub["data"]},
        {"anns_field", sub["anns_field"]},
        {"param", {{"metric_type", metric_of(c, sub["anns_field"])}, {"params", params_of(sub)}}},
        {"limit", n["limit"]}};
    if (sub.contains("expr")) a["expr"] = sub["expr"];
    reqs.push_back({{"AnnSearchRequest", a}});
  }
  Json kw = {{"collection_name", n["collection_name"]},
             {"reqs", reqs},
             {"ranker", {{"RRFRanker", {{"k", n["rerank"]["params"]["k"]}}}}},
             {"limit", n["limit"]},
             {"output_fields", n["output_fields"]}};
  return {{"method", "MilvusClient.hybrid_search"}, {"kwargs", kw}};
}

Json rest_search(const EnginesConfig& c, const Json& n) {
  Json b = {{"collectionName", n["collection_name"]},
            {"data", n["data"]},
            {"annsField", n["anns_field"]},
            {"limit", n["limit"]}};
  if (n.contains("filter")) b["filter"] = n["filter"];
  b["outputFields"] = n["output_fields"];
  b["searchParams"] = {{"metricType", metric_of(c, n["anns_field"])}, {"params", params_of(n)}};
  if (n.contains("group_by_field")) b["groupingField"] = n["group_by_field"];
  if (n.contains("group_size")) b["groupSize"] = n["group_size"];
  return {{"path", "/v2/vectordb/entities/search"}, {"body", b}};
}

Json rest_hybrid(const EnginesConfig& c, const Json& n) {
  Json search = Json::array();
  for (const Json& sub : n["data"]) {
    Json one = {{"data", sub["data"]}, {"annsField", sub["anns_field"]}};
    if (sub.contains("expr")) one["filter"] = sub["expr"];
    one["limit"] = n["limit"];
    one["metricType"] = metric_of(c, sub["anns_field"]);
    one["params"] = params_of(sub);
    search.push_back(one);
  }
  Json b = {{"collectionName", n["collection_name"]},
            {"search", search},
            {"rerank", n["rerank"]},
            {"limit", n["limit"]},
            {"outputFields", n["output_fields"]}};
  return {{"path", "/v2/vectordb/entities/hybrid_search"}, {"body", b}};
}

}  // namespace

Json milvus_pymilvus(const EnginesConfig& c, std::string_view api, const Json& node) {
  return api == "hybrid_search" ? pymilvus_hybrid(c, node) : pymilvus_search(c, node);
}

Json milvus_rest(const EnginesConfig& c, std::string_view api, const Json& node) {
  return api == "hybrid_search" ? rest_hybrid(c, node) : rest_search(c, node);
}

}  // namespace qaplan::engines::detail
