#pragma once
// Characters that end words: the heads and suffixes of compounds (运动|员, 国家|队, 世界|杯,
// 下载|量), read off ICU's dictionary. ICU's word break leaves such a character alone after a word
// when it does not hold the compound, where it looks like a lone verb (签|保密协议); how often the
// dictionary's words end with the character against how often they begin with it tells the two
// apart far better than a hand-written list could (why a table: docs/rewrite.md).
#include <string_view>
#include <vector>

namespace qaplan::internal {

/// True when `c` is one Han character (UTF-8) that ICU's dictionary words end with far more often
/// than they begin with: in at least 20 of its words of two or more characters, and at the end of
/// at least 70 % of them (add-one smoothed).
bool word_final(std::string_view c);

/// The rule above applied to ICU's dictionary as loaded now, ascending: what the compiled table
/// (word_final_table.inc) holds, and what its test compares with and rewrites it from.
std::vector<char16_t> word_final_from_dictionary();

}  // namespace qaplan::internal
