// Milvus requests: dense and BM25 (sparse) legs as hybrid_search sub-requests or single searches,
// scope as a boolean expression.
#include "engines/request_shape.hpp"

#include <string>
#include <vector>

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

// ---- Milvus -----------------------------------------------------------------------------------

}  // namespace

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

}  // namespace qaplan::engines::detail
