// Fuzz target: question + history → prepare → analyze → the engine requests (docs/engines.md).
// Input: byte 0 picks the engine (bits 0-1: Elasticsearch, OpenSearch, Milvus, Milvus), the
// dedupe (bits 2-3: before_fusion, after_fusion, none, before_fusion with an Enterprise licence),
// query vectors or none (bit 4), preferences kept or required (bit 5), and the newest or oldest
// supported server version (bit 6); the rest is split at '\n' into the question and its history.
//
// Invariants: a request set is built or refused with one line (kInvalidInput / kInvalidConfig);
// its JSON and every request body (and a Milvus request's pymilvus and REST forms) parse; every
// leg is run by exactly one request — none silently dropped — and a preferred leg is a
// document leg of the main text; client and single-leg requests return parents (collapse or
// group-by on every leg); every plan knob and filter is reported with a known status; and the
// same input gives the same bytes twice.
#include <nlohmann/json.hpp>
#include <set>

#include "fuzz_support.hpp"
#include "qaplan/engines/engines.hpp"
#include "qaplan/planning/analysis.hpp"
#include "qaplan/planning/config.hpp"
#include "qaplan/planning/planner.hpp"

using namespace qaplan;
using namespace qaplan::engines;

namespace {

Planner* g_planner = nullptr;
EnginesConfig* g_engines = nullptr;

void check_requests(const EngineRequests& r, const std::string& json) {
  const auto parsed = nlohmann::json::parse(json, nullptr, false);
  QAPLAN_FUZZ_CHECK(!parsed.is_discarded(), json);
  std::vector<int> runs(r.legs.size(), 0);
  for (const EngineRequest& q : r.requests) {
    for (const std::string* s : {&q.body, &q.pymilvus, &q.rest})
      QAPLAN_FUZZ_CHECK(s->empty() || !nlohmann::json::parse(*s, nullptr, false).is_discarded(),
                        q.name);
    QAPLAN_FUZZ_CHECK(!q.body.empty(), q.name);
    QAPLAN_FUZZ_CHECK((r.engine == Engine::kMilvus) == !q.pymilvus.empty(), q.name);
    for (std::size_t li : q.legs) {
      QAPLAN_FUZZ_CHECK(li < r.legs.size(), q.name);
      ++runs[li];
    }
    const bool per_leg = r.mode == "client_fusion" || r.mode == "single_leg";
    if (per_leg && q.api == "search") {
      const auto body = nlohmann::json::parse(q.body);
      QAPLAN_FUZZ_CHECK(body.contains("collapse") || body.contains("group_by_field"), q.body);
    }
  }
  for (std::size_t i = 0; i < r.legs.size(); ++i) {
    QAPLAN_FUZZ_CHECK(runs[i] == 1, json);  // every leg in exactly one request
    if (r.legs[i].preferred)
      QAPLAN_FUZZ_CHECK(r.legs[i].collection == "doc" && r.legs[i].text == 0, json);
  }
  static const std::set<std::string> kStatus = {"request", "client", "host", "unsupported",
                                                "not_set"};
  for (const KnobMapping& k : r.knobs) QAPLAN_FUZZ_CHECK(kStatus.count(k.status) == 1, k.name);
  static const std::set<std::string> kModes = {"server_fusion", "client_fusion", "single_leg",
                                               "none"};
  QAPLAN_FUZZ_CHECK(kModes.count(r.mode) == 1, r.mode);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  auto cfg = load_config(fuzz::config_dir() / "rules.toml");
  if (!cfg.ok()) std::abort();
  auto planner = Planner::create(std::move(cfg).value());
  if (!planner.ok()) std::abort();
  g_planner = new Planner(std::move(planner).value());
  auto ec = load_engines_config(fuzz::config_dir() / "rules.toml");
  if (!ec.ok()) std::abort();
  g_engines = new EnginesConfig(std::move(ec).value());
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const std::uint8_t opts = data[0];
  auto parts = fuzz::split(fuzz::as_view(data + 1, size - 1), '\n');
  PrepareRequest req;
  req.question = std::string(parts[0]);
  for (std::size_t i = 1; i < parts.size(); ++i) req.history.emplace_back(parts[i]);
  auto prep = g_planner->prepare(req);
  if (!prep.ok()) return 0;  // plan_fuzz covers prepare's errors
  AnalysisContext ctx;
  ctx.now = "2026-11-30T10:00:00+08:00";
  auto analysis = g_planner->analyze(*prep, ctx);
  if (!analysis.ok()) return 0;  // analyze_fuzz covers analyze's errors
  if (opts & 32) analysis->filters.preferred.clear();

  const Engine engine = (opts & 3) == 0 ? Engine::kElasticsearch
                        : (opts & 3) == 1 ? Engine::kOpenSearch
                                          : Engine::kMilvus;
  EnginesConfig c = *g_engines;
  switch ((opts >> 2) & 3) {
    case 0: c.dedupe = Dedupe::kBeforeFusion; break;
    case 1: c.dedupe = Dedupe::kAfterFusion; c.es_license = "enterprise"; break;
    case 2: c.dedupe = Dedupe::kNone; c.es_license = "enterprise"; break;
    case 3: c.es_license = "enterprise"; break;
  }
  EngineInputs in;
  if (opts & 64)
    in.version = engine == Engine::kElasticsearch ? "8.14" : engine == Engine::kOpenSearch ? "2.10" : "2.4";
  auto first = to_engine(engine, *prep, *analysis, in, c);
  if ((opts & 16) && first.ok())  // one vector per text, as a host's embedder gives them
    for (std::size_t i = 0; i < first->texts.size(); ++i)
      in.vectors.push_back({0.5f, -0.25f, static_cast<float>(i)});
  auto r = to_engine(engine, *prep, *analysis, in, c);
  auto again = to_engine(engine, *prep, *analysis, in, c);
  QAPLAN_FUZZ_CHECK(r.ok() == again.ok(), req.question);
  if (!r.ok()) {
    fuzz::check_error(r.error());
    QAPLAN_FUZZ_CHECK(r.error().code == ErrorCode::kInvalidInput ||
                          r.error().code == ErrorCode::kInvalidConfig,
                      r.error().to_string());
    return 0;
  }
  const std::string json = to_json(*r), json2 = to_json(*again);
  QAPLAN_FUZZ_CHECK(json == json2, json + "\n  vs\n  " + json2);
  check_requests(*r, json);
  return 0;
}
