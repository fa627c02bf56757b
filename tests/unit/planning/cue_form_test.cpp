// check_cue_form() accepts a cue without normalizing it when the cue is plainly in normal form;
// that shortcut must never disagree with normalizing it.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "planning/config/cues.hpp"
#include "planning/text.hpp"
#include "qaplan/planning/config.hpp"

namespace qaplan {
namespace {

bool normal_by_normalizing(const std::string& cue) {
  InputConfig limits;
  limits.max_question_chars = 1 << 20;
  const auto n = internal::normalize_question(cue, limits, "cue");
  return n.ok() && n->text == cue;
}

TEST(CueForm, TheShortcutAgreesWithNormalizingOnRandomCues) {
  // Pieces a cue may be made of: plain ones the shortcut takes, and each kind that normalizing
  // changes or that the shortcut leaves to it (upper case, full width, space, Traditional,
  // compatibility ideographs, punctuation, extension B).
  const std::vector<std::string> pieces = {
      "a", "z", "0", "9", "vpn", "年", "假", "报", "销", "了", "解", "干", "后", "㐀", "A", "Ｖ",
      "１", " ", "  ", "報", "銷", "瞭", "體", "豈", "，", "-", ".", "𠀀", "\u3000", "ａ", "é",
      "析", "度", "滑", "鼠", "解析度", "滑鼠", "瞭解"};
  std::mt19937 rng(20261203);
  std::uniform_int_distribution<std::size_t> pick(0, pieces.size() - 1), len(1, 6);
  int plain = 0, changed = 0;
  for (int i = 0; i < 20000; ++i) {
    std::string cue;
    for (std::size_t n = len(rng); n > 0; --n) cue += pieces[pick(rng)];
    const bool accepted = internal::check_cue_form(cue).empty();
    ASSERT_EQ(accepted, normal_by_normalizing(cue)) << "'" << cue << "'";
    (accepted ? plain : changed) += 1;
  }
  EXPECT_GT(plain, 1000);  // both kinds were exercised
  EXPECT_GT(changed, 1000);
}

TEST(CueForm, RefusesWhatNormalizingWouldChange) {
  EXPECT_TRUE(internal::check_cue_form("年假").empty());
  EXPECT_TRUE(internal::check_cue_form("vpn连不上").empty());
  EXPECT_TRUE(internal::check_cue_form("了解").empty());  // 解 is marked, normalizing keeps it
  EXPECT_FALSE(internal::check_cue_form("VPN").empty());
  EXPECT_FALSE(internal::check_cue_form("報銷").empty());
  EXPECT_FALSE(internal::check_cue_form("ｖｐｎ").empty());
  EXPECT_FALSE(internal::check_cue_form(" 年假").empty());
}

}  // namespace
}  // namespace qaplan
