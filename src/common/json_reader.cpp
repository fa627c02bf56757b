#include "common/json_reader.hpp"

#include <algorithm>
#include <set>
#include <vector>

#include "common/utf8.hpp"

namespace qaplan::internal::json {

void fail(std::string path, std::string message) {
  throw Invalid{std::move(path), std::move(message)};
}

Json parse_strict(std::string_view text) {
  std::vector<std::set<std::string>> open;
  std::string duplicate;
  Json::parser_callback_t cb = [&](int, Json::parse_event_t ev, Json& parsed) {
    switch (ev) {
      case Json::parse_event_t::object_start:
        open.emplace_back();
        break;
      case Json::parse_event_t::object_end:
        if (!open.empty()) open.pop_back();
        break;
      case Json::parse_event_t::key:
        if (!open.empty() && !open.back().insert(parsed.get<std::string>()).second &&
            duplicate.empty())
          duplicate = parsed.get<std::string>();
        break;
      default:
        break;
    }
    return true;
  };
  Json root;
  try {
    root = Json::parse(text.begin(), text.end(), cb);
  } catch (const Json::exception& e) {
    std::string what = e.what();
    // Drop nlohmann's "[json.exception.parse_error.101] " prefix; keep line/column.
    if (auto p = what.find("] "); p != std::string::npos) what = what.substr(p + 2);
    // nlohmann ends with "; last read: '<raw input bytes>'", which may be invalid UTF-8 or hold
    // control characters; line and column already say where.
    if (auto p = what.find("; last read:"); p != std::string::npos) what.resize(p);
    fail("", "malformed JSON: " + what);
  }
  if (!duplicate.empty()) fail("", "duplicate object key \"" + duplicate + "\"");
  return root;
}

std::string join(const std::string& path, std::string_view key) {
  return path.empty() ? std::string(key) : path + "." + std::string(key);
}

std::string index_path(const std::string& path, std::size_t i) {
  return path + "[" + std::to_string(i) + "]";
}

void expect_keys(const Json& obj, const std::string& path,
                 std::initializer_list<std::string_view> required,
                 std::initializer_list<std::string_view> optional) {
  if (!obj.is_object()) fail(path, std::string("must be an object, not ") + obj.type_name());
  auto listed = [](std::initializer_list<std::string_view> l, const std::string& k) {
    return std::find(l.begin(), l.end(), k) != l.end();
  };
  for (const auto& [k, v] : obj.items())
    if (!listed(required, k) && !listed(optional, k)) fail(join(path, k), "unknown field");
  for (std::string_view k : required)
    if (!obj.contains(std::string(k))) fail(join(path, k), "missing field");
}

namespace {
bool blank(std::string_view s) {
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; });
}
}  // namespace

std::string req_string(const Json& obj, const std::string& path, std::string_view key) {
  const Json& v = obj.at(std::string(key));
  const std::string p = join(path, key);
  if (!v.is_string()) fail(p, std::string("must be a string, not ") + v.type_name());
  std::string s = v.get<std::string>();
  if (blank(s)) fail(p, "must not be empty");
  return s;
}

std::optional<std::string> opt_string(const Json& obj, const std::string& path,
                                      std::string_view key) {
  const Json& v = obj.at(std::string(key));
  if (v.is_null()) return std::nullopt;
  const std::string p = join(path, key);
  if (!v.is_string()) fail(p, std::string("must be a string or null, not ") + v.type_name());
  std::string s = v.get<std::string>();
  if (blank(s)) fail(p, "must not be empty (write null for missing metadata)");
  return s;
}

const Json& req_array(const Json& obj, const std::string& path, std::string_view key,
                      bool non_empty) {
  const Json& v = obj.at(std::string(key));
  const std::string p = join(path, key);
  if (!v.is_array()) fail(p, std::string("must be an array, not ") + v.type_name());
  if (non_empty && v.empty()) fail(p, "must not be empty");
  return v;
}

const Json& registry_entries(const Json& root, std::string_view format,
                             std::string_view entries_key) {
  expect_keys(root, "", {"format", entries_key});
  if (root.at("format") != std::string(format))
    fail("format", "must be \"" + std::string(format) + "\"");
  const std::string key(entries_key);
  const Json& entries = root.at(key);
  if (!entries.is_object() || entries.empty()) fail(key, "must be a non-empty object");
  return entries;
}

}  // namespace qaplan::internal::json

namespace qaplan::internal {

Status for_each_jsonl_line(std::string_view content, std::string_view name,
                           const std::function<void(const json::Json&, int)>& each) {
  if (content.substr(0, 3) == "\xEF\xBB\xBF") content.remove_prefix(3);
  int line_no = 0;
  while (!content.empty()) {
    const std::size_t nl = content.find('\n');
    const std::string_view line = content.substr(0, nl);
    content.remove_prefix(nl == std::string_view::npos ? content.size() : nl + 1);
    ++line_no;
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    if (const std::size_t bad = first_invalid_utf8(line); bad != std::string_view::npos)
      return make_file_error(ErrorCode::kInvalidInput,
                             "invalid UTF-8 at byte " + std::to_string(bad) + " of the line",
                             std::string(name), line_no);
    auto r = json::read_json(name, line_no, [&] {
      const json::Json j = json::parse_strict(line);
      each(j, line_no);
      return 0;
    });
    if (!r.ok()) return std::move(r).error();
  }
  return {};
}

std::vector<std::string> string_array(const json::Json& o, const std::string& path,
                                      std::string_view key, bool non_empty) {
  const json::Json& a = json::req_array(o, path, key, non_empty);
  std::vector<std::string> out;
  out.reserve(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    const std::string p = json::index_path(json::join(path, key), i);
    if (!a[i].is_string()) json::fail(p, "must be a string");
    std::string s = a[i].get<std::string>();
    if (s.find_first_not_of(" \t\r\n") == std::string::npos) json::fail(p, "must not be empty");
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace qaplan::internal
