#pragma once
// A turn that picks an item of a list the conversation gave (入职培训、信息安全培训和岗位培训 +
// 详细说一下第二个; 可以选择年假或调休 + 后者怎么申请): the pointer in the turn and the items of
// the list. Read by the follow-up stage (a pointer into a list of the last turn is a follow-up),
// the rewriter (the item takes the pointer's place) and the garble check (the pointer is a
// reference, like a pronoun). docs/rewrite.md#lists-and-their-items.
#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

namespace qaplan::internal {

/// An ordinal pointing into a list: bytes [begin, end) of the turn and the item it names
/// (1-based; kLastItem for 后者 / 最后一个).
struct ListPointer {
  std::size_t begin = 0, end = 0;
  int item = 0;
  bool pair = false;  ///< 前者 / 后者: one of exactly two
};
inline constexpr int kLastItem = -1;

/// 第二个, 第3种, 前者, 后者, 最后一个 … in `turn`, when nothing it could qualify follows it
/// (第二个工作日 names a day, not an item). Nullopt when the turn has none.
std::optional<ListPointer> list_pointer(std::string_view turn);

/// The items of the first list in `text` of at least two (A、B和C; 有两种方式：A或B): views into
/// `text`. The first item drops the words that lead into the list (可以选择|年假 → 年假), keeping
/// as many as the longest other item has. Empty when `text` holds no list.
std::vector<std::string_view> list_items(std::string_view text);

/// The item `p` names among `items`, or nullopt when there are too few (第三个 of two) or 前者 /
/// 后者 of other than two.
std::optional<std::string_view> pick_item(const std::vector<std::string_view>& items, const ListPointer& p);

}  // namespace qaplan::internal
