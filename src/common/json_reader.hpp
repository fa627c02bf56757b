#pragma once
// The nlohmann JSON adapter: the one header that includes <nlohmann/json.hpp>, and one that only
// .cpp files include (scripts/third_party_headers.py; docs/architecture.md, "Public headers").
//
// The strict JSON reading style shared by every JSON input (datasets, fingerprint registries,
// corpora, batch request lines): duplicate object keys are refused (a later value would silently
// win), unknown and missing fields are named by their JSON path, and nothing throws past
// `read_json`. Readers are written as straight-line code that calls `fail()`; `read_json` turns
// that into an Error naming the input and the path. Below them, the JSONL loop of the knowledge
// base and the chain sets, and the few writing helpers the fingerprints and reports share.
#include <functional>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "qaplan/status.hpp"

namespace qaplan::internal::json {

using Json = nlohmann::json;

/// Thrown by the helpers below and caught by read_json(); never leaves this library.
struct Invalid {
  std::string path;
  std::string message;
};

[[noreturn]] void fail(std::string path, std::string message);

/// Parses `text`; malformed JSON or a duplicate key anywhere → fail("", …).
Json parse_strict(std::string_view text);

std::string join(const std::string& path, std::string_view key);
std::string index_path(const std::string& path, std::size_t i);

/// `obj` must be an object whose keys are all in `required` or `optional`, with every `required`
/// key present.
void expect_keys(const Json& obj, const std::string& path,
                 std::initializer_list<std::string_view> required,
                 std::initializer_list<std::string_view> optional = {});

/// A required string that is not blank.
std::string req_string(const Json& obj, const std::string& path, std::string_view key);
/// A string or null; a string must not be blank.
std::optional<std::string> opt_string(const Json& obj, const std::string& path,
                                      std::string_view key);
/// A required array (optionally non-empty).
const Json& req_array(const Json& obj, const std::string& path, std::string_view key,
                      bool non_empty);

/// A fingerprint registry's root, {"format": `format`, `entries_key`: {…}}: exactly those two
/// keys, the format named, and entries that are a non-empty object, which it returns.
const Json& registry_entries(const Json& root, std::string_view format,
                             std::string_view entries_key);

/// Runs `read()` (which may call fail()) and returns its value, or kInvalidInput with
/// file = `input` (and `line` when given) and field = the failing JSON path.
template <class F>
auto read_json(std::string_view input, int line, F&& read) -> Result<decltype(read())> {
  try {
    return read();
  } catch (const Invalid& e) {
    return make_file_error(ErrorCode::kInvalidInput, e.message, std::string(input), line, e.path);
  } catch (const std::exception& e) {
    return make_file_error(ErrorCode::kInvalidInput, std::string("cannot read: ") + e.what(),
                           std::string(input), line);
  }
}

}  // namespace qaplan::internal::json

namespace qaplan::internal {

// One JSONL reading loop for the knowledge base and the chain sets: a leading BOM is skipped,
// blank lines are skipped, every other line must be valid UTF-8 and one strict JSON object
// (duplicate keys refused). `each(json, line)` may call json::fail(); errors name `name:line`
// and the field.
Status for_each_jsonl_line(std::string_view content, std::string_view name,
                           const std::function<void(const json::Json&, int)>& each);

// A required array of non-blank strings (may be empty unless `non_empty`).
std::vector<std::string> string_array(const json::Json& o, const std::string& path,
                                      std::string_view key, bool non_empty);

// The canonical JSON text that fingerprints hash (fingerprint.cpp, kb.cpp): compact, keys in
// nlohmann's sorted order, invalid UTF-8 an error; an absent optional string is null.
inline std::string canonical_json(const nlohmann::json& j) {
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::strict);
}

inline nlohmann::json string_or_null(const std::optional<std::string>& s) {
  return s ? nlohmann::json(*s) : nlohmann::json(nullptr);
}

// A report's metric that may be undefined (no samples): its value, or JSON null.
inline nlohmann::ordered_json opt_num(const std::optional<double>& v) {
  return v ? nlohmann::ordered_json(*v) : nlohmann::ordered_json(nullptr);
}

}  // namespace qaplan::internal
