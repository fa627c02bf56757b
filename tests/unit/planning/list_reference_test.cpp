// A turn that picks an item of a list the conversation gave (src/planning/list_reference.hpp,
// src/planning/analysis/list_step.cpp): the pointer, the list's items, the follow-up it makes and
// the rewrite with the item in the pointer's place.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "planning/analysis/rewrite_check.hpp"
#include "planning/list_reference.hpp"
#include "qaplan/qaplan.hpp"
#include "support/planners.hpp"
#include "test_support.hpp"

namespace {

using namespace qaplan;
using internal::list_items;
using internal::list_pointer;

std::vector<std::string> items_of(const std::string& text) {
  std::vector<std::string> out;
  for (std::string_view s : list_items(text)) out.emplace_back(s);
  return out;
}

// The pointer's text and the item it names, or "" when the turn has_reason none.
std::string pointer_of(const std::string& turn, int* item = nullptr) {
  const auto p = list_pointer(turn);
  if (!p) return "";
  if (item) *item = p->item;
  return turn.substr(p->begin, p->end - p->begin);
}

TEST(ListReference, OrdinalsAndTheFormerAndTheLatterPointIntoAList) {
  int item = 0;
  EXPECT_EQ(pointer_of("麻烦展开讲讲第三个", &item), "第三个");
  EXPECT_EQ(item, 3);
  EXPECT_EQ(pointer_of("第2种怎么收费", &item), "第2种");
  EXPECT_EQ(item, 2);
  EXPECT_EQ(pointer_of("后者要排队吗", &item), "后者");
  EXPECT_EQ(item, 2);
  EXPECT_EQ(pointer_of("最后一项在哪交", &item), "最后一项");
  EXPECT_EQ(item, internal::kLastItem);
  // What an ordinal counts when a noun follows it is no item of a list.
  EXPECT_EQ(pointer_of("第二个工作日能到账吗"), "");
  EXPECT_EQ(pointer_of("第一个人是谁"), "");
  EXPECT_EQ(pointer_of("第二天能到吗"), "");
  EXPECT_EQ(pointer_of("最后能不能退"), "");
}

TEST(ListReference, ItemsComeWithoutTheWordsThatLeadIntoOrFollowTheList) {
  EXPECT_EQ(items_of("可以选择公积金贷款、商业贷款或者组合贷款。"),
            (std::vector<std::string>{"公积金贷款", "商业贷款", "组合贷款"}));
  EXPECT_EQ(items_of("报名方式有两种：现场报名和网上报名。"),
            (std::vector<std::string>{"现场报名", "网上报名"}));
  EXPECT_EQ(items_of("一般要准备护照、签证和往返机票等。"),
            (std::vector<std::string>{"护照", "签证", "往返机票"}));
  EXPECT_EQ(items_of("午餐和晚餐都免费。"), (std::vector<std::string>{"午餐", "晚餐"}));
  // Clauses are no list, nor is a text without one.
  EXPECT_TRUE(items_of("先按入职时间排序，再按部门排序").empty());
  EXPECT_TRUE(items_of("在系统里提交申请即可。").empty());
}

struct ListRewrite {
  bool follow_up = false;
  std::string query;
  std::vector<std::string> reasons;
};

ListRewrite list_rewrite(const std::string& q, const std::vector<std::string>& history) {
  const Preparation p = test::prep(q, history);
  ListRewrite out;
  out.follow_up = p.intent && p.intent->intent == Intent::kFollowUp;
  if (!out.follow_up) return out;
  AnalysisContext ctx;
  ctx.now = "2026-03-15T10:00:00+08:00";
  auto a = test::planner().analyze(p, ctx);
  EXPECT_TRUE(a.ok()) << q;
  if (!a.ok()) return out;
  out.query = a->rewrite.query;
  out.reasons = a->rewrite.reasons;
  return out;
}

ListRewrite list_rewrite(const std::string& q, const std::string& previous) {
  return list_rewrite(q, std::vector<std::string>{previous});
}

bool has_reason(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

// The item takes the pointer's place; the turn follows its history even when it names nothing
// else (麻烦展开讲讲第三个 was standalone).
TEST(ListReference, TheItemTakesThePointersPlace) {
  const std::pair<const char*, const char*> cases[][2] = {
      {{"麻烦展开讲讲第三个", "新员工要上三门课：职业道德、保密制度和消防安全。"},
       {"麻烦展开讲讲消防安全", ""}},
      {{"后者利率多少", "可以选择公积金贷款或商业贷款。"}, {"商业贷款利率多少", ""}},
      {{"第一种要多久", "报名方式有两种：现场报名和网上报名。"}, {"现场报名要多久", ""}},
      {{"最后一项去哪办", "一般要准备护照、签证和往返机票等。"}, {"往返机票去哪办", ""}},
  };
  for (const auto& c : cases) {
    const ListRewrite r = list_rewrite(c[0].first, c[0].second);
    EXPECT_TRUE(r.follow_up) << c[0].first;
    EXPECT_EQ(r.query, c[1].first) << c[0].first;
    EXPECT_TRUE(has_reason(r.reasons, "list_item")) << c[0].first;
  }
}

// A list a turn or two back is the one pointed into when no newer turn lists anything, for the
// detection as for the rewrite.
TEST(ListReference, AListTwoTurnsBackIsPointedInto) {
  const ListRewrite r = list_rewrite(
      "第二个要带什么", {"体检有几种套餐", "有基础套餐、标准套餐和高级套餐。", "好的，谢谢"});
  EXPECT_TRUE(r.follow_up);
  EXPECT_EQ(r.query, "标准套餐要带什么");
  const ListRewrite q = list_rewrite("后者能线上办吗", {"可以办储蓄卡或信用卡。", "要本人去吗", "要的"});
  EXPECT_TRUE(q.follow_up);
  EXPECT_EQ(q.query, "信用卡能线上办吗");
}

// A pointer past the list's end, or 后者 of three, names no item: the turn goes as it is rather
// than spliced into the list.
TEST(ListReference, APointerWithoutItsItemLeavesTheTurnAsItIs) {
  for (const char* q : {"第四个呢", "后者呢"}) {
    const ListRewrite r = list_rewrite(q, "新员工要上三门课：职业道德、保密制度和消防安全。");
    ASSERT_TRUE(r.follow_up) << q;
    EXPECT_EQ(r.query, q);
    EXPECT_TRUE(has_reason(r.reasons, "list_item:none")) << q;
  }
  // Two clauses are no list: nothing to point into.
  const ListRewrite none = list_rewrite("那前者呢", "可以线上办理，也可以去柜台办理。");
  ASSERT_TRUE(none.follow_up);
  EXPECT_EQ(none.query, "那前者呢");
}

// The garble check reads a pointer like a pronoun: the item may take its place.
TEST(ListReference, TheGarbleCheckLetsTheItemReplaceThePointer) {
  const Config c = load_config(test::shipped_config()).value();
  const internal::WordSet words = internal::rewrite_words(c.rewrite);
  const std::string prev = "新员工要上三门课：职业道德、保密制度和消防安全。";
  EXPECT_EQ(internal::garble_reason("麻烦展开讲讲消防安全",
                                    internal::RewriteSources{"麻烦展开讲讲第三个", {prev}, "", 12}, words),
            "");
  // Another word of the turn is still kept.
  EXPECT_NE(internal::garble_reason("消防安全", internal::RewriteSources{"麻烦展开讲讲第三个", {prev}, "", 12},
                                    words),
            "");
}

}  // namespace
