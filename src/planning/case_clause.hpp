#pragma once
// A case closed by 的话 (入职前来不及办的话, 当天临时来的话): where its 的话 stands, for follow-up
// detection and the rewrite of such a case. Not the 的话 of a word (话费, 话题, 话术, 话筒) nor what
// someone said (他说的话).
#include <cstddef>
#include <string_view>

namespace qaplan::internal {

/// Byte offset of the first 的话 in `text` that closes a case, after at least one character;
/// std::string_view::npos when there is none.
std::size_t case_de_hua(std::string_view text);

}  // namespace qaplan::internal
