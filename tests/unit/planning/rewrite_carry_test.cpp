// What a follow-up carries from the question it continues: rules of the twenty-sixth session, on
// questions made up for these tests (none is in tests/data), each asserting what the rule must
// write and where it must not apply.
#include <gtest/gtest.h>

#include "unit/planning/rewrite_support.hpp"

namespace {

using qaplan::test::rewrite;

// A turn whose verb follows 谁 or an adverb that only opens a verb (需要谁签字, 多久才会拨款) asks
// with its own verb: the question's verb (怎么报备) is not carried with the topic. A turn without
// one keeps it (要什么条件 asks about the question's act).
TEST(RewriteCarry, ATurnWithItsOwnVerbCarriesTheTopicWithoutTheQuestionsVerb) {
  EXPECT_EQ(rewrite("需要谁盖章", {"出差怎么报销"}).query, "出差需要谁盖章");
  EXPECT_EQ(rewrite("要多久才会拨款", {"备用金怎么申请"}).query, "备用金要多久才会拨款");
  EXPECT_EQ(rewrite("要什么材料", {"公积金可以提取吗"}).query, "公积金提取要什么材料");
}

// A 的-modifier goes in front of a topic that is one compound ICU cut into a word and a lone
// character (加班|餐): the piece is no word of its own to take the modifier's place.
TEST(RewriteCarry, AModifierGoesInFrontOfACompoundCutIntoAWordAndAPiece) {
  EXPECT_EQ(rewrite("访客的呢", {"加班餐要谁确认"}).query, "访客的加班餐要谁确认");
  EXPECT_EQ(rewrite("访客的呢", {"停车卡要谁审批"}).query, "访客的停车卡要谁审批");
}

}  // namespace

namespace {

// An acknowledgement run into the end of the turn is its verb (多久能收到, 说得清楚了吗 asks): only
// one set apart (…怎么办，收到) is social and left out.
TEST(RewriteCarry, AnAcknowledgementRunIntoTheTurnIsItsVerb) {
  EXPECT_EQ(rewrite("多久能收到", {"电子发票怎么开"}).query, "电子发票多久能收到");
  EXPECT_FALSE(qaplan::test::has(rewrite("那年假呢，收到", {"病假怎么请"}).query, "收到"));
}

// A pointer and a classifier ICU glued to a one-character noun (这|笔钱, 这|张票) stand for the
// thing the history named, whole: no classifier is left behind (押金笔钱).
TEST(RewriteCarry, APointerWithAGluedClassifierAndNounIsTheThing) {
  EXPECT_EQ(rewrite("这笔钱什么时候退", {"押金能报销吗", "押金不能报销，退还后需冲回借款。"}).query,
            "押金什么时候退");
  // 条款, 部门, 项目 are words of their own, no classifier and noun.
  EXPECT_TRUE(qaplan::test::has(rewrite("该条款可以协商吗", {"保密协议违约要赔多少"}).query, "条款"));
}

}  // namespace

namespace {

// A topic right after 怎么 / 如何 opens with the verb asked about: a 的-modifier takes the place
// of the modifier after it, never of the verb (was 怎么临时长期门禁卡).
TEST(RewriteCarry, AModifierTakesTheModifiersPlaceNotTheVerbAfterHow) {
  EXPECT_EQ(rewrite("临时的呢", {"怎么办理正式工牌"}).query, "怎么办理临时工牌");
  EXPECT_EQ(rewrite("国际的呢", {"如何预订国内机票"}).query, "如何预订国际机票");
}

}  // namespace

namespace {

// 他们 after the people a question of which people does an act asked for are the act's role
// (报价审核人), not the list the answer gave; not after a question of no act of that kind.
TEST(RewriteCarry, TheyAfterTheListOfWhoDoesAnActAreItsRole) {
  EXPECT_EQ(rewrite("他们一般几天给结果", {"报价审核要经过哪些人", "采购专员、部门经理和财务，金额大时还需总监。"})
                .query,
            "报价审核人一般几天给结果");
  EXPECT_FALSE(qaplan::test::has(
      rewrite("他们一般几点到", {"年会要请哪些人", "全体员工和几位客户。"}).query, "年会人"));
}

}  // namespace

namespace {

// 它们 before a word of when (晚上, 周末) still stands alone: the things the question counted.
TEST(RewriteCarry, TheyBeforeAWordOfWhenAreTheThingsCounted) {
  EXPECT_EQ(rewrite("它们周末都开吗", {"园区的食堂有几个窗口"}).query, "园区的食堂窗口周末都开吗");
}

}  // namespace

namespace {

// Two items of one kind joined by 和 take the place of the topic opening the question, which
// stays; two of different kinds are aspects of the topic, not in its place.
TEST(RewriteCarry, TwoItemsOfOneKindTakeTheTopicsPlace) {
  EXPECT_EQ(rewrite("那病假和事假呢", {"年假怎么请"}).query, "病假和事假怎么请");
  EXPECT_FALSE(qaplan::test::gave(rewrite("那截止时间和参加人数呢", {"年会主题是什么"}), "ellipsis:pair"));
}

}  // namespace

namespace {

// A number takes the place of the question's only number of as many digits (a year, a version);
// a name with its version takes the place of the name it abbreviates and its version.
TEST(RewriteCarry, ANumberOrAVersionTakesThePlaceOfItsLike) {
  EXPECT_EQ(rewrite("那2019呢", {"Visio 2021能装吗"}).query, "visio 2019能装吗");
  EXPECT_EQ(rewrite("Mac14呢", {"Macintosh 15的电脑怎么连打印机"}).query, "mac14的电脑怎么连打印机");
  EXPECT_EQ(rewrite("那Android 12呢", {"Android 14能装企业微信吗"}).query, "android 12能装企业微信吗");
}

}  // namespace

namespace {

// A bare noun after an answer that gave its cases clause by clause, to a query that asked no
// question, names another case of what was asked: the noun, then the query.
TEST(RewriteCarry, ABareNounAfterAnAnswerOfCasesIsAnotherCaseOfTheQuery) {
  EXPECT_EQ(rewrite("高铁", {"交通补贴标准", "市内交通每天补贴30元，打车按实报销。"}).query,
            "高铁交通补贴标准");
  EXPECT_EQ(rewrite("节假日", {"日值班补贴", "工作日每天80元，周末每天120元。"}).query,
            "节假日,日值班补贴");  // the seam's character said once on each side of a comma
  EXPECT_FALSE(qaplan::test::gave(rewrite("高铁", {"交通补贴标准", "每天补贴30元。"}), "ellipsis:asked"));
}

// Why after an answer that there is no need asks why of that verdict, with the question's
// subject and object.
TEST(RewriteCarry, WhyAfterNoNeedAsksWhyOfTheVerdict) {
  EXPECT_EQ(rewrite("为啥", {"食堂要自己带餐具吗", "食堂统一提供餐具，无需自行携带。"}).query,
            "食堂为啥无需自行携带餐具");
}

// A passive's 被 ends the subject a why goes after; a term joined across it is not cut at a
// guess: the safe form, not 邮箱账号被锁为什么了.
TEST(RewriteCarry, WhyGoesBeforeThePassive) {
  EXPECT_EQ(rewrite("为什么", {"报销单被财务退回了"}).query, "报销单为什么被财务退回了");
  EXPECT_FALSE(qaplan::test::has(rewrite("为什么", {"邮箱账号被锁了"}).query, "被锁为什么"));
}

}  // namespace

namespace {

// A predicate after an answer of cases is no case (还是卡 goes nowhere near the query's front).
TEST(RewriteCarry, APredicateAfterAnAnswerOfCasesIsNoCase) {
  EXPECT_FALSE(qaplan::test::gave(
      rewrite("还是卡呢", {"手机很卡", "可以先清理后台应用，并重启手机。"}), "ellipsis:asked"));
}

}  // namespace
