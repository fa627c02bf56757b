#pragma once
// A quantity in its unit (20公斤, 3000元, 1.5 kg) asked about in place of the previous question's
// quantity in the same unit: only the number changes.
#include <optional>
#include <string>
#include <string_view>

namespace qaplan::internal {

/// 狗狗体重5公斤吃多少驱虫药 + 20公斤呢 → 狗狗体重20公斤吃多少驱虫药; 超过10万元 + 20万呢 →
/// 超过20万元. Nullopt unless the fragment is a number and a unit and the previous question holds
/// exactly one number followed by that unit (two: which is meant is not known).
std::optional<std::string> requantified(std::string_view prev, std::string_view frag);

}  // namespace qaplan::internal
