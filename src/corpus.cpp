#include "internal/io.hpp"
#include "qaplan/corpus.hpp"

#include <cerrno>
#include <cstring>
#include <exception>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <unordered_map>

#include "internal/utf8.hpp"

namespace qaplan {
namespace {

std::size_t first_invalid_utf8(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t at = i;
    if (internal::next_code_point(s, i) < 0) return at;
  }
  return std::string_view::npos;
}

bool blank(std::string_view s) {
  for (char c : s)
    if (c != ' ' && c != '\t' && c != '\r') return false;
  return true;
}

}  // namespace

Result<std::vector<TextRecord>> parse_jsonl(std::string_view content, JsonlKind kind,
                                            std::string_view source) {
  std::vector<TextRecord> out;
  std::unordered_map<std::string, std::size_t> seen;  // id → line
  if (content.substr(0, 3) == "\xEF\xBB\xBF") content.remove_prefix(3);
  std::size_t line_no = 0;
  std::string field = kind == JsonlKind::kQueries ? "query" : "text";
  bool decided = kind != JsonlKind::kAuto;
  try {
    while (!content.empty()) {
      const std::size_t nl = content.find('\n');
      const std::string_view line = content.substr(0, nl);
      content.remove_prefix(nl == std::string_view::npos ? content.size() : nl + 1);
      ++line_no;
      const std::string where = std::string(source) + ":" + std::to_string(line_no);
      if (blank(line)) continue;
      if (const std::size_t bad = first_invalid_utf8(line); bad != std::string_view::npos)
        return make_error(ErrorCode::kInvalidInput,
                          "invalid UTF-8 at byte " + std::to_string(bad) + " of the line", where);
      nlohmann::json j = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
      if (j.is_discarded())
        return make_error(ErrorCode::kInvalidInput, "not a valid JSON value", where);
      if (!j.is_object())
        return make_error(ErrorCode::kInvalidInput, "expected one JSON object per line", where);
      if (!decided) {
        field = j.contains("text") ? "text" : "query";
        decided = true;
      }
      auto id = j.find("id");
      if (id == j.end())
        return make_error(ErrorCode::kInvalidInput, "missing field", where + " id");
      if (!id->is_string() || id->get_ref<const std::string&>().empty())
        return make_error(ErrorCode::kInvalidInput, "must be a non-empty string", where + " id");
      const std::string& ids = id->get_ref<const std::string&>();
      if (ids.find_first_of("\t\r\n") != std::string::npos)
        return make_error(ErrorCode::kInvalidInput, "must not contain tab or line breaks",
                          where + " id");
      auto tx = j.find(field);
      if (tx == j.end())
        return make_error(ErrorCode::kInvalidInput, "missing field", where + " " + field);
      if (!tx->is_string())
        return make_error(ErrorCode::kInvalidInput, "must be a string", where + " " + field);
      auto [it, inserted] = seen.try_emplace(ids, line_no);
      if (!inserted)
        return make_error(ErrorCode::kInvalidInput,
                          "duplicate id \"" + ids + "\" (first on line " +
                              std::to_string(it->second) + ")",
                          where + " id");
      out.push_back({ids, tx->get<std::string>()});
    }
  } catch (const std::exception& e) {
    return make_error(ErrorCode::kInvalidInput, std::string("cannot parse: ") + e.what(),
                      std::string(source) + ":" + std::to_string(line_no));
  }
  return out;
}

Result<std::vector<TextRecord>> load_jsonl(const std::filesystem::path& path, JsonlKind kind) {
  auto text = internal::read_whole_file(path, "JSONL file");
  if (!text.ok()) return text.error();
  return parse_jsonl(*text, kind, path.string());
}

}  // namespace qaplan
