#include "qaplan/ranking/corpus.hpp"

#include <unordered_map>

#include "common/json_reader.hpp"
#include "common/printable.hpp"
#include "common/utf8.hpp"
#include "ranking/internal/jsonl.hpp"
#include "qaplan/io.hpp"

namespace qaplan {
namespace {

bool blank(std::string_view s) {
  for (char c : s)
    if (c != ' ' && c != '\t' && c != '\r') return false;
  return true;
}

// The fast path for the common shape `{"id": "…", "<field>": "…"}` (either order, optional
// spaces): when both strings contain no backslash, quote or control character, the values are
// the bytes between the quotes and every rule of parse_jsonl_record holds (UTF-8 is checked by
// the caller), so the general parser — most of the indexing profile — is skipped. Anything else
// returns false and goes through nlohmann's strict parse.
bool parse_simple_record(std::string_view line, std::string_view field, TextRecord& out) {
  std::size_t i = 0;
  auto ws = [&] {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
  };
  auto lit = [&](char c) {
    ws();
    if (i < line.size() && line[i] == c) {
      ++i;
      return true;
    }
    return false;
  };
  auto str = [&](std::string_view& v) {
    if (!lit('"')) return false;
    const std::size_t b = i;
    while (i < line.size()) {
      const auto c = static_cast<unsigned char>(line[i]);
      if (c == '"') break;
      if (c == '\\' || c < 0x20) return false;
      ++i;
    }
    if (i >= line.size()) return false;
    v = line.substr(b, i - b);
    ++i;
    return true;
  };
  std::string_view k1, v1, k2, v2;
  if (!lit('{') || !str(k1) || !lit(':') || !str(v1) || !lit(',') || !str(k2) || !lit(':') ||
      !str(v2) || !lit('}'))
    return false;
  ws();
  if (i != line.size()) return false;
  if (k1 == "id" && k2 == field) {
    out.id.assign(v1);
    out.text.assign(v2);
  } else if (k2 == "id" && k1 == field) {
    out.id.assign(v2);
    out.text.assign(v1);
  } else {
    return false;
  }
  return !out.id.empty() && !internal::has_control_character(out.id);
}

}  // namespace

namespace internal {

Result<TextRecord> parse_jsonl_record(std::string_view line, std::string_view field,
                                      std::string_view source, int line_no) {
  namespace js = internal::json;
  if (const std::size_t bad = internal::first_invalid_utf8(line); bad != std::string_view::npos)
    return make_file_error(ErrorCode::kInvalidInput,
                           "invalid UTF-8 at byte " + std::to_string(bad) + " of the line",
                           std::string(source), line_no);
  if (TextRecord rec; parse_simple_record(line, field, rec)) return rec;
  return js::read_json(source, line_no, [&] {
    js::Json j;
    try {
      j = js::parse_strict(line);
    } catch (const js::Invalid& e) {
      // One line is one value: say so rather than quote the parser's column arithmetic.
      if (e.message.starts_with("malformed JSON")) js::fail("", "not a valid JSON value");
      throw;
    }
    if (!j.is_object()) js::fail("", "expected one JSON object per line");
    // Other fields are the host's business (metadata); only id and the text are read.
    auto id = j.find("id");
    if (id == j.end()) js::fail("id", "missing field");
    if (!id->is_string() || id->get_ref<const std::string&>().empty())
      js::fail("id", "must be a non-empty string");
    const std::string& ids = id->get_ref<const std::string&>();
    if (internal::has_control_character(ids))
      js::fail("id", "must not contain control characters (tab, line breaks, NUL, ESC, …)");
    auto tx = j.find(std::string(field));
    if (tx == j.end()) js::fail(std::string(field), "missing field");
    if (!tx->is_string()) js::fail(std::string(field), "must be a string");
    return TextRecord{ids, tx->get<std::string>()};
  });
}

bool blank_line(std::string_view s) { return blank(s); }

}  // namespace internal

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
    if (!decided) {
      // The first record decides: `text` if it has one, else `query` (a malformed line is
      // reported by the parse below).
      try {
        const auto j = js::parse_strict(line);
        field = j.is_object() && j.contains("text") ? "text" : "query";
      } catch (...) {
      }
      decided = true;
    }
    auto rec = internal::parse_jsonl_record(line, field, source, line_no);
    if (rec.ok()) {
      auto [it, inserted] = seen.try_emplace(rec->id, line_no);
      if (!inserted)
        return make_file_error(ErrorCode::kInvalidInput,
                               "duplicate id \"" + rec->id + "\" (first on line " +
                                   std::to_string(it->second) + ")",
                               std::string(source), line_no, "id");
    }
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
