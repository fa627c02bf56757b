#include "qaplan/ranking/corpus.hpp"

#include <unordered_map>

#include "common/json_reader.hpp"
#include "common/utf8.hpp"
#include "qaplan/io.hpp"

namespace qaplan {
namespace {

bool blank(std::string_view s) {
  for (char c : s)
    if (c != ' ' && c != '\t' && c != '\r') return false;
  return true;
}

}  // namespace

Result<std::vector<TextRecord>> parse_jsonl(std::string_view content, JsonlKind kind,
                                            std::string_view source) {
  namespace js = internal::json;
  std::vector<TextRecord> out;
  std::unordered_map<std::string, std::size_t> seen;  // id → line
  if (content.substr(0, 3) == "\xEF\xBB\xBF") content.remove_prefix(3);
  int line_no = 0;
  std::string field = kind == JsonlKind::kQueries ? "query" : "text";
  bool decided = kind != JsonlKind::kAuto;
  while (!content.empty()) {
    const std::size_t nl = content.find('\n');
    const std::string_view line = content.substr(0, nl);
    content.remove_prefix(nl == std::string_view::npos ? content.size() : nl + 1);
    ++line_no;
    if (blank(line)) continue;
    if (const std::size_t bad = internal::first_invalid_utf8(line); bad != std::string_view::npos)
      return make_file_error(ErrorCode::kInvalidInput,
                             "invalid UTF-8 at byte " + std::to_string(bad) + " of the line",
                             std::string(source), line_no);
    auto rec = js::read_json(source, line_no, [&] {
      js::Json j;
      try {
        j = js::parse_strict(line);
      } catch (const js::Invalid& e) {
        // One line is one value: say so rather than quote the parser's column arithmetic.
        if (e.message.starts_with("malformed JSON")) js::fail("", "not a valid JSON value");
        throw;
      }
      if (!j.is_object()) js::fail("", "expected one JSON object per line");
      if (!decided) {
        field = j.contains("text") ? "text" : "query";
        decided = true;
      }
      // Other fields are the host's business (metadata); only id and the text are read.
      auto id = j.find("id");
      if (id == j.end()) js::fail("id", "missing field");
      if (!id->is_string() || id->get_ref<const std::string&>().empty())
        js::fail("id", "must be a non-empty string");
      const std::string& ids = id->get_ref<const std::string&>();
      if (ids.find_first_of("\t\r\n") != std::string::npos)
        js::fail("id", "must not contain tab or line breaks");
      auto tx = j.find(field);
      if (tx == j.end()) js::fail(field, "missing field");
      if (!tx->is_string()) js::fail(field, "must be a string");
      auto [it, inserted] = seen.try_emplace(ids, line_no);
      if (!inserted)
        js::fail("id", "duplicate id \"" + ids + "\" (first on line " +
                           std::to_string(it->second) + ")");
      return TextRecord{ids, tx->get<std::string>()};
    });
    if (!rec.ok()) return std::move(rec).error();
    out.push_back(std::move(rec).value());
  }
  return out;
}

Result<std::vector<TextRecord>> load_jsonl(const std::filesystem::path& path, JsonlKind kind) {
  auto text = read_file(path, "JSONL file");
  if (!text.ok()) return text.error();
  return parse_jsonl(*text, kind, path.string());
}

}  // namespace qaplan
