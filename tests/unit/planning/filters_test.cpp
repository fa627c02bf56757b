// Query filters (docs/guide.md, query analysis): department, tags, path_prefix, is_signed, the
// asker's own group and the [filters] config section. Time expressions: time_expr_test.cpp.
#include "planning/analysis/filters.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <thread>

#include "planning/text.hpp"
#include "qaplan/planning/config.hpp"
#include "test_support.hpp"

namespace {

using qaplan::AnalysisContext;
using qaplan::Filters;
using qaplan::FiltersConfig;
using qaplan::internal::extract_filters;

std::string shipped_text() { return qaplan::test::slurp(qaplan::test::shipped_config()); }

const FiltersConfig& shipped() {
  static const FiltersConfig c = [] {
    auto cfg = qaplan::parse_config(shipped_text(), "config/rules.toml");
    EXPECT_TRUE(cfg.ok()) << cfg.error().to_string();
    return cfg.ok() ? cfg->filters : FiltersConfig{};
  }();
  return c;
}

std::string norm(std::string_view raw) {
  auto n = qaplan::internal::normalize_question(raw, qaplan::InputConfig{});
  EXPECT_TRUE(n.ok()) << raw;
  return n.ok() ? n->text : std::string(raw);
}

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += x + "; ";
  return s;
}

bool has_reason(const Filters& f, std::string_view r) {
  return std::find(f.reasons.begin(), f.reasons.end(), r) != f.reasons.end();
}

Filters run(std::string_view q, const AnalysisContext& ctx = {}, const FiltersConfig& c = shipped()) {
  return extract_filters(norm(q), c, ctx);
}

TEST(Filters, ShippedSectionLoads) {
  const FiltersConfig& c = shipped();
  EXPECT_EQ(c.week_start, 1);
  EXPECT_EQ(c.spring_festival_days, 30);
  EXPECT_EQ(c.max_window_days, 3660);
  EXPECT_GE(c.departments.size(), 5u);
  EXPECT_GE(c.tags.size(), 3u);
  EXPECT_GE(c.paths.size(), 2u);
  EXPECT_FALSE(c.signed_cues.empty());
  EXPECT_FALSE(c.draft_cues.empty());
  EXPECT_EQ(qaplan::internal::validate_filters_config(c), "");
  // A default config (no [filters] section) is valid and still reads time.
  EXPECT_EQ(qaplan::internal::validate_filters_config(FiltersConfig{}), "");
  AnalysisContext ctx;
  ctx.now = "2026-11-30T10:00:00+08:00";
  EXPECT_TRUE(extract_filters("上个月", FiltersConfig{}, ctx).time.has_value());
}

struct Case {
  const char* question;
  std::optional<std::string> department;
  std::vector<std::string> tags;
  std::optional<std::string> path_prefix;
  std::optional<bool> is_signed;
  std::vector<std::string> reasons;  // exactly these, in order
};

TEST(Filters, VocabularyTable) {
  const std::vector<Case> cases = {
      {"财务部的报销制度", "财务部", {}, {}, {}, {"department:财务部"}},
      {"财务的差旅报销标准", "财务部", {"差旅"}, {}, {}, {"department:财务→财务部", "tag:差旅"}},
      {"财务总监的邮件", {}, {}, {}, {}, {}},  // a job title (ignore_within)
      {"HR的年假政策", "人力资源部", {}, {}, {}, {"department:hr→人力资源部"}},
      {"人事部发的通知", "人力资源部", {}, {}, {}, {"department:人事部→人力资源部"}},
      {"IT部门的打印机手册", "IT部", {}, {}, {}, {"department:it部→IT部"}},
      {"信息部的VPN说明", "IT部", {}, {}, {}, {"department:信息部→IT部"}},
      {"法务部和财务部的联合通知", {}, {}, {}, {},
       {"department:skipped 法务部|财务部 (several named)"}},
      {"three items", {}, {}, {}, {}, {}},  // hr is not inside three
      {"采购合同的付款条款", {}, {"合同", "采购"}, {}, {}, {"tag:合同", "tag:采购"}},
      {"合同库里的采购框架协议", {}, {"合同", "采购"}, "/contracts/", {},
       {"tag:合同", "tag:采购", "path_prefix:合同库→/contracts/"}},
      {"员工手册在制度库哪里", {}, {}, "/policies/", {},
       {"path_prefix:员工手册→/policies/"}},
      {"合同库的报销模板", {}, {"合同"}, {}, {},
       {"tag:合同", "path_prefix:skipped /contracts/|/templates/ (several named)"}},
      {"盖章版的合同", {}, {"合同"}, {}, true, {"tag:合同", "is_signed:盖章版→true"}},
      {"签字版劳动合同", {}, {"合同"}, {}, true, {"tag:合同", "is_signed:签字版→true"}},
      {"合同的正式版", {}, {"合同"}, {}, true, {"tag:合同", "is_signed:正式版→true"}},
      {"已签的协议", {}, {"合同"}, {}, true, {"tag:合同", "is_signed:已签→true"}},
      {"征求意见稿", {}, {}, {}, false, {"is_signed:征求意见稿→false"}},
      {"合同草稿", {}, {"合同"}, {}, false, {"tag:合同", "is_signed:草稿→false"}},
      {"未盖章的合同有效吗", {}, {"合同"}, {}, false, {"tag:合同", "is_signed:未盖章→false"}},
      {"未签的合同", {}, {"合同"}, {}, false, {"tag:合同", "is_signed:未签→false"}},
      {"合同需要盖章吗", {}, {"合同"}, {}, {}, {"tag:合同"}},  // a question about stamping
      {"合同盖章需要哪些部门审批", {}, {"合同"}, {}, {}, {"tag:合同"}},
      {"盖章的合同在哪查", {}, {"合同"}, {}, true, {"tag:合同", "is_signed:盖章→true"}},
      {"快递已签收", {}, {}, {}, {}, {}},
      {"盖章版和草稿有什么区别", {}, {}, {}, {}, {"is_signed:skipped 盖章版|草稿 (both)"}},
      {"the signed contract", {}, {"合同"}, {}, true, {"tag:合同", "is_signed:signed→true"}},
      {"年假怎么申请", {}, {}, {}, {}, {}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.question);
    const Filters f = run(c.question);
    EXPECT_EQ(f.department, c.department) << joined(f.reasons);
    EXPECT_EQ(f.tags, c.tags) << joined(f.reasons);
    EXPECT_EQ(f.path_prefix, c.path_prefix) << joined(f.reasons);
    EXPECT_EQ(f.is_signed, c.is_signed) << joined(f.reasons);
    // Read from words, department, tags and path are preferences, named in one last reason.
    std::vector<std::string> preferred;
    if (c.department) preferred.push_back("department");
    if (!c.tags.empty()) preferred.push_back("tags");
    if (c.path_prefix) preferred.push_back("path_prefix");
    EXPECT_EQ(f.preferred, preferred);
    std::vector<std::string> reasons = c.reasons;
    if (!preferred.empty()) {
      std::string names;
      for (const std::string& n : preferred) names += (names.empty() ? "" : ",") + n;
      reasons.push_back("preferred:" + names +
                        " (from words: matching documents rank higher, the others still come back)");
    }
    EXPECT_EQ(f.reasons, reasons);
    EXPECT_FALSE(f.uncertain);
    EXPECT_FALSE(f.time.has_value());
  }
}

TEST(Filters, SessionWordsNeedASessionIdentity) {
  // Without a session: no filter and `uncertain`, naming the words.
  Filters f = run("我们组上个月的报销");
  EXPECT_FALSE(f.department.has_value());
  EXPECT_TRUE(f.uncertain);
  EXPECT_TRUE(has_reason(f, "uncertain:我们组 without a session department")) << joined(f.reasons);
  EXPECT_TRUE(has_reason(f, "uncertain:上个月 without now")) << joined(f.reasons);

  f = run("我的报销单到哪一步了");
  EXPECT_FALSE(f.user.has_value());
  EXPECT_TRUE(f.uncertain);
  EXPECT_EQ(f.reasons, (std::vector<std::string>{"uncertain:我的 without a session user"}));

  // With one: the filter, marked as coming from the session.
  AnalysisContext ctx;
  ctx.now = "2026-11-30T10:00:00+08:00";
  ctx.timezone = "Asia/Shanghai";
  ctx.session_department = "研发部";
  ctx.session_user = "u1024";
  f = run("我们组上个月的报销", ctx);
  EXPECT_EQ(f.department, "研发部");
  EXPECT_FALSE(f.uncertain);
  ASSERT_TRUE(f.time.has_value());
  EXPECT_EQ(f.time->from, "2026-10-01");
  EXPECT_EQ(f.reasons, (std::vector<std::string>{"time:上个月→[2026-10-01,2026-11-01)",
                                                 "department:我们组→研发部 (session)"}));
  f = run("我的报销单", ctx);
  EXPECT_EQ(f.user, "u1024");
  EXPECT_TRUE(has_reason(f, "user:我的→u1024 (session)")) << joined(f.reasons);
  for (const char* q : {"本部门的制度", "我们部门的预算", "我的部门的预算", "our team's budget"}) {
    SCOPED_TRACE(q);
    f = run(q, ctx);
    EXPECT_EQ(f.department, "研发部") << joined(f.reasons);
    EXPECT_FALSE(f.user.has_value()) << joined(f.reasons);  // 我的部门 is the group, not 我的
  }
  f = run("我自己的申请", ctx);
  EXPECT_EQ(f.user, "u1024");
  // The session group and another department: several named, no filter.
  f = run("我们部门和财务部的报销标准", ctx);
  EXPECT_FALSE(f.department.has_value());
  EXPECT_TRUE(has_reason(f, "department:skipped 研发部|财务部 (several named)")) << joined(f.reasons);
  // ...unless they are the same department.
  ctx.session_department = "财务部";
  f = run("我们部门（财务部）的报销标准", ctx);
  EXPECT_EQ(f.department, "财务部") << joined(f.reasons);
}

TEST(Filters, EverythingAtOnce) {
  AnalysisContext ctx;
  ctx.now = "2026-11-30T10:00:00+08:00";
  ctx.timezone = "Asia/Shanghai";
  const Filters f = run("法务部去年盖章版的采购合同", ctx);
  ASSERT_TRUE(f.time.has_value());
  EXPECT_EQ(f.time->from, "2025-01-01");
  EXPECT_EQ(f.time->to, "2026-01-01");
  EXPECT_EQ(f.time->expression, "去年");
  EXPECT_EQ(f.time->anchor, ctx.now);
  EXPECT_EQ(f.time->timezone, "Asia/Shanghai");
  EXPECT_EQ(f.department, "法务部");
  EXPECT_EQ(f.tags, (std::vector<std::string>{"合同", "采购"}));
  EXPECT_EQ(f.is_signed, true);
  EXPECT_FALSE(f.uncertain);
  EXPECT_EQ(f.reasons,
            (std::vector<std::string>{
                "time:去年→[2025-01-01,2026-01-01)", "department:法务部", "tag:合同", "tag:采购",
                "is_signed:盖章版→true",
                "preferred:department,tags (from words: matching documents rank higher, the "
                "others still come back)"}));
  // Time and the signed flag are what the question states: required, never preferences.
  EXPECT_EQ(f.preferred, (std::vector<std::string>{"department", "tags"}));
}

// Department, tags and path read from words are preferences unless [filters] word_filters =
// "require"; the asker's own department (我们组, from the session) is always required.
// A month, day, quarter or half named without its year is the one under way, else the coming one
// when it begins within [filters] year_less_ahead_days (92), else the last one — said in the
// reason. One with its year or a relative one is taken as written. A range's two ends move
// together, one whose far end comes first crosses New Year, and one run to today began before it.
TEST(Filters, AYearLessDateIsTheOneUnderWayComingSoonOrJustPast) {
  AnalysisContext ctx;
  ctx.now = "2026-03-15T10:00:00+08:00";
  ctx.timezone = "Asia/Shanghai";
  FiltersConfig cfg = shipped();
  auto range = [&](std::string_view q) {
    const Filters f = run(q, ctx, cfg);
    return f.time ? f.time->from + "/" + f.time->to : std::string("none");
  };
  EXPECT_EQ(range("12月的加班费怎么算"), "2025-12-01/2026-01-01");
  EXPECT_EQ(range("十一月二十日的会议纪要"), "2025-11-20/2025-11-21");
  EXPECT_TRUE(has_reason(run("12月的加班费怎么算", ctx),
                         "time:12月→[2025-12-01,2026-01-01) (no year: last year's; this year's is "
                         "still far ahead)"))
      << joined(run("12月的加班费怎么算", ctx).reasons);
  EXPECT_EQ(range("4月的排班表"), "2026-04-01/2026-05-01");
  EXPECT_EQ(range("6月10日的培训"), "2026-06-10/2026-06-11");     // 87 days ahead
  EXPECT_EQ(range("6月20日的培训记录"), "2025-06-20/2025-06-21");  // 97 days ahead
  EXPECT_EQ(range("3月20日的培训"), "2026-03-20/2026-03-21");
  EXPECT_EQ(range("2026年12月的预算"), "2026-12-01/2027-01-01");
  EXPECT_EQ(range("今年第三季度的预算"), "2026-07-01/2026-10-01");
  EXPECT_EQ(range("上个月的排班表"), "2026-02-01/2026-03-01");
  EXPECT_EQ(range("1月的工资条"), "2026-01-01/2026-02-01");
  EXPECT_EQ(range("一季度的销售报表"), "2026-01-01/2026-04-01");  // under way
  EXPECT_EQ(range("三季度的经费使用情况"), "2025-07-01/2025-10-01");
  EXPECT_EQ(range("下半年的巡检报告"), "2025-07-01/2026-01-01");
  EXPECT_EQ(range("8月到10月的考勤"), "2025-08-01/2025-11-01");
  EXPECT_EQ(range("11月到12月的账单"), "2025-11-01/2026-01-01");
  EXPECT_EQ(range("11月到2月的报销"), "2025-11-01/2026-03-01");
  EXPECT_EQ(range("从9月1号开学到现在的请假记录"), "2025-09-01/2026-03-16");
  EXPECT_EQ(range("10月1号至今的工单"), "2025-10-01/2026-03-16");
  EXPECT_EQ(range("每年6到9月发高温补贴吗"), "none");  // recurs: no period
  EXPECT_EQ(range("每年12月的年终奖什么时候发"), "none");
  ctx.now = "2026-12-10T10:00:00+08:00";
  EXPECT_EQ(range("11月到2月的报销"), "2026-11-01/2027-03-01");
  EXPECT_EQ(range("12月的加班费怎么算"), "2026-12-01/2027-01-01");
  EXPECT_EQ(range("1月份的排班表什么时候出"), "2027-01-01/2027-02-01");
  EXPECT_TRUE(has_reason(run("1月份的排班表", ctx),
                         "time:1月份→[2027-01-01,2027-02-01) (no year: next year's)"))
      << joined(run("1月份的排班表", ctx).reasons);
  EXPECT_EQ(range("一季度的预算"), "2027-01-01/2027-04-01");
  EXPECT_EQ(range("9月份的叉车保养记录"), "2026-09-01/2026-10-01");
  // The horizon is the host's: 0 never reads a date ahead.
  EXPECT_EQ(range("一季度的销售报表"), "2026-01-01/2026-04-01");  // a quarter stays in its year
  cfg.year_less_ahead_days = 0;
  EXPECT_EQ(range("1月份的工资条"), "2026-01-01/2026-02-01");
  EXPECT_EQ(range("1月份的排班表"), "2027-01-01/2027-02-01");  // a plan: plan_ahead_days
  cfg.year_less_plan_ahead_days = 0;
  EXPECT_EQ(range("1月份的排班表"), "2026-01-01/2026-02-01");
  // A list moves together or not at all.
  cfg = shipped();
  ctx.now = "2026-02-10T10:00:00+08:00";
  const Filters list = run("10月、11月和12月的报销", ctx);
  ASSERT_EQ(list.time_ranges.size(), 3u) << joined(list.reasons);
  for (const auto& r : list.time_ranges) EXPECT_TRUE(r.from.starts_with("2025-")) << r.from;
}

// 去年和今年7月: a bare year listed before a year's part compares the same part of both years.
TEST(Filters, ABareYearBeforeAYearsPartComparesThatPart) {
  AnalysisContext ctx;
  ctx.now = "2026-08-21T10:00:00+08:00";
  ctx.timezone = "Asia/Shanghai";
  auto ranges = [&](std::string_view q) {
    std::string out;
    for (const auto& r : run(q, ctx).time_ranges) out += r.from + "/" + r.to + " ";
    return out;
  };
  EXPECT_EQ(ranges("对比一下去年和今年7月的用水量"), "2025-07-01/2025-08-01 2026-07-01/2026-08-01 ");
  EXPECT_EQ(ranges("2024年和2025年第三季度的合同纠纷"),
            "2024-07-01/2024-10-01 2025-07-01/2025-10-01 ");
  EXPECT_EQ(ranges("去年和今年上半年的销量"), "2025-01-01/2025-07-01 2026-01-01/2026-07-01 ");
  EXPECT_EQ(ranges("去年和今年的销量"), "2025-01-01/2026-01-01 2026-01-01/2027-01-01 ");
  EXPECT_EQ(ranges("去年到今年7月的销量"), "2025-01-01/2026-08-01 ");  // a range: from all of last year
  // A part that took the bare year's year does not give it back (the review): 去年和7月 is two.
  EXPECT_EQ(ranges("去年和7月的销量"), "2025-01-01/2026-01-01 2025-07-01/2025-08-01 ");
}

// The review's time faults: a verb kept when a range runs to today (从1月发布到现在 filters the
// publication date, here none: no filter, never the validity range); 准备金 and 实施方案 are no
// plans; the "no year" note only on the mention that moved.
TEST(Filters, TheReviewsTimeFaultsStayMended) {
  AnalysisContext ctx;
  ctx.now = "2026-03-15T10:00:00+08:00";
  ctx.timezone = "Asia/Shanghai";
  const Filters published = run("从1月发布到现在的通知", ctx);
  EXPECT_FALSE(published.time.has_value());
  EXPECT_NE(joined(published.reasons).find("发布 needs [filters] published_date_field"),
            std::string::npos)
      << joined(published.reasons);
  for (const char* q : {"准备金率9月下调了多少", "8月份的实施方案"}) {
    const Filters f = run(q, ctx);
    ASSERT_TRUE(f.time.has_value()) << q;
    EXPECT_TRUE(f.time->from.starts_with("2025-")) << q << " " << f.time->from;
  }
  const Filters range = run("11月到2月的报销", ctx);
  EXPECT_TRUE(has_reason(range, "time:11月→[2025-11-01,2025-12-01) (no year: last year's; this "
                                "year's is still far ahead)"))
      << joined(range.reasons);
  EXPECT_TRUE(has_reason(range, "time:2月→[2026-02-01,2026-03-01)")) << joined(range.reasons);
}

TEST(Filters, WordFiltersArePreferencesUnlessRequired) {
  AnalysisContext ctx;
  ctx.session_department = "研发部";
  EXPECT_TRUE(run("我们组的报销汇总", ctx).preferred.empty());
  const Filters mixed = run("我们组的采购合同", ctx);
  EXPECT_EQ(mixed.department, "研发部");
  EXPECT_EQ(mixed.preferred, (std::vector<std::string>{"tags"}));
  FiltersConfig require = shipped();
  require.word_filters = "require";
  const Filters hard = run("法务部的采购合同", {}, require);
  EXPECT_EQ(hard.department, "法务部");
  EXPECT_TRUE(hard.preferred.empty());
  EXPECT_EQ(joined(hard.reasons).find("preferred:"), std::string::npos) << joined(hard.reasons);
  require.word_filters = "sometimes";
  EXPECT_NE(qaplan::internal::validate_filters_config(require).find("word_filters"),
            std::string::npos);
  std::string text = shipped_text();
  const std::string from = "word_filters = \"prefer\"";
  ASSERT_NE(text.find(from), std::string::npos);
  text.replace(text.find(from), from.size(), "word_filters = \"maybe\"");
  auto cfg = qaplan::parse_config(text, "config/rules.toml");
  ASSERT_FALSE(cfg.ok());
  EXPECT_NE(cfg.error().to_string().find("word_filters"), std::string::npos);
}

// The documents' publication / signing date fields are read from [filters];
// the shipped KB has neither, so the shipped values are "".
TEST(Filters, DateFieldsAreConfigured) {
  EXPECT_EQ(shipped().published_date_field, "");
  EXPECT_EQ(shipped().signed_date_field, "");
  std::string text = shipped_text();
  const std::string from = "published_date_field = \"\"";
  const std::size_t p = text.find(from);
  ASSERT_NE(p, std::string::npos);
  text.replace(p, from.size(), "published_date_field = \"published_on\"");
  auto cfg = qaplan::parse_config(text, "config/rules.toml");
  ASSERT_TRUE(cfg.ok()) << cfg.error().to_string();
  EXPECT_EQ(cfg->filters.published_date_field, "published_on");
  AnalysisContext ctx;
  ctx.now = "2026-03-15T10:00:00+08:00";
  const Filters f = extract_filters("上个月发布的差旅制度", cfg->filters, ctx);
  ASSERT_TRUE(f.time.has_value());
  EXPECT_EQ(f.time->date, "published");
  EXPECT_EQ(f.time->field, "published_on");
  EXPECT_EQ(f.time->from, "2026-02-01");
  FiltersConfig bad = cfg->filters;
  bad.signed_date_field = "a b";
  EXPECT_NE(qaplan::internal::validate_filters_config(bad).find("signed_date_field"), std::string::npos);
}

TEST(Filters, CompiledFormFollowsTheVocabulary) {
  FiltersConfig c = shipped();
  EXPECT_FALSE(extract_filters("研发中心的周报", c, {}).department.has_value());
  c.departments.push_back({"研发部", {"研发中心"}});  // a longer list after use: compiled again
  EXPECT_EQ(extract_filters("研发中心的周报", c, {}).department, "研发部");
  c.departments.back().aliases.push_back("研发");
  EXPECT_EQ(extract_filters("研发的周报", c, {}).department, "研发部");
  FiltersConfig copy = c;  // compiles on its own
  EXPECT_EQ(extract_filters("研发中心的周报", copy, {}).department, "研发部");
  copy.departments.pop_back();
  EXPECT_FALSE(extract_filters("研发中心的周报", copy, {}).department.has_value());
  EXPECT_EQ(extract_filters("研发中心的周报", c, {}).department, "研发部");
  FiltersConfig moved = std::move(copy);
  EXPECT_FALSE(extract_filters("研发中心的周报", moved, {}).department.has_value());
  c.week_start = 9;  // a number changed after use: validated again
  EXPECT_FALSE(extract_filters("研发中心的周报", c, {}).department.has_value());
  EXPECT_TRUE(c == c);
  EXPECT_FALSE(c == moved);
}

TEST(Filters, ManyThreadsOneConfig) {
  const FiltersConfig c = shipped();  // not yet compiled in this copy's lifetime? shared: fine
  AnalysisContext ctx;
  ctx.now = "2026-11-30T10:00:00+08:00";
  ctx.session_department = "研发部";
  const std::vector<std::string> qs = {norm("法务部去年盖章版的采购合同"), norm("我们组最近7天的报销"),
                                       norm("Q3的差旅草稿"), norm("年假怎么申请")};
  std::vector<Filters> expected;
  for (const auto& q : qs) expected.push_back(extract_filters(q, c, ctx));
  std::vector<int> mismatches(8, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 500; ++i) {
        const std::size_t k = static_cast<std::size_t>(i + t) % qs.size();
        if (!(extract_filters(qs[k], c, ctx) == expected[k])) ++mismatches[static_cast<std::size_t>(t)];
      }
    });
  for (auto& th : threads) th.join();
  for (int m : mismatches) EXPECT_EQ(m, 0);
}

TEST(Filters, InvalidConfigBuiltInCodeGivesNoFilters) {
  FiltersConfig c;
  c.week_start = 8;
  EXPECT_NE(qaplan::internal::validate_filters_config(c).find("week_start"), std::string::npos);
  const Filters f = extract_filters("上个月", c, AnalysisContext{"2026-11-30T10:00:00+08:00", "", {}, {}});
  EXPECT_FALSE(f.time.has_value());
  ASSERT_EQ(f.reasons.size(), 1u);
  EXPECT_EQ(f.reasons[0].rfind("filters:invalid config: week_start", 0), 0u) << f.reasons[0];

  struct Bad {
    const char* what;
    std::function<void(FiltersConfig&)> edit;
    const char* message_part;
  };
  const std::vector<Bad> bad = {
      {"festival days", [](FiltersConfig& x) { x.spring_festival_days = 0; }, "spring_festival_days"},
      {"window", [](FiltersConfig& x) { x.max_window_days = 0; }, "max_window_days"},
      {"festival date", [](FiltersConfig& x) { x.spring_festival_dates = {"2027-06-01"}; },
       "not a possible Spring Festival"},
      {"upper case cue", [](FiltersConfig& x) { x.signed_cues = {"Signed"}; }, "normalized form"},
      {"traditional cue", [](FiltersConfig& x) { x.draft_cues = {"草稿", "徵求意見稿"}; },
       "normalized form"},
      {"cue in both", [](FiltersConfig& x) { x.signed_cues = {"终稿"}; x.draft_cues = {"终稿"}; },
       "names both"},
      {"empty name", [](FiltersConfig& x) { x.departments = {{"", {}}}; }, "must not be empty"},
      {"alias twice",
       [](FiltersConfig& x) { x.departments = {{"财务部", {"财务"}}, {"财务处", {"财务"}}}; },
       "names both"},
      {"tag without cues", [](FiltersConfig& x) { x.tags = {{"合同", {}}}; }, "must not be empty"},
      {"path cue twice",
       [](FiltersConfig& x) { x.paths = {{"/a/", {"库"}}, {"/b/", {"库"}}}; }, "names both"},
  };
  for (const Bad& b : bad) {
    SCOPED_TRACE(b.what);
    FiltersConfig x;
    b.edit(x);
    const std::string m = qaplan::internal::validate_filters_config(x);
    EXPECT_NE(m.find(b.message_part), std::string::npos) << m;
  }
}

// Every [filters] error names config/rules.toml:<line>, the table and the key.
TEST(Filters, ConfigErrorsNameFileLineAndKey) {
  struct ConfigCase {
    const char* name;
    std::string from;
    std::string to;
    std::string line_of;  // text on the offending line (in the edited file)
    std::string field;    // "[filters] week_start"
    std::string message_part;
  };
  const std::vector<ConfigCase> cases = {
      {"week_start 0", "week_start = 1 ", "week_start = 0 ", "week_start = 0", "[filters] week_start",
       "1 (Monday) .. 7 (Sunday)"},
      {"week_start 8", "week_start = 1 ", "week_start = 8 ", "week_start = 8", "[filters] week_start",
       "1 (Monday)"},
      {"week_start a string", "week_start = 1 ", "week_start = \"monday\" ", "week_start = \"monday\"",
       "[filters] week_start", "must be an integer"},
      {"festival days", "spring_festival_days = 30", "spring_festival_days = 0",
       "spring_festival_days = 0", "[filters] spring_festival_days", "1 .. 366"},
      {"window", "max_window_days = 3660", "max_window_days = -1", "max_window_days = -1",
       "[filters] max_window_days", "1 .. 36600"},
      {"festival date malformed", "spring_festival_dates = [\"2027-02-06\"",
       "spring_festival_dates = [\"2027-2-6\"", "spring_festival_dates = [\"2027-2-6\"",
       "[filters] spring_festival_dates", "not a date"},
      {"festival date impossible", "spring_festival_dates = [\"2027-02-06\"",
       "spring_festival_dates = [\"2027-05-06\"", "spring_festival_dates = [\"2027-05-06\"",
       "[filters] spring_festival_dates", "not a possible Spring Festival"},
      {"festival year twice", "spring_festival_dates = [\"2027-02-06\", \"2030-02-03\"]",
       "spring_festival_dates = [\"2027-02-06\", \"2027-02-07\"]", "spring_festival_dates = [",
       "[filters] spring_festival_dates", "two dates for 2027"},
      {"unknown key", "max_window_days = 3660", "max_window_days = 3660\nweek_starts = 2",
       "week_starts = 2", "[filters] week_starts", "unknown key"},
      {"cue upper case", "signed_cues = [\"盖章\",", "signed_cues = [\"Stamped\", \"盖章\",",
       "signed_cues = [\"Stamped\"", "[filters] signed_cues", "normalized form"},
      {"cue full-width", "draft_cues = [\"草稿\",", "draft_cues = [\"ｄｒａｆｔ２\", \"草稿\",",
       "draft_cues = [\"ｄｒａｆｔ２\"", "[filters] draft_cues", "'draft2'"},
      {"cue empty", "session_user_cues = [\"我的\",", "session_user_cues = [\"\", \"我的\",",
       "session_user_cues = [\"\"", "[filters] session_user_cues", "is empty"},
      {"cue not a string", "ignore_within = [\"盖章流程\",", "ignore_within = [3, \"盖章流程\",",
       "ignore_within = [3", "[filters] ignore_within", "array of strings"},
      {"signed and draft", "draft_cues = [\"草稿\",", "draft_cues = [\"正式版\", \"草稿\",",
       "draft_cues = [\"正式版\"", "[filters] draft_cues", "names both"},
      {"department unknown key", "name = \"财务部\"", "name = \"财务部\"\nalias = [\"财务\"]",
       "alias = [", "[filters.departments[0]] alias", "unknown key"},
      {"department without name", "name = \"财务部\"", "label = \"财务部\"", "[[filters.departments]]",
       "[filters.departments[0]] name", "missing required key"},
      {"department twice", "name = \"法务部\"", "name = \"财务部\"", "",
       "[filters.departments[1]] name", "duplicate '财务部'"},
      {"alias claimed twice", "aliases = [\"法务\",", "aliases = [\"财务\",",
       "aliases = [\"财务\", \"法务处\"", "[filters.departments[1]] aliases",
       "'财务' names both '财务部' and '法务部'"},
      {"alias upper case", "aliases = [\"信息部\",", "aliases = [\"IT部门\", \"信息部\",",
       "aliases = [\"IT部门\"", "[filters.departments[3]] aliases", "'it部门'"},
      {"tag without cues", "cues = [\"合同\", \"协议\", \"contract\", \"agreement\"]", "cues = []",
       "cues = []", "[filters.tags[0]] cues", "must not be empty"},
      {"tag twice", "tag = \"采购\"", "tag = \"合同\"", "", "[filters.tags[1]] tag",
       "duplicate '合同'"},
      {"tag unknown key", "tag = \"差旅\"", "tag = \"差旅\"\nweight = 2", "weight = 2",
       "[filters.tags[2]] weight", "unknown key"},
      {"path cue claimed twice", "cues = [\"制度库\",", "cues = [\"合同库\",",
       "cues = [\"合同库\", \"规章制度\"", "[filters.paths[1]] cues", "names both"},
      {"path prefix twice", "prefix = \"/policies/\"", "prefix = \"/contracts/\"", "",
       "[filters.paths[1]] prefix", "duplicate '/contracts/'"},
      {"path without prefix", "prefix = \"/contracts/\"", "path = \"/contracts/\"",
       "[[filters.paths]]", "[filters.paths[0]] prefix", "missing required key"},
      // the date fields go into engine queries as they are (a Milvus expression too)
      {"published field with a space", "published_date_field = \"\"",
       "published_date_field = \"published on\"", "published_date_field = \"published on\"",
       "[filters] published_date_field", "not a field name"},
      {"signed field with a quote", "signed_date_field = \"\"",
       "signed_date_field = \"x\\\" or 1\"", "signed_date_field = \"x",
       "[filters] signed_date_field", "not a field name"},
      {"published field not a string", "published_date_field = \"\"", "published_date_field = 3",
       "published_date_field = 3", "[filters] published_date_field", "must be a string"},
  };
  const std::string base = shipped_text();
  const std::size_t section = base.find("[filters]");
  ASSERT_NE(section, std::string::npos);
  for (const ConfigCase& c : cases) {
    SCOPED_TRACE(c.name);
    std::string text = base;
    const std::size_t p = text.find(c.from, section);  // the first occurrence inside [filters]
    ASSERT_NE(p, std::string::npos) << "fixture text not found: " << c.from;
    text.replace(p, c.from.size(), c.to);
    auto r = qaplan::parse_config(text, "config/rules.toml");
    ASSERT_FALSE(r.ok());
    const qaplan::Error& e = r.error();
    EXPECT_EQ(e.code, qaplan::ErrorCode::kInvalidConfig);
    int line = 0;
    if (!c.line_of.empty()) {
      const std::size_t at = text.find(c.line_of, section);
      ASSERT_NE(at, std::string::npos);
      line = 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(at), '\n'));
    } else {
      line = 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(p), '\n'));
    }
    EXPECT_NE(e.where().find("config/rules.toml:" + std::to_string(line) + " "), std::string::npos)
        << e.to_string();
    EXPECT_NE(e.where().find(c.field), std::string::npos) << e.to_string();
    EXPECT_NE(e.message.find(c.message_part), std::string::npos) << e.to_string();
    EXPECT_EQ(e.to_string().find('\n'), std::string::npos);
  }
}

}  // namespace

namespace {

// The analyzer extracts with the index it compiled when it was made: the filters of every
// question of the planner benchmark and the intent set, with and without a session, must be those
// extract_filters finds with the config alone.
TEST(Filters, AnIndexHeldByTheCallerGivesTheSameFilters) {
  const auto index = qaplan::internal::filters_index(shipped());
  std::vector<std::string> texts;
  for (const char* file :
       {"tools/bench/data/planner_questions.jsonl", "eval_sets/intent_policy.json"}) {
    const std::string all = qaplan::test::slurp(qaplan::test::source_dir() / file);
    // Every quoted string of the file: questions, history turns and a few field values.
    for (std::size_t at = all.find('"'); at != std::string::npos; at = all.find('"', at)) {
      const std::size_t end = all.find('"', at + 1);
      if (end == std::string::npos) break;
      texts.push_back(all.substr(at + 1, end - at - 1));
      at = end + 1;
    }
  }
  AnalysisContext plain, session;
  plain.now = session.now = "2026-11-30T10:00:00+08:00";
  session.session_department = "财务部";
  session.session_user = "u1";
  std::size_t differ = 0, with_reasons = 0;
  for (const std::string& raw : texts) {
    auto n = qaplan::internal::normalize_question(raw, qaplan::InputConfig{});
    if (!n.ok()) continue;
    for (const AnalysisContext* ctx : {&plain, &session}) {
      const Filters alone = extract_filters(n->text, shipped(), *ctx);
      with_reasons += !alone.reasons.empty();
      if (!(alone == extract_filters(n->text, shipped(), *ctx, *index)) && ++differ <= 20)
        ADD_FAILURE() << raw;
    }
  }
  EXPECT_EQ(differ, 0u) << "of " << texts.size() << " texts";
  EXPECT_GT(with_reasons, 100u);
}

}  // namespace
