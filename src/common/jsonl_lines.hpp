#pragma once
// One JSONL reading loop for the knowledge base and the chain sets: a leading BOM is skipped,
// blank lines are skipped, every other line must be valid UTF-8 and one strict JSON object
// (duplicate keys refused). `each(json, path_prefix)` may call json::fail(); errors name
// `name:line` and the field.
#include <string>
#include <string_view>

#include "common/json_reader.hpp"
#include "common/utf8.hpp"
#include "qaplan/status.hpp"

namespace qaplan::internal {

template <class F>
Status for_each_jsonl_line(std::string_view content, std::string_view name, F&& each) {
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

// A required array of non-blank strings (may be empty unless `non_empty`).
inline std::vector<std::string> string_array(const json::Json& o, const std::string& path,
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
