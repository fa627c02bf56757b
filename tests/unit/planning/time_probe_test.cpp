// Time filters on questions written blind in ten domains the rules were not written on
// (tests/data/time_probe.jsonl: 300 questions — hospital, property management, government
// services, manufacturing HR, retail, school administration, warehouse, bank branch, release
// notes, legal — written on 2026-12-07 (twenty-ninth session) by a helper that saw neither the
// rules nor the code; each with the moment it is asked and the day ranges it means, or none when
// it names no period: durations, recurring times, times of day, numbers that look like dates).
// Prints each outcome and holds the harmful ones to a ceiling (docs/guide.md#time-filters):
//  - exact / alt: the labelled ranges, or an alternative reading the label allows;
//  - superset, missed: wider than meant, or no filter — recoverable: the answer still comes back;
//  - wrong: a range that leaves out what was meant (a year-less month read as one in the future),
//    spurious: a range where none was meant — both filter the answer away.
// Dev rows were read to write the session's rules; test rows were read once, to measure them.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <utility>

#include <nlohmann/json.hpp>

#include "qaplan/qaplan.hpp"
#include "test_support.hpp"

namespace {

using namespace qaplan;
using Ranges = std::vector<std::pair<std::string, std::string>>;

Ranges ranges_of(const nlohmann::json& list) {
  Ranges r;
  for (const auto& x : list) r.emplace_back(x.at("from"), x.at("to"));
  std::sort(r.begin(), r.end());
  return r;
}

// Every meant range inside one of the ranges given.
bool covers(const Ranges& got, const Ranges& meant) {
  return std::all_of(meant.begin(), meant.end(), [&](const auto& m) {
    return std::any_of(got.begin(), got.end(),
                       [&](const auto& g) { return g.first <= m.first && m.second <= g.second; });
  });
}

std::string outcome(const Ranges& got, const nlohmann::json& row) {
  const Ranges meant = ranges_of(row.at("ranges"));
  std::vector<Ranges> alts;
  if (row.contains("alternatives"))
    for (const auto& a : row.at("alternatives")) alts.push_back(ranges_of(a));
  if (meant.empty()) return got.empty() ? "ok_empty" : "spurious";
  if (got == meant) return "exact";
  if (std::find(alts.begin(), alts.end(), got) != alts.end()) return "alt";
  if (got.empty()) return "missed";
  if (covers(got, meant)) return "superset";
  return "wrong";
}

TEST(TimeProbe, BlindQuestionsInTenDomainsAreRarelyFilteredAway) {
  const Planner planner = Planner::create(load_config(test::shipped_config()).value()).value();
  std::ifstream in(test::source_dir() / "tests" / "data" / "time_probe.jsonl");
  ASSERT_TRUE(in);
  std::map<std::string, std::map<std::string, int>> count;  // split → outcome → rows
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    const auto row = nlohmann::json::parse(line);
    PrepareRequest r;
    r.question = row.at("question").get<std::string>();
    auto prep = planner.prepare(r);
    ASSERT_TRUE(prep.ok()) << r.question;
    AnalysisContext ctx;
    ctx.now = row.at("now").get<std::string>();
    auto a = planner.analyze(*prep, ctx);
    ASSERT_TRUE(a.ok()) << r.question;
    Ranges got;
    for (const auto& t : a->filters.time_ranges) got.emplace_back(t.from, t.to);
    std::sort(got.begin(), got.end());
    const std::string o = outcome(got, row);
    ++count[row.at("split").get<std::string>()][o];
    if (o == "wrong" || o == "spurious")
      std::printf("  %s %s @ %s\n", o.c_str(), r.question.c_str(), ctx.now.c_str());
  }
  int harmful = 0, right = 0, empty_right = 0;
  for (const auto& [split, c] : count) {
    std::printf("[time probe %s]", split.c_str());
    for (const auto& [o, n] : c) std::printf(" %s %d", o.c_str(), n);
    std::printf("\n");
    auto at = [&](const char* k) { return c.contains(k) ? c.at(k) : 0; };
    harmful += at("wrong") + at("spurious");
    right += at("exact") + at("alt");
    empty_right += at("ok_empty");
  }
  // Measured at the twenty-ninth session's end: 4 harmful of 300 (21 before its rules), 140 of
  // the 180 questions with a period exact or an allowed reading, all 120 without one unfiltered.
  EXPECT_LE(harmful, 5);
  EXPECT_GE(right, 135);
  EXPECT_GE(empty_right, 118);
}

}  // namespace
