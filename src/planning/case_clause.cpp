#include "planning/case_clause.hpp"

#include <algorithm>

namespace qaplan::internal {
namespace {

// Characters that make 话 the first of a word after 的 (的话费: the phone bill's), and verbs of
// saying before 的 (说的话: what was said).
constexpr std::string_view kWordAfter[] = {"费", "题", "术", "筒", "语", "剧", "梅", "匣", "柄"};
constexpr std::string_view kSaidBefore[] = {"说", "讲", "听", "问", "回"};

}  // namespace

std::size_t case_de_hua(std::string_view text) {
  constexpr std::string_view kDeHua = "的话";
  for (std::size_t at = text.find(kDeHua); at != std::string_view::npos;
       at = text.find(kDeHua, at + kDeHua.size())) {
    if (at == 0) continue;
    const std::string_view after = text.substr(at + kDeHua.size());
    const std::string_view before = text.substr(0, at);
    const bool word = std::any_of(std::begin(kWordAfter), std::end(kWordAfter),
                                  [&](std::string_view c) { return after.starts_with(c); });
    const bool said = std::any_of(std::begin(kSaidBefore), std::end(kSaidBefore),
                                  [&](std::string_view c) { return before.ends_with(c); });
    if (!word && !said) return at;
  }
  return std::string_view::npos;
}

}  // namespace qaplan::internal
