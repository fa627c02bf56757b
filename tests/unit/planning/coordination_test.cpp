// "Which of the two" follow-ups (src/planning/analysis/coordination.hpp): the pair a turn
// coordinated, read off ICU's words, and the which-question it stands in front of. Sentences made
// up for this test; none is in the follow-up sets.
#include <gtest/gtest.h>

#include "planning/analysis/coordination.hpp"
#include "qaplan/qaplan.hpp"
#include "test_support.hpp"

namespace {

using namespace qaplan;
using internal::asks_which;
using internal::coordinated_pair;
using internal::offered_pair;
using internal::which_of_pair;

const internal::WordSet& function_words() {
  static const internal::WordSet w(load_config(test::shipped_config()).value().rewrite.function_words);
  return w;
}

std::string pair(std::string_view text) {
  return coordinated_pair(text, function_words()).value_or("<none>");
}

TEST(Coordination, WhichQuestionsAreRecognisedAndWhereIsNot) {
  EXPECT_TRUE(asks_which("哪个更省钱"));
  EXPECT_TRUE(asks_which("哪种方式快"));
  EXPECT_TRUE(asks_which("两者有什么不同"));
  EXPECT_TRUE(asks_which("二者能同时申请吗"));
  EXPECT_FALSE(asks_which("打印机在哪里"));
  EXPECT_FALSE(asks_which("证明去哪儿开"));
  EXPECT_FALSE(asks_which("报销要多久"));
  // 哪 before a unit of time asks when, where times do not count.
  EXPECT_TRUE(asks_which("周六和周日哪天人少"));
  EXPECT_FALSE(asks_which("哪个月生效", /*times_too=*/false));
  EXPECT_FALSE(asks_which("哪一年开始实施", /*times_too=*/false));
  EXPECT_TRUE(asks_which("哪个部门负责", /*times_too=*/false));
  EXPECT_TRUE(asks_which("哪个年级的学生能选", /*times_too=*/false));
  EXPECT_TRUE(asks_which("哪个号码能打通", /*times_too=*/false));
}

TEST(Coordination, ThePairStopsWherePredicateAndVerbBegin) {
  // The predicate's adverb ends the second conjunct (都可以 / 也要), a function word the first.
  EXPECT_EQ(pair("出差住酒店和民宿都可以报销吗"), "酒店和民宿");
  EXPECT_EQ(pair("出差飞机和轮船都可以报销吗"), "出差飞机和轮船");
  EXPECT_EQ(pair("我们用笔记本跟台式机也要登记吗"), "笔记本跟台式机");
  // 还是 / 或者 read as 和; 跟 / 与 stay.
  EXPECT_EQ(pair("团建选温泉还是露营"), "温泉和露营");
  EXPECT_EQ(pair("社保或者公积金"), "社保和公积金");
  // A verb with its aspect particle is no part of the first conjunct, nor is the verb a modal
  // takes (可以|考虑).
  EXPECT_EQ(pair("我看过深圳和珠海的方案"), "深圳和珠海");
  EXPECT_EQ(pair("暑假可以考虑云南或者贵州"), "云南和贵州");
  // A lone character before a noun is a verb, unless the other conjunct opens with one too.
  EXPECT_EQ(pair("大办公室跟小办公室都要刷卡吗"), "大办公室跟小办公室");
  // A word that compares or distributes over the pair is predicate (一样吗, 各交多少).
  EXPECT_EQ(pair("校招和社招入职流程一样吗"), "校招和社招入职流程");
  EXPECT_EQ(pair("公司和个人各交多少"), "公司和个人");
  // A coordinator ICU glued to a name it does not know (大|宠爱|和博|来|恩) is split off.
  EXPECT_EQ(pair("大宠爱和博来恩都能驱虫吗"), "大宠爱和博来恩");
  // What asks or places the pair ends it (哪天坐诊, 之间, 离我), and so does the speaker, even
  // glued to a preposition (我在|盈川…).
  EXPECT_EQ(pair("刘医生和陈医生哪天坐诊"), "刘医生和陈医生");
  EXPECT_EQ(pair("我在盈川证券和华泰证券之间纠结"), "盈川证券和华泰证券");
  EXPECT_EQ(pair("万达影城和星澜影城离我都差不多远"), "万达影城和星澜影城");
  EXPECT_EQ(pair("早上跑步和晚上跑步我在纠结选哪个"), "早上跑步和晚上跑步");
  // A lone character closing the question with 过 after a longer item is a noun ICU cut (记|过),
  // not a verb with its aspect: half of it (警告和记) would be garbled.
  EXPECT_EQ(pair("违规可以罚款或者记过吗"), "罚款和记过");
  // Not 了, which closes the sentence as often; and no pair when ICU cut a word across the seam
  // (选手|动或自动: half of 手动 is no item).
  EXPECT_FALSE(pair("宝宝能吃鸡蛋和鱼了吗").ends_with("了")) << pair("宝宝能吃鸡蛋和鱼了吗");
  EXPECT_EQ(pair("公司的车可以选手动或自动的吗"), "<none>");
  // A lone character after a letter (A座) names with it; a 的-phrase ending in the first item's
  // head is the second item (对面的停车场), while one that does not modifies both (深圳和珠海的方案).
  EXPECT_EQ(pair("A座食堂和C座食堂都开吗"), "A座食堂和C座食堂");
  EXPECT_EQ(pair("有,a座食堂和c座食堂。"), "a座食堂和c座食堂");
  EXPECT_EQ(pair("B1停车场和对面的平面停车场"), "B1停车场和对面的平面停车场");
  // A list (A、B和C) is one set.
  EXPECT_EQ(pair("主要有全飞秒、半飞秒和ICL晶体植入"), "全飞秒、半飞秒和ICL晶体植入");
  // A count of the items (两种, 两|种) is no part of the second; lone characters ICU cut from
  // parallel words (内|网 和 外|网) make the first item as long as the second.
  EXPECT_EQ(pair("车位有固定和临时两种吗"), "固定和临时");
  EXPECT_EQ(pair("付款有电汇和支票两种"), "电汇和支票");
  EXPECT_EQ(pair("内网和外网的打印机都能用吗"), "内网和外网");
  EXPECT_EQ(pair("报销要多久"), "<none>");
  EXPECT_EQ(pair("和"), "<none>");
  EXPECT_EQ(pair(""), "<none>");
}

TEST(Coordination, ThePairStandsInFront) {
  EXPECT_EQ(which_of_pair("温泉和露营", "哪个更便宜"), "温泉和露营哪个更便宜");
  // A word for both is a pronoun: the pair takes its place.
  EXPECT_EQ(which_of_pair("社保和公积金", "两者有什么不同"), "社保和公积金有什么不同");
  EXPECT_EQ(which_of_pair("社保和公积金", "这两个能一起交吗"), "社保和公积金能一起交吗");
  EXPECT_EQ(which_of_pair("社保和公积金", "能合并成二者之一吗"), "能合并成社保和公积金之一吗");
  // 俩 is 两个: 这俩, 它俩 stand for both as well.
  EXPECT_EQ(which_of_pair("社保和公积金", "这俩有啥区别"), "社保和公积金有啥区别");
  // 样 counts things too, and a place or a count may open what is asked of both.
  EXPECT_EQ(which_of_pair("身份证和户口本", "这两样去哪打印"), "身份证和户口本去哪打印");
  EXPECT_EQ(which_of_pair("身份证和户口本", "这两个多少钱"), "身份证和户口本多少钱");
  // A demonstrative count points at the pair whatever follows; the pair's own noun after it goes
  // with it (was 作业证和登高作业证证).
  EXPECT_EQ(which_of_pair("盈川证券和华泰证券", "这两家开户都送什么"), "盈川证券和华泰证券开户都送什么");
  EXPECT_EQ(which_of_pair("有限空间作业证和登高作业证", "这两个证有效期几年"),
            "有限空间作业证和登高作业证有效期几年");
  EXPECT_EQ(which_of_pair("社保和公积金", "它俩能一起交吗"), "社保和公积金能一起交吗");
}

// A yes-or-no question offering two ways with a repeated modal (可以A也可以B吗) names the pair a
// which-question compares: the subject, then both ways.
TEST(OfferedPair, TwoWaysOfferedWithARepeatedModal) {
  EXPECT_EQ(offered_pair("回老家可以坐高铁也可以坐飞机吗"), "回老家坐高铁和坐飞机");
  EXPECT_EQ(offered_pair("房租能押一付三，也能按月付吗"), "房租押一付三和按月付");
  // One modal, a question word in a way, or a clause in place of a way: nothing offered.
  EXPECT_FALSE(offered_pair("可以坐高铁去吗"));
  EXPECT_FALSE(offered_pair("可以坐高铁也可以坐什么车吗"));
  EXPECT_FALSE(offered_pair("可以先交押金也可以等下个月工资发下来以后再一起补交吗"));
}

}  // namespace
