// A quantity asked about in place of the previous question's (planning/analysis/quantity.hpp):
// only the number changes, and only when the previous question holds one number in that unit.
#include <gtest/gtest.h>

#include "planning/analysis/quantity.hpp"

namespace qaplan::internal {
namespace {

TEST(Requantified, TheNumberInTheSameUnitChanges) {
  EXPECT_EQ(requantified("狗狗体重5公斤吃多少驱虫药", "20公斤"), "狗狗体重20公斤吃多少驱虫药");
  EXPECT_EQ(requantified("报销超过10万元谁审批", "20万"), "报销超过20万元谁审批");
  EXPECT_EQ(requantified("1.5 kg的包裹运费多少", "2.5 kg"), "2.5 kg的包裹运费多少");
  EXPECT_EQ(requantified("3号楼的淋浴间几点关", "12号楼"), "12号楼的淋浴间几点关");
}

TEST(Requantified, NoQuantityInThatUnitOrTwoOfThemIsNoPlace) {
  EXPECT_EQ(requantified("狗狗体重5公斤吃多少驱虫药", "20天"), std::nullopt);  // another unit
  EXPECT_EQ(requantified("5公斤到10公斤的狗吃多少", "20公斤"), std::nullopt);   // which one
  EXPECT_EQ(requantified("VPN-10天怎么开", "20天"), std::nullopt);             // part of a code
  EXPECT_EQ(requantified("狗狗体重5公斤吃多少", "5公斤"), std::nullopt);       // nothing changes
  EXPECT_EQ(requantified("狗狗体重5公斤吃多少", "20"), std::nullopt);          // no unit
  EXPECT_EQ(requantified("狗狗体重5公斤吃多少", "公斤"), std::nullopt);        // no number
  EXPECT_EQ(requantified("5个工作日内能到吗", "3个工作日内能到货吗"), std::nullopt);  // a phrase
}

}  // namespace
}  // namespace qaplan::internal
