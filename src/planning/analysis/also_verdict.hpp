#pragma once
// A subject with 也 and only a verdict (员工也不行吗, 外包也可以吗): where the verdict stands, read
// by the rewrite (also_step.cpp puts the last question's predicate in its place) and by the garble
// check (the predicate may replace it, as an antecedent replaces a pronoun).
#include <cstddef>
#include <optional>
#include <string_view>
#include <utility>

namespace qaplan::internal {

/// Bytes [begin, end) of the verdict after 也 (不行, 可以, 是 …) in a turn that is a subject, 也,
/// the verdict and a closing particle (吗, 嘛, 么); nullopt otherwise.
std::optional<std::pair<std::size_t, std::size_t>> also_verdict(std::string_view turn);

}  // namespace qaplan::internal
