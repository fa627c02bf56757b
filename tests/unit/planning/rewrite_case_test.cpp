// A case put to the last question (如果…, 要是…, 超过了…): rules of the twenty-sixth session, on
// questions made up for these tests (none is in tests/data), each asserting what the rule must
// write and where it must not apply.
#include <gtest/gtest.h>

#include "unit/planning/rewrite_support.hpp"

namespace {

using qaplan::test::has;
using qaplan::test::rewrite;

// A 呢 closing the case before the question asked in it only marks the case.
TEST(RewriteCase, ANeClosingTheCaseBeforeItsQuestionIsDropped) {
  const auto r = rewrite("如果是因为加班呢，能免扣款吗", {"迟到怎么处理"});
  EXPECT_TRUE(has(r.query, "如果迟到是因为加班")) << r.query;
  EXPECT_FALSE(has(r.query, "呢")) << r.query;
}

// Time pressure put right after a question of how long something takes asks whether it can be
// sped up; not after a question of how early one must ask, nor a case with no haste in it.
TEST(RewriteCase, HasteAfterAQuestionOfHowLongAsksToExpedite) {
  EXPECT_EQ(rewrite("要是领导催着要呢", {"门禁权限开通要多久"}).query,
            "要是领导催着要,门禁权限开通能加急吗");
  EXPECT_EQ(rewrite("如果下周一就要用呢", {"名片印刷要多久"}).query.find("能加急吗"),
            std::string::npos);  // no word of haste: 就要 alone is no pressure
  EXPECT_FALSE(has(rewrite("要是来不及呢", {"会议室要提前几天订"}).query, "加急"));
}

// 超过了 after a question of a maximum names the limit exceeded: of money, of a space's room,
// else of a thing's size. Not after a question of no maximum.
TEST(RewriteCase, ExceedingAMaximumNamesTheLimit) {
  EXPECT_EQ(rewrite("超过了怎么办", {"差旅餐费最高多少"}).query, "差旅餐费超过金额限制了怎么办");
  EXPECT_EQ(rewrite("超过了怎么清理", {"个人网盘空间最大多少"}).query,
            "个人网盘空间超过容量限制了怎么清理");
  EXPECT_EQ(rewrite("超过了怎么传", {"上传的图片最大多少"}).query, "上传的图片超过大小限制了怎么传");
  EXPECT_FALSE(has(rewrite("超过了怎么办", {"加班一般到几点"}).query, "限制"));
}

}  // namespace

namespace {

// A case closed by 的话 with no marker: the question's verb takes back the object the last
// question gave it, and the subject goes in front when the turn does not name it — only the
// words before the verb when the object put back says the rest.
TEST(RewriteCase, ACaseClosedByDeHuaTakesBackItsObjectAndSubject) {
  EXPECT_EQ(rewrite("晚上来的话能进吗", {"快递员能进宿舍楼吗"}).query, "快递员晚上来的话能进宿舍楼吗");
  EXPECT_EQ(rewrite("戴眼镜的话能拍吗", {"拍证件照要化妆吗"}).query, "戴眼镜的话能拍证件照吗");
  // The turn names the subject's first word: nothing goes in front.
  EXPECT_EQ(rewrite("快递员白天来的话能进吗", {"快递员能进宿舍楼吗"}).query, "快递员白天来的话能进宿舍楼吗");
}

}  // namespace

namespace {

// 超出的那部分 after a question of a standard or a limit: what is exceeded is that standard,
// without the word that says whose it is; the turn follows its history (那部分 points back).
TEST(RewriteCase, ThePartExceedingIsOfTheStandardAsked) {
  const auto r = rewrite("超出的那部分谁承担", {"员工餐补标准是多少", "工作日每餐25元。"});
  EXPECT_TRUE(r.follow_up);
  EXPECT_EQ(r.query, "超出餐补标准的那部分谁承担");
  EXPECT_FALSE(qaplan::test::gave(rewrite("超出的那部分谁承担", {"年会在哪办"}), "pronoun:exceeded"));
}

}  // namespace

namespace {

// A case that opens with when goes before the whole question again: the topic put after the
// marker would come between the case and its time (was 要是会议室周末要用能临时借吗).
TEST(RewriteCase, ACaseOpeningWithWhenGoesBeforeTheQuestion) {
  EXPECT_EQ(rewrite("要是周末要用呢", {"会议室能临时借吗"}).query, "要是周末要用会议室能临时借吗");
  EXPECT_EQ(rewrite("如果晚上才到呢", {"访客能自己开门禁吗"}).query, "如果晚上才到访客能自己开门禁吗");
}

}  // namespace

namespace {

// A number opening the question: its token was read after its vector was freed (found by the
// review; it threw std::out_of_range).
TEST(RewriteCase, ANumberOpeningTheQuestionTakesItsPlaceSafely) {
  EXPECT_EQ(rewrite("那2013呢", {"2016版office还能用吗"}).query, "2013版office还能用吗");
}

// The review of the twenty-sixth session's rules: each line is a fault it found, mended.
TEST(RewriteCase, TheTwentySixthSessionsRulesHoldAtTheirEdges) {
  // 就算了 gives up; it is no case.
  EXPECT_FALSE(has(rewrite("那就算了", {"年假怎么申请"}).query, "怎么办"));
  // The object put back stops before a question word; a word of when is no verb.
  EXPECT_FALSE(has(rewrite("晚上的话能打包吗", {"晚上食堂几点关门"}).query, "几点关门的话"));
  // Only a maximum amount names a limit, and money said in the question counts.
  EXPECT_FALSE(has(rewrite("超过了怎么办", {"公积金贷款最多能贷多少年"}).query, "限制"));
  EXPECT_TRUE(has(rewrite("超过了怎么办", {"单笔报销最大金额是多少"}).query, "超过金额限制了"));
  // Haste is said in whole words (赶上 is no haste), after a question of how long it takes (有几天
  // asks how many days one has).
  EXPECT_FALSE(has(rewrite("如果赶上节假日呢", {"审批要几天"}).query, "加急"));
  EXPECT_FALSE(has(rewrite("如果明天就生呢", {"产假有几天"}).query, "加急"));
  // Two items that qualify the topic take no place of it.
  EXPECT_FALSE(qaplan::test::gave(rewrite("男生和女生呢", {"员工宿舍怎么申请"}), "ellipsis:pair"));
  // A modifier in front of the head goes after the verb of 怎么申请 as well.
  EXPECT_TRUE(rewrite("临时访客的呢", {"怎么申请门禁卡"}).query.starts_with("怎么申请")) << "verb first";
}

}  // namespace

namespace {

// The second review of the twenty-sixth session's rules: each line is a fault it found, mended.
TEST(RewriteCase, TheTwentySixthSessionsLaterRulesHoldAtTheirEdges) {
  using qaplan::test::gave;
  // A statement of a trouble is no query of cases; a noun of the query's kind takes its place.
  EXPECT_FALSE(gave(rewrite("平板呢", {"手机很卡", "可以先清理后台应用，并重启手机。"}), "ellipsis:asked"));
  EXPECT_EQ(rewrite("事假", {"婚假天数", "按当地规定，一般3天。"}).query, "事假天数");
  // 被 of a noun (被子) is no passive.
  EXPECT_EQ(rewrite("为什么", {"宿舍被子被收走了"}).query, "宿舍被子为什么被收走了");
  // No haste when it is denied; how long one may take leave is no time it takes.
  EXPECT_FALSE(has(rewrite("要是不着急呢", {"合同审批要几天"}).query, "加急"));
  EXPECT_FALSE(has(rewrite("要是着急回来上班呢", {"产假能休多久"}).query, "加急"));
  // A file's maximum is its size, whatever word of money its name holds; a maximum of days none.
  EXPECT_TRUE(has(rewrite("超过了怎么传", {"报销附件最大多少"}).query, "大小限制"));
  EXPECT_FALSE(has(rewrite("超过了怎么办", {"借款最多多少天"}).query, "限制"));
  // A 不用 clause that answers no act asked about is no verdict of no need.
  EXPECT_FALSE(gave(rewrite("为啥", {"电脑要装杀毒软件吗", "要装的，不用担心"}), "why_of_answer:no_need"));
}

}  // namespace

namespace {

// A reply word right after a negation is the verb it negates (没收到, 还是不明白): it stays in the
// turn the rewrite keeps. Reply words closed by 吗 ask (收到了吗): the turn keeps them too.
TEST(RewriteCase, NegatedAndAskedReplyWordsAreTheTurnsVerb) {
  for (const char* q : {"没收到呢", "还是没收到"}) {
    const auto r = rewrite(q, {"快递一般几天能到"});
    EXPECT_TRUE(has(r.query, "没收到")) << q << " → " << r.query;
  }
  const auto asked = rewrite("收到了吗", {"快递一般几天能到"});
  EXPECT_TRUE(has(asked.query, "收到了吗")) << asked.query;
  EXPECT_TRUE(has(asked.query, "快递")) << asked.query;
  // A reply of its own after a question is still left out (好的，那年假呢).
  EXPECT_FALSE(has(rewrite("好的，那年假呢", {"病假怎么请"}).query, "好的"));
}

}  // namespace

namespace {

// Why asked of a told problem goes before its negation or before the verb of a potential
// complement, never inside the predicate (刷为啥不了, 没为什么通过 were written).
TEST(RewriteCase, WhyGoesBeforeTheNegatedPredicate) {
  const std::pair<const char*, const char*> cases[] = {
      {"入园闸机刷不了身份证", "入园闸机为什么刷不了身份证"},
      {"报销单没通过", "报销单为什么没通过"},
      {"年假不能跨年用", "年假为什么不能跨年用"},
      {"我的订单被取消了", "订单为什么被取消了"}};
  for (const auto& [said, want] : cases) EXPECT_EQ(rewrite("为什么", {said}).query, want) << said;
}

// A contrast told after what went well (预约成功了但没收到短信) is one event: what to do about it
// keeps all of it, not the half after 但.
TEST(RewriteCase, AContrastToldIsKeptWhole) {
  const auto r = rewrite("怎么办", {"我预约成功了但没收到短信"});
  EXPECT_EQ(r.query, "预约成功了但没收到短信怎么办");
  EXPECT_TRUE(has(rewrite("怎么办", {"我预约成功了，但是没收到短信"}).query, "没收到短信"));
  EXPECT_EQ(rewrite("怎么办", {"我充值了不过没到账"}).query, "充值了不过没到账怎么办");
  // Asked whether what was said is all right (可以吗, 对吗): all of it, not its object.
  EXPECT_TRUE(has(rewrite("可以吗", {"我想下周一请年假"}).query, "下周一请年假可以吗"));
  EXPECT_EQ(rewrite("对吗", {"我理解年假是按工龄算的"}).query, "年假是按工龄算的对吗");
  EXPECT_EQ(rewrite("难吗", {"我最近在玩艾尔登法环"}).query, "艾尔登法环难吗");
}

// A parallel is built alike: 滨江店 takes 西湖店's place (西湖|店, the fragment's length), not
// 酒店's (a shorter word ending in the same character); a shorter word is still taken when no
// compound of that length is there (高铁票 beside 机票).
TEST(RewriteCase, AParallelTakesTheItemBuiltAlike) {
  EXPECT_EQ(rewrite("滨江店呢", {"云栖酒店西湖店停车收费吗"}).query, "云栖酒店滨江店停车收费吗");
  EXPECT_EQ(rewrite("那高铁票呢", {"机票怎么报销"}).query, "高铁票怎么报销");
}

}  // namespace

namespace {

// The pair a which-question picks from: a lone character glued after another that opens their run
// is the rest of a two-character word ICU cut (瓶|装|液化气 — the first item keeps 瓶装; 纸|本|发票);
// a third may be a verb (团|建|选|温泉还是露营: the pair is 温泉和露营).
TEST(RewriteCase, APairsItemsKeepAWordIcuCut) {
  EXPECT_TRUE(has(rewrite("哪个更安全", {"瓶装液化气和管道天然气价格差多少"}).query, "瓶装液化气和管道天然气"));
  EXPECT_EQ(rewrite("哪个好", {"大会议室跟小会议室怎么预约"}).query, "大会议室跟小会议室哪个好");
  EXPECT_EQ(rewrite("哪个便宜", {"团建选温泉还是露营"}).query.find("团建选温泉"), std::string::npos)
      << rewrite("哪个便宜", {"团建选温泉还是露营"}).query;
}

}  // namespace
