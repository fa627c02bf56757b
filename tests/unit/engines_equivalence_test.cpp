// The adapters' client-side path ranks exactly like the in-process executor (docs/engines.md).
// For every question of the chain set, the follow-up set and the engine golden cases, the
// Elasticsearch, OpenSearch and Milvus client-fusion requests are read back as an engine would read them — the text
// of each match, the vector of each kNN, size, collapse field and every filter clause — and run
// over the shipped knowledge base (KbIndex::search_leg: BM25, or local-tfidf cosine for the
// "embedding"); fuse_client() then fuses the hits. The FAQ and document hit lists must equal
// execute_plan's exactly: same ids, same order, same RRF scores (bit for bit). An unknown filter
// clause fails the test, so the adapter and the reference executor cannot drift apart.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "qaplan/engines/engines.hpp"
#include "qaplan/eval/executor.hpp"
#include "qaplan/eval/kb.hpp"
#include "qaplan/planning/planner.hpp"
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
std::vector<std::vector<float>> vectors_for(std::size_t n) {
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

// A Milvus grouping search read back as a leg query: its text (the BM25 function's input) or
// its vector (naming the text), top k and filters.
void read_milvus(const Json& body, const engines::EnginesConfig& c, const std::vector<std::string>& texts,
                 KbIndex::LegQuery& lq) {
  ASSERT_EQ(body["group_by_field"], c.parent_field);  // one hit per parent
  lq.top_k = body["limit"].get<int>();
  const Json& data = body["data"].at(0);
  if (body["anns_field"] == c.vector_field) {
    ASSERT_EQ(body["metric_type"], c.milvus_metric_type);
    const std::size_t text = static_cast<std::size_t>(data.at(0).get<float>()) - 1;
    ASSERT_LT(text, texts.size());
    lq.dense = true;
    lq.text = texts[text];
  } else {
    ASSERT_EQ(body["anns_field"], c.sparse_field);
    ASSERT_EQ(body["metric_type"], "BM25");
    lq.text = data.get<std::string>();
  }
  std::string unknown;
  if (body.contains("filter"))
    ASSERT_TRUE(read_milvus_expr(body["filter"].get<std::string>(), c, lq.filters, unknown))
        << "unknown expression part " << unknown;
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
  for (const char* q : {"法务部上周签署的合同清单", "财务部上个月的付款明细", "上个月的采购合同有哪些",
                        "盖章版的保密协议在哪里看", "员工手册里年假规定汇总一下",
                        "2024年3月发布的考勤制度", "最近7天更新的IT公告", "采购合同付款节点和金额明细"})
    out.push_back({q, q, {}});
  return out;
}

void check_engine(engines::Engine engine, const char* version) {
  const World& w = world();
  const engines::EnginesConfig& c = w.engines;
  ASSERT_EQ(c.dedupe, engines::Dedupe::kBeforeFusion);
  const auto qs = questions();
  ASSERT_GE(qs.size(), 400u);
  std::size_t compared = 0, with_filters = 0, with_variants = 0, legs_run = 0, with_preferred = 0;
  for (const Question& q : qs) {
    SCOPED_TRACE(q.id + ": " + q.question);
    auto prep = w.planner.prepare({q.question, q.history, "", std::nullopt});
    ASSERT_TRUE(prep.ok()) << prep.error().to_string();
    AnalysisContext ctx;
    ctx.now = "2026-11-30T10:00:00+08:00";
    auto a = w.planner.analyze(*prep, ctx);
    ASSERT_TRUE(a.ok()) << a.error().to_string();
    auto ex = execute_plan(*prep, *a, w.kb);
    ASSERT_TRUE(ex.ok()) << ex.error().to_string();
    if (!prep->plan) continue;  // direct answers: nothing retrieved on either side
    // Render once for the texts, then with one vector per text.
    engines::EngineInputs in{version, {}};
    auto probe = engines::to_engine(engine, *prep, *a, in, c);
    ASSERT_TRUE(probe.ok()) << probe.error().to_string();
    in.vectors = vectors_for(probe->texts.size());
    auto r = engines::to_engine(engine, *prep, *a, in, c);
    ASSERT_TRUE(r.ok()) << r.error().to_string();
    ASSERT_EQ(r->mode, "client_fusion");
    ASSERT_EQ(r->texts.front(), ex->query);
    ASSERT_EQ(std::vector<std::string>(r->texts.begin() + 1, r->texts.end()), ex->variants);
    with_variants += r->texts.size() > 1;
    with_preferred += std::any_of(r->legs.begin(), r->legs.end(),
                                  [](const engines::Leg& l) { return l.preferred; });

    // Run every request as the engine would.
    std::vector<engines::LegHits> hits(r->legs.size());
    bool filtered = false;
    for (const engines::EngineRequest& req : r->requests) {
      ASSERT_EQ(req.legs.size(), 1u);
      const Json body = Json::parse(req.body);
      KbIndex::LegQuery lq;
      lq.faq = req.collection == "faq";
      const Json* filters = nullptr;
      if (engine == engines::Engine::kMilvus) {
        read_milvus(body, c, r->texts, lq);
        if (::testing::Test::HasFatalFailure()) return;
      } else {
        ASSERT_EQ(body["collapse"]["field"], c.parent_field);  // one hit per parent
        lq.top_k = body["size"].get<int>();
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
          const auto v = knn[es ? "query_vector" : "vector"].get<std::vector<float>>();
          ASSERT_EQ(v.size(), 1u);
          const std::size_t text = static_cast<std::size_t>(v[0]) - 1;
          ASSERT_LT(text, r->texts.size());
          lq.dense = true;
          lq.text = r->texts[text];
          if (knn.contains("filter")) filters = es ? &knn["filter"] : &knn["filter"]["bool"]["filter"];
        } else {
          const Json& b = body["query"]["bool"];
          lq.text = b["must"][0]["match"][c.text_field]["query"].get<std::string>();
          if (b.contains("filter")) filters = &b["filter"];
        }
      }
      if (filters) {
        std::string unknown;
        ASSERT_TRUE(read_filters(*filters, c, lq.filters, unknown)) << "unknown clause " << unknown;
      }
      filtered |= lq.filters.department.has_value() || !lq.filters.tags.empty() ||
                  !lq.filters.date_from.empty() || !lq.filters.date_to.empty() ||
                  lq.filters.path_prefix || lq.filters.is_signed;
      if (lq.filters.sources.empty() && !prep->effective_sources.empty())
        FAIL() << "the source scope is missing from " << req.name;
      auto items = w.kb.search_leg(lq);
      ASSERT_TRUE(items.ok()) << items.error().to_string();
      engines::LegHits& h = hits[req.legs[0]];
      for (std::uint32_t it : *items) {
        h.parents.push_back(lq.faq ? w.kb.kb().faqs[it].id : w.kb.section_id(it));
        h.order.push_back(it);  // the knowledge base's order: the executor's tie-break
        if (!lq.faq) h.table.push_back(w.kb.section_is_table(it));
      }
      ++legs_run;
    }
    with_filters += filtered;
    auto fused = engines::fuse_client(*r, hits);
    ASSERT_TRUE(fused.ok()) << fused.error().to_string();
    auto same = [&](const std::vector<engines::FusedItem>& got, const std::vector<LegHit>& want,
                    const char* what) {
      ASSERT_EQ(got.size(), want.size()) << what;
      for (std::size_t i = 0; i < got.size(); ++i) {
        EXPECT_EQ(got[i].parent, want[i].id) << what << " #" << i;
        EXPECT_EQ(got[i].score, want[i].fused) << what << " #" << i;  // bit for bit
      }
    };
    same(fused->faq, ex->faq_hits, "faq");
    same(fused->doc, ex->doc_hits, "doc");
    ++compared;
  }
  // The comparison covered real work, not only empty plans.
  EXPECT_GE(compared, 350u);
  EXPECT_GE(with_variants, 5u);
  std::cout << to_string(engine) << ": compared " << compared << " plans (" << with_variants << " with variants, "
            << with_filters << " with metadata filters, " << with_preferred
            << " with preferred legs), " << legs_run << " legs\n";
  EXPECT_GE(with_filters, 5u);
  EXPECT_GE(with_preferred, 5u);  // preferences are fused like the executor's preferred lists
  EXPECT_GE(legs_run, 4 * compared);
}

TEST(EnginesEquivalence, ElasticsearchClientFusionRanksExactlyLikeTheInProcessExecutor) {
  check_engine(engines::Engine::kElasticsearch, "8.16");
}

TEST(EnginesEquivalence, OpenSearchClientFusionRanksExactlyLikeTheInProcessExecutor) {
  check_engine(engines::Engine::kOpenSearch, "2.19");
}

// Milvus grouping searches, their boolean expressions read back (epoch dates to days).
TEST(EnginesEquivalence, MilvusClientFusionRanksExactlyLikeTheInProcessExecutor) {
  check_engine(engines::Engine::kMilvus, "2.5");
}

}  // namespace
