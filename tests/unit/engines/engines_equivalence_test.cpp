// The adapters' requests rank like the in-process executor (docs/engines.md, "Parents, not
// chunks" and "Client fusion"). For every question of the chain set, the follow-up set and the
// engine golden cases, each Elasticsearch, OpenSearch and Milvus request is read back as the
// engine would read it — the text of each match, the vector of each kNN, size / k / limit,
// collapse / group-by and every filter clause (an unknown clause fails the test) — and run over
// the shipped knowledge base (KbIndex::search_leg: BM25, or local-tfidf cosine for the
// "embedding").
//  - Client fusion: fuse_client() of the legs' hits equals execute_plan's FAQ and document hit
//    lists exactly: same ids, same order, same RRF scores (bit for bit). Milvus' pymilvus and REST
//    forms read back to the same legs as its Node SDK body.
//  - Server fusion (ES retriever.rrf, OpenSearch hybrid query + RRF pipeline, Milvus
//    hybrid_search): every sub-search is read back strictly (an unknown key fails) and run over
//    the KB's records (chunks; an FAQ's question and paraphrases) by a simulated engine that fuses
//    as that engine does (rank constant, window, float scores, tie order) and collapses where the
//    request says. Exact: the sub-searches are the executor's legs (fuse_client over them equals
//    execute_plan bit for bit), and the engine's RRF over the executor's own lists gives the
//    executor's list (up to the order of exact ties). By design the engine fuses chunks over a
//    wider window (ES also thresholds its knn children): those differences are counted by cause
//    and printed; what still holds is asserted (the executor's first hit is in the engine's top
//    k; collapsed: one hit per parent, ≥ 95 % of the executor's parents kept, never short but by
//    OpenSearch's cut to its longest sub-query list).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <numeric>
#include <optional>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

#include "qaplan/engines/engines.hpp"
#include "qaplan/retrieval/executor.hpp"
#include "qaplan/retrieval/kb.hpp"
#include "qaplan/planning/planner.hpp"
#include "qaplan/ranking/embedder.hpp"
#include "test_support.hpp"

namespace {

using namespace qaplan;
using Json = nlohmann::json;

struct World {
  Planner planner;
  KbIndex kb;
  engines::EnginesConfig engines;
};

const World& world() {
  static const World w = [] {
    auto cfg = load_config(test::shipped_config());
    if (!cfg.ok()) throw std::runtime_error(cfg.error().to_string());
    auto planner = Planner::create(std::move(cfg).value());
    if (!planner.ok()) throw std::runtime_error(planner.error().to_string());
    auto kb = read_knowledge_base(test::source_dir() / "eval_sets" / "kb");
    if (!kb.ok()) throw std::runtime_error(kb.error().to_string());
    auto index = KbIndex::create(std::move(kb).value());
    if (!index.ok()) throw std::runtime_error(index.error().to_string());
    auto ec = engines::load_engines_config(test::shipped_config());
    if (!ec.ok()) throw std::runtime_error(ec.error().to_string());
    return World{std::move(planner).value(), std::move(index).value(), std::move(ec).value()};
  }();
  return w;
}

// The "embedding" of a text in this test: a one-element vector naming the text's position, so
// the simulated engine can tell which text a kNN asks for (and a swapped vector is caught).
std::vector<std::vector<float>> random_vectors(std::size_t n) {
  std::vector<std::vector<float>> v;
  for (std::size_t i = 0; i < n; ++i) v.push_back({static_cast<float>(i + 1)});
  return v;
}

// Reads a filter array back into the executor's filters; false on a clause it does not know.
bool read_filters(const Json& clauses, const engines::EnginesConfig& c, ExecutionFilters& f,
                  std::string& unknown) {
  for (const Json& cl : clauses) {
    if (cl.contains("terms") && cl["terms"].contains(c.source_field)) {
      f.sources = cl["terms"][c.source_field].get<std::vector<std::string>>();
    } else if (cl.contains("term") && cl["term"].contains(c.department_field)) {
      f.department = cl["term"][c.department_field].get<std::string>();
    } else if (cl.contains("term") && cl["term"].contains(c.tags_field)) {
      f.tags.push_back(cl["term"][c.tags_field].get<std::string>());
    } else if (cl.contains("term") && cl["term"].contains(c.signed_field)) {
      f.is_signed = cl["term"][c.signed_field].get<bool>();
    } else if (cl.contains("prefix") && cl["prefix"].contains(c.path_field)) {
      f.path_prefix = cl["prefix"][c.path_field].get<std::string>();
    } else if (cl.contains("bool") && cl["bool"].contains("should") &&
               cl["bool"]["should"].size() == 2 && cl["bool"]["should"][0].contains("range")) {
      // (start < to or no start) / (end >= from or no end): the executor's effective_in.
      const Json& range = cl["bool"]["should"][0]["range"];
      const Json& missing = cl["bool"]["should"][1]["bool"]["must_not"]["exists"]["field"];
      if (range.contains(c.date_field) && missing == c.date_field &&
          range[c.date_field].contains("lt"))
        f.date_to = range[c.date_field]["lt"].get<std::string>();
      else if (range.contains(c.date_end_field) && missing == c.date_end_field &&
               range[c.date_end_field].contains("gte"))
        f.date_from = range[c.date_end_field]["gte"].get<std::string>();
      else {
        unknown = cl.dump();
        return false;
      }
    } else {
      unknown = cl.dump();
      return false;
    }
  }
  return true;
}

// Epoch seconds of a local midnight at +08:00 (the test's `now`) back to its YYYY-MM-DD.
std::string day_of(long long epoch_seconds) {
  using namespace std::chrono;
  const year_month_day d{sys_days{days{(epoch_seconds + 8 * 3600) / 86400}}};
  char buf[16];
  std::snprintf(buf, sizeof buf, "%04d-%02u-%02u", static_cast<int>(d.year()),
                static_cast<unsigned>(d.month()), static_cast<unsigned>(d.day()));
  return buf;
}

// The quoted strings of a Milvus expression part, unescaped (\" and \\).
std::vector<std::string> quoted_strings(std::string_view part) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < part.size(); ++i) {
    if (part[i] != '"') continue;
    std::string s;
    for (++i; i < part.size() && part[i] != '"'; ++i) s += part[i] == '\\' ? part[++i] : part[i];
    out.push_back(s);
  }
  return out;
}

// Reads a Milvus boolean expression (parts joined by " and ") back into the executor's filters;
// false on a part it does not know.
bool read_milvus_expr(std::string_view expr, const engines::EnginesConfig& c, ExecutionFilters& f,
                      std::string& unknown) {
  while (!expr.empty()) {
    const std::size_t cut = expr.find(" and ");
    const std::string part(expr.substr(0, cut));
    expr = cut == std::string_view::npos ? std::string_view() : expr.substr(cut + 5);
    auto starts = [&](const std::string& p) { return part.rfind(p, 0) == 0; };
    auto number_after = [&](const std::string& op) {
      return std::stoll(part.substr(part.find(op) + op.size()));
    };
    if (starts(c.source_field + " in [")) {
      f.sources = quoted_strings(part);
    } else if (starts(c.department_field + " == ")) {
      f.department = quoted_strings(part).at(0);
    } else if (starts("ARRAY_CONTAINS(" + c.tags_field + ", ")) {
      f.tags.push_back(quoted_strings(part).at(0));
    } else if (starts(c.path_field + " like ")) {
      std::string prefix = quoted_strings(part).at(0);
      if (prefix.empty() || prefix.back() != '%') return unknown = part, false;
      prefix.pop_back();
      f.path_prefix = prefix;
    } else if (starts(c.signed_field + " == ")) {
      f.is_signed = part.ends_with("true");
    } else if (starts("(" + c.date_field + " is null or " + c.date_field + " < ")) {
      f.date_to = day_of(number_after(" < "));
    } else if (starts("(" + c.date_end_field + " is null or " + c.date_end_field + " >= ")) {
      f.date_from = day_of(number_after(" >= "));
    } else {
      unknown = part;
      return false;
    }
  }
  return true;
}

// The first problem met while reading a request back ("" = none). Returns false, so a reader
// can `return why("…")`.
struct Why {
  std::string text;
  bool operator()(const std::string& s) {
    if (text.empty()) text = s;
    return false;
  }
};

// An object holding only keys the engine knows: anything else fails, as the engine would
// refuse it (or, worse, ignore it).
bool only_keys(const Json& o, const std::vector<std::string>& known, Why& why,
               const std::string& where) {
  if (!o.is_object()) return why(where + ": not an object: " + o.dump());
  for (auto it = o.begin(); it != o.end(); ++it)
    if (std::find(known.begin(), known.end(), it.key()) == known.end())
      return why(where + ": unknown key " + it.key());
  return true;
}

bool filters_into(const Json& clauses, const engines::EnginesConfig& c, ExecutionFilters& f,
                  Why& why) {
  std::string unknown;
  if (!clauses.is_array()) return why("filter is not an array: " + clauses.dump());
  return read_filters(clauses, c, f, unknown) || why("unknown clause " + unknown);
}

// What a reader needs besides the JSON: the config, the query texts, the collection's name.
struct ReadCtx {
  const engines::EnginesConfig& c;
  const std::vector<std::string>& texts;
  std::string index;
};

// The text a test vector names ({i + 1} is text i).
bool text_of(const Json& vec, const ReadCtx& x, std::string& text, Why& why) {
  if (!vec.is_array() || vec.size() != 1) return why("not a test vector: " + vec.dump());
  const double v = vec[0].get<double>();
  const auto i = static_cast<std::size_t>(v) - 1;
  if (v < 1 || i >= x.texts.size()) return why("the vector names no text: " + vec.dump());
  text = x.texts[i];
  return true;
}

// Returned fields must carry the parent: the host (and the collapse) read it from every hit.
bool returns_parent(const Json& fields, const ReadCtx& x, Why& why) {
  if (fields.is_array() &&
      std::find(fields.begin(), fields.end(), Json(x.c.parent_field)) != fields.end())
    return true;
  return why("returned fields lack " + x.c.parent_field + ": " + fields.dump());
}

// The BM25 leg in the query DSL: {"bool": {"must": [{"match": {text: {"query"}}}], "filter"}}.
bool read_dsl_bm25(const Json& q, const ReadCtx& x, KbIndex::LegQuery& lq, Why& why) {
  if (!only_keys(q, {"bool"}, why, "bm25 query")) return false;
  const Json& b = q.at("bool");
  if (!only_keys(b, {"must", "filter"}, why, "bool")) return false;
  if (b.at("must").size() != 1) return why("bool.must: one match expected");
  const Json& m = b.at("must")[0];
  if (!only_keys(m, {"match"}, why, "must[0]") ||
      !only_keys(m.at("match"), {x.c.text_field}, why, "match") ||
      !only_keys(m.at("match").at(x.c.text_field), {"query"}, why, "match field"))
    return false;
  lq.text = m.at("match").at(x.c.text_field).at("query").get<std::string>();
  return !b.contains("filter") || filters_into(b.at("filter"), x.c, lq.filters, why);
}

// One leg as a string, to compare the same search read from two forms.
std::string describe(const KbIndex::LegQuery& q) {
  std::ostringstream o;
  const ExecutionFilters& f = q.filters;
  o << (q.faq ? "faq" : "doc") << (q.dense ? " dense '" : " bm25 '") << q.text << "' top "
    << q.top_k << " sources";
  for (const std::string& s : f.sources) o << ' ' << s;
  o << " dates [" << f.date_from << ", " << f.date_to << ")";
  if (f.department) o << " department " << *f.department;
  for (const std::string& t : f.tags) o << " tag " << t;
  if (f.path_prefix) o << " path " << *f.path_prefix;
  if (f.is_signed) o << " signed " << *f.is_signed;
  return o.str();
}

bool has_metadata_filters(const ExecutionFilters& f) {
  return f.department.has_value() || !f.tags.empty() || !f.date_from.empty() ||
         !f.date_to.empty() || f.path_prefix || f.is_signed;
}

// ---- Milvus in its three shapes (Node SDK body, pymilvus keyword arguments, REST v2) ----

// The params a sub-search must carry: [engines.milvus] search_params on dense legs, none on BM25.
Json expected_params(const engines::EnginesConfig& c, bool dense) {
  Json p = Json::object();
  if (dense)
    for (const auto& [key, val] : c.milvus_search_params) p[key] = val;
  return p;
}

// One Milvus vector search as any form holds it; `metric` null when the form names none.
struct MilvusPart {
  const Json& anns;
  const Json& data;
  const Json* metric;
  const Json& params;
  const Json* expr;
};

// Reads one part into `lq`: its field and query (a vector naming a text, or the BM25
// function's text), metric, params and expression.
bool read_milvus_part(const MilvusPart& p, const ReadCtx& x, KbIndex::LegQuery& lq, Why& why) {
  if (!p.data.is_array() || p.data.size() != 1) return why("data: one query expected");
  if (p.anns == x.c.vector_field) {
    lq.dense = true;
    if (!text_of(p.data[0], x, lq.text, why)) return false;
  } else if (p.anns == x.c.sparse_field) {
    lq.text = p.data[0].get<std::string>();
  } else {
    return why("anns_field " + p.anns.dump());
  }
  const std::string metric = lq.dense ? x.c.milvus_metric_type : "BM25";
  if (p.metric && *p.metric != metric) return why("metric " + p.metric->dump());
  if (p.params != expected_params(x.c, lq.dense)) return why("params " + p.params.dump());
  std::string unknown;
  if (p.expr && !read_milvus_expr(p.expr->get<std::string>(), x.c, lq.filters, unknown))
    return why("unknown expression part " + unknown);
  return true;
}

// A grouping search's frame: the collection, one group per parent, returned fields.
bool read_milvus_frame(const Json& collection, const Json& group, const Json* group_size,
                       const Json& output, const ReadCtx& x, Why& why) {
  if (collection != x.index) return why("collection " + collection.dump());
  if (group != x.c.parent_field) return why("group_by_field " + group.dump());
  if (group_size && *group_size != 1) return why("group_size " + group_size->dump());
  return returns_parent(output, x, why);
}

const Json* opt(const Json& o, const char* key) { return o.contains(key) ? &o.at(key) : nullptr; }

// The Node SDK's SearchSimpleReq.
bool read_node_search(const Json& b, const ReadCtx& x, KbIndex::LegQuery& lq, Why& why) {
  if (!only_keys(b,
                 {"collection_name", "anns_field", "data", "limit", "filter", "output_fields",
                  "metric_type", "params", "group_by_field", "group_size"},
                 why, "search"))
    return false;
  if (!read_milvus_frame(b.at("collection_name"), b.at("group_by_field"), opt(b, "group_size"),
                         b.at("output_fields"), x, why))
    return false;
  lq.top_k = b.at("limit").get<int>();
  const Json params = b.value("params", Json::object());
  return read_milvus_part(
      {b.at("anns_field"), b.at("data"), &b.at("metric_type"), params, opt(b, "filter")}, x, lq,
      why);
}

// pymilvus: MilvusClient.search(**kwargs).
bool read_py_search(const Json& j, const ReadCtx& x, KbIndex::LegQuery& lq, Why& why) {
  if (!only_keys(j, {"method", "kwargs"}, why, "pymilvus")) return false;
  if (j.at("method") != "MilvusClient.search") return why("method " + j.at("method").dump());
  const Json& k = j.at("kwargs");
  if (!only_keys(k,
                 {"collection_name", "data", "anns_field", "limit", "filter", "output_fields",
                  "search_params", "group_by_field", "group_size"},
                 why, "kwargs"))
    return false;
  const Json& sp = k.at("search_params");
  if (!only_keys(sp, {"metric_type", "params"}, why, "search_params")) return false;
  if (!read_milvus_frame(k.at("collection_name"), k.at("group_by_field"), opt(k, "group_size"),
                         k.at("output_fields"), x, why))
    return false;
  lq.top_k = k.at("limit").get<int>();
  return read_milvus_part(
      {k.at("anns_field"), k.at("data"), &sp.at("metric_type"), sp.at("params"), opt(k, "filter")},
      x, lq, why);
}

// REST v2: POST /v2/vectordb/entities/search.
bool read_rest_search(const Json& j, const ReadCtx& x, KbIndex::LegQuery& lq, Why& why) {
  if (!only_keys(j, {"path", "body"}, why, "rest")) return false;
  if (j.at("path") != "/v2/vectordb/entities/search") return why("path " + j.at("path").dump());
  const Json& b = j.at("body");
  if (!only_keys(b,
                 {"collectionName", "data", "annsField", "limit", "filter", "outputFields",
                  "searchParams", "groupingField", "groupSize"},
                 why, "body"))
    return false;
  const Json& sp = b.at("searchParams");
  if (!only_keys(sp, {"metricType", "params"}, why, "searchParams")) return false;
  if (!read_milvus_frame(b.at("collectionName"), b.at("groupingField"), opt(b, "groupSize"),
                         b.at("outputFields"), x, why))
    return false;
  lq.top_k = b.at("limit").get<int>();
  return read_milvus_part(
      {b.at("annsField"), b.at("data"), &sp.at("metricType"), sp.at("params"), opt(b, "filter")}, x,
      lq, why);
}

// A reader that may throw on a missing key or a wrong type: that is a failed read too.
template <class F>
bool guarded(Why& why, F&& read) {
  try {
    return read();
  } catch (const Json::exception& e) {
    return why(std::string("malformed: ") + e.what());
  }
}

// A Milvus grouping search read back from its Node SDK body, and from its pymilvus and REST
// forms on their own: all three must give the same leg.
void read_milvus_leg(const engines::EngineRequest& req, const ReadCtx& x, KbIndex::LegQuery& lq) {
  Why why;
  ASSERT_TRUE(guarded(why, [&] { return read_node_search(Json::parse(req.body), x, lq, why); }))
      << req.name << " (Node SDK): " << why.text;
  for (const bool py : {true, false}) {
    KbIndex::LegQuery other;
    other.faq = lq.faq;
    const bool ok = guarded(why, [&] {
      return py ? read_py_search(Json::parse(req.pymilvus), x, other, why)
                : read_rest_search(Json::parse(req.rest), x, other, why);
    });
    ASSERT_TRUE(ok) << req.name << (py ? " (pymilvus): " : " (REST): ") << why.text;
    EXPECT_EQ(describe(other), describe(lq)) << req.name << (py ? " pymilvus" : " REST");
  }
}

struct Question {
  std::string id, question;
  std::vector<std::string> history;
};

std::vector<Question> questions() {
  std::vector<Question> out;
  for (const char* file : {"chain-v1.jsonl", "followups-v1.jsonl"}) {
    std::ifstream in(test::source_dir() / "eval_sets" / "chain" / file);
    for (std::string line; std::getline(in, line);) {
      if (line.empty()) continue;
      const Json j = Json::parse(line);
      Question q{j.value("id", ""), j.value("question", ""), {}};
      if (j.contains("history") && j["history"].is_array())
        for (const Json& h : j["history"])
          q.history.push_back(h.is_string() ? h.get<std::string>() : h.value("content", ""));
      out.push_back(q);
    }
  }
  // Filters of every kind (the chain set has few): the golden cases' questions.
  for (const char* q :
       {"法务部上周签署的合同清单", "财务部上个月的付款明细", "上个月的采购合同有哪些",
        "盖章版的保密协议在哪里看", "员工手册里年假规定汇总一下", "2024年3月发布的考勤制度",
        "最近7天更新的IT公告", "采购合同付款节点和金额明细"})
    out.push_back({q, q, {}});
  return out;
}

// One question prepared, analysed and executed once; every engine check shares it.
struct Planned {
  Question q;
  Preparation prep;
  QueryAnalysis a;
  Execution ex;
};

const std::vector<Planned>& planned() {
  static const std::vector<Planned> all = [] {
    const World& w = world();
    std::vector<Planned> out;
    for (const Question& q : questions()) {
      auto prep = w.planner.prepare({q.question, q.history, "", std::nullopt});
      if (!prep.ok()) throw std::runtime_error(q.id + ": " + prep.error().to_string());
      AnalysisContext ctx;
      ctx.now = "2026-11-30T10:00:00+08:00";
      auto a = w.planner.analyze(*prep, ctx);
      if (!a.ok()) throw std::runtime_error(q.id + ": " + a.error().to_string());
      // An engine request searches the plan's scope once; when the executor widened it (step 7),
      // the host's retry is a second request set over fallback_sources: both are compared.
      Preparation first = *prep;
      first.fallback_sources.reset();
      auto ex = execute_plan(first, *a, w.kb);
      if (!ex.ok()) throw std::runtime_error(q.id + ": " + ex.error().to_string());
      auto widened = execute_plan(*prep, *a, w.kb);
      if (!widened.ok()) throw std::runtime_error(q.id + ": " + widened.error().to_string());
      if (widened->hit_type != ex->hit_type) {
        Preparation retry = first;
        retry.effective_sources = *prep->fallback_sources;
        out.push_back({{q.id + "+fallback", q.question, q.history}, std::move(retry), *a,
                       std::move(widened).value()});
      }
      out.push_back({q, std::move(first), std::move(a).value(), std::move(ex).value()});
    }
    return out;
  }();
  return all;
}

// The plan's requests with one test vector per query text.
Result<engines::EngineRequests> render(engines::Engine engine, const std::string& version,
                                       const Planned& p, const engines::EnginesConfig& c) {
  engines::EngineInputs in{version, {}};
  auto probe = engines::to_engine(engine, p.prep, p.a, in, c);
  if (!probe.ok()) return probe;
  in.vectors = random_vectors(probe->texts.size());
  return engines::to_engine(engine, p.prep, p.a, in, c);
}

// ---- Client fusion ----

// An ES / OpenSearch single-leg request read back: a knn or a match, size, collapse, filters.
void read_dsl_leg(engines::Engine engine, const Json& body, const ReadCtx& x,
                  KbIndex::LegQuery& lq) {
  const engines::EnginesConfig& c = x.c;
  ASSERT_EQ(body["collapse"]["field"], c.parent_field);  // one hit per parent
  lq.top_k = body["size"].get<int>();
  const Json* filters = nullptr;
  if (body["query"].contains("knn")) {
    // ES: {"knn": {"field", "query_vector", "num_candidates", "filter": […]}};
    // OpenSearch: {"knn": {"<field>": {"vector", "k", "filter": {"bool": {"filter": […]}}}}}
    const bool es = engine == engines::Engine::kElasticsearch;
    const Json& knn = es ? body["query"]["knn"] : body["query"]["knn"][c.vector_field];
    if (es) {
      ASSERT_EQ(knn["field"], c.vector_field);
      ASSERT_GE(knn["num_candidates"].get<int>(), lq.top_k);
    } else {
      ASSERT_GE(knn["k"].get<int>(), lq.top_k);  // chunks per shard: the collapse needs headroom
    }
    Why why;
    ASSERT_TRUE(text_of(knn[es ? "query_vector" : "vector"], x, lq.text, why)) << why.text;
    lq.dense = true;
    if (knn.contains("filter")) filters = es ? &knn["filter"] : &knn["filter"]["bool"]["filter"];
  } else {
    const Json& b = body["query"]["bool"];
    lq.text = b["must"][0]["match"][c.text_field]["query"].get<std::string>();
    if (b.contains("filter")) filters = &b["filter"];
  }
  if (filters) {
    std::string unknown;
    ASSERT_TRUE(read_filters(*filters, c, lq.filters, unknown)) << "unknown clause " << unknown;
  }
}

// One leg's hits as the engine returns them: parents best first, the KB order as the tie key.
engines::LegHits leg_hits(const std::vector<std::uint32_t>& items, bool faq) {
  const World& w = world();
  engines::LegHits h;
  for (std::uint32_t it : items) {
    h.parents.push_back(faq ? w.kb.kb().faqs[it].id : w.kb.section_id(it));
    h.order.push_back(it);  // the knowledge base's order: the executor's tie-break
    if (!faq) h.table.push_back(w.kb.section_is_table(it));
  }
  return h;
}

// fuse_client over `hits` equals execute_plan's lists: ids, order, scores bit for bit.
void expect_executor_lists(const engines::EngineRequests& r,
                           const std::vector<engines::LegHits>& hits, const Execution& ex) {
  auto fused = engines::fuse_client(r, hits);
  ASSERT_TRUE(fused.ok()) << fused.error().to_string();
  auto same = [&](const std::vector<engines::FusedItem>& got, const std::vector<LegHit>& want,
                  const char* what) {
    ASSERT_EQ(got.size(), want.size()) << what;
    for (std::size_t i = 0; i < got.size(); ++i) {
      EXPECT_EQ(got[i].parent, want[i].id) << what << " #" << i;
      EXPECT_EQ(got[i].score, want[i].fused) << what << " #" << i;  // bit for bit
    }
  };
  same(fused->faq, ex.faq_hits, "faq");
  same(fused->doc, ex.doc_hits, "doc");
}

struct ClientCounts {
  std::size_t compared = 0, with_filters = 0, with_variants = 0, legs_run = 0, with_preferred = 0;
};

// Runs a client-fusion request set as the engine would and compares with execute_plan.
void check_client_plan(engines::Engine engine, const engines::EngineRequests& r, const Planned& p,
                       const engines::EnginesConfig& c, ClientCounts& n) {
  const World& w = world();
  ASSERT_EQ(r.texts.front(), p.ex.query);
  ASSERT_EQ(std::vector<std::string>(r.texts.begin() + 1, r.texts.end()), p.ex.variants);
  n.with_variants += r.texts.size() > 1;
  n.with_preferred +=
      std::any_of(r.legs.begin(), r.legs.end(), [](const engines::Leg& l) { return l.preferred; });
  std::vector<engines::LegHits> hits(r.legs.size());
  bool filtered = false;
  for (const engines::EngineRequest& req : r.requests) {
    ASSERT_EQ(req.legs.size(), 1u);
    KbIndex::LegQuery lq;
    lq.faq = req.collection == "faq";
    const ReadCtx x{c, r.texts, lq.faq ? c.faq_index : c.doc_index};
    if (engine == engines::Engine::kMilvus)
      read_milvus_leg(req, x, lq);
    else
      read_dsl_leg(engine, Json::parse(req.body), x, lq);
    if (::testing::Test::HasFatalFailure()) return;
    filtered |= has_metadata_filters(lq.filters);
    if (lq.filters.sources.empty() && !p.prep.effective_sources.empty())
      FAIL() << "the source scope is missing from " << req.name;
    auto items = w.kb.search_leg(lq);
    ASSERT_TRUE(items.ok()) << items.error().to_string();
    hits[req.legs[0]] = leg_hits(*items, lq.faq);
    ++n.legs_run;
  }
  n.with_filters += filtered;
  expect_executor_lists(r, hits, p.ex);
  ++n.compared;
}

void check_engine(engines::Engine engine, const char* version) {
  const World& w = world();
  const engines::EnginesConfig& c = w.engines;
  ASSERT_EQ(c.dedupe, engines::Dedupe::kBeforeFusion);
  ASSERT_GE(planned().size(), 400u);
  ClientCounts n;
  for (const Planned& p : planned()) {
    SCOPED_TRACE(p.q.id + ": " + p.q.question);
    if (!p.prep.plan) continue;  // direct answers: nothing retrieved on either side
    auto r = render(engine, version, p, c);
    ASSERT_TRUE(r.ok()) << r.error().to_string();
    ASSERT_EQ(r->mode, "client_fusion");
    check_client_plan(engine, *r, p, c, n);
    if (::testing::Test::HasFatalFailure()) return;
  }
  // The comparison covered real work, not only empty plans.
  EXPECT_GE(n.compared, 350u);
  EXPECT_GE(n.with_variants, 5u);
  std::cout << to_string(engine) << ": compared " << n.compared << " plans (" << n.with_variants
            << " with variants, " << n.with_filters << " with metadata filters, "
            << n.with_preferred << " with preferred legs), " << n.legs_run << " legs\n";
  EXPECT_GE(n.with_filters, 5u);
  EXPECT_GE(n.with_preferred, 5u);  // preferences are fused like the executor's preferred lists
  EXPECT_GE(n.legs_run, 4 * n.compared);
}

TEST(EnginesEquivalence, ElasticsearchClientFusionRanksExactlyLikeTheInProcessExecutor) {
  check_engine(engines::Engine::kElasticsearch, "8.16");
}

TEST(EnginesEquivalence, OpenSearchClientFusionRanksExactlyLikeTheInProcessExecutor) {
  check_engine(engines::Engine::kOpenSearch, "2.19");
}

// Milvus grouping searches, their boolean expressions read back (epoch dates to days), from the
// Node SDK body and from the pymilvus and REST forms alike.
TEST(EnginesEquivalence, MilvusClientFusionRanksExactlyLikeTheInProcessExecutor) {
  check_engine(engines::Engine::kMilvus, "2.5");
}

// ---- Server fusion: requests read back ----

// One sub-search of a server-fused request: the leg it runs (its window as top_k) and, on an
// Elasticsearch knn child, the minimum cosine of a hit (`similarity`).
struct SubSearch {
  KbIndex::LegQuery q;
  std::optional<double> similarity;
};

// What a server-fusion request asks of the engine.
struct ServerSearch {
  std::vector<SubSearch> subs;  // the request's order: RRF adds in it
  int rank_constant = 0;
  int window = 0;  // ES rank_window_size, OpenSearch pagination_depth, Milvus limit
  int size = 0;    // hits returned (Milvus: limit)
  bool collapse = false;
};

std::string describe(const ServerSearch& s) {
  std::ostringstream o;
  o << "size " << s.size << " window " << s.window << " k " << s.rank_constant
    << (s.collapse ? " collapse" : "");
  for (const SubSearch& sub : s.subs) {
    o << " | " << describe(sub.q);
    if (sub.similarity) o << " similarity " << *sub.similarity;
  }
  return o.str();
}

// A knn child of retriever.rrf: {"field", "query_vector", "k", "num_candidates", "filter",
// "similarity"}. It returns k records.
bool read_es_knn(const Json& knn, const ReadCtx& x, SubSearch& sub, Why& why) {
  if (!only_keys(knn, {"field", "query_vector", "k", "num_candidates", "filter", "similarity"}, why,
                 "knn"))
    return false;
  if (knn.at("field") != x.c.vector_field) return why("knn field " + knn.at("field").dump());
  sub.q.dense = true;
  sub.q.top_k = knn.at("k").get<int>();
  if (knn.at("num_candidates").get<int>() < sub.q.top_k) return why("num_candidates < k");
  if (knn.contains("similarity")) sub.similarity = knn.at("similarity").get<double>();
  if (!text_of(knn.at("query_vector"), x, sub.q.text, why)) return false;
  return !knn.contains("filter") || filters_into(knn.at("filter"), x.c, sub.q.filters, why);
}

// Elasticsearch {"size", "retriever": {"rrf": {"retrievers", "rank_constant", window}},
// "collapse", "_source"}: each child returns its window (a standard child its top
// rank_window_size; `window_size` before 8.15).
bool read_es_rrf(const Json& b, const std::string& version, const ReadCtx& x, ServerSearch& s,
                 Why& why) {
  if (!only_keys(b, {"size", "retriever", "collapse", "_source"}, why, "body")) return false;
  if (!returns_parent(b.at("_source"), x, why)) return false;
  s.size = b.at("size").get<int>();
  if (b.contains("collapse")) {
    if (!only_keys(b.at("collapse"), {"field"}, why, "collapse")) return false;
    if (b.at("collapse").at("field") != x.c.parent_field) return why("collapse field");
    s.collapse = true;
  }
  if (!only_keys(b.at("retriever"), {"rrf"}, why, "retriever")) return false;
  const Json& rrf = b.at("retriever").at("rrf");
  const std::string window_key = version == "8.14" ? "window_size" : "rank_window_size";
  if (!only_keys(rrf, {"retrievers", "rank_constant", window_key}, why, "rrf")) return false;
  s.rank_constant = rrf.at("rank_constant").get<int>();
  s.window = rrf.at(window_key).get<int>();
  for (const Json& child : rrf.at("retrievers")) {
    SubSearch sub;
    if (child.contains("knn")) {
      if (!only_keys(child, {"knn"}, why, "retriever") ||
          !read_es_knn(child.at("knn"), x, sub, why))
        return false;
    } else {
      if (!only_keys(child, {"standard"}, why, "retriever") ||
          !only_keys(child.at("standard"), {"query"}, why, "standard") ||
          !read_dsl_bm25(child.at("standard").at("query"), x, sub.q, why))
        return false;
      sub.q.top_k = s.window;
    }
    s.subs.push_back(std::move(sub));
  }
  return true;
}

// An OpenSearch knn sub-query: {"knn": {field: {"vector", "k", "method_parameters", "filter"}}},
// its k records per shard (one shard here), at most pagination_depth of them kept.
bool read_os_knn(const Json& q, const ReadCtx& x, int depth, SubSearch& sub, Why& why) {
  if (!only_keys(q, {"knn"}, why, "sub-query") ||
      !only_keys(q.at("knn"), {x.c.vector_field}, why, "knn"))
    return false;
  const Json& k = q.at("knn").at(x.c.vector_field);
  if (!only_keys(k, {"vector", "k", "method_parameters", "filter"}, why, "knn field")) return false;
  sub.q.dense = true;
  sub.q.top_k = std::min(k.at("k").get<int>(), depth);
  if (k.contains("method_parameters")) {
    const Json& mp = k.at("method_parameters");
    if (!only_keys(mp, {"ef_search"}, why, "method_parameters")) return false;
    if (mp.at("ef_search").get<int>() < k.at("k").get<int>()) return why("ef_search < k");
  }
  if (!text_of(k.at("vector"), x, sub.q.text, why)) return false;
  if (!k.contains("filter")) return true;
  return only_keys(k.at("filter"), {"bool"}, why, "knn filter") &&
         only_keys(k.at("filter").at("bool"), {"filter"}, why, "knn filter bool") &&
         filters_into(k.at("filter").at("bool").at("filter"), x.c, sub.q.filters, why);
}

// The RRF pipeline a hybrid request names: its rank_constant.
bool read_os_pipeline(const engines::EngineRequests& r, const std::string& params, int& k,
                      Why& why) {
  const Json p = Json::parse(params);
  if (!only_keys(p, {"search_pipeline"}, why, "params")) return false;
  for (const engines::EngineRequest& req : r.requests) {
    if (req.api != "put_search_pipeline" || req.index != p.at("search_pipeline")) continue;
    const Json b = Json::parse(req.body);
    if (!only_keys(b, {"description", "phase_results_processors"}, why, "pipeline")) return false;
    if (b.at("phase_results_processors").size() != 1) return why("one processor expected");
    const Json& proc = b.at("phase_results_processors")[0];
    if (!only_keys(proc, {"score-ranker-processor"}, why, "processor") ||
        !only_keys(proc.at("score-ranker-processor"), {"combination"}, why, "score-ranker"))
      return false;
    const Json& comb = proc.at("score-ranker-processor").at("combination");
    if (!only_keys(comb, {"technique", "rank_constant"}, why, "combination")) return false;
    if (comb.at("technique") != "rrf") return why("technique " + comb.at("technique").dump());
    k = comb.at("rank_constant").get<int>();
    return true;
  }
  return why("no pipeline " + p.at("search_pipeline").dump() + " among the requests");
}

// OpenSearch {"size", "query": {"hybrid": {"queries", "pagination_depth", "filter"}},
// "collapse", "_source"}: hybrid.filter (3.0+) applies to every sub-query, beside its own.
bool read_os_hybrid(const Json& b, const ReadCtx& x, ServerSearch& s, Why& why) {
  if (!only_keys(b, {"size", "query", "collapse", "_source"}, why, "body")) return false;
  if (!returns_parent(b.at("_source"), x, why)) return false;
  s.size = b.at("size").get<int>();
  if (b.contains("collapse")) {
    if (!only_keys(b.at("collapse"), {"field"}, why, "collapse")) return false;
    if (b.at("collapse").at("field") != x.c.parent_field) return why("collapse field");
    s.collapse = true;
  }
  if (!only_keys(b.at("query"), {"hybrid"}, why, "query")) return false;
  const Json& h = b.at("query").at("hybrid");
  if (!only_keys(h, {"queries", "pagination_depth", "filter"}, why, "hybrid")) return false;
  s.window = h.at("pagination_depth").get<int>();
  ExecutionFilters common;
  if (h.contains("filter") &&
      !(only_keys(h.at("filter"), {"bool"}, why, "hybrid.filter") &&
        only_keys(h.at("filter").at("bool"), {"filter"}, why, "hybrid.filter.bool") &&
        filters_into(h.at("filter").at("bool").at("filter"), x.c, common, why)))
    return false;
  if (h.at("queries").size() > 5) return why("a hybrid query takes at most 5 sub-queries");
  for (const Json& q : h.at("queries")) {
    SubSearch sub;
    sub.q.filters = common;
    if (q.contains("knn")) {
      if (!read_os_knn(q, x, s.window, sub, why)) return false;
    } else {
      if (!read_dsl_bm25(q, x, sub.q, why)) return false;
      sub.q.top_k = s.window;
    }
    s.subs.push_back(std::move(sub));
  }
  return true;
}

// The RRF ranker of a Milvus hybrid search: {"strategy": "rrf", "params": {"k"}}.
bool read_milvus_rerank(const Json& rr, ServerSearch& s, Why& why) {
  if (!only_keys(rr, {"strategy", "params"}, why, "rerank") ||
      !only_keys(rr.at("params"), {"k"}, why, "rerank.params"))
    return false;
  if (rr.at("strategy") != "rrf") return why("strategy " + rr.at("strategy").dump());
  s.rank_constant = rr.at("params").at("k").get<int>();
  return true;
}

// The frame of a hybrid search in any form: collection, limit (each sub-request's, the
// fusion's and the result's), returned fields; no group_by_field is allowed there.
bool read_hybrid_frame(const Json& collection, const Json& limit, const Json& output,
                       const ReadCtx& x, ServerSearch& s, Why& why) {
  if (collection != x.index) return why("collection " + collection.dump());
  s.size = s.window = limit.get<int>();
  return returns_parent(output, x, why);
}

// The Node SDK's HybridSearchReq: every sub-request searches the request's limit.
bool read_node_hybrid(const Json& b, const ReadCtx& x, ServerSearch& s, Why& why) {
  if (!only_keys(b, {"collection_name", "data", "rerank", "limit", "output_fields"}, why, "body") ||
      !read_hybrid_frame(b.at("collection_name"), b.at("limit"), b.at("output_fields"), x, s,
                         why) ||
      !read_milvus_rerank(b.at("rerank"), s, why))
    return false;
  for (const Json& sub : b.at("data")) {
    if (!only_keys(sub, {"data", "anns_field", "params", "expr"}, why, "sub-request")) return false;
    SubSearch one;
    one.q.top_k = s.window;
    if (!read_milvus_part(
            {sub.at("anns_field"), sub.at("data"), nullptr, sub.at("params"), opt(sub, "expr")}, x,
            one.q, why))
      return false;
    s.subs.push_back(std::move(one));
  }
  return true;
}

// pymilvus: MilvusClient.hybrid_search(reqs=[AnnSearchRequest(**a)], ranker=RRFRanker(**r), …).
bool read_py_hybrid(const Json& j, const ReadCtx& x, ServerSearch& s, Why& why) {
  if (!only_keys(j, {"method", "kwargs"}, why, "pymilvus")) return false;
  if (j.at("method") != "MilvusClient.hybrid_search") return why("method");
  const Json& k = j.at("kwargs");
  if (!only_keys(k, {"collection_name", "reqs", "ranker", "limit", "output_fields"}, why,
                 "kwargs") ||
      !read_hybrid_frame(k.at("collection_name"), k.at("limit"), k.at("output_fields"), x, s,
                         why) ||
      !only_keys(k.at("ranker"), {"RRFRanker"}, why, "ranker") ||
      !only_keys(k.at("ranker").at("RRFRanker"), {"k"}, why, "RRFRanker"))
    return false;
  s.rank_constant = k.at("ranker").at("RRFRanker").at("k").get<int>();
  for (const Json& req : k.at("reqs")) {
    if (!only_keys(req, {"AnnSearchRequest"}, why, "reqs[]")) return false;
    const Json& a = req.at("AnnSearchRequest");
    if (!only_keys(a, {"data", "anns_field", "param", "limit", "expr"}, why, "AnnSearchRequest") ||
        !only_keys(a.at("param"), {"metric_type", "params"}, why, "param"))
      return false;
    SubSearch one;
    one.q.top_k = a.at("limit").get<int>();  // pymilvus: each sub-request its own limit
    if (!read_milvus_part({a.at("anns_field"), a.at("data"), &a.at("param").at("metric_type"),
                           a.at("param").at("params"), opt(a, "expr")},
                          x, one.q, why))
      return false;
    s.subs.push_back(std::move(one));
  }
  return true;
}

// REST v2: POST /v2/vectordb/entities/hybrid_search {"search": [...], "rerank", "limit", …}.
bool read_rest_hybrid(const Json& j, const ReadCtx& x, ServerSearch& s, Why& why) {
  if (!only_keys(j, {"path", "body"}, why, "rest")) return false;
  if (j.at("path") != "/v2/vectordb/entities/hybrid_search") return why("path");
  const Json& b = j.at("body");
  if (!only_keys(b, {"collectionName", "search", "rerank", "limit", "outputFields"}, why, "body") ||
      !read_hybrid_frame(b.at("collectionName"), b.at("limit"), b.at("outputFields"), x, s, why) ||
      !read_milvus_rerank(b.at("rerank"), s, why))
    return false;
  for (const Json& one_json : b.at("search")) {
    if (!only_keys(one_json, {"data", "annsField", "filter", "limit", "metricType", "params"}, why,
                   "search[]"))
      return false;
    SubSearch one;
    one.q.top_k = one_json.at("limit").get<int>();
    if (!read_milvus_part(
            {one_json.at("annsField"), one_json.at("data"), &one_json.at("metricType"),
             one_json.at("params"), opt(one_json, "filter")},
            x, one.q, why))
      return false;
    s.subs.push_back(std::move(one));
  }
  return true;
}

// A server-fusion request read back as its engine reads it. Milvus: the Node SDK body, and the
// pymilvus and REST forms on their own, which must read back to the same search.
void read_server_request(engines::Engine e, const engines::EngineRequest& req,
                         const engines::EngineRequests& r, const ReadCtx& x, ServerSearch& s) {
  Why why;
  const Json body = Json::parse(req.body);
  bool ok = false;
  switch (e) {
    case engines::Engine::kElasticsearch:
      ok = guarded(why, [&] { return read_es_rrf(body, r.version, x, s, why); });
      break;
    case engines::Engine::kOpenSearch:
      ok = guarded(why, [&] {
        return read_os_hybrid(body, x, s, why) &&
               read_os_pipeline(r, req.params, s.rank_constant, why);
      });
      break;
    case engines::Engine::kMilvus:
      ok = guarded(why, [&] { return read_node_hybrid(body, x, s, why); });
      break;
  }
  ASSERT_TRUE(ok) << req.name << ": " << why.text;
  if (e != engines::Engine::kMilvus) return;
  for (const bool py : {true, false}) {
    ServerSearch other;
    const bool read = guarded(why, [&] {
      return py ? read_py_hybrid(Json::parse(req.pymilvus), x, other, why)
                : read_rest_hybrid(Json::parse(req.rest), x, other, why);
    });
    ASSERT_TRUE(read) << req.name << (py ? " (pymilvus): " : " (REST): ") << why.text;
    EXPECT_EQ(describe(other), describe(s)) << req.name << (py ? " pymilvus" : " REST");
  }
}

// The request searches the executor's legs of its collection, in order, with the windows
// "Parents, not chunks" states: top k parents, candidate_factor × k chunks when the engine
// collapses after fusion, k when it does not dedupe (Milvus: k, the hybrid's limit).
void expect_plan_legs(const engines::EngineRequest& req, const engines::EngineRequests& r,
                      const engines::EnginesConfig& c, const PlanKnobs& knobs,
                      const ServerSearch& s) {
  ASSERT_EQ(s.subs.size(), req.legs.size()) << req.name;
  const int k = r.legs[req.legs[0]].top_k;
  const bool after = c.dedupe == engines::Dedupe::kAfterFusion;
  const int window = r.engine == engines::Engine::kMilvus ? k : after ? c.candidate_factor * k : k;
  EXPECT_EQ(s.size, k) << req.name;
  EXPECT_EQ(s.window, window) << req.name;
  EXPECT_EQ(s.rank_constant, static_cast<int>(c.rrf_k)) << req.name;
  EXPECT_EQ(s.collapse, after) << req.name;
  for (std::size_t i = 0; i < s.subs.size(); ++i) {
    const engines::Leg& leg = r.legs[req.legs[i]];
    EXPECT_EQ(leg.collection, req.collection) << req.name;
    EXPECT_EQ(s.subs[i].q.dense, leg.modality == "dense") << req.name << " #" << i;
    EXPECT_EQ(s.subs[i].q.text, r.texts[leg.text]) << req.name << " #" << i;
    EXPECT_EQ(s.subs[i].q.top_k, window) << req.name << " #" << i;
    // ES thresholds its knn children at min_context_score (cosine); no other engine can.
    const bool threshold = r.engine == engines::Engine::kElasticsearch && s.subs[i].q.dense;
    EXPECT_EQ(s.subs[i].similarity,
              threshold ? std::optional(knobs.min_context_score) : std::nullopt)
        << req.name << " #" << i;
  }
}

// ---- Server fusion: the simulated engine ----
//
// One shard, records indexed in the KB's file order, exact kNN (no ANN recall loss). Per engine:
//  - Elasticsearch retriever.rrf: each child returns its window (knn: k records at or above its
//    `similarity`; standard: rank_window_size); score += 1.0f / (rank_constant + rank) in float;
//    sorted by score, ties by the lower doc id (RankDoc); cut to rank_window_size; `collapse`
//    keeps each parent's best record; `size` hits.
//  - OpenSearch hybrid + score-ranker-processor: each sub-query its top pagination_depth (knn: k
//    per shard); 1 / (rank_constant + rank) rounded to 10 decimals, summed in float; ties by the
//    lower doc id; the fused list cut to the longest sub-query list (neural-search's
//    ScoreCombiner); collapsed after fusion; `size` hits.
//  - Milvus hybrid_search, RRFRanker: each sub-request its top `limit`; 1 / (k + rank) in float32;
//    ties by the lower primary key; `limit` hits, no grouping.

using SparseVec = std::vector<std::pair<std::uint32_t, float>>;

// One collection as an engine indexes it: a record per FAQ question or paraphrase and per
// chunk, in file order (one shard: the Lucene doc id is the record number).
struct RecordSide {
  std::vector<std::uint32_t> parent;   // record → FAQ index / section index
  std::vector<std::uint32_t> pk_rank;  // record → rank of its primary key (Milvus' tie order)
  std::vector<std::uint32_t> number;   // record → itself (the Lucene tie order)
  std::vector<std::uint32_t> items;    // parent → itself (the executor's tie order)
  std::vector<SparseVec> vec;          // local-tfidf, for the knn `similarity` threshold
  std::optional<LocalTfidfEmbedder> space;
};

struct Records {
  KbIndex index;  // the executor's texts in its order, each record its own item
  RecordSide faq, doc;
};

SparseVec sparse_vector(const LocalTfidfEmbedder& space, const std::string& text) {
  SparseVec v;
  auto dense = space.embed(text);
  if (!dense.ok()) return v;  // no known token: cosine 0 with every record
  for (std::uint32_t d = 0; d < dense->size(); ++d)
    if ((*dense)[d] != 0.0f) v.emplace_back(d, (*dense)[d]);
  return v;
}

// The executor's cosine: products summed in double in the query's dimension order.
double cosine(const SparseVec& q, const SparseVec& r) {
  double acc = 0.0;
  for (std::size_t i = 0, j = 0; i < q.size() && j < r.size();) {
    if (q[i].first < r[j].first) {
      ++i;
    } else if (r[j].first < q[i].first) {
      ++j;
    } else {
      acc += static_cast<double>(q[i++].second) * static_cast<double>(r[j++].second);
    }
  }
  return acc;
}

void fill_side(RecordSide& side, const std::vector<std::string>& texts,
               const std::vector<std::string>& pks, std::size_t items) {
  side.number.resize(texts.size());
  std::iota(side.number.begin(), side.number.end(), 0u);
  side.items.resize(items);
  std::iota(side.items.begin(), side.items.end(), 0u);
  std::vector<std::uint32_t> by_pk = side.number;
  std::sort(by_pk.begin(), by_pk.end(), [&](auto a, auto b) { return pks[a] < pks[b]; });
  side.pk_rank.resize(texts.size());
  for (std::uint32_t i = 0; i < by_pk.size(); ++i) side.pk_rank[by_pk[i]] = i;
  auto space = LocalTfidfEmbedder::fit(texts);
  if (!space.ok()) throw std::runtime_error(space.error().to_string());
  side.space.emplace(std::move(space).value());
  for (const std::string& t : texts) side.vec.push_back(sparse_vector(*side.space, t));
}

// The record index: the shipped KB with every record its own FAQ entry / section, so
// KbIndex::search_leg ranks records (same texts, same order: the same BM25 and cosine scores).
// Primary keys: an FAQ record is "<faq id>#<n>" (0 = the question), a chunk its id.
const Records& records() {
  static const Records r = [] {
    const KnowledgeBase& kb = world().kb.kb();
    KnowledgeBase flat = kb;
    flat.faqs.clear();
    std::vector<std::string> faq_texts, faq_pks, doc_texts, doc_pks;
    std::vector<std::uint32_t> faq_parent, doc_parent;
    for (std::uint32_t f = 0; f < kb.faqs.size(); ++f) {
      const FaqEntry& e = kb.faqs[f];
      for (std::size_t p = 0; p <= e.paraphrases.size(); ++p) {
        const std::string& text = p == 0 ? e.question : e.paraphrases[p - 1];
        faq_pks.push_back(e.id + "#" + std::to_string(p));
        flat.faqs.push_back({faq_pks.back(), e.source, text, {}, e.answer, e.tags});
        faq_texts.push_back(text);
        faq_parent.push_back(f);
      }
    }
    for (DocChunk& c : flat.docs) {
      doc_parent.push_back(static_cast<std::uint32_t>(*world().kb.section_of_chunk(c.id)));
      doc_texts.push_back(c.title + " " + c.section + " " + c.text);
      doc_pks.push_back(c.id);
      c.parent_id = c.id;
    }
    auto index = KbIndex::create(std::move(flat));
    if (!index.ok()) throw std::runtime_error(index.error().to_string());
    Records out{std::move(index).value(), {}, {}};
    out.faq.parent = std::move(faq_parent);
    out.doc.parent = std::move(doc_parent);
    fill_side(out.faq, faq_texts, faq_pks, kb.faqs.size());
    fill_side(out.doc, doc_texts, doc_pks, world().kb.sections());
    return out;
  }();
  return r;
}

enum class Flavor { kElasticsearch, kOpenSearch, kMilvus };

Flavor flavor_of(engines::Engine e) {
  return e == engines::Engine::kElasticsearch ? Flavor::kElasticsearch
         : e == engines::Engine::kOpenSearch  ? Flavor::kOpenSearch
                                              : Flavor::kMilvus;
}

// RRF's term for 1-based rank r, as each engine computes it: float throughout (ES
// `1.0f / (rankConstant + rank)`, Milvus `1 / (k + float32(rank))`); OpenSearch rounds the
// BigDecimal 1 / (k + rank) to 10 decimals, then to float.
float rrf_term(Flavor f, int k, std::size_t r) {
  const double n = static_cast<double>(k) + static_cast<double>(r);
  if (f == Flavor::kOpenSearch) return static_cast<float>(std::round(1e10 / n) / 1e10);
  return 1.0f / static_cast<float>(n);
}

// How the engine turns its sub-lists into hits.
struct Model {
  Flavor flavor;
  int rank_constant;
  std::size_t fused_cut;  // ES rank_window_size; OpenSearch the longest sub-list; Milvus limit
  std::size_t size;
  bool collapse;
};

struct Hit {
  std::uint32_t parent;
  float score;
};

// The engine's fusion: scores summed in float in sub-list order, sorted by score, ties by the
// lower `tie` (ES and OpenSearch: the Lucene doc id; Milvus: the primary key), cut to
// fused_cut, collapsed to each parent's best unit when asked, cut to size.
std::vector<Hit> engine_fuse(const std::vector<std::vector<std::uint32_t>>& lists,
                             const std::vector<std::uint32_t>& parent,
                             const std::vector<std::uint32_t>& tie, const Model& m) {
  std::unordered_map<std::uint32_t, float> score;
  std::vector<std::uint32_t> units;
  for (const auto& list : lists)
    for (std::size_t i = 0; i < list.size(); ++i) {
      auto [it, fresh] = score.try_emplace(list[i], 0.0f);
      if (fresh) units.push_back(list[i]);
      it->second += rrf_term(m.flavor, m.rank_constant, i + 1);
    }
  std::sort(units.begin(), units.end(), [&](std::uint32_t a, std::uint32_t b) {
    return score[a] != score[b] ? score[a] > score[b] : tie[a] < tie[b];
  });
  if (units.size() > m.fused_cut) units.resize(m.fused_cut);
  std::vector<Hit> out;
  std::vector<std::uint32_t> seen;
  for (std::uint32_t u : units) {
    if (out.size() >= m.size) break;
    if (m.collapse && std::find(seen.begin(), seen.end(), parent[u]) != seen.end()) continue;
    seen.push_back(parent[u]);
    out.push_back({parent[u], score[u]});
  }
  return out;
}

// The lists one sub-search gives: the executor's (parents, cut to size; to the window) and the
// engine's (records in the window; those at or above the knn similarity).
struct SubLists {
  std::vector<std::uint32_t> parents_k, parents_w, records, records_similar;
};

void run_sub(const SubSearch& sub, bool faq, int size, SubLists& out) {
  const World& w = world();
  const Records& rec = records();
  const RecordSide& side = faq ? rec.faq : rec.doc;
  KbIndex::LegQuery q = sub.q;
  q.faq = faq;
  q.top_k = size;
  auto parents_k = w.kb.search_leg(q);
  q.top_k = sub.q.top_k;
  auto parents_w = w.kb.search_leg(q);
  auto records_w = rec.index.search_leg(q);
  ASSERT_TRUE(parents_k.ok() && parents_w.ok() && records_w.ok());
  out = {*parents_k, *parents_w, *records_w, *records_w};
  // The record index is the executor's: deduped to parents, records rank like its parents.
  std::vector<std::uint32_t> deduped;
  for (std::uint32_t r : out.records)
    if (std::find(deduped.begin(), deduped.end(), side.parent[r]) == deduped.end())
      deduped.push_back(side.parent[r]);
  ASSERT_LE(deduped.size(), out.parents_w.size());
  EXPECT_TRUE(std::equal(deduped.begin(), deduped.end(), out.parents_w.begin())) << sub.q.text;
  if (!sub.similarity) return;
  const SparseVec qv = sparse_vector(*side.space, sub.q.text);
  std::erase_if(out.records_similar,
                [&](std::uint32_t r) { return cosine(qv, side.vec[r]) < *sub.similarity; });
}

// A fused list as the host reads it: with prefer_table, table rows first.
std::vector<Hit> host_order(std::vector<Hit> hits, bool doc, bool prefer_table) {
  if (doc && prefer_table)
    std::stable_partition(hits.begin(), hits.end(),
                          [](const Hit& h) { return world().kb.section_is_table(h.parent); });
  return hits;
}

std::vector<std::uint32_t> parents(const std::vector<Hit>& hits) {
  std::vector<std::uint32_t> out;
  for (const Hit& h : hits) out.push_back(h.parent);
  return out;
}

// One collection from the executor's list to the engine's, a step at a time: `a` the engine's
// RRF over the executor's lists (must give the executor's list), then a wider window (parents),
// chunks (records, ties by doc id, collapsed as asked), the engine's tie order and the knn
// similarity threshold: `engine` is what the engine returns. `uncut`: the same without
// OpenSearch's cut of the fused list to its longest sub-list.
struct Steps {
  std::vector<Hit> a;
  std::vector<std::uint32_t> window, chunks, ties, engine, uncut;
};

std::size_t longest(const std::vector<std::vector<std::uint32_t>>& lists) {
  std::size_t n = 0;
  for (const auto& l : lists) n = std::max(n, l.size());
  return n;
}

template <class Member>
std::vector<std::vector<std::uint32_t>> pick(const std::vector<SubLists>& lists, Member m) {
  std::vector<std::vector<std::uint32_t>> out;
  for (const SubLists& l : lists) out.push_back(l.*m);
  return out;
}

void simulate(Flavor f, const ServerSearch& s, const std::vector<SubLists>& lists, bool faq,
              bool prefer_table, Steps& st) {
  const RecordSide& side = faq ? records().faq : records().doc;
  const auto size = static_cast<std::size_t>(s.size), window = static_cast<std::size_t>(s.window);
  auto cut = [&](const std::vector<std::vector<std::uint32_t>>& l) {
    return f == Flavor::kOpenSearch ? longest(l) : window;
  };
  const auto pk = pick(lists, &SubLists::parents_k), pw = pick(lists, &SubLists::parents_w);
  const auto rw = pick(lists, &SubLists::records), rs = pick(lists, &SubLists::records_similar);
  const std::vector<std::uint32_t>& tie = f == Flavor::kMilvus ? side.pk_rank : side.number;
  const int k = s.rank_constant;
  auto host = [&](const std::vector<Hit>& h) { return host_order(h, !faq, prefer_table); };
  auto order = [&](const std::vector<Hit>& h) { return parents(host(h)); };
  st.a = host(engine_fuse(pk, side.items, side.items, {f, k, size, size, false}));
  st.window = order(engine_fuse(pw, side.items, side.items, {f, k, cut(pw), size, false}));
  st.chunks = order(engine_fuse(rw, side.parent, side.number, {f, k, cut(rw), size, s.collapse}));
  st.ties = order(engine_fuse(rw, side.parent, tie, {f, k, cut(rw), size, s.collapse}));
  st.engine = order(engine_fuse(rs, side.parent, tie, {f, k, cut(rs), size, s.collapse}));
  st.uncut = order(engine_fuse(rs, side.parent, tie, {f, k, window, size, s.collapse}));
}

// Each parent's RRF denominators (k + rank per list it is in), sorted: two parents with the
// same ones tie exactly, and only rounding (double in the executor, float in the engine) orders
// them.
std::unordered_map<std::uint32_t, std::vector<int>> rrf_denominators(
    const std::vector<SubLists>& lists, int k) {
  std::unordered_map<std::uint32_t, std::vector<int>> out;
  for (const SubLists& l : lists)
    for (std::size_t i = 0; i < l.parents_k.size(); ++i)
      out[l.parents_k[i]].push_back(k + static_cast<int>(i) + 1);
  for (auto& [parent, d] : out) std::sort(d.begin(), d.end());
  return out;
}

// ---- Server fusion: what is compared ----

// How the engine's lists compare with the executor's, per plan (a plan counts once however many
// of its collections differ).
struct ServerCounts {
  std::size_t plans = 0, server = 0;
  std::size_t identical = 0;     // every collection: the same parents in the same order
  std::size_t same_parents = 0;  // the same parents in the top k, in some order
  std::size_t within = 0;        // the engine's parents are all among the executor's
  std::size_t same_first = 0;    // the same first hit in every collection
  std::size_t first_kept = 0;    // the executor's first hit is in the engine's top k
  // Plans a step changed: rounding of exact ties, the window, chunks, the engine's tie order,
  // the knn similarity.
  std::size_t by_rounding = 0, by_window = 0, by_chunks = 0, by_ties = 0, by_similarity = 0;
  std::size_t shorter = 0;           // fewer parents than the executor's
  std::size_t short_by_cut = 0;      // … and not without OpenSearch's cut to the longest sub-list
  std::size_t repeats = 0;           // a parent twice (no collapse)
  std::size_t wanted = 0, kept = 0;  // executor parents, and those in the engine's top k
  std::size_t max_shift = 0;         // the largest rank move of a parent found on both sides
};

// What one plan's collections show.
struct PlanDiff {
  bool identical = true, same_parents = true, within = true, same_first = true;
  bool first_kept = true, rounding = false, window = false, chunks = false, ties = false;
  bool similarity = false, shorter = false, short_by_cut = false, repeats = false;
};

std::vector<std::uint32_t> unique_parents(const std::vector<std::uint32_t>& list) {
  std::vector<std::uint32_t> out;
  for (std::uint32_t p : list)
    if (std::find(out.begin(), out.end(), p) == out.end()) out.push_back(p);
  return out;
}

bool contains(const std::vector<std::uint32_t>& list, std::uint32_t p) {
  return std::find(list.begin(), list.end(), p) != list.end();
}

void compare(const std::vector<std::uint32_t>& want, const Steps& st, PlanDiff& d,
             ServerCounts& n) {
  const std::vector<std::uint32_t>& got = st.engine;
  const std::vector<std::uint32_t> unique = unique_parents(got);
  std::vector<std::uint32_t> a = want, b = unique;
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  d.identical &= got == want;
  d.same_parents &= a == b;
  d.within &= std::includes(a.begin(), a.end(), b.begin(), b.end());
  d.same_first &= want.empty() == got.empty() && (want.empty() || want[0] == got[0]);
  d.first_kept &= want.empty() || contains(got, want[0]);
  d.rounding |= parents(st.a) != want;
  d.window |= st.window != parents(st.a);
  d.chunks |= st.chunks != st.window;
  d.ties |= st.ties != st.chunks;
  d.similarity |= st.engine != st.ties;
  d.shorter |= unique.size() < want.size();
  d.short_by_cut |= unique.size() < want.size() && unique_parents(st.uncut).size() >= want.size();
  d.repeats |= unique.size() < got.size();
  n.wanted += want.size();
  for (std::size_t i = 0; i < want.size(); ++i) {
    const auto at = std::find(unique.begin(), unique.end(), want[i]);
    if (at == unique.end()) continue;
    ++n.kept;
    const auto j = static_cast<std::size_t>(at - unique.begin());
    n.max_shift = std::max(n.max_shift, j > i ? j - i : i - j);
  }
}

void count(const PlanDiff& d, ServerCounts& n) {
  ++n.server;
  n.identical += d.identical;
  n.same_parents += d.same_parents;
  n.within += d.within;
  n.same_first += d.same_first;
  n.first_kept += d.first_kept;
  n.by_rounding += d.rounding;
  n.by_window += d.window;
  n.by_chunks += d.chunks;
  n.by_ties += d.ties;
  n.by_similarity += d.similarity;
  n.shorter += d.shorter;
  n.short_by_cut += d.short_by_cut;
  n.repeats += d.repeats;
}

// The engine's RRF over the executor's own lists is the executor's list: same parents, scores
// equal up to float, the same order but among exact ties (same denominators), which rounding
// orders on each side.
void expect_engine_rrf_is_the_executors(
    const std::vector<Hit>& a, const std::vector<LegHit>& want,
    const std::unordered_map<std::uint32_t, std::vector<int>>& denominators,
    const std::string& what) {
  ASSERT_EQ(a.size(), want.size()) << what;
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_NEAR(a[i].score, want[i].fused, 1e-6 * want[i].fused) << what << " #" << i;
    if (a[i].parent == want[i].item) continue;
    EXPECT_EQ(denominators.at(a[i].parent), denominators.at(want[i].item))
        << what << " #" << i << ": the engine's " << a[i].parent << " and the executor's "
        << want[i].item << " do not tie";
  }
}

// One server-fusion plan: every request read back, its sub-searches checked against the plan's
// legs and run at the parent level (fuse_client must give execute_plan's lists exactly) and at
// the record level (the simulated engine), then compared.
void check_server_plan(engines::Engine e, const engines::EngineRequests& r, const Planned& p,
                       const engines::EnginesConfig& c, ServerCounts& n) {
  std::vector<engines::LegHits> hits(r.legs.size());
  PlanDiff d;
  for (const engines::EngineRequest& req : r.requests) {
    if (req.api == "put_search_pipeline") continue;
    const bool faq = req.collection == "faq";
    const ReadCtx x{c, r.texts, faq ? c.faq_index : c.doc_index};
    ServerSearch s;
    read_server_request(e, req, r, x, s);
    if (::testing::Test::HasFatalFailure()) return;
    expect_plan_legs(req, r, c, p.prep.plan->knobs(), s);
    if (::testing::Test::HasFatalFailure()) return;
    std::vector<SubLists> lists(s.subs.size());
    for (std::size_t i = 0; i < s.subs.size(); ++i) {
      if (s.subs[i].q.filters.sources.empty() && !p.prep.effective_sources.empty())
        FAIL() << "the source scope is missing from " << req.name << " #" << i;
      run_sub(s.subs[i], faq, s.size, lists[i]);
      if (::testing::Test::HasFatalFailure()) return;
      hits[req.legs[i]] = leg_hits(lists[i].parents_k, faq);
    }
    const std::vector<LegHit>& want = faq ? p.ex.faq_hits : p.ex.doc_hits;
    Steps st;
    simulate(flavor_of(e), s, lists, faq, r.prefer_table, st);
    expect_engine_rrf_is_the_executors(st.a, want, rrf_denominators(lists, s.rank_constant),
                                       req.name);
    std::vector<std::uint32_t> want_items;
    for (const LegHit& h : want) want_items.push_back(h.item);
    compare(want_items, st, d, n);
  }
  expect_executor_lists(r, hits, p.ex);  // the sub-searches are the executor's legs
  count(d, n);
}

// An engine, version and dedupe that make the requests server-fused (ES: an Enterprise licence).
struct ServerTarget {
  engines::Engine engine;
  const char* version;
  engines::Dedupe dedupe;
};

void print(const ServerTarget& t, const ServerCounts& n, const ClientCounts& cc) {
  std::cout << to_string(t.engine) << " " << t.version << " dedupe " << to_string(t.dedupe) << ": "
            << n.plans << " plans, " << n.server << " fused on the server, " << cc.compared
            << " on the client (compared exactly)\n  identical " << n.identical << ", differ "
            << n.server - n.identical << "; changed by rounding of exact ties " << n.by_rounding
            << ", the window " << n.by_window << ", chunks " << n.by_chunks
            << ", the engine's tie order " << n.by_ties << ", the knn similarity "
            << n.by_similarity << "\n  same parents " << n.same_parents << ", engine's parents "
            << "among the executor's " << n.within << ", same first hit " << n.same_first
            << ", executor's first hit kept " << n.first_kept << ", shorter " << n.shorter << " ("
            << n.short_by_cut << " by the cut to the longest sub-list), a parent twice "
            << n.repeats << "; executor parents kept " << n.kept << " of " << n.wanted
            << ", largest rank move " << n.max_shift << "\n";
}

ServerCounts check_server(const ServerTarget& t) {
  engines::EnginesConfig c = world().engines;
  c.es_license = "enterprise";
  c.dedupe = t.dedupe;
  ServerCounts n;
  ClientCounts cc;
  for (const Planned& p : planned()) {
    SCOPED_TRACE(p.q.id + ": " + p.q.question);
    if (!p.prep.plan) continue;
    auto r = render(t.engine, t.version, p, c);
    EXPECT_TRUE(r.ok()) << r.error().to_string();
    if (!r.ok()) return n;
    ++n.plans;
    if (r->mode == "client_fusion")  // e.g. more legs than the engine fuses: exact, as above
      check_client_plan(t.engine, *r, p, c, cc);
    else if (r->mode == "server_fusion")
      check_server_plan(t.engine, *r, p, c, n);
    else
      ADD_FAILURE() << "mode " << r->mode;
    if (::testing::Test::HasFatalFailure()) return n;
  }
  print(t, n, cc);
  EXPECT_EQ(n.server + cc.compared, n.plans);
  EXPECT_GE(n.server, 400u);  // server fusion was compared, not only the fallbacks
  // Whatever the engine does with chunks, the executor's first hit stays in its top k.
  EXPECT_EQ(n.first_kept, n.server);
  return n;
}

// Collapsed after fusion: one hit per parent and no fewer parents than the executor's (but where
// OpenSearch cuts the fused list to its longest sub-list); the chunk-level RRF reorders the top
// k but rarely swaps a parent out (measured: 97.6 % kept on Elasticsearch, 98.0 % on OpenSearch).
void expect_collapsed(const ServerCounts& n) {
  EXPECT_EQ(n.repeats, 0u);
  EXPECT_EQ(n.shorter, n.short_by_cut);
  EXPECT_GE(n.kept * 100, n.wanted * 95);
}

// retriever.rrf (rank_window_size) with collapse beside it; knn children thresholded by
// `similarity`. candidate_factor × k chunks always hold k parents here: never a short list.
TEST(EnginesEquivalence, ElasticsearchRrfRetrieverWithCollapseKeepsTheExecutorsParents) {
  const ServerCounts n =
      check_server({engines::Engine::kElasticsearch, "8.16", engines::Dedupe::kAfterFusion});
  expect_collapsed(n);
  EXPECT_EQ(n.shorter, 0u);
}

// Without dedupe the engine fuses chunks as they are: its k hits can repeat a parent (an FAQ is
// three records), as "Parents, not chunks" warns.
TEST(EnginesEquivalence, ElasticsearchRrfRetrieverWithoutDedupeFusesChunks) {
  const ServerCounts n =
      check_server({engines::Engine::kElasticsearch, "8.14", engines::Dedupe::kNone});
  EXPECT_GT(n.repeats, 0u);
}

// hybrid query (pagination_depth, hybrid.filter) + RRF pipeline, collapse from 3.1.
TEST(EnginesEquivalence, OpenSearchHybridWithCollapseKeepsTheExecutorsParents) {
  expect_collapsed(
      check_server({engines::Engine::kOpenSearch, "3.1", engines::Dedupe::kAfterFusion}));
}

// 2.19: the filters repeated in every sub-query.
TEST(EnginesEquivalence, OpenSearchHybridWithoutDedupeFusesChunks) {
  const ServerCounts n =
      check_server({engines::Engine::kOpenSearch, "2.19", engines::Dedupe::kNone});
  EXPECT_GT(n.repeats, 0u);
}

// 3.0: the required filters once, in hybrid.filter; a preferred sub-query adds its own.
TEST(EnginesEquivalence, OpenSearchHybridFilterWithoutDedupeFusesChunks) {
  const ServerCounts n =
      check_server({engines::Engine::kOpenSearch, "3.0", engines::Dedupe::kNone});
  EXPECT_GT(n.repeats, 0u);
}

// hybrid_search with the RRF ranker, read back from the Node SDK body, the pymilvus keyword
// arguments and the REST call alike. Ties break by primary key, not the KB's order.
TEST(EnginesEquivalence, MilvusHybridSearchFusesChunksInEveryShape) {
  const ServerCounts n = check_server({engines::Engine::kMilvus, "2.5", engines::Dedupe::kNone});
  EXPECT_GT(n.repeats, 0u);
}

}  // namespace
