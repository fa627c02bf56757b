#pragma once
// Server versions the adapters know, and the feature gates that depend on them (one place, so
// a gate is never written twice).
#include <string>
#include <string_view>

#include "qaplan/engines/engines.hpp"

namespace qaplan::engines {

struct Version {
  int major = 0;
  int minor = 0;
  bool at_least(int ma, int mi) const noexcept { return major > ma || (major == ma && minor >= mi); }
  std::string str() const { return std::to_string(major) + "." + std::to_string(minor); }
};

/// "8.16", "8.16.2", "2.19", "3.x" is not a version (give a number). Known ranges: ES 8.14–9.x,
/// OpenSearch 2.10–3.x, Milvus 2.4–2.x. Error kInvalidConfig naming the range.
Result<Version> parse_version(Engine e, std::string_view text);

}  // namespace qaplan::engines
