// The inline fast paths of common/icu.hpp answer as ICU does, over every code point they answer
// themselves (ASCII and the CJK Unified Ideographs) and a sample of the rest.
#include <gtest/gtest.h>
#include <unicode/uchar.h>
#include <unicode/uscript.h>

#include "common/icu.hpp"

namespace qaplan::internal {
namespace {

bool icu_word_char(UChar32 cp) { return u_isalnum(cp) || u_hasBinaryProperty(cp, UCHAR_IDEOGRAPHIC); }

bool icu_han(UChar32 cp) {
  UErrorCode err = U_ZERO_ERROR;
  return uscript_getScript(cp, &err) == USCRIPT_HAN && U_SUCCESS(err);
}

TEST(IcuFastPath, WordCharAgreesWithIcuEverywhereItAnswersInline) {
  for (UChar32 cp = 0; cp < 0x80; ++cp) EXPECT_EQ(is_word_char(cp), icu_word_char(cp)) << cp;
  for (UChar32 cp = 0x4E00; cp <= 0x9FFF; ++cp) ASSERT_EQ(is_word_char(cp), icu_word_char(cp)) << cp;
  // Outside: the slow path is ICU's (letters of other scripts, fullwidth digits, punctuation).
  for (UChar32 cp : {0x00E9, 0x0416, 0x3001, 0x3400, 0xFF10, 0xFF1F, 0xAC00, 0x1F600, 0x20000})
    EXPECT_EQ(is_word_char(cp), icu_word_char(cp)) << cp;
}

TEST(IcuFastPath, HanAgreesWithIcuEverywhereItAnswersInline) {
  for (UChar32 cp = 0; cp < 0x2E80; cp += 7) EXPECT_EQ(is_han(cp), icu_han(cp)) << cp;
  for (UChar32 cp = 0x4E00; cp <= 0x9FFF; ++cp) ASSERT_EQ(is_han(cp), icu_han(cp)) << cp;
}

}  // namespace
}  // namespace qaplan::internal
