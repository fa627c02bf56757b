// Which thing a continuation asks about: rules of the twenty-seventh and twenty-eighth sessions, on
// questions made up for these tests (none is in tests/data), each asserting what the rule must
// write and where it must not apply.
#include <gtest/gtest.h>

#include <string>
#include <tuple>

#include "unit/planning/rewrite_support.hpp"

namespace {

using qaplan::test::rewrite;

// Once an answer has said yes to having a thing, the thing goes on without an owner that is only
// the company or the people talking; an owner that tells where (园区) stays, and so does the
// company before any answer.
TEST(RewriteThing, AThingAnAnswerConfirmedDropsTheCompanyAsItsOwner) {
  EXPECT_EQ(rewrite("收费吗", {"公司有健身房吗", "有，在三楼，早七点到晚十点开放。"}).query,
            "健身房收费吗");
  EXPECT_EQ(rewrite("几点开门", {"你们公司有食堂吗", "有，在B座二楼。"}).query, "食堂几点开门");
  // An answer that only opens with a word of 有 (有点难说) said no yes.
  EXPECT_EQ(rewrite("几点开门", {"公司有食堂吗", "有点难说，正在装修。"}).query, "公司食堂几点开门");
  EXPECT_EQ(rewrite("收费吗", {"园区有自行车棚吗", "有，在2号门西侧。"}).query,
            "园区自行车棚收费吗");
  EXPECT_EQ(rewrite("收费吗", {"公司有健身房吗"}).query, "公司健身房收费吗");
}

// What a procedure gets costs or arrives (押金多少钱, 多久能拿到): the thing, not the act of
// applying for it. What the procedure itself asks (要谁批) keeps the act.
TEST(RewriteThing, ThePriceOrArrivalOfWhatAProcedureGetsIsTheThings) {
  EXPECT_EQ(rewrite("押金多少钱", {"怎么办理门禁卡"}).query, "门禁卡押金多少钱");
  EXPECT_EQ(rewrite("多久能拿到", {"怎么申请工作证明"}).query, "工作证明多久能拿到");
  EXPECT_EQ(rewrite("手续费怎么收", {"怎么开通网上银行"}).query, "网上银行手续费怎么收");
  EXPECT_EQ(rewrite("要谁批", {"怎么申请工作证明"}).query, "申请工作证明要谁批");
  // A noun that only opens with such a verb (办理|流程, 购买|渠道) asks no how: it stays whole.
  EXPECT_TRUE(qaplan::test::has(rewrite("要多少钱", {"办理流程是什么"}).query, "办理流程"));
  EXPECT_TRUE(qaplan::test::has(rewrite("多少钱", {"购买渠道有哪些"}).query, "购买渠道"));
}

// A place measured against another (A 离 B 远吗) or a thing compared with another (A 比 B 贵吗):
// a pronoun after it is A, not the reference point with the predicate glued on.
TEST(RewriteThing, APronounIsWhatWasMeasuredNotWhatItWasMeasuredAgainst) {
  EXPECT_EQ(rewrite("那里有地铁吗", {"北京南站离市中心远吗"}).query, "北京南站有地铁吗");
  EXPECT_EQ(rewrite("那里人多吗", {"火车站离酒店近吗"}).query, "火车站人多吗");
  EXPECT_EQ(rewrite("它几点关门", {"食堂比便利店便宜吗"}).query, "食堂几点关门");
  // 离 of words ICU cut (离|店, 离|境) is no distance: the topic stays whole.
  EXPECT_EQ(rewrite("要提前多久", {"退房离店怎么办理"}).query, "退房离店办理要提前多久");
  EXPECT_TRUE(qaplan::test::has(rewrite("需要什么材料", {"离境退税怎么办理"}).query, "离境退税"));
}

// 老是 / 常常 say how often, like 总是: no part of the thing a statement names.
TEST(RewriteThing, AnAdverbOfFrequencyIsNoPartOfTheThing) {
  EXPECT_EQ(rewrite("要看医生吗", {"最近常常失眠"}).query, "失眠要看医生吗");
  EXPECT_EQ(rewrite("能把它卸了吗", {"浏览器插件老是弹广告"}).query, "能把浏览器插件卸了吗");
}

}  // namespace

namespace {

using qaplan::test::rewrite;

// The company or the people talking between a pair and its 都 (A和B公司都在用吗) are the clause's
// subject, no part of the second item; a head both items end in stays (正式员工和实习员工).
TEST(RewriteThing, TheSubjectBetweenAPairAndItsAdverbIsNoPartOfTheSecondItem) {
  EXPECT_EQ(rewrite("哪个好用", {"腾讯文档和飞书文档公司都能用吗"}).query,
            "腾讯文档和飞书文档哪个好用");
  EXPECT_EQ(rewrite("哪个更划算", {"补充公积金和企业年金员工都能交吗"}).query,
            "补充公积金和企业年金哪个更划算");
  EXPECT_EQ(rewrite("哪个便宜", {"顺丰和京东大家都在用吗"}).query, "顺丰和京东哪个便宜");
  // A head of the second item stays: the company, the staff or the body it names.
  EXPECT_EQ(rewrite("哪个福利好", {"正式员工和实习员工都能参加吗"}).query,
            "正式员工和实习员工哪个福利好");
  EXPECT_TRUE(qaplan::test::has(rewrite("哪个多", {"总部和分公司都有食堂吗"}).query, "分公司"));
  EXPECT_TRUE(
      qaplan::test::has(rewrite("哪个要求高", {"实习生和试用期员工都要打卡吗"}).query, "试用期员工"));
  EXPECT_TRUE(
      qaplan::test::has(rewrite("哪个流程更复杂", {"供应商和合作单位都要签保密协议吗"}).query,
                        "合作单位"));
}

}  // namespace

namespace {

using qaplan::test::rewrite;

// An answer that repeats a who-question's verb and 的 after someone (孙俪演的, 是毛不易唱的) names
// the doer, whom ICU may not know as a name: 他 / 她 stands for that doer, not for the work.
TEST(RewriteThing, TheDoerAnAnswerNamesIsWhomAPronounMeans) {
  EXPECT_EQ(rewrite("她还演过什么剧", {"那部剧是谁演的", "孙俪演的"}).query, "孙俪还演过什么剧");
  EXPECT_EQ(rewrite("他还有什么歌", {"这首歌是谁唱的", "是毛不易唱的"}).query, "毛不易还有什么歌");
  // An answer that names no doer by the question's verb leaves the other rules to it.
  EXPECT_EQ(rewrite("他多大", {"谁的手机丢了", "小张的"}).query, "小张多大");
  // A hedge, a time or 由 before the doer is no part of it.
  EXPECT_EQ(rewrite("他还有什么歌", {"这首歌是谁唱的", "好像是周深唱的"}).query, "周深还有什么歌");
  EXPECT_EQ(rewrite("他还有什么歌", {"这首歌是谁唱的", "是去年周深唱的"}).query, "周深还有什么歌");
  EXPECT_EQ(rewrite("他的电话是多少", {"这个项目是谁负责的", "由张敏负责的"}).query,
            "张敏的电话是多少");
  // No answer yet, or one that knows no doer: the question is no doer, nor is the song.
  for (const auto& history : {std::vector<std::string>{"这首歌是谁唱的"},
                              std::vector<std::string>{"这首歌是谁唱的", "不知道是谁唱的"}}) {
    const std::string q = rewrite("他还有什么歌", history).query;
    EXPECT_FALSE(qaplan::test::has(q, "是谁")) << q;
    EXPECT_TRUE(qaplan::test::has(q, "他")) << q;
  }
}

// 他 / 她 after the answer to a who-question is the person that answer named — its last clause
// first, without what the clause said before the noun (5万以上需|法务总监) — not people the question
// named (客户 of 客户投诉谁来处理). Before any answer the question's people stay.
TEST(RewriteThing, TheAnswerToAWhoQuestionNamesWhomAPronounMeans) {
  EXPECT_EQ(rewrite("她在哪个办公室",
                    {"客户投诉谁来处理", "小额的客服主管处理，大额的需客户经理处理。"})
                .query,
            "客户经理在哪个办公室");
  EXPECT_EQ(rewrite("他电话多少", {"采购合同谁来审核", "5万以下采购经理审核，5万以上需法务总监审核。"})
                .query,
            "法务总监电话多少");
  EXPECT_EQ(rewrite("他周末上班吗", {"工资条谁来发", "每月由人事专员统一发放。"}).query,
            "人事专员周末上班吗");
  EXPECT_EQ(rewrite("她在哪个办公室", {"客户投诉谁来处理"}).query, "客户在哪个办公室");
  // A title's prefix (副, 支) and a word ICU left in two lone characters (客|服) stay with it.
  EXPECT_EQ(rewrite("他在哪办公", {"报销谁审批？", "5万以上需副院长审批"}).query, "副院长在哪办公");
  EXPECT_EQ(rewrite("他的电话", {"贷款谁审批？", "支行行长"}).query, "支行行长的电话");
  EXPECT_EQ(rewrite("她电话多少", {"投诉谁处理？", "由客服专员处理"}).query, "客服专员电话多少");
}

// What a statement said the speaker does is asked about whole: a name holding a bare numeral
// (海底|两|万里) or a demonstrative between two nouns (公司|那些|规定) is one thing, not its last
// word. A count with its classifier (两百|个) is still left out.
TEST(RewriteThing, AStatementsObjectKeepsItsNumeralAndDemonstrative) {
  EXPECT_EQ(rewrite("讲的什么", {"我在读海底两万里"}).query, "海底两万里讲的什么");
  EXPECT_EQ(rewrite("合理吗", {"我看了公司那些规定"}).query, "公司那些规定合理吗");
  EXPECT_EQ(rewrite("什么馅的", {"我包了两百个饺子"}).query, "饺子什么馅的");
  // After a lone character ICU cut from a name (新|东方) there is no whole noun to join to (the
  // review: 东方那个班怎么样).
  const std::string q = rewrite("怎么样", {"我报了新东方那个班"}).query;
  EXPECT_FALSE(q.starts_with("东方")) << q;
  EXPECT_TRUE(qaplan::test::has(q, "新东方")) << q;
}

// A fragment opening with a negation (不满意, 没发票) is no item in the topic's place — that lost the
// topic: after a question whether something can be done it is a case of the topic, otherwise a
// predicate with no place (the safe form keeps the topic). A noun opening with 不 is an item.
TEST(RewriteThing, ANegatedFragmentIsACaseOfTheTopicNotItsPlace) {
  EXPECT_EQ(rewrite("不满意呢", {"课程可以退吗"}).query, "课程不满意可以退吗");
  EXPECT_EQ(rewrite("没发票呢", {"打车费能报销吗"}).query, "打车费没发票能报销吗");
  const std::string q = rewrite("不去呢", {"团建必须参加吗"}).query;
  EXPECT_TRUE(qaplan::test::has(q, "团建")) << q;
  EXPECT_EQ(rewrite("不良贷款呢", {"正常贷款能展期吗"}).query, "不良贷款能展期吗");
  // The second review: 能不能 and 么 ask whether too; a question opening with its modal takes the
  // case in front; a bare 没有 negates the question's own case and has no place.
  EXPECT_EQ(rewrite("不满意呢", {"课程能不能退"}).query, "课程不满意能不能退");
  EXPECT_EQ(rewrite("没有社保呢", {"能办居住证吗"}).query, "没有社保能办居住证吗");
  const std::string bare = rewrite("没有呢", {"有发票能报销吗"}).query;
  EXPECT_FALSE(qaplan::test::has(bare, "有发票没有")) << bare;
  // After the answer to a yes-or-no question the fragment is not glued to that answer (the
  // answer fills no object slot: 不交接必须完成工作交接 was written).
  for (const auto& [q, h, a] : {std::tuple{"不备案呢", "装修要备案吗", "必须先到物业备案。"},
                                std::tuple{"不审批呢", "采购要审批吗", "需要部门经理审批。"}}) {
    const std::string r = rewrite(q, {h, a}).query;
    EXPECT_TRUE(qaplan::test::has(r, std::string(h).substr(0, 6).c_str())) << r;
    EXPECT_FALSE(qaplan::test::has(r, std::string(a).substr(0, 6).c_str())) << r;
  }
  // Any other question word's answer still fills the verb's object (the second review).
  EXPECT_EQ(rewrite("我也要等", {"要等多久", "三天"}).query, "我也要等三天");
}

// An answer to the user's own question that opens with a step or a modal (先填报销单，再…) is a
// statement of the topic's steps, not a thing: the question's topic stays.
TEST(RewriteThing, AnAnswerOfStepsIsNoThingOfItsOwn) {
  const std::string a =
      rewrite("审批要多久", {"报销流程是什么", "先填报销单，再找主管审批，最后交财务。"}).query;
  EXPECT_TRUE(qaplan::test::has(a, "报销")) << a;
  EXPECT_FALSE(a.starts_with("先")) << a;
  const std::string b = rewrite("体检要多久", {"入职流程是什么", "首先体检，然后签合同。"}).query;
  EXPECT_TRUE(qaplan::test::has(b, "入职")) << b;
  EXPECT_FALSE(b.starts_with("首先")) << b;
  // A name after 是 is still the thing answered (the second review).
  EXPECT_EQ(rewrite("它怎么请假", {"公司用什么软件打卡", "是钉钉"}).query, "钉钉怎么请假");
}

}  // namespace
