// Issue 14: the engine adapters. Three parts:
//  - golden requests: ≥ 30 plans (every intent, category, filter kind, variants on/off, table,
//    direct answer) rendered for every engine at its default version, plus every version gate;
//    committed under tests/engines/golden/ (reviewed; tests/engines/typecheck.sh checks them
//    against the official clients' TypeScript request types). QAPLAN_UPDATE_GOLDEN=1 rewrites.
//  - hand-written gates the client types cannot express (window names, RRF availability, hybrid
//    filter placement, leg limits, grouping, BM25 availability, windows = top_k);
//  - config: [engines] read strictly, with file:line.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "qaplan/engines/engines.hpp"
#include "qaplan/planning/analysis.hpp"
#include "qaplan/planning/planner.hpp"
#include "test_support.hpp"

namespace {

namespace fs = std::filesystem;
using namespace qaplan;
using namespace qaplan::engines;
using Json = nlohmann::json;

const Planner& planner() {
  static const Planner p = [] {
    auto cfg = load_config(test::shipped_config());
    EXPECT_TRUE(cfg.ok());
    auto pl = Planner::create(std::move(cfg).value());
    EXPECT_TRUE(pl.ok()) << pl.error().to_string();
    return std::move(pl).value();
  }();
  return p;
}

// Documents that carry their event dates ([filters]; the shipped KB has none): 发布, 签署, 更新
// filter these fields instead of being dropped.
const Planner& dated_planner() {
  static const Planner p = [] {
    auto cfg = load_config(test::shipped_config());
    EXPECT_TRUE(cfg.ok());
    cfg->filters.published_date_field = "published_on";
    cfg->filters.signed_date_field = "signed_on";
    cfg->filters.updated_date_field = "updated_at";
    auto pl = Planner::create(std::move(cfg).value());
    EXPECT_TRUE(pl.ok()) << pl.error().to_string();
    return std::move(pl).value();
  }();
  return p;
}

EnginesConfig shipped_engines() {
  auto c = load_engines_config(test::shipped_config());
  EXPECT_TRUE(c.ok()) << c.error().to_string();
  return c.ok() ? *c : EnginesConfig{};
}

struct Case {
  std::string id;
  std::string question;
  std::vector<std::string> history = {};
  std::string source = {};
  std::string department = {};
  std::string user = {};
  bool dated = false;  // planned by dated_planner()
};

// Deterministic 4-dimensional "embeddings" (the request shape is what is tested, not the model).
std::vector<std::vector<float>> vectors_for(const std::vector<std::string>& texts) {
  std::vector<std::vector<float>> out;
  for (const std::string& t : texts) {
    std::uint32_t h = 2166136261u;
    for (unsigned char ch : t) h = (h ^ ch) * 16777619u;
    std::vector<float> v;
    for (int j = 0; j < 4; ++j) {
      h = h * 1103515245u + 12345u;
      v.push_back(static_cast<float>(static_cast<int>((h >> 8) % 2001) - 1000) / 1000.0f);
    }
    out.push_back(v);
  }
  return out;
}

struct Prepared {
  Preparation prep;
  QueryAnalysis analysis;
};

Prepared prepare(const Case& c) {
  PrepareRequest req{c.question, c.history, "", std::nullopt};
  if (!c.source.empty()) req.source = c.source;
  const Planner& pl = c.dated ? dated_planner() : planner();
  auto prep = pl.prepare(req);
  EXPECT_TRUE(prep.ok()) << c.id << ": " << prep.error().to_string();
  AnalysisContext ctx;
  ctx.now = "2026-11-30T10:00:00+08:00";
  ctx.timezone = "Asia/Shanghai";
  if (!c.department.empty()) ctx.session_department = c.department;
  if (!c.user.empty()) ctx.session_user = c.user;
  auto a = pl.analyze(*prep, ctx);
  EXPECT_TRUE(a.ok()) << c.id << ": " << a.error().to_string();
  return {std::move(prep).value(), std::move(a).value()};
}

Result<EngineRequests> render(const Prepared& p, Engine e, const std::string& version,
                              const EnginesConfig& cfg, bool with_vectors = true) {
  // The texts are known only after rendering once (they do not depend on the engine: the probe
  // is Elasticsearch's, which can render any plan without vectors); vectors follow them.
  EngineInputs in{version, {}};
  if (!with_vectors) return to_engine(e, p.prep, p.analysis, in, cfg);
  auto first = to_engine(Engine::kElasticsearch, p.prep, p.analysis, {}, cfg);
  if (!first.ok() || first->texts.empty()) return to_engine(e, p.prep, p.analysis, in, cfg);
  in.vectors = vectors_for(first->texts);
  return to_engine(e, p.prep, p.analysis, in, cfg);
}

// The plans: every intent, category, filter kind, variants on/off, table, a direct answer.
const std::vector<Case>& cases() {
  static const std::vector<Case> c = {
      {"pricing-hotel", "差旅住宿标准是多少"},
      {"pricing-license", "软件许可价格是多少"},
      {"pricing-traditional", "報銷費用超過5000需要誰審批"},
      {"faq-reimburse-flow", "报销流程是什么"},
      {"compliance-contract", "劳动合同违约金合规吗"},
      {"compliance-last-month", "上个月的采购合同有哪些"},
      {"troubleshoot-vpn", "VPN连不上怎么办"},
      {"troubleshoot-errcode", "错误码E1024是什么意思"},
      {"summary-handbook-path", "员工手册里年假规定汇总一下"},
      {"table-city-rates", "各城市住宿标准表"},
      {"table-rates-list", "列出各级别员工的差旅补贴标准"},
      {"knowledge-multi", "新员工入职需要准备哪些材料以及办理哪些手续"},
      {"knowledge-compare", "年假和调休有什么区别"},
      {"dept-last-week", "法务部上周签署的合同清单"},
      {"table-finance-month", "财务部上个月的付款明细"},
      {"team-session-dept", "我们组本季度的报销汇总", {}, "", "研发中心"},
      {"team-no-session", "我们组本季度的报销汇总"},
      {"my-with-user", "我的报销单到哪了", {}, "", "", "u1024"},
      {"signed-only", "盖章版的保密协议在哪里看"},
      {"year-month", "2024年3月发布的考勤制度"},
      {"recent-days", "最近7天更新的IT公告"},
      {"english-leave", "how many days of annual leave do I get"},
      {"english-vpn", "VPN keeps disconnecting, what should I do"},
      {"explicit-source", "报销需要哪些发票", {}, "finance"},
      {"followup-approval", "那审批呢", {"报销流程是什么"}},
      {"followup-exceed", "那如果超过了怎么办", {"住宿费标准是多少"}},
      {"followup-sick", "病假呢", {"年假有几天"}},
      {"followup-english", "what about sick leave", {"how many days of annual leave"}},
      {"followup-switch", "VPN怎么申请", {"年假有几天"}},
      {"glossary-leave", "带薪年假怎么休"},
      {"glossary-trip", "出差补助怎么算"},
      {"short-query", "发票"},
      {"id-shape", "合同编号HT-2024-0312的审批进度"},
      {"direct-thanks", "好的，谢谢"},
      {"sources-widened", "研发岗位入职发什么笔记本"},
      {"knowledge-six-legs", "合同从起草、审批、盖章到归档，整个流程帮我梳理一下"},
      {"dated-published", "上个月发布的考勤制度", {}, "", "", "", true},
      {"dated-signed", "法务部上周签署的合同清单", {}, "", "", "", true},
      {"dated-updated", "最近7天更新的IT公告", {}, "", "", "", true},
  };
  return c;
}

// Every engine at the shipped config's version, then each gate.
struct Target {
  Engine engine;
  std::string version;
  std::string variant;  // "" = shipped [engines]; else a named config change
};

EnginesConfig with_variant(EnginesConfig c, const std::string& variant) {
  if (variant == "enterprise-after") {
    c.es_license = "enterprise";
    c.dedupe = Dedupe::kAfterFusion;
  } else if (variant == "enterprise-none") {
    c.es_license = "enterprise";
    c.dedupe = Dedupe::kNone;
  } else if (variant == "after") {
    c.dedupe = Dedupe::kAfterFusion;
  } else if (variant == "none") {
    c.dedupe = Dedupe::kNone;
  } else if (variant == "highlight") {
    c.es_license = "enterprise";
    c.highlight = true;
  } else if (variant == "highlight-none") {
    c.es_license = "enterprise";
    c.dedupe = Dedupe::kNone;
    c.highlight = true;
  } else if (variant == "epoch") {
    c.date_unit = "epoch_millis";
    c.date_end_field = "";
  }
  return c;
}

std::string file_name(const Case& c, const Target& t) {
  return c.id + (t.variant.empty() ? "" : "--" + t.variant) + "." +
         std::string(to_string(t.engine)) + "-" + t.version + ".json";
}

fs::path golden_dir() { return test::source_dir() / "tests" / "engines" / "golden"; }

std::vector<std::pair<const Case*, Target>> golden_targets() {
  std::vector<std::pair<const Case*, Target>> out;
  const std::vector<Target> defaults = {{Engine::kElasticsearch, "8.16", ""},
                                        {Engine::kOpenSearch, "2.19", ""},
                                        {Engine::kMilvus, "2.5", ""}};
  for (const Case& c : cases())
    for (const Target& t : defaults) out.push_back({&c, t});
  // Version gates, each on plans with filters (and on one with variants).
  const std::vector<Target> gates = {
      {Engine::kElasticsearch, "8.14", "enterprise-none"},   // window_size, preview
      {Engine::kElasticsearch, "8.14", "enterprise-after"},  // no collapse beside rrf: client
      {Engine::kElasticsearch, "8.16", "enterprise-after"},  // rank_window_size + collapse
      {Engine::kElasticsearch, "8.16", "enterprise-none"},
      {Engine::kOpenSearch, "2.10", "none"},                 // no RRF: client fusion
      {Engine::kOpenSearch, "2.19", "none"},                 // filters repeated per sub-query
      {Engine::kOpenSearch, "3.0", "none"},                  // hybrid.filter
      {Engine::kOpenSearch, "2.19", "after"},                // no collapse with hybrid: client
      {Engine::kOpenSearch, "3.0", "after"},                 // ... until 3.1
      {Engine::kOpenSearch, "3.1", "after"},                 // collapse with hybrid
      {Engine::kMilvus, "2.4", ""},                          // no BM25: dense legs only
      {Engine::kMilvus, "2.4", "after"},                     // no grouping on hybrid: client
      {Engine::kMilvus, "2.5", "after"},                     // group_by_field on hybrid_search
      {Engine::kMilvus, "2.5", "none"},
      {Engine::kElasticsearch, "8.16", "epoch"},             // epoch millis, one date field
      {Engine::kOpenSearch, "2.19", "epoch"},                // format epoch_millis
      {Engine::kMilvus, "2.5", "epoch"},
      {Engine::kElasticsearch, "9.1", "enterprise-after"},   // 9.x: the 8.16+ requests
      {Engine::kElasticsearch, "8.16", "highlight"},         // client legs: BM25 highlighted
      {Engine::kElasticsearch, "8.16", "highlight-none"},    // ... and beside the rrf retriever
      {Engine::kElasticsearch, "9.1", "highlight-none"},     // 9.x: left out, with a note
      {Engine::kOpenSearch, "2.19", "highlight-none"},       // hybrid: left out, with a note
      {Engine::kOpenSearch, "2.10", "highlight"},            // client legs: BM25 highlighted
      {Engine::kMilvus, "2.5", "highlight"},                 // none: a note
  };
  for (const Case& c : cases())
    if (c.id == "compliance-last-month" || c.id == "followup-approval" || c.id == "dept-last-week")
      for (const Target& t : gates) out.push_back({&c, t});
  // Two texts and a preferred leg: six document legs, more than a hybrid query takes.
  for (const Case& c : cases())
    if (c.id == "knowledge-six-legs") out.push_back({&c, {Engine::kOpenSearch, "2.19", "none"}});
  // Query variants on Milvus without dedupe: hybrid_search would drop the variants' legs.
  for (const Case& c : cases())
    if (c.id == "followup-english") out.push_back({&c, {Engine::kMilvus, "2.5", "none"}});
  return out;
}

TEST(EnginesGolden, RequestsMatchTheReviewedGoldenFiles) {
  const bool update = std::getenv("QAPLAN_UPDATE_GOLDEN") != nullptr;
  const EnginesConfig base = shipped_engines();
  std::set<std::string> written;
  for (const auto& [c, t] : golden_targets()) {
    const Prepared p = prepare(*c);
    auto r = render(p, t.engine, t.version, with_variant(base, t.variant));
    ASSERT_TRUE(r.ok()) << c->id << ": " << r.error().to_string();
    const std::string text = Json::parse(to_json(*r)).dump(1) + "\n";
    const fs::path path = golden_dir() / file_name(*c, t);
    written.insert(path.filename().string());
    if (update) {
      fs::create_directories(golden_dir());
      std::ofstream(path, std::ios::binary) << text;
      continue;
    }
    ASSERT_TRUE(fs::exists(path)) << path << " is missing (QAPLAN_UPDATE_GOLDEN=1 writes it)";
    EXPECT_EQ(test::slurp(path), text) << path.filename()
                                       << " differs (review, then QAPLAN_UPDATE_GOLDEN=1)";
  }
  // No stale golden file: each one is a case of this test.
  for (const auto& e : fs::directory_iterator(golden_dir()))
    EXPECT_TRUE(written.count(e.path().filename().string())) << "stale golden " << e.path();
}

TEST(EnginesGolden, CasesCoverEveryIntentCategoryFilterAndGate) {
  std::set<std::string> intents, categories, filters, modes;
  int plans = 0, variants_on = 0, variants_off = 0, tables = 0, direct = 0;
  for (const Case& c : cases()) {
    const Prepared p = prepare(c);
    if (!p.prep.plan) {
      ++direct;
      continue;
    }
    ++plans;
    intents.insert(std::string(to_string(p.prep.intent->intent)));
    categories.insert(std::string(to_string(p.prep.plan->question_category())));
    const auto& k = p.prep.plan->knobs();
    ++(k.use_query_variants ? variants_on : variants_off);
    tables += k.prefer_table;
    const Filters& f = p.analysis.filters;
    if (f.time) filters.insert("time");
    if (f.department) filters.insert("department");
    if (!f.tags.empty()) filters.insert("tags");
    if (f.path_prefix) filters.insert("path_prefix");
    if (f.is_signed) filters.insert("is_signed");
    if (f.user) filters.insert("user");
    if (f.uncertain) filters.insert("uncertain");
    if (!p.prep.effective_sources.empty()) filters.insert("sources");
  }
  EXPECT_GE(plans, 30);
  EXPECT_GE(direct, 1);
  EXPECT_EQ(intents.size(), 3u);
  EXPECT_EQ(categories.size(), 5u);
  EXPECT_GE(variants_on, 3);
  EXPECT_GE(variants_off, 3);
  EXPECT_GE(tables, 1);
  for (const char* f : {"time", "department", "tags", "path_prefix", "is_signed", "user",
                        "uncertain", "sources"})
    EXPECT_TRUE(filters.count(f)) << "no case sets the filter " << f;
  for (const auto& [c, t] : golden_targets()) {
    const Prepared p = prepare(*c);
    auto r = render(p, t.engine, t.version, with_variant(shipped_engines(), t.variant));
    ASSERT_TRUE(r.ok());
    modes.insert(std::string(to_string(t.engine)) + ":" + r->mode);
  }
  for (const char* m : {"elasticsearch:server_fusion", "elasticsearch:client_fusion",
                        "opensearch:server_fusion", "opensearch:client_fusion",
                        "milvus:server_fusion", "milvus:client_fusion", "elasticsearch:none"})
    EXPECT_TRUE(modes.count(m)) << "no golden in mode " << m;
}

// ---- hand-written gates ------------------------------------------------------------------------

Prepared followup() { return prepare({"f", "那审批呢", {"报销流程是什么"}}); }
// A validity range (上周, no 签署: the shipped KB has no signing date), a department and a tag.
// The department and tag read from words, as preferences (the shipped [filters] word_filters).
Prepared with_preferences() { return prepare({"d", "法务部上周的合同清单"}); }
// The same filters required (word_filters = "require"): what the gates below are about.
Prepared with_filters() {
  Prepared p = with_preferences();
  p.analysis.filters.preferred.clear();
  return p;
}

// The shipped config's version of each engine.
const char* default_version(Engine e) {
  return e == Engine::kElasticsearch ? "8.16" : e == Engine::kOpenSearch ? "2.19" : "2.5";
}

// Whether `want` is `j` or a value anywhere inside it.
bool holds(const Json& j, const Json& want) {
  if (j == want) return true;
  if (j.is_structured())
    for (const Json& v : j)
      if (holds(v, want)) return true;
  return false;
}

Json request_body(const EngineRequests& r, std::size_t i) { return Json::parse(r.requests.at(i).body); }

TEST(EnginesGates, ElasticsearchRrfWindowIsNamedByVersionAndIsTheTopK) {
  const Prepared p = with_filters();
  const EnginesConfig c = with_variant(shipped_engines(), "enterprise-none");
  auto r14 = render(p, Engine::kElasticsearch, "8.14", c);
  auto r16 = render(p, Engine::kElasticsearch, "8.16.3", c);
  ASSERT_TRUE(r14.ok() && r16.ok());
  EXPECT_EQ(r14->mode, "server_fusion");
  EXPECT_EQ(r16->version, "8.16");
  const Json b14 = request_body(*r14, 0), b16 = request_body(*r16, 0);
  const int top_k = p.prep.plan->knobs().faq_top_k;
  EXPECT_EQ(b14["retriever"]["rrf"]["window_size"], top_k);
  EXPECT_FALSE(b14["retriever"]["rrf"].contains("rank_window_size"));
  EXPECT_EQ(b16["retriever"]["rrf"]["rank_window_size"], top_k);
  EXPECT_NE(top_k, p.prep.plan->knobs().final_context_top_n);
  // min_score cannot stand beside a retriever; the threshold sits on the kNN child.
  EXPECT_FALSE(b16.contains("min_score"));
  for (const Json& child : b16["retriever"]["rrf"]["retrievers"])
    if (child.contains("knn")) {
      EXPECT_LE(child["knn"]["k"].get<int>(), child["knn"]["num_candidates"].get<int>());
      EXPECT_LE(child["knn"]["num_candidates"].get<int>(), 10000);
      EXPECT_TRUE(child["knn"].contains("similarity"));
    }
}

// Highlighted fragments where the engine gives them, and a note where it cannot: never a request
// the version would refuse, never a highlight on a kNN leg (it has no terms to mark).
TEST(EnginesGates, HighlightOnlyWhereTheVersionCanHighlight) {
  const Prepared p = with_filters();
  auto notes_of = [](const EngineRequests& r) {
    std::string all;
    for (const auto& n : r.notes) all += n + ";";
    return all;
  };
  auto client = render(p, Engine::kElasticsearch, "8.16", with_variant(shipped_engines(), "highlight"));
  ASSERT_TRUE(client.ok());
  ASSERT_EQ(client->mode, "client_fusion");
  int highlighted = 0;
  for (std::size_t i = 0; i < client->requests.size(); ++i) {
    const Json b = request_body(*client, i);
    const bool dense = b["query"].contains("knn");
    EXPECT_EQ(b.contains("highlight"), !dense) << client->requests[i].name;
    if (!dense) {
      EXPECT_TRUE(b["highlight"]["fields"].contains(shipped_engines().text_field));
      ++highlighted;
    }
  }
  EXPECT_GT(highlighted, 0);
  const EnginesConfig server = with_variant(shipped_engines(), "highlight-none");
  auto es8 = render(p, Engine::kElasticsearch, "8.16", server);
  auto es9 = render(p, Engine::kElasticsearch, "9.1", server);
  auto os = render(p, Engine::kOpenSearch, "2.19", server);
  auto milvus = render(p, Engine::kMilvus, "2.5", server);
  ASSERT_TRUE(es8.ok() && es9.ok() && os.ok() && milvus.ok());
  ASSERT_EQ(es8->mode, "server_fusion");
  ASSERT_EQ(es9->mode, "server_fusion");
  ASSERT_EQ(os->mode, "server_fusion");
  EXPECT_TRUE(request_body(*es8, 0).contains("highlight"));
  EXPECT_EQ(notes_of(*es8).find("not requested"), std::string::npos) << notes_of(*es8);
  EXPECT_FALSE(request_body(*es9, 0).contains("highlight"));
  EXPECT_NE(notes_of(*es9).find("highlight: not requested beside the rrf retriever"),
            std::string::npos) << notes_of(*es9);
  for (std::size_t i = 0; i < os->requests.size(); ++i)
    EXPECT_FALSE(request_body(*os, i).contains("highlight")) << os->requests[i].name;
  EXPECT_NE(notes_of(*os).find("highlight: not requested inside a hybrid query"),
            std::string::npos) << notes_of(*os);
  EXPECT_NE(notes_of(*milvus).find("highlight: Milvus returns no highlighted fragments"),
            std::string::npos);
  // Off (the default): no highlight anywhere, no highlight note.
  auto off = render(p, Engine::kElasticsearch, "8.16", with_variant(shipped_engines(), "enterprise-none"));
  ASSERT_TRUE(off.ok());
  for (std::size_t i = 0; i < off->requests.size(); ++i)
    EXPECT_FALSE(request_body(*off, i).contains("highlight"));
  EXPECT_EQ(notes_of(*off).find("highlight"), std::string::npos);
}

TEST(EnginesGates, ElasticsearchBasicLicenceOrDedupeBeforeFusionFusesOnTheClient) {
  const Prepared p = with_filters();
  auto basic = render(p, Engine::kElasticsearch, "8.16", shipped_engines());
  ASSERT_TRUE(basic.ok());
  EXPECT_EQ(basic->mode, "client_fusion");
  EXPECT_EQ(basic->requests.size(), basic->legs.size());  // one request per leg
  std::string reasons;
  for (const auto& s : basic->mode_reasons) reasons += s + ";";
  EXPECT_NE(reasons.find("Enterprise"), std::string::npos);
  EXPECT_NE(reasons.find("before_fusion"), std::string::npos);
  for (std::size_t i = 0; i < basic->requests.size(); ++i) {
    const Json b = request_body(*basic, i);
    EXPECT_EQ(b["collapse"]["field"], "parent_id");  // one hit per parent in every leg
    EXPECT_FALSE(b.contains("retriever"));
  }
  // 8.14 cannot collapse beside an rrf retriever.
  auto after14 = render(p, Engine::kElasticsearch, "8.14",
                        with_variant(shipped_engines(), "enterprise-after"));
  ASSERT_TRUE(after14.ok());
  EXPECT_EQ(after14->mode, "client_fusion");
  auto after16 = render(p, Engine::kElasticsearch, "8.16",
                        with_variant(shipped_engines(), "enterprise-after"));
  ASSERT_TRUE(after16.ok());
  EXPECT_EQ(after16->mode, "server_fusion");
  EXPECT_EQ(request_body(*after16, 0)["collapse"]["field"], "parent_id");
}

TEST(EnginesGates, DocumentFiltersGoInsideKnnAndFaqGetsTheSourceOnly) {
  const Prepared p = with_filters();
  ASSERT_TRUE(p.analysis.filters.department);
  ASSERT_TRUE(p.analysis.filters.time);
  auto r = render(p, Engine::kElasticsearch, "8.16", shipped_engines());
  ASSERT_TRUE(r.ok());
  for (std::size_t i = 0; i < r->requests.size(); ++i) {
    const Json b = request_body(*r, i);
    const bool doc = r->requests[i].collection == "doc";
    const Json& filter = b["query"].contains("knn") ? b["query"]["knn"]["filter"]
                                                    : b["query"]["bool"]["filter"];
    const std::string f = filter.dump();
    EXPECT_EQ(f.find("department") != std::string::npos, doc) << f;
    EXPECT_EQ(f.find("effective_from") != std::string::npos, doc) << f;
  }
}

TEST(EnginesGates, OpenSearchFusesFrom219RepeatsFiltersOn2xAndFiltersTheHybridFrom30) {
  const Prepared p = with_filters();
  const EnginesConfig none = with_variant(shipped_engines(), "none");
  auto r210 = render(p, Engine::kOpenSearch, "2.10", none);
  auto r219 = render(p, Engine::kOpenSearch, "2.19", none);
  auto r30 = render(p, Engine::kOpenSearch, "3.0", none);
  ASSERT_TRUE(r210.ok() && r219.ok() && r30.ok());
  EXPECT_EQ(r210->mode, "client_fusion");
  EXPECT_EQ(r219->mode, "server_fusion");
  // The pipeline first, then one hybrid search per collection naming it.
  ASSERT_EQ(r219->requests[0].api, "put_search_pipeline");
  const Json pipe = request_body(*r219, 0);
  EXPECT_EQ(pipe["phase_results_processors"][0]["score-ranker-processor"]["combination"]["technique"],
            "rrf");
  const std::size_t doc = r219->requests.size() - 1;
  // The pipeline's id carries k: two configs with different k never share (and overwrite) one.
  EXPECT_EQ(r219->requests[0].index, "qaplan-rrf-k60");
  EXPECT_EQ(Json::parse(r219->requests[doc].params)["search_pipeline"], "qaplan-rrf-k60");
  const Json h219 = request_body(*r219, doc)["query"]["hybrid"];
  EXPECT_FALSE(h219.contains("filter"));
  EXPECT_LE(h219["queries"].size(), 5u);
  EXPECT_EQ(h219["pagination_depth"], p.prep.plan->knobs().doc_top_k);
  for (const Json& q : h219["queries"]) EXPECT_NE(q.dump().find("department"), std::string::npos);
  const Json h30 = request_body(*r30, r30->requests.size() - 1)["query"]["hybrid"];
  EXPECT_NE(h30["filter"].dump().find("department"), std::string::npos);
  for (const Json& q : h30["queries"]) EXPECT_EQ(q.dump().find("department"), std::string::npos);
}

TEST(EnginesGates, OpenSearchWithMoreThanFiveLegsFusesOnTheClient) {
  Prepared p = followup();
  // Add variants until a collection has more than five legs.
  for (int i = 0; i < 3; ++i)
    p.analysis.variants.push_back({"报销审批变体" + std::to_string(i), "multi_query", false, "t"});
  ASSERT_TRUE(p.prep.plan->knobs().use_query_variants);
  auto r = render(p, Engine::kOpenSearch, "2.19", with_variant(shipped_engines(), "none"));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->mode, "client_fusion");
  std::string reasons;
  for (const auto& s : r->mode_reasons) reasons += s;
  EXPECT_NE(reasons.find("at most 5"), std::string::npos) << reasons;
  // A plan that has six document legs of its own (two texts, a preferred leg): each leg its own
  // request, collapsed, and no pipeline.
  const Prepared six = prepare({"six", "合同从起草、审批、盖章到归档，整个流程帮我梳理一下"});
  auto r6 = render(six, Engine::kOpenSearch, "2.19", with_variant(shipped_engines(), "none"));
  ASSERT_TRUE(r6.ok());
  std::size_t doc_legs = 0;
  for (const Leg& l : r6->legs) doc_legs += l.collection == "doc";
  EXPECT_GT(doc_legs, 5u);
  EXPECT_EQ(r6->mode, "client_fusion");
  std::string why;
  for (const auto& s : r6->mode_reasons) why += s;
  EXPECT_NE(why.find(std::to_string(doc_legs) + " legs: a hybrid query takes at most 5"),
            std::string::npos)
      << why;
  EXPECT_EQ(r6->requests.size(), r6->legs.size());
  for (const EngineRequest& q : r6->requests) {
    EXPECT_EQ(q.api, "search") << q.name;
    EXPECT_EQ(Json::parse(q.body)["collapse"]["field"], "parent_id") << q.name;
  }
}

// A hybrid query collapses by parent from 3.1; before, after_fusion would lose the collapse, so
// the legs are fused on the client, each collapsed, and no pipeline is emitted.
TEST(EnginesGates, OpenSearchCollapsesAfterFusionOnlyFrom31) {
  const Prepared p = with_filters();
  const EnginesConfig after = with_variant(shipped_engines(), "after");
  for (const char* version : {"2.19", "3.0"}) {
    SCOPED_TRACE(version);
    auto r = render(p, Engine::kOpenSearch, version, after);
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->mode, "client_fusion");
    std::string reasons;
    for (const auto& x : r->mode_reasons) reasons += x + ";";
    EXPECT_NE(reasons.find("collapse with a hybrid query needs 3.1"), std::string::npos) << reasons;
    EXPECT_EQ(r->requests.size(), r->legs.size());  // one request per leg, none lost
    for (const EngineRequest& q : r->requests) {
      EXPECT_EQ(q.api, "search") << q.name;  // no search pipeline
      const Json b = Json::parse(q.body);
      EXPECT_FALSE(b["query"].contains("hybrid")) << q.name;
      EXPECT_EQ(b["collapse"]["field"], "parent_id") << q.name;
    }
  }
  auto r31 = render(p, Engine::kOpenSearch, "3.1", after);
  ASSERT_TRUE(r31.ok());
  EXPECT_EQ(r31->mode, "server_fusion");
  EXPECT_EQ(request_body(*r31, r31->requests.size() - 1)["collapse"]["field"], "parent_id");
}

// 发布 / 签署 / 更新 filter the documents' own event date when [filters] names its field: a
// [from, to) range on that field alone, never the validity overlap, on every engine.
TEST(EnginesGates, EventDatesFilterTheirOwnFieldOnEveryEngine) {
  const std::pair<const char*, const char*> cases[] = {{"上个月发布的考勤制度", "published_on"},
                                                       {"法务部上周签署的合同清单", "signed_on"},
                                                       {"最近7天更新的IT公告", "updated_at"}};
  for (const auto& [question, field] : cases) {
    SCOPED_TRACE(question);
    const Prepared p = prepare({"e", question, {}, "", "", "", true});
    ASSERT_TRUE(p.analysis.filters.time);
    const TimeRange& t = *p.analysis.filters.time;
    ASSERT_EQ(t.field, field);
    const Json want = {
        {"range", {{field, {{"gte", t.from}, {"lt", t.to}, {"format", "yyyy-MM-dd"}}}}}};
    for (Engine e : {Engine::kElasticsearch, Engine::kOpenSearch, Engine::kMilvus}) {
      SCOPED_TRACE(to_string(e));
      auto r = render(p, e, default_version(e), shipped_engines());
      ASSERT_TRUE(r.ok());
      int dated = 0;
      for (const EngineRequest& q : r->requests) {
        EXPECT_EQ(q.body.find("effective_"), std::string::npos) << q.name;  // no validity overlap
        const bool has_field = q.body.find(field) != std::string::npos;
        EXPECT_EQ(has_field, q.collection == "doc") << q.name;  // FAQ entries carry no dates
        if (!has_field) continue;
        ++dated;
        if (e == Engine::kMilvus) {
          const std::string expr = Json::parse(q.body).value("filter", std::string());
          EXPECT_NE(expr.find(std::string(field) + " >= "), std::string::npos) << expr;
          EXPECT_NE(expr.find(std::string(field) + " < "), std::string::npos) << expr;
        } else {
          EXPECT_TRUE(holds(Json::parse(q.body), want)) << q.body;
        }
      }
      EXPECT_GT(dated, 0);
      for (const KnobMapping& m : r->knobs)
        if (m.name == "filters.time") {
          EXPECT_EQ(m.status, "request");
          EXPECT_NE(m.detail.find(std::string("on ") + field + " (" + t.date + ")"),
                    std::string::npos)
              << m.detail;
        }
    }
  }
  // Milvus reads epoch seconds of local midnight: 上个月 from 2026-11-30 (Asia/Shanghai) is
  // [2026-10-01, 2026-11-01).
  auto mv = render(prepare({"e", "上个月发布的考勤制度", {}, "", "", "", true}), Engine::kMilvus,
                   "2.5", shipped_engines());
  ASSERT_TRUE(mv.ok());
  EXPECT_NE(
      mv->requests.back().body.find("published_on >= 1790784000 and published_on < 1793462400"),
      std::string::npos)
      << mv->requests.back().body;
}

// Without the event date's field the range is no filter, and the knob says why (not only the
// analysis' reasons): a host reading `knobs` sees the date was dropped on purpose.
TEST(EnginesGates, ADroppedEventDateSaysWhyInTheTimeKnob) {
  const Prepared p = prepare({"u", "最近7天更新的IT公告"});
  ASSERT_FALSE(p.analysis.filters.time);
  for (Engine e : {Engine::kElasticsearch, Engine::kOpenSearch, Engine::kMilvus}) {
    SCOPED_TRACE(to_string(e));
    auto r = render(p, e, default_version(e), shipped_engines());
    ASSERT_TRUE(r.ok());
    for (const EngineRequest& q : r->requests) {
      EXPECT_EQ(q.body.find("\"range\""), std::string::npos) << q.name;
      EXPECT_EQ(q.body.find("effective_"), std::string::npos) << q.name;
    }
    int seen = 0;
    for (const KnobMapping& m : r->knobs)
      if (m.name == "filters.time") {
        ++seen;
        EXPECT_EQ(m.status, "not_set");
        EXPECT_NE(m.detail.find("needs [filters] updated_date_field"), std::string::npos)
            << m.detail;
        EXPECT_NE(m.detail.find("never the validity range"), std::string::npos) << m.detail;
      }
    EXPECT_EQ(seen, 1);
  }
  // No date in the question: nothing to explain.
  auto none =
      render(prepare({"n", "报销流程是什么"}), Engine::kElasticsearch, "8.16", shipped_engines());
  ASSERT_TRUE(none.ok());
  for (const KnobMapping& m : none->knobs)
    if (m.name == "filters.time") EXPECT_EQ(m.detail, "");
}

// A scope of several candidate sources (the evidence too weak or split for one) is a widened
// scope, and the request says so and why; one source says where it came from.
TEST(EnginesGates, AWidenedSourceScopeSaysWhy) {
  const Prepared p = prepare({"w", "研发岗位入职发什么笔记本"});
  ASSERT_FALSE(p.prep.effective_source);
  ASSERT_GT(p.prep.effective_sources.size(), 1u);
  auto r = render(p, Engine::kElasticsearch, "8.16", shipped_engines());
  ASSERT_TRUE(r.ok());
  const KnobMapping* sources = nullptr;
  for (const KnobMapping& m : r->knobs)
    if (m.name == "filters.sources") sources = &m;
  ASSERT_TRUE(sources);
  EXPECT_EQ(sources->status, "request");
  for (const std::string& x : p.prep.effective_sources)
    EXPECT_NE(sources->detail.find(x), std::string::npos) << sources->detail;
  EXPECT_NE(sources->detail.find("candidates: the evidence named several sources or was too weak"),
            std::string::npos)
      << sources->detail;
  EXPECT_NE(sources->detail.find(p.prep.source.detail), std::string::npos) << sources->detail;
  std::string notes;
  for (const std::string& n : r->notes) notes += n + ";";
  EXPECT_NE(notes.find("sources: widened to the candidates"), std::string::npos) << notes;
  EXPECT_NE(notes.find("if it returns no evidence, search again"), std::string::npos) << notes;
  // The host's source filter (not the question's), and a source the question named: no
  // widening note; only the planner's own scope has a fallback to retry.
  for (const Case& c : {Case{"h", "报销需要哪些发票", {}, "hr"}, Case{"q", "差旅住宿标准是多少"}}) {
    const Prepared one = prepare(c);
    ASSERT_TRUE(one.prep.effective_source) << c.question;
    auto o = render(one, Engine::kOpenSearch, "2.19", shipped_engines());
    ASSERT_TRUE(o.ok());
    for (const KnobMapping& m : o->knobs)
      if (m.name == "filters.sources")
        EXPECT_NE(m.detail.find(c.source.empty() ? "decided by" : "the request's source filter"),
                  std::string::npos)
            << m.detail;
    std::string said;
    for (const std::string& n : o->notes) said += n + ";";
    EXPECT_EQ(said.find("sources: widened"), std::string::npos) << said;
    EXPECT_EQ(said.find("search again without the source filter") != std::string::npos,
              c.source.empty())
        << said;
  }
}

TEST(EnginesGates, MilvusRepeatsFiltersPerSubRequestAndGatesBm25AndGrouping) {
  const Prepared p = with_filters();
  auto r25 = render(p, Engine::kMilvus, "2.5", with_variant(shipped_engines(), "none"));
  ASSERT_TRUE(r25.ok());
  EXPECT_EQ(r25->mode, "server_fusion");
  const Json b = request_body(*r25, r25->requests.size() - 1);
  EXPECT_EQ(b["rerank"]["strategy"], "rrf");
  EXPECT_FALSE(b.contains("group_by_field"));  // no dedupe asked
  EXPECT_FALSE(b.contains("filter"));  // per sub-request, not on top
  for (const Json& sub : b["data"]) EXPECT_NE(sub["expr"].get<std::string>().find("department"), std::string::npos);
  bool has_text_leg = false;
  for (const Json& sub : b["data"]) has_text_leg |= sub["data"][0].is_string();
  EXPECT_TRUE(has_text_leg);  // the BM25 function leg takes text
  auto r24 = render(p, Engine::kMilvus, "2.4", shipped_engines());
  ASSERT_TRUE(r24.ok());
  for (const Leg& l : r24->legs) EXPECT_EQ(l.modality, "dense");
  bool reported = false;
  for (const KnobMapping& m : r24->knobs) reported |= m.name == "bm25_legs" && m.status == "unsupported";
  EXPECT_TRUE(reported);
  auto after24 = render(p, Engine::kMilvus, "2.4", with_variant(shipped_engines(), "after"));
  ASSERT_TRUE(after24.ok());
  EXPECT_EQ(after24->mode, "single_leg");  // dense only: one leg per collection
  EXPECT_TRUE(std::any_of(r25->notes.begin(), r25->notes.end(), [](const std::string& n) {
    return n.find("epoch") != std::string::npos;
  }));
}

// A request set hybrid_search cannot carry whole is fused on the client, with the reason: a
// group-by the fused list cannot honour, two legs on one vector field (query variants).
TEST(EnginesGates, MilvusFusesOnTheClientWhatHybridSearchWouldDrop) {
  auto reasons_of = [](const EngineRequests& r) {
    std::string all;
    for (const std::string& s : r.mode_reasons) all += s + ";";
    return all;
  };
  const Prepared p = with_filters();
  auto after = render(p, Engine::kMilvus, "2.5", with_variant(shipped_engines(), "after"));
  ASSERT_TRUE(after.ok());
  EXPECT_EQ(after->mode, "client_fusion");
  EXPECT_NE(reasons_of(*after).find("primary key"), std::string::npos) << reasons_of(*after);
  const Prepared f = prepare({"fe", "what about sick leave", {"how many days of annual leave"}});
  ASSERT_TRUE(f.prep.plan && f.prep.plan->knobs().use_query_variants);
  auto variants = render(f, Engine::kMilvus, "2.5", with_variant(shipped_engines(), "none"));
  ASSERT_TRUE(variants.ok());
  ASSERT_GT(variants->texts.size(), 1u);
  EXPECT_EQ(variants->mode, "client_fusion");
  EXPECT_NE(reasons_of(*variants).find("one sub-request per vector field"), std::string::npos)
      << reasons_of(*variants);
  // Every leg has its own request: none is lost.
  std::size_t legs = 0;
  for (const EngineRequest& q : variants->requests) legs += q.legs.size();
  EXPECT_EQ(legs, variants->legs.size());
  for (const EngineRequest& q : variants->requests) {
    const Json b = Json::parse(q.body);
    EXPECT_EQ(b["group_by_field"], "parent_id") << q.name;  // what fuse_client fuses: parents
  }
}

// Client and single-leg requests return parents (every leg collapsed, as fuse_client and the
// executor count them), and every leg asks for enough chunks to find top_k of them.
TEST(EnginesGates, EveryLegYieldsTopKParents) {
  const Prepared p = with_filters();
  const int k = p.prep.plan->knobs().doc_top_k;
  for (const char* variant : {"", "after", "none"}) {
    SCOPED_TRACE(variant);
    EnginesConfig c = with_variant(shipped_engines(), variant);
    auto es = render(p, Engine::kElasticsearch, "8.16", c);  // Basic licence: client fusion
    auto os = render(p, Engine::kOpenSearch, "2.10", c);     // no RRF: client fusion
    auto single = render(p, Engine::kOpenSearch, "2.19", c, false);
    ASSERT_TRUE(es.ok() && os.ok() && single.ok());
    for (const EngineRequests* r : {&*es, &*os, &*single})
      for (const EngineRequest& q : r->requests) {
        const Json b = Json::parse(q.body);
        EXPECT_EQ(b["collapse"]["field"], "parent_id") << q.name;
        if (q.collection != "doc") continue;
        EXPECT_EQ(b["size"], k) << q.name;
        const Json& query = b["query"];
        if (!query.contains("knn")) continue;
        const Json& knn =
            query["knn"].contains("embedding") ? query["knn"]["embedding"] : query["knn"];
        const int n = knn.value("k", 0);  // chunks per shard: ES k from 8.15, OpenSearch k
        EXPECT_EQ(n, c.candidate_factor * k) << q.name;
      }
  }
  // Elasticsearch: a knn query without k keeps only `size` chunks per shard from 8.18 / 9.0, so k
  // carries the headroom from 8.15 (the first knn query with k); 8.14 keeps num_candidates.
  for (const char* version : {"8.14", "8.16", "9.1"}) {
    SCOPED_TRACE(version);
    const EnginesConfig c = shipped_engines();
    auto es = render(p, Engine::kElasticsearch, version, c);
    ASSERT_TRUE(es.ok());
    ASSERT_EQ(es->mode, "client_fusion");
    const bool with_k = std::string(version) != "8.14";
    int dense = 0;
    for (const EngineRequest& q : es->requests) {
      const Json b = Json::parse(q.body);
      if (!b["query"].contains("knn")) continue;
      ++dense;
      const Json& knn = b["query"]["knn"];
      const int want = c.candidate_factor * b["size"].get<int>();
      EXPECT_EQ(knn.contains("k"), with_k) << q.name;
      if (with_k) EXPECT_EQ(knn["k"], want) << q.name;
      EXPECT_GE(knn["num_candidates"].get<int>(), want) << q.name;
    }
    EXPECT_EQ(dense, 2);
    for (const KnobMapping& m : es->knobs)
      if (m.name == "doc_top_k")
        EXPECT_NE(m.detail.find(with_k ? "knn k " + std::to_string(c.candidate_factor * k)
                                       : std::string("has no k")),
                  std::string::npos)
            << m.detail;
  }
  // Server fusion collapsing after fusion: each child and the window hold factor × k chunks.
  auto es = render(p, Engine::kElasticsearch, "8.16", with_variant(shipped_engines(), "enterprise-after"));
  ASSERT_TRUE(es.ok());
  const Json rrf = request_body(*es, es->requests.size() - 1)["retriever"]["rrf"];
  EXPECT_EQ(rrf["rank_window_size"], 3 * k);
  for (const Json& child : rrf["retrievers"])
    if (child.contains("knn")) EXPECT_EQ(child["knn"]["k"], 3 * k);
  EXPECT_EQ(request_body(*es, es->requests.size() - 1)["size"], k);
  auto os = render(p, Engine::kOpenSearch, "3.1", with_variant(shipped_engines(), "after"));
  ASSERT_TRUE(os.ok());
  const Json hybrid = request_body(*os, os->requests.size() - 1)["query"]["hybrid"];
  EXPECT_EQ(hybrid["pagination_depth"], 3 * k);
  EXPECT_EQ(hybrid["queries"][0]["knn"]["embedding"]["k"], 3 * k);
  EXPECT_EQ(hybrid["queries"][0]["knn"]["embedding"]["method_parameters"]["ef_search"], 6 * k);
  // The factor is the config's.
  EnginesConfig five = shipped_engines();
  five.candidate_factor = 5;
  auto es5 = render(p, Engine::kElasticsearch, "8.16", five);
  ASSERT_TRUE(es5.ok());
  for (const EngineRequest& q : es5->requests)
    if (q.collection == "doc" && q.body.find("\"knn\"") != std::string::npos)
      EXPECT_EQ(Json::parse(q.body)["query"]["knn"]["k"], 5 * k);
}

// A department or tag read from words is a preference: one more dense and BM25 leg of the main
// text on documents requires it (RRF ranks matching sections higher), the other legs do not, and
// the in-process executor fuses the same lists (EnginesEquivalence).
TEST(EnginesGates, PreferredFiltersAreExtraLegsNotHardFilters) {
  const Prepared p = with_preferences();
  ASSERT_EQ(p.analysis.filters.preferred, (std::vector<std::string>{"department", "tags"}));
  auto es = render(p, Engine::kElasticsearch, "8.16", shipped_engines());
  ASSERT_TRUE(es.ok());
  int preferred = 0;
  for (const EngineRequest& q : es->requests) {
    const bool pref = q.name.ends_with(":preferred");
    preferred += pref;
    EXPECT_EQ(q.body.find("\"department\":\"法务部\"") != std::string::npos, pref) << q.name;
    EXPECT_EQ(q.body.find("\"tags\"") != std::string::npos, pref) << q.name;
    if (q.collection == "doc") EXPECT_NE(q.body.find("effective_from"), std::string::npos) << q.name;
    if (pref) {
      EXPECT_EQ(q.collection, "doc");
      EXPECT_TRUE(es->legs[q.legs[0]].preferred);
      EXPECT_EQ(es->legs[q.legs[0]].text, 0u);  // the main text
    }
  }
  EXPECT_EQ(preferred, 2);  // dense and BM25
  for (const KnobMapping& m : es->knobs)
    if (m.name == "filters.department" || m.name == "filters.tags")
      EXPECT_NE(m.detail.find("preferred"), std::string::npos) << m.name << ": " << m.detail;
  // Server fusion: the preferred children carry the preference, the hybrid's common filter not.
  auto os = render(p, Engine::kOpenSearch, "3.0", with_variant(shipped_engines(), "none"));
  ASSERT_TRUE(os.ok());
  ASSERT_EQ(os->mode, "server_fusion");
  const Json hybrid = request_body(*os, os->requests.size() - 1)["query"]["hybrid"];
  EXPECT_EQ(hybrid["filter"].dump().find("\"department\""), std::string::npos);
  EXPECT_EQ(hybrid["queries"].size(), 4u);
  EXPECT_NE(hybrid["queries"][2].dump().find("\"department\""), std::string::npos);
  EXPECT_EQ(hybrid["queries"][0].dump().find("\"department\""), std::string::npos);
  // Milvus: a preferred leg is a second sub-request on the same vector field.
  auto mv = render(p, Engine::kMilvus, "2.5", with_variant(shipped_engines(), "none"));
  ASSERT_TRUE(mv.ok());
  EXPECT_EQ(mv->mode, "client_fusion");
  std::string reasons;
  for (const std::string& r : mv->mode_reasons) reasons += r;
  EXPECT_NE(reasons.find("preferred leg"), std::string::npos) << reasons;
  for (const EngineRequest& q : mv->requests)
    EXPECT_EQ(q.body.find("department ==") != std::string::npos, q.name.ends_with(":preferred"))
        << q.name;
}

// Epoch bounds on an ES/OpenSearch `date` field say their unit (a bare number is read as epoch
// milliseconds); on a `long` field they are plain numbers.
TEST(EnginesGates, EpochRangesCarryTheirFormatOnDateFields) {
  const Prepared p = with_filters();
  for (auto [unit, format] : {std::pair{"epoch_seconds", "epoch_second"},
                              std::pair{"epoch_millis", "epoch_millis"}}) {
    EnginesConfig c = shipped_engines();
    c.date_unit = unit;
    for (Engine e : {Engine::kElasticsearch, Engine::kOpenSearch}) {
      auto r = render(p, e, e == Engine::kElasticsearch ? "8.16" : "2.19", c);
      ASSERT_TRUE(r.ok());
      const std::string body = r->requests.back().body;
      EXPECT_NE(body.find(std::string("\"format\":\"") + format + "\""), std::string::npos) << body;
    }
    c.date_field_type = "long";
    auto r = render(p, Engine::kElasticsearch, "8.16", c);
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->requests.back().body.find("\"format\""), std::string::npos);
    EXPECT_NE(r->requests.back().body.find("\"range\""), std::string::npos);
  }
}

// Every hit carries what the prompt needs beside its ids.
TEST(EnginesGates, HitsReturnThePassageFieldsForThePrompt) {
  const Prepared p = with_filters();
  for (Engine e : {Engine::kElasticsearch, Engine::kOpenSearch, Engine::kMilvus}) {
    auto r = render(p, e, e == Engine::kElasticsearch ? "8.16" : e == Engine::kOpenSearch ? "2.19" : "2.5",
                    shipped_engines());
    ASSERT_TRUE(r.ok());
    for (const EngineRequest& q : r->requests) {
      if (q.api == "put_search_pipeline") continue;
      const Json b = Json::parse(q.body);
      const Json& fields = e == Engine::kMilvus ? b["output_fields"] : b["_source"];
      auto has = [&](const char* f) { return std::find(fields.begin(), fields.end(), f) != fields.end(); };
      EXPECT_TRUE(has("text")) << q.name;
      EXPECT_TRUE(has(q.collection == "faq" ? "answer" : "title")) << q.name;
      EXPECT_TRUE(has("parent_id")) << q.name;
    }
  }
}

// Elasticsearch 9.x takes the 8.16 requests (rank_window_size, collapse beside rrf).
TEST(EnginesGates, Elasticsearch9TakesThe816Requests) {
  const Prepared p = with_filters();
  const EnginesConfig c = with_variant(shipped_engines(), "enterprise-after");
  auto r16 = render(p, Engine::kElasticsearch, "8.16", c);
  auto r9 = render(p, Engine::kElasticsearch, "9.1", c);
  ASSERT_TRUE(r16.ok() && r9.ok());
  EXPECT_EQ(r9->version, "9.1");
  EXPECT_EQ(r9->mode, "server_fusion");
  ASSERT_EQ(r9->requests.size(), r16->requests.size());
  for (std::size_t i = 0; i < r9->requests.size(); ++i)
    EXPECT_EQ(r9->requests[i].body, r16->requests[i].body);
}

TEST(EnginesGates, EveryKnobIsReportedAndNoneSilentlyDropped) {
  for (Engine e : {Engine::kElasticsearch, Engine::kOpenSearch, Engine::kMilvus}) {
    auto r = render(with_filters(), e, e == Engine::kElasticsearch ? "8.16"
                                       : e == Engine::kOpenSearch  ? "2.19"
                                                                   : "2.5",
                    shipped_engines());
    ASSERT_TRUE(r.ok());
    std::set<std::string> named;
    for (const KnobMapping& m : r->knobs) {
      named.insert(m.name);
      EXPECT_TRUE(m.status == "request" || m.status == "client" || m.status == "host" ||
                  m.status == "unsupported" || m.status == "not_set")
          << m.name << " " << m.status;
    }
    for (const KnobInfo& k : kPlanKnobs) EXPECT_TRUE(named.count(std::string(k.name))) << k.name;
    for (const char* f : {"filters.sources", "filters.time", "filters.department", "filters.tags",
                          "filters.path_prefix", "filters.is_signed", "filters.user", "dedupe",
                          "routing.mode", "routing.index", "routing.model_tier"})
      EXPECT_TRUE(named.count(f)) << f;
  }
}

TEST(EnginesGates, WithoutVectorsTheDenseLegsAreReportedNotFaked) {
  const Prepared p = with_filters();
  auto r = render(p, Engine::kOpenSearch, "2.19", shipped_engines(), false);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->mode, "single_leg");
  for (const Leg& l : r->legs) EXPECT_EQ(l.modality, "bm25");
  bool reported = false;
  for (const KnobMapping& m : r->knobs) reported |= m.name == "dense_legs" && m.status == "unsupported";
  EXPECT_TRUE(reported);
  // ES with an inference model embeds the text itself.
  EnginesConfig c = shipped_engines();
  c.es_embedding_model_id = "my-e5";
  auto es = render(p, Engine::kElasticsearch, "8.16", c, false);
  ASSERT_TRUE(es.ok());
  EXPECT_NE(es->requests[0].body.find("query_vector_builder"), std::string::npos);
}

TEST(EnginesGates, BadInputsAreRefusedWithTheField) {
  const Prepared p = with_filters();
  EngineInputs in{"10.0", {}};
  auto bad_version = to_elasticsearch(p.prep, p.analysis, in, shipped_engines());
  ASSERT_FALSE(bad_version.ok());
  EXPECT_NE(bad_version.error().message.find("8.14 … 9.x"), std::string::npos);
  for (const char* v : {"8.13", "7.17"}) {
    EngineInputs old{v, {}};
    EXPECT_FALSE(to_elasticsearch(p.prep, p.analysis, old, shipped_engines()).ok()) << v;
  }
  for (const char* v : {"2.3", "x", "2.", "2.5.x", ""}) {
    EngineInputs i{v, {}};
    EnginesConfig c = shipped_engines();
    c.milvus_version = "";
    EXPECT_FALSE(to_milvus(p.prep, p.analysis, i, c).ok()) << v;
  }
  EngineInputs wrong_count{"", {{1.0f}, {2.0f}}};
  auto r = to_opensearch(p.prep, p.analysis, wrong_count, shipped_engines());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().field, "vectors");
  EngineInputs nan{"", {{std::numeric_limits<float>::quiet_NaN()}}};
  EXPECT_FALSE(to_opensearch(p.prep, p.analysis, nan, shipped_engines()).ok());
  // A version that can run no leg of the plan is refused, never an empty success: Milvus 2.4
  // has no BM25 function and no vectors were given.
  auto nothing = render(p, Engine::kMilvus, "2.4", shipped_engines(), false);
  ASSERT_FALSE(nothing.ok());
  EXPECT_EQ(nothing.error().field, "vectors");
  EXPECT_NE(nothing.error().message.find("BM25"), std::string::npos);
  // A direct answer gives no request at all.
  const Prepared thanks = prepare({"t", "好的，谢谢"});
  auto none = to_milvus(thanks.prep, thanks.analysis, {}, shipped_engines());
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(none->mode, "none");
  EXPECT_TRUE(none->requests.empty());
}

TEST(EnginesConfigTest, ReadsStrictlyWithLinesAndDefaults) {
  auto ok = parse_engines_config("[engines]\nparent_field = \"section_id\"\n[engines.milvus]\n"
                                 "version = \"2.4\"\n[engines.milvus.search_params]\nef = 64\n",
                                 "r.toml");
  ASSERT_TRUE(ok.ok()) << ok.error().to_string();
  EXPECT_EQ(ok->parent_field, "section_id");
  EXPECT_EQ(ok->milvus_version, "2.4");
  ASSERT_EQ(ok->milvus_search_params.size(), 1u);
  EXPECT_EQ(ok->text_field, "text");  // default kept
  const std::pair<const char*, const char*> bad[] = {
      {"[engines]\nparent_feild = \"x\"\n", "parent_feild"},
      {"[engines]\ndate_unit = \"days\"\n", "date_unit"},
      {"[engines]\nrrf_k = 0\n", "rrf_k"},
      {"[engines]\nrrf_k = 60.5\n", "rrf_k"},  // engines take an integer rank constant
      {"[engines]\nrrf_k = 10001\n", "rrf_k"},  // OpenSearch's rank_constant cap
      {"[engines]\ncandidate_factor = 0\n", "candidate_factor"},
      {"[engines]\ndate_field_type = \"keyword\"\n", "date_field_type"},
      {"[engines]\ndoc_return_fields = [\"text\", \"\"]\n", "doc_return_fields"},
      {"[engines]\ndedupe = \"sometimes\"\n", "dedupe"},
      {"[engines]\ntext_field = \"\"\n", "text_field"},
      {"[engines.elasticsearch]\nversion = \"7.17\"\n", "version"},
      {"[engines.elasticsearch]\nlicense = \"free\"\n", "license"},
      {"[engines.opensearch]\nversion = \"1.3\"\n", "version"},
  };
  for (const auto& [text, key] : bad) {
    auto r = parse_engines_config(text, "r.toml");
    ASSERT_FALSE(r.ok()) << text;
    const std::string msg = r.error().to_string();
    EXPECT_NE(msg.find("r.toml:"), std::string::npos) << msg;  // file:line
    EXPECT_NE(msg.find(key), std::string::npos) << msg;
  }
}

// ---- client fusion -----------------------------------------------------------------------------

TEST(EnginesClientFusion, DedupesCutsFusesAndPutsTablesFirst) {
  EngineRequests r;
  r.rrf_k = 60;
  r.prefer_table = true;
  r.legs = {{"doc", "dense", 0, 2}, {"doc", "bm25", 0, 2}};
  LegHits dense{{"a", "a", "b", "c"}, {false, false, true, false}, {}};
  LegHits bm25{{"c", "b"}, {false, true}, {}};
  auto f = fuse_client(r, {dense, bm25});
  ASSERT_TRUE(f.ok()) << f.error().to_string();
  // dense → [a, b] (a's second hit dropped, cut to 2), bm25 → [c, b]; b is in both lists.
  ASSERT_EQ(f->doc.size(), 2u);
  EXPECT_EQ(f->doc[0].parent, "b");  // the table row, and the best fused score
  EXPECT_TRUE(f->doc[0].table);
  EXPECT_DOUBLE_EQ(f->doc[0].score, 1.0 / 62 + 1.0 / 62);
  // a and c tie at 1/61: the tie breaks by first appearance without order keys ...
  EXPECT_EQ(f->doc[1].parent, "a");
  // ... and by the host's order keys when given.
  dense.order = {5, 5, 2, 1};
  bm25.order = {1, 2};
  auto g = fuse_client(r, {dense, bm25});
  ASSERT_TRUE(g.ok());
  EXPECT_EQ(g->doc[1].parent, "c");
  EXPECT_FALSE(fuse_client(r, {dense}).ok());
  bm25.order = {9, 2};  // c has two keys
  EXPECT_FALSE(fuse_client(r, {dense, bm25}).ok());
}

}  // namespace
