// [engines] of the rules file: field mapping, dedupe, RRF k and per-engine settings. Read
// strictly, like [ranking]: the planning room skips the table, this room owns it.
#include <algorithm>
#include <cmath>

#include "common/toml_reader.hpp"
#include "engines/versions.hpp"
#include "qaplan/engines/engines.hpp"
#include "qaplan/io.hpp"

namespace qaplan::engines {
namespace {

using internal::toml_reader::Reader;
using internal::toml_reader::Value;

Status read_engines(Reader& r, EnginesConfig& c) {
  for (auto [key, dst] : {std::pair{"faq_index", &c.faq_index}, std::pair{"doc_index", &c.doc_index},
                          std::pair{"text_field", &c.text_field},
                          std::pair{"vector_field", &c.vector_field},
                          std::pair{"sparse_field", &c.sparse_field},
                          std::pair{"id_field", &c.id_field},
                          std::pair{"parent_field", &c.parent_field},
                          std::pair{"source_field", &c.source_field},
                          std::pair{"date_field", &c.date_field},
                          std::pair{"date_end_field", &c.date_end_field},
                          std::pair{"date_unit", &c.date_unit},
                          std::pair{"date_field_type", &c.date_field_type},
                          std::pair{"table_field", &c.table_field},
                          std::pair{"department_field", &c.department_field},
                          std::pair{"tags_field", &c.tags_field},
                          std::pair{"path_field", &c.path_field},
                          std::pair{"signed_field", &c.signed_field},
                          std::pair{"owner_field", &c.owner_field}})
    QAPLAN_TRY(r.get(key, *dst));
  if (const Value* d = r.find("dedupe")) {
    std::string s;
    QAPLAN_TRY(r.get("dedupe", s));
    if (s == "before_fusion") c.dedupe = Dedupe::kBeforeFusion;
    else if (s == "after_fusion") c.dedupe = Dedupe::kAfterFusion;
    else if (s == "none") c.dedupe = Dedupe::kNone;
    else return r.err(*d, "dedupe", "must be \"before_fusion\", \"after_fusion\" or \"none\"");
  }
  QAPLAN_TRY(r.get("rrf_k", c.rrf_k));
  QAPLAN_TRY(r.count("candidate_factor", c.candidate_factor));
  QAPLAN_TRY(r.count("num_candidates_factor", c.num_candidates_factor));
  QAPLAN_TRY(r.get("faq_return_fields", c.faq_return_fields));
  QAPLAN_TRY(r.get("doc_return_fields", c.doc_return_fields));
  QAPLAN_TRY(r.get("highlight", c.highlight));
  QAPLAN_TRY(r.section("elasticsearch", false, [&](Reader& s) -> Status {
    QAPLAN_TRY(s.get("version", c.es_version));
    QAPLAN_TRY(s.get("license", c.es_license));
    return s.get("embedding_model_id", c.es_embedding_model_id);
  }));
  QAPLAN_TRY(r.section("opensearch", false, [&](Reader& s) -> Status {
    QAPLAN_TRY(s.get("version", c.os_version));
    return s.get("pipeline_id", c.os_pipeline_id);
  }));
  QAPLAN_TRY(r.section("milvus", false, [&](Reader& s) -> Status {
    QAPLAN_TRY(s.get("version", c.milvus_version));
    QAPLAN_TRY(s.get("metric_type", c.milvus_metric_type));
    return s.section("search_params", false, [&](Reader& p) -> Status {
      // The table iterates in key order, so the request bytes follow the keys' order.
      for (const auto& [k, v] : internal::toml_reader::table_of(p.v)) {
        double x = 0;
        QAPLAN_TRY(p.get(k.str(), x));
        c.milvus_search_params.emplace_back(std::string(k.str()), x);
      }
      return {};
    });
  }));
  // Values are checked where their keys are known, with the line.
  Status st = c.validate();
  if (!st.ok()) {
    Error e = std::move(st).error();
    const std::string field = e.field;  // "[engines] key" or "[engines.x] key"
    const std::string key = field.substr(field.rfind(' ') + 1);
    if (const Value* at = r.find(key)) return r.err(*at, key, e.message);
    return e;
  }
  return {};
}

Result<EnginesConfig> read_root(const Value& root, const std::string& origin) {
  EnginesConfig c;
  c.origin = origin;
  Reader top{root, "", origin, {}};
  QAPLAN_TRY(top.section("engines", false, [&](Reader& r) { return read_engines(r, c); }));
  return c;
}

Status bad(const EnginesConfig& c, std::string table, std::string key, std::string msg) {
  return make_file_error(ErrorCode::kInvalidConfig, std::move(msg), c.origin, 0,
                         "[" + table + "] " + key);
}

}  // namespace

Status EnginesConfig::validate() const {
  for (auto [key, v] : {std::pair{"faq_index", &faq_index}, std::pair{"doc_index", &doc_index},
                        std::pair{"text_field", &text_field},
                        std::pair{"vector_field", &vector_field},
                        std::pair{"sparse_field", &sparse_field}, std::pair{"id_field", &id_field},
                        std::pair{"parent_field", &parent_field},
                        std::pair{"source_field", &source_field},
                        std::pair{"date_field", &date_field},
                        std::pair{"table_field", &table_field},
                        std::pair{"department_field", &department_field},
                        std::pair{"tags_field", &tags_field}, std::pair{"path_field", &path_field},
                        std::pair{"signed_field", &signed_field}})
    if (v->empty()) return bad(*this, "engines", key, "must not be empty");
  if (date_unit != "date" && date_unit != "epoch_seconds" && date_unit != "epoch_millis")
    return bad(*this, "engines", "date_unit",
               "must be \"date\", \"epoch_seconds\" or \"epoch_millis\"");
  if (date_field_type != "date" && date_field_type != "long")
    return bad(*this, "engines", "date_field_type", "must be \"date\" or \"long\"");
  // An integer every engine takes: Elasticsearch's and OpenSearch's rank_constant are integers
  // (OpenSearch ≤ 10 000), Milvus' k in (0, 16384).
  if (!(std::isfinite(rrf_k) && rrf_k >= 1 && rrf_k <= 10000 && rrf_k == std::floor(rrf_k)))
    return bad(*this, "engines", "rrf_k",
               "must be an integer in [1, 10000] (OpenSearch's RRF rank_constant limit)");
  if (candidate_factor < 1 || candidate_factor > 100)
    return bad(*this, "engines", "candidate_factor", "must be in [1, 100]");
  if (num_candidates_factor < 1) return bad(*this, "engines", "num_candidates_factor", "must be ≥ 1");
  for (auto [key, list] : {std::pair{"faq_return_fields", &faq_return_fields},
                           std::pair{"doc_return_fields", &doc_return_fields}})
    for (const std::string& f : *list)
      if (f.empty()) return bad(*this, "engines", key, "holds an empty field name");
  if (!parse_version(Engine::kElasticsearch, es_version).ok())
    return bad(*this, "engines.elasticsearch", "version", parse_version(Engine::kElasticsearch, es_version).error().message);
  if (es_license != "basic" && es_license != "enterprise" && es_license != "trial" &&
      es_license != "platinum" && es_license != "gold")
    return bad(*this, "engines.elasticsearch", "license",
               "must be basic, gold, platinum, enterprise or trial");
  if (!parse_version(Engine::kOpenSearch, os_version).ok())
    return bad(*this, "engines.opensearch", "version", parse_version(Engine::kOpenSearch, os_version).error().message);
  if (os_pipeline_id.empty()) return bad(*this, "engines.opensearch", "pipeline_id", "must not be empty");
  if (!parse_version(Engine::kMilvus, milvus_version).ok())
    return bad(*this, "engines.milvus", "version", parse_version(Engine::kMilvus, milvus_version).error().message);
  if (milvus_metric_type != "COSINE" && milvus_metric_type != "IP" && milvus_metric_type != "L2")
    return bad(*this, "engines.milvus", "metric_type", "must be COSINE, IP or L2");
  for (const auto& [k, v] : milvus_search_params)
    if (!std::isfinite(v)) return bad(*this, "engines.milvus.search_params", k, "must be finite");
  return {};
}

Result<EnginesConfig> parse_engines_config(std::string_view toml_text, std::string_view origin) {
  return internal::toml_reader::read_document(toml_text, origin, read_root);
}

Result<EnginesConfig> load_engines_config(const std::filesystem::path& path) {
  QAPLAN_ASSIGN_OR_RETURN(std::string text, read_file(path, "config file"));
  return parse_engines_config(text, path.string());
}

}  // namespace qaplan::engines
