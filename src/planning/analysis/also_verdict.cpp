#include "planning/analysis/also_verdict.hpp"

#include <algorithm>
#include <array>

#include "planning/analysis/phrases.hpp"

namespace qaplan::internal {
namespace {

// What a verdict may say of the previous question's predicate: that it holds (可以, 也是) or,
// opening with 不, that it does not. The same words as `follow_up_also_elided` in rules.toml.
constexpr std::array<std::string_view, 13> kVerdicts = {"不行", "可以", "行", "要", "需要", "能", "是",
                                                        "一样", "不能", "不可以", "算", "适用", "有"};

}  // namespace

std::optional<std::pair<std::size_t, std::size_t>> also_verdict(std::string_view turn) {
  constexpr std::string_view kAlso = "也";
  const std::size_t also = turn.find(kAlso);
  if (also == std::string_view::npos || also == 0) return std::nullopt;
  const std::size_t begin = also + kAlso.size();
  const std::string_view particle = last_code_point(turn);
  if (particle != "吗" && particle != "嘛" && particle != "么") return std::nullopt;
  const std::size_t end = turn.size() - particle.size();
  if (end <= begin) return std::nullopt;
  const std::string_view verdict = turn.substr(begin, end - begin);
  if (std::find(kVerdicts.begin(), kVerdicts.end(), verdict) == kVerdicts.end()) return std::nullopt;
  return std::pair{begin, end};
}

}  // namespace qaplan::internal
