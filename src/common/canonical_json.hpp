#pragma once
// The canonical JSON text that fingerprints hash (fingerprint.cpp, kb.cpp): compact, keys in
// nlohmann's sorted order, invalid UTF-8 an error; an absent optional string is null.
#include <optional>
#include <string>

#include "common/json_reader.hpp"  // the nlohmann adapter: the one header that includes it

namespace qaplan::internal {

inline std::string canonical_json(const nlohmann::json& j) {
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::strict);
}

inline nlohmann::json string_or_null(const std::optional<std::string>& s) {
  return s ? nlohmann::json(*s) : nlohmann::json(nullptr);
}

}  // namespace qaplan::internal
