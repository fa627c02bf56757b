// Time filters beyond the grammar (docs/guide.md): time zones resolved through ICU (IANA names with
// their DST rules, offsets; an unknown zone is an error naming it, in the library and the CLI), and
// the engine requests for two compared periods and for publication / signing dates.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/dates.hpp"
#include "qaplan/engines/engines.hpp"
#include "qaplan/planning/analysis.hpp"
#include "qaplan/planning/planner.hpp"
#include "test_support.hpp"

namespace {

using namespace qaplan;
namespace dates = qaplan::internal::dates;
using Json = nlohmann::json;

TEST(TimeZone, IanaNamesAndOffsetsResolveThroughIcu) {
  const std::pair<const char*, const char*> ok[] = {
      {"Asia/Shanghai", "Asia/Shanghai"},     {"asia/shanghai", "Asia/Shanghai"},
      {"America/New_York", "America/New_York"}, {"PRC", "Asia/Shanghai"},
      {"+08:00", "+08:00"},                   {"+0800", "+08:00"},
      {"+8", "+08:00"},                       {"UTC+8", "+08:00"},
      {"utc+08:00", "+08:00"},                {"GMT-05:30", "-05:30"},
      {"-05:00", "-05:00"},                   {"UTC+14", "+14:00"},
  };
  for (const auto& [name, id] : ok) {
    SCOPED_TRACE(name);
    const auto z = dates::resolve_zone(name);
    ASSERT_TRUE(z.has_value());
    EXPECT_EQ(z->id, id);
    auto checked = check_timezone(name);
    ASSERT_TRUE(checked.ok());
    EXPECT_EQ(*checked, id);
  }
  for (const char* bad : {"Mars/Olympus", "", "+15:00", "UTC+25", "+08:60", "8", "Asia/Shanghai\n",
                          "Etc/Unknown", "+08:00:00", "Asia/Shanghai/x"}) {
    SCOPED_TRACE(bad);
    EXPECT_FALSE(dates::resolve_zone(bad).has_value());
    auto e = check_timezone(bad);
    ASSERT_FALSE(e.ok());
    EXPECT_EQ(e.error().code, ErrorCode::kInvalidInput);
    EXPECT_EQ(e.error().field, "timezone");
  }
  EXPECT_NE(check_timezone("Mars/Olympus").error().message.find("\"Mars/Olympus\""),
            std::string::npos);
  EXPECT_TRUE(dates::resolve_zone("UTC").has_value());
}

TEST(TimeZone, OffsetsFollowDaylightSaving) {
  const auto ny = dates::resolve_zone("America/New_York");
  ASSERT_TRUE(ny.has_value());
  const auto at = [](const char* iso) { return dates::parse_time_point(iso)->unix_seconds; };
  EXPECT_EQ(dates::zone_offset_minutes(*ny, at("2026-07-01T04:30:00Z")), -240);  // EDT
  EXPECT_EQ(dates::zone_offset_minutes(*ny, at("2026-01-15T04:30:00Z")), -300);  // EST
  // 2026-11-01: EDT until 06:00Z.
  EXPECT_EQ(dates::zone_offset_minutes(*ny, at("2026-11-01T05:59:00Z")), -240);
  EXPECT_EQ(dates::zone_offset_minutes(*ny, at("2026-11-01T06:00:00Z")), -300);
  EXPECT_EQ(dates::local_day(*dates::parse_time_point("2026-11-01T04:30:00Z"), *ny),
            (dates::Day{2026, 11, 1}));
  // Local midnight uses the offset in force that day.
  EXPECT_EQ(dates::local_midnight({2026, 7, 1}, *ny), at("2026-07-01T04:00:00Z"));
  EXPECT_EQ(dates::local_midnight({2026, 1, 1}, *ny), at("2026-01-01T05:00:00Z"));
  const auto sh = dates::resolve_zone("+08:00");
  EXPECT_EQ(dates::local_midnight({2026, 1, 1}, *sh), at("2025-12-31T16:00:00Z"));
}

// The shipped rules with documents that carry publication and signing dates.
const Planner& tz_planner() {
  static const Planner p = [] {
    auto cfg = load_config(test::shipped_config());
    EXPECT_TRUE(cfg.ok());
    cfg->filters.published_date_field = "published_on";
    cfg->filters.signed_date_field = "signed_on";
    auto pl = Planner::create(std::move(cfg).value());
    EXPECT_TRUE(pl.ok()) << pl.error().to_string();
    return std::move(pl).value();
  }();
  return p;
}

struct TzPrepared {
  Preparation prep;
  QueryAnalysis analysis;
};

TzPrepared prepared(const std::string& q, const std::string& tz = "Asia/Shanghai",
                  const std::string& now = "2026-11-30T10:00:00+08:00") {
  auto prep = tz_planner().prepare(PrepareRequest{q, {}, "", std::nullopt});
  EXPECT_TRUE(prep.ok()) << prep.error().to_string();
  AnalysisContext ctx;
  ctx.now = now;
  ctx.timezone = tz;
  auto a = tz_planner().analyze(*prep, ctx);
  EXPECT_TRUE(a.ok()) << q << ": " << a.error().to_string();
  return {std::move(prep).value(), a.ok() ? std::move(a).value() : QueryAnalysis{}};
}

TEST(TimeZone, AnalyzeRefusesAnUnknownZoneNamingTheField) {
  auto prep = tz_planner().prepare(PrepareRequest{"上个月的报销制度", {}, "", std::nullopt});
  ASSERT_TRUE(prep.ok());
  AnalysisContext ctx;
  ctx.now = "2026-03-31T23:30:00Z";
  ctx.timezone = "Mars/Olympus";
  auto a = tz_planner().analyze(*prep, ctx);
  ASSERT_FALSE(a.ok());
  EXPECT_EQ(a.error().code, ErrorCode::kInvalidInput);
  EXPECT_EQ(a.error().field, "timezone");
  EXPECT_NE(a.error().message.find("Mars/Olympus"), std::string::npos);
  ctx.timezone = "Asia/Shanghai";  // 07:30 on April 1 there: last month is March
  a = tz_planner().analyze(*prep, ctx);
  ASSERT_TRUE(a.ok()) << a.error().to_string();
  ASSERT_TRUE(a->filters.time.has_value());
  EXPECT_EQ(a->filters.time->from, "2026-03-01");
  EXPECT_EQ(a->filters.time->to, "2026-04-01");
  // The fallback ladder relaxes a comparison's ranges like a single one.
  const TzPrepared cmp = prepared("对比一下去年和今年的报销标准");
  ASSERT_EQ(cmp.analysis.filters.time_ranges.size(), 2u);
  bool relaxes = false;
  for (const auto& s : cmp.analysis.fallback)
    if (s.action == "relax_filters" && s.params.at("drop").find("date_range") != std::string::npos)
      relaxes = true;
  EXPECT_TRUE(relaxes);
  const Json j = Json::parse(to_json(cmp.prep, cmp.analysis));
  EXPECT_TRUE(j["analysis"]["filters"]["date_range"].is_null());
  ASSERT_EQ(j["analysis"]["filters"]["date_ranges"].size(), 2u);
  EXPECT_EQ(j["analysis"]["filters"]["date_ranges"][0]["from"], "2025-01-01");
  EXPECT_EQ(j["analysis"]["filters"]["date_ranges"][1]["from"], "2026-01-01");
  EXPECT_EQ(j["analysis"]["filters"]["date_ranges"][1]["date"], "effective");
}

engines::EnginesConfig tz_engines() {
  auto c = engines::load_engines_config(test::shipped_config());
  EXPECT_TRUE(c.ok()) << c.error().to_string();
  return c.ok() ? *c : engines::EnginesConfig{};
}

// The bodies of the document requests, where the metadata filters go (compact JSON).
std::string doc_bodies(const engines::EngineRequests& r) {
  std::string out;
  for (const auto& q : r.requests)
    if (q.collection == "doc") out += q.body + "\n";
  return out;
}

// A comparison is not narrowed to one side or to the span of both: the requests carry no date
// filter (as the in-process executor, which takes one range, does) and the knob says why.
TEST(TimeEngines, ComparedPeriodsAreNeitherMergedNorDropped) {
  const TzPrepared p = prepared("对比一下去年和今年的报销标准");
  ASSERT_EQ(p.analysis.filters.time_ranges.size(), 2u);
  for (engines::Engine e : {engines::Engine::kElasticsearch, engines::Engine::kOpenSearch,
                            engines::Engine::kMilvus}) {
    SCOPED_TRACE(std::string(engines::to_string(e)));
    auto r = engines::to_engine(e, p.prep, p.analysis, {}, tz_engines());
    ASSERT_TRUE(r.ok()) << r.error().to_string();
    const std::string bodies = doc_bodies(*r);
    EXPECT_EQ(bodies.find("effective_from"), std::string::npos) << bodies;
    EXPECT_EQ(bodies.find("effective_to"), std::string::npos) << bodies;
    bool reported = false;
    for (const auto& k : r->knobs)
      if (k.name == "filters.time")
        reported = k.status == "host" &&
                   k.detail.find("2 periods compared (去年 [2025-01-01, 2026-01-01), 今年 "
                                 "[2026-01-01, 2027-01-01))") != std::string::npos;
    EXPECT_TRUE(reported);
  }
}

TEST(TimeEngines, PublishedFiltersThePublicationDateNotTheValidityRange) {
  const TzPrepared p = prepared("上个月发布的差旅制度");
  ASSERT_TRUE(p.analysis.filters.time.has_value());
  EXPECT_EQ(p.analysis.filters.time->date, "published");
  auto es = engines::to_elasticsearch(p.prep, p.analysis, {}, tz_engines());
  ASSERT_TRUE(es.ok()) << es.error().to_string();
  const std::string dsl = doc_bodies(*es);
  EXPECT_NE(dsl.find("{\"range\":{\"published_on\":{\"gte\":\"2026-10-01\",\"lt\":\"2026-11-01\""),
            std::string::npos)
      << dsl;
  EXPECT_EQ(dsl.find("effective_from"), std::string::npos) << dsl;
  EXPECT_EQ(dsl.find("effective_to"), std::string::npos) << dsl;
  auto mv = engines::to_milvus(p.prep, p.analysis, {}, tz_engines());
  ASSERT_TRUE(mv.ok());
  const std::string expr = doc_bodies(*mv);
  EXPECT_NE(expr.find("published_on >= "), std::string::npos) << expr;
  EXPECT_EQ(expr.find("effective_from"), std::string::npos) << expr;
  // In force: the validity range, as before.
  const TzPrepared in_force = prepared("上个月的差旅制度");
  auto es2 = engines::to_elasticsearch(in_force.prep, in_force.analysis, {}, tz_engines());
  ASSERT_TRUE(es2.ok());
  EXPECT_NE(doc_bodies(*es2).find("effective_from"), std::string::npos);
  // Signed.
  const TzPrepared signed_ = prepared("去年签署的采购合同");
  auto es3 = engines::to_elasticsearch(signed_.prep, signed_.analysis, {}, tz_engines());
  ASSERT_TRUE(es3.ok());
  EXPECT_NE(doc_bodies(*es3).find("\"signed_on\":{\"gte\":\"2025-01-01\""),
            std::string::npos)
      << doc_bodies(*es3);
}

TEST(TimeEngines, EpochBoundsAreLocalMidnightInTheZoneWithDst) {
  auto cfg = tz_engines();
  cfg.date_unit = "epoch_seconds";
  // July 2026 in New York: midnight EDT (−4) on both ends.
  const TzPrepared p = prepared("上个月的差旅制度", "America/New_York", "2026-08-15T12:00:00-04:00");
  auto es = engines::to_elasticsearch(p.prep, p.analysis, {}, cfg);
  ASSERT_TRUE(es.ok());
  const std::string dsl = doc_bodies(*es);
  const auto at = [](const char* iso) {
    return std::to_string(dates::parse_time_point(iso)->unix_seconds);
  };
  EXPECT_NE(dsl.find("\"lt\":" + at("2026-08-01T00:00:00-04:00")), std::string::npos) << dsl;
  EXPECT_NE(dsl.find("\"gte\":" + at("2026-07-01T00:00:00-04:00")), std::string::npos) << dsl;
  // November: starts in EDT, ends in EST — a fixed offset would be an hour off at one end.
  const TzPrepared nov = prepared("上个月的差旅制度", "America/New_York", "2026-12-15T12:00:00-05:00");
  auto es2 = engines::to_elasticsearch(nov.prep, nov.analysis, {}, cfg);
  ASSERT_TRUE(es2.ok());
  const std::string dsl2 = doc_bodies(*es2);
  EXPECT_NE(dsl2.find("\"gte\":" + at("2026-11-01T00:00:00-04:00")), std::string::npos) << dsl2;
  EXPECT_NE(dsl2.find("\"lt\":" + at("2026-12-01T00:00:00-05:00")), std::string::npos) << dsl2;
}

// The CLI: --tz resolves (exit 2 for an unknown zone, one line naming it); $TZ resolves too.
std::string cli() {
  return "env -u QAPLAN_CONFIG " + test::sh_quote(test::qaplan_bin()) + " plan --config " +
         test::sh_quote(test::shipped_config().string());
}

TEST(TimeZoneCli, TzIsAZoneNotALabel) {
  if (test::qaplan_bin().empty()) GTEST_SKIP() << "no CLI in this build";
  const std::string q = test::sh_quote("上个月的报销制度");
  auto r = test::run(cli() + " " + q + " --now 2026-03-31T23:30:00Z --tz Asia/Shanghai");
  ASSERT_EQ(r.status, 0) << r.err;
  Json j = Json::parse(r.out);
  EXPECT_EQ(j["analysis"]["filters"]["date_range"]["from"], "2026-03-01");
  EXPECT_EQ(j["analysis"]["filters"]["date_range"]["timezone"], "Asia/Shanghai");
  r = test::run(cli() + " " + q + " --now 2026-03-31T23:30:00Z --tz UTC+8");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(Json::parse(r.out)["analysis"]["filters"]["date_range"]["timezone"], "+08:00");
  r = test::run(cli() + " " + q + " --now 2026-03-31T23:30:00Z --tz Mars/Olympus");
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(r.out.empty());
  EXPECT_NE(r.err.find("Mars/Olympus"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--tz"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  // $TZ without --tz resolves through ICU as well.
  r = test::run("TZ=Asia/Shanghai " + cli() + " " + q + " --now 2026-03-31T23:30:00Z");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(Json::parse(r.out)["analysis"]["filters"]["date_range"]["from"], "2026-03-01");
  // An unknown $TZ is the machine's: a warning, then now's offset.
  r = test::run("TZ=Mars/Olympus " + cli() + " " + q + " --now 2026-03-31T23:30:00Z");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("$TZ"), std::string::npos) << r.err;
  j = Json::parse(r.out);
  EXPECT_EQ(j["analysis"]["filters"]["date_range"]["from"], "2026-02-01");
  EXPECT_EQ(j["analysis"]["filters"]["date_range"]["timezone"], "+00:00");
}

}  // namespace
