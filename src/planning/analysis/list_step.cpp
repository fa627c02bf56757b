#include "planning/analysis/rewrite_turn.hpp"

// A turn that picks an item of a list the conversation gave: the item takes the pointer's place
// (入职培训、信息安全培训和岗位培训 + 详细说一下第二个 → 详细说一下信息安全培训; docs/rewrite.md#lists-and-their-items).
#include "planning/list_reference.hpp"

namespace qaplan::internal::rewriting {

std::optional<Step> list_step(const TurnView& t) {
  const auto p = list_pointer(t.text);
  if (!p) return std::nullopt;
  // The newest turn with a list is the one pointed into. Too few items there (第四个 of three,
  // 后者 of three) is no item at all: the turn stays as it is, not spliced into the list.
  for (std::string_view turn : t.h.window) {
    const std::vector<std::string_view> items = list_items(turn);
    if (items.empty()) continue;
    const auto item = pick_item(items, *p);
    if (!item) return Step{std::string(t.question), "list_item:none"};
    return Step{join(join(std::string(t.text.substr(0, p->begin)), *item), t.text.substr(p->end)),
                "list_item"};
  }
  // A pointer with no list to point into: splicing the history around it garbles the turn (那前者呢
  // after two clauses → 可以走前者…); the turn goes as it is.
  return Step{std::string(t.question), "list_item:none"};
}

}  // namespace qaplan::internal::rewriting
