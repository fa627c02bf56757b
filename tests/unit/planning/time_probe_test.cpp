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
// The same for a probe of public holidays (below).
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
  for (const Ranges& alt : alts)
    if (!alt.empty() && covers(got, alt)) return "superset";  // wider than an allowed reading
  return "wrong";
}

// Outcome counts per split of tests/data/`file`, printing the harmful rows.
std::map<std::string, std::map<std::string, int>> score(const char* file) {
  const Planner planner = Planner::create(load_config(test::shipped_config()).value()).value();
  std::ifstream in(test::source_dir() / "tests" / "data" / file);
  EXPECT_TRUE(in) << file;
  std::map<std::string, std::map<std::string, int>> count;  // split → outcome → rows
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    const auto row = nlohmann::json::parse(line);
    PrepareRequest r;
    r.question = row.at("question").get<std::string>();
    auto prep = planner.prepare(r);
    EXPECT_TRUE(prep.ok()) << r.question;
    if (!prep.ok()) continue;
    AnalysisContext ctx;
    ctx.now = row.at("now").get<std::string>();
    auto a = planner.analyze(*prep, ctx);
    EXPECT_TRUE(a.ok()) << r.question;
    if (!a.ok()) continue;
    Ranges got;
    for (const auto& t : a->filters.time_ranges) got.emplace_back(t.from, t.to);
    std::sort(got.begin(), got.end());
    const std::string o = outcome(got, row);
    ++count[row.at("split").get<std::string>()][o];
    if (o == "wrong" || o == "spurious")
      std::printf("  %s %s @ %s\n", o.c_str(), r.question.c_str(), ctx.now.c_str());
  }
  for (const auto& [split, c] : count) {
    std::printf("[%s %s]", file, split.c_str());
    for (const auto& [o, n] : c) std::printf(" %s %d", o.c_str(), n);
    std::printf("\n");
  }
  return count;
}

int total(const std::map<std::string, std::map<std::string, int>>& count,
          std::initializer_list<const char*> outcomes) {
  int n = 0;
  for (const auto& [split, c] : count)
    for (const char* o : outcomes)
      if (c.contains(o)) n += c.at(o);
  return n;
}

TEST(TimeProbe, BlindQuestionsInTenDomainsAreRarelyFilteredAway) {
  const auto count = score("time_probe.jsonl");
  // Measured at the twenty-ninth session's end: 4 harmful of 300 (21 before its rules), 144 of
  // the 180 questions with a period exact or an allowed reading, all 120 without one unfiltered.
  EXPECT_LE(total(count, {"wrong", "spurious"}), 5);
  EXPECT_GE(total(count, {"exact", "alt"}), 140);
  EXPECT_GE(total(count, {"ok_empty"}), 118);
}

// Public holidays (tests/data/holiday_probe.jsonl: 120 questions written blind by a helper on
// 2026-12-07, 95 meaning a holiday's days and 25 naming a holiday without meaning a period — a
// place, a product, a rule of every year, 十一 as eleven). Its rows were read to mend the holiday
// rules the same session (docs/guide.md): a measure of what it covers, not a held-out score.
TEST(TimeProbe, HolidaysAreReadAsTheirBreaks) {
  const auto count = score("holiday_probe.jsonl");
  // At the twenty-ninth session's end: 6 harmful of 120 (4 at its start, when 85 holidays had no
  // filter; 22 when they were first read), 15 exact, 60 wider than meant, 17 none (节前 / 节后 /
  // 前后 are open-ended: no filter).
  EXPECT_LE(total(count, {"wrong", "spurious"}), 7);
  EXPECT_GE(total(count, {"exact", "alt", "superset"}), 70);
  EXPECT_GE(total(count, {"ok_empty"}), 20);
}

}  // namespace
