#pragma once
// JSON helpers shared by tests that compare benchmark reports.
#include <nlohmann/json.hpp>

namespace qaplan::test {

/// Removes every object member named "timing", recursively: what is left must be identical
/// between two runs of the same benchmark.
inline void strip_timing(nlohmann::json& j) {
  if (j.is_object()) {
    j.erase("timing");
    for (auto& [k, v] : j.items()) strip_timing(v);
  } else if (j.is_array()) {
    for (auto& v : j) strip_timing(v);
  }
}

}  // namespace qaplan::test
