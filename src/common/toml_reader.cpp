#include "common/toml_reader.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "common/utf8.hpp"

namespace qaplan::internal::toml_reader {
namespace {

Error config_error(std::string msg, const std::string& origin, int line, std::string field) {
  return make_file_error(ErrorCode::kInvalidConfig, std::move(msg), origin, line,
                         std::move(field));
}

// toml11 parses nested arrays/inline tables recursively; 20 000 levels overflow the stack,
// which no catch can turn into an error. No config file needs more than a few levels, so the
// nesting is checked with a linear scan (strings and comments skipped) before parsing.
constexpr int kMaxTomlNesting = 64;

std::optional<int> overly_nested_line(std::string_view t) {
  int depth = 0, line = 1;
  for (std::size_t i = 0; i < t.size(); ++i) {
    const char c = t[i];
    if (c == '\n') ++line;
    if (c == '#') {
      while (i + 1 < t.size() && t[i + 1] != '\n') ++i;
    } else if (c == '"' || c == '\'') {
      const bool multi = t.substr(i, 3) == std::string(3, c);
      const std::string_view close = multi ? std::string_view(c == '"' ? "\"\"\"" : "'''")
                                           : std::string_view(c == '"' ? "\"" : "'");
      i += multi ? 3 : 1;
      while (i < t.size() && t.substr(i, close.size()) != close) {
        if (t[i] == '\n') ++line;
        if (c == '"' && t[i] == '\\') ++i;  // basic strings have escapes
        ++i;
      }
      i += close.size() - 1;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxTomlNesting) return line;
    } else if (c == ']' || c == '}') {
      depth = std::max(0, depth - 1);
    }
  }
  return std::nullopt;
}

}  // namespace

Result<Value> parse(std::string_view text, const std::string& origin) {
  if (const std::size_t bad = first_invalid_utf8(text); bad != std::string_view::npos)
    return config_error("not valid UTF-8 (byte " + std::to_string(bad) + ")", origin, 0, "");
  if (auto line = overly_nested_line(text))
    return config_error("nesting deeper than " + std::to_string(kMaxTomlNesting) + " levels",
                        origin, *line, "");
  try {
    std::istringstream in{std::string(text)};
    return toml::parse(in, origin);
  } catch (const toml::exception& e) {
    // toml11 prints a multi-line caret diagram; keep the first line and the location.
    std::string what = e.what();
    std::string first = what.substr(0, what.find('\n'));
    if (first.starts_with("[error] ")) first = first.substr(8);
    // Name the key when the broken line is `key = …`, so the error points at what to fix.
    std::string key;
    const std::string src = e.location().line_str();
    if (const auto eq = src.find('='); eq != std::string::npos) {
      key = src.substr(0, eq);
      key.erase(0, key.find_first_not_of(" \t"));
      key.erase(key.find_last_not_of(" \t") + 1);
      if (key.find_first_of("[]\"'#") != std::string::npos) key.clear();
    }
    return config_error("TOML syntax error: " + first, origin,
                        static_cast<int>(e.location().line()), key);
  } catch (const std::exception& e) {
    return config_error(std::string("cannot parse: ") + e.what(), origin, 0, "");
  }
}

std::string check_unit(double v) {
  return (std::isfinite(v) && v >= 0.0 && v <= 1.0) ? "" : "must be within [0, 1]";
}

std::string check_count(long long v) { return v > 0 ? "" : "must be > 0"; }

std::string check_words(const std::vector<std::string>& words) {
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (words[i].empty()) return "entry " + std::to_string(i) + " is empty";
    if (!is_valid_utf8(words[i])) return "entry " + std::to_string(i) + " is not valid UTF-8";
  }
  return "";
}

Error Reader::err(const Value& at, std::string_view key, std::string msg) const {
  int line = 0;
  const auto loc = at.location();
  if (loc.line() > 0 && loc.file_name() != "unknown file") line = static_cast<int>(loc.line());
  std::string field = "[" + path + "]";
  if (!key.empty()) field += " " + std::string(key);
  return config_error(std::move(msg), origin, line, std::move(field));
}

const Value* Reader::find(std::string_view key) {
  used.insert(std::string(key));
  const auto& t = v.as_table();
  auto it = t.find(std::string(key));
  return it == t.end() ? nullptr : &it->second;
}

// Reports the first key nobody asked for: a typo must not be silently ignored.
Status Reader::finish() const {
  std::vector<std::string> unknown;
  for (const auto& [k, val] : v.as_table())
    if (!used.count(k)) unknown.push_back(k);
  if (unknown.empty()) return {};
  std::sort(unknown.begin(), unknown.end());
  return err(v.as_table().at(unknown.front()), unknown.front(), "unknown key");
}

Status Reader::missing(std::string_view key, bool required) const {
  if (required) return err(v, key, "missing required key");
  return {};
}

Status Reader::get(std::string_view key, bool& out, bool required) {
  const Value* x = find(key);
  if (!x) return missing(key, required);
  if (!x->is_boolean()) return err(*x, key, "must be a boolean (true/false)");
  out = x->as_boolean();
  return {};
}

Status Reader::get(std::string_view key, long long& out, bool required) {
  const Value* x = find(key);
  if (!x) return missing(key, required);
  if (!x->is_integer()) return err(*x, key, "must be an integer");
  out = x->as_integer();
  return {};
}

Status Reader::get_int(std::string_view key, int& out, bool required) {
  long long tmp = out;
  QAPLAN_TRY(get(key, tmp, required));
  if (tmp < -2147483647LL || tmp > 2147483647LL) return err(*find(key), key, "out of range");
  out = static_cast<int>(tmp);
  return {};
}

Status Reader::get(std::string_view key, double& out, bool required) {
  const Value* x = find(key);
  if (!x) return missing(key, required);
  if (x->is_integer()) out = static_cast<double>(x->as_integer());
  else if (x->is_floating()) out = x->as_floating();
  else return err(*x, key, "must be a number");
  return {};
}

Status Reader::get(std::string_view key, std::string& out, bool required) {
  const Value* x = find(key);
  if (!x) return missing(key, required);
  if (!x->is_string()) return err(*x, key, "must be a string");
  out = x->as_string().str;
  if (!is_valid_utf8(out)) return err(*x, key, "is not valid UTF-8");
  return {};
}

Status Reader::get(std::string_view key, std::vector<std::string>& out, bool required) {
  const Value* x = find(key);
  if (!x) return missing(key, required);
  if (!x->is_array()) return err(*x, key, "must be an array of strings");
  out.clear();
  for (const auto& e : x->as_array()) {
    if (!e.is_string()) return err(e, key, "must be an array of strings");
    out.push_back(e.as_string().str);
  }
  if (auto m = check_words(out); !m.empty()) return err(*x, key, m);
  return {};
}

Status Reader::unit(std::string_view key, double& out, bool required) {
  QAPLAN_TRY(get(key, out, required));
  if (const Value* x = find(key); x)
    if (auto m = check_unit(out); !m.empty()) return err(*x, key, m);
  return {};
}

Status Reader::count(std::string_view key, int& out, bool required) {
  QAPLAN_TRY(get_int(key, out, required));
  if (const Value* x = find(key); x)
    if (auto m = check_count(out); !m.empty()) return err(*x, key, m);
  return {};
}

Result<const Value*> Reader::table(std::string_view key, bool required) {
  const Value* x = find(key);
  if (!x) {
    if (required) return err(v, key, "missing required table");
    return static_cast<const Value*>(nullptr);
  }
  if (!x->is_table()) return err(*x, key, "must be a table");
  return x;
}

Result<const Value*> Reader::array_of_tables(std::string_view key) {
  const Value* x = find(key);
  if (!x) return static_cast<const Value*>(nullptr);
  if (!x->is_array())
    return err(*x, key,
               "must be an array of tables ([[" + (path.empty() ? "" : path + ".") +
                   std::string(key) + "]])");
  for (const auto& e : x->as_array())
    if (!e.is_table()) return err(e, key, "must be an array of tables");
  return x;
}

}  // namespace qaplan::internal::toml_reader
