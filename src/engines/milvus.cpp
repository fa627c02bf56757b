// Milvus requests: dense and BM25 (sparse) legs as hybrid_search sub-requests or single searches,
// scope as a boolean expression.
#include <map>
#include <string>
#include <vector>

#include "engines/request_shape.hpp"

namespace qaplan::engines::detail {
namespace {

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

Json leg_data(const Shape& s, const Leg& l) {
  return l.modality == "dense" ? Json::array({vector_json(s.in.vectors[l.text])})
                               : Json::array({s.out.texts[l.text]});
}

const std::string& leg_field(const Shape& s, const Leg& l) {
  return l.modality == "dense" ? s.c.vector_field : s.c.sparse_field;
}

// A leg's boolean expression: the required filters, and the preferences on a preferred leg.
std::string milvus_expr(const Shape& s, const Leg& l) {
  const EnginesConfig& c = s.c;
  const bool doc = l.collection == "doc";
  const Filters& x = s.a.filters;
  auto wanted = [&](const char* name) { return l.preferred || !x.prefers(name); };
  std::vector<std::string> parts;
  if (!s.prep.effective_sources.empty()) {
    std::string in = c.source_field + " in [";
    for (std::size_t i = 0; i < s.prep.effective_sources.size(); ++i)
      in += (i ? ", " : "") + quote(s.prep.effective_sources[i]);
    parts.push_back(in + "]");
  }
  if (doc) {
    if (const auto t = request_range(x)) parts.push_back(milvus_range(s, *t));
    if (x.department && wanted("department"))
      parts.push_back(c.department_field + " == " + quote(*x.department));
    if (wanted("tags"))
      for (const std::string& tag : x.tags)
        parts.push_back("ARRAY_CONTAINS(" + c.tags_field + ", " + quote(tag) + ")");
    if (x.path_prefix && wanted("path_prefix"))
      parts.push_back(c.path_field + " like " + quote(*x.path_prefix + "%"));
    if (x.is_signed)
      parts.push_back(c.signed_field + " == " + std::string(*x.is_signed ? "true" : "false"));
    if (x.user && !c.owner_field.empty()) parts.push_back(c.owner_field + " == " + quote(*x.user));
  }
  std::string e;
  for (std::size_t i = 0; i < parts.size(); ++i) e += (i ? " and " : "") + parts[i];
  return e;
}

// Why a request set cannot be fused by hybrid_search, if it cannot.
std::vector<std::string> why_client_fusion(const Shape& s) {
  std::vector<std::string> why;
  if (s.c.dedupe == Dedupe::kBeforeFusion)
    why.push_back(
        "dedupe before_fusion: hybrid_search cannot group each sub-request before fusion");
  if (s.c.dedupe == Dedupe::kAfterFusion)
    why.push_back(
        "dedupe after_fusion: Milvus fuses sub-requests by primary key and applies a "
        "hybrid group_by_field to each sub-request (the Node SDK copies it), so the "
        "fused list could hold a parent twice");
  for (const Searched& c : searched(s.out)) {
    std::map<std::string, int> per_field;
    for (std::size_t li : c.legs) ++per_field[leg_field(s, s.out.legs[li])];
    for (const auto& [field, n] : per_field)
      if (n > 1) {
        why.push_back(std::to_string(n) + " " + c.col + " legs on " + field +
                      " (query variants or a preferred leg): hybrid_search takes one "
                      "sub-request per vector field (the Node SDK keeps the first and would drop "
                      "the others)");
        return why;
      }
  }
  return why;
}

// A hybrid_search body (Node SDK HybridSearchReq): one sub-request per leg, RRF.
Json hybrid_body(const Shape& s, const Searched& c, const Json& params) {
  Json subs = Json::array();
  for (std::size_t li : c.legs) {
    const Leg& l = s.out.legs[li];
    const std::string expr = milvus_expr(s, l);
    Json sub = {{"data", leg_data(s, l)}, {"anns_field", leg_field(s, l)}};
    sub["params"] = l.modality == "dense" ? params : Json::object();
    if (!expr.empty()) sub["expr"] = expr;  // repeated: Milvus filters per sub-request
    subs.push_back(sub);
  }
  return {{"collection_name", index_of(s.c, c.col)},
          {"data", subs},
          {"rerank", {{"strategy", "rrf"}, {"params", {{"k", rank_constant(s.c.rrf_k)}}}}},
          {"limit", c.k},
          {"output_fields", source_fields(s.c, c.doc)}};
}

// One leg as a grouping search (Node SDK SearchSimpleReq): its best hit per parent.
Json search_body(const Shape& s, const Searched& c, const Leg& l, const Json& params) {
  const std::string expr = milvus_expr(s, l);
  Json body = {{"collection_name", index_of(s.c, c.col)},
               {"anns_field", leg_field(s, l)},
               {"data", leg_data(s, l)},
               {"limit", c.k}};
  if (!expr.empty()) body["filter"] = expr;
  body["output_fields"] = source_fields(s.c, c.doc);
  body["metric_type"] = l.modality == "dense" ? s.c.milvus_metric_type : "BM25";
  if (l.modality == "dense" && !params.empty()) body["params"] = params;
  body["group_by_field"] = s.c.parent_field;
  // 2.4 groups one hit per value and has no group_size (its SDK types refuse the field).
  if (s.version.at_least(2, 5)) body["group_size"] = 1;
  return body;
}

void add_request(Shape& s, std::string name, const Searched& c, const char* api, const Json& body,
                 std::vector<std::size_t> legs) {
  EngineRequest q =
      make_request(std::move(name), c.col, api, index_of(s.c, c.col), body, "", std::move(legs));
  q.pymilvus = milvus_pymilvus(s.c, api, body).dump();
  q.rest = milvus_rest(s.c, api, body).dump();
  s.out.requests.push_back(std::move(q));
}

std::string date_note(const Shape& s, const TimeRange& t) {
  const EnginesConfig& c = s.c;
  const std::string fields =
      own_date_field(t)
          ? t.field
          : c.date_field + (c.date_end_field.empty() ? "" : " and " + c.date_end_field);
  return "Milvus has no date type: " + fields + " are INT64 epoch " +
         (c.date_unit == "epoch_millis" ? "milliseconds" : "seconds") +
         (s.version.at_least(2, 5) ? " (nullable = open)"
                                   : " (2.4 has no null: store 0 / INT64 max for open)");
}

}  // namespace

Result<EngineRequests> build_milvus(Shape& s) {
  constexpr int kMaxTopK = 16384;
  for (const Leg& l : s.out.legs)
    if (l.top_k > kMaxTopK)
      return make_error(ErrorCode::kInvalidInput,
                        "top k " + std::to_string(l.top_k) + " exceeds Milvus' limit 16384",
                        l.collection + "_top_k");
  const bool server = choose_mode(s.out, why_client_fusion(s),
                                  "hybrid_search with RRFRanker on " + s.version.str());
  if (!s.lexical && s.dense)
    s.out.mode_reasons.push_back("Milvus " + s.version.str() +
                                 " has no BM25 function: dense legs only");
  Json params = Json::object();
  for (const auto& [key, val] : s.c.milvus_search_params) params[key] = val;
  for (const Searched& c : searched(s.out)) {
    if (server) {
      add_request(s, c.col + ":hybrid", c, "hybrid_search", hybrid_body(s, c, params), c.legs);
      continue;
    }
    for (std::size_t li : c.legs) {
      const Leg& l = s.out.legs[li];
      add_request(s, leg_name(l), c, "search", search_body(s, c, l, params), {li});
    }
  }
  report_knobs(s, server);
  if (const auto t = request_range(s.a.filters)) s.out.notes.push_back(date_note(s, *t));
  if (s.a.filters.path_prefix)
    s.out.notes.push_back(
        "path prefix uses `like \"…%\"`: a % or _ inside the prefix is a wildcard");
  s.out.notes.push_back(
      "output_fields: every name must be a field of the collection (or "
      "enable_dynamic_field); [engines] faq_return_fields / doc_return_fields");
  if (s.c.highlight)
    s.out.notes.push_back("highlight: Milvus returns no highlighted fragments; the text comes in "
                          "output_fields");
  return std::move(s.out);
}

}  // namespace qaplan::engines::detail
