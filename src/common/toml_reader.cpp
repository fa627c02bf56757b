#include "common/toml_reader.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <sstream>
#include <vector>

#include "common/printable.hpp"
#include "common/utf8.hpp"

namespace qaplan::internal::toml_reader {
namespace {

// A quoted TOML key may hold any escaped control character ("a\u0001b" = 1), and toml11's
// messages may quote the line: escape both where the error is made, so Error::message is clean.
Error config_error(std::string_view msg, const std::string& origin, int line,
                   std::string_view field) {
  return make_file_error(ErrorCode::kInvalidConfig, one_printable_line(msg), origin, line,
                         one_printable_line(field));
}

// Guards toml11 needs, checked by one linear scan before parsing (docs/reliability.md):
//  - toml11 parses nested arrays and inline tables recursively, and a dotted key `a.b.c` nests
//    tables that are destroyed recursively; 20 000 levels overflow the stack, which no catch can
//    turn into an error. No config needs more than a few levels, so nesting (brackets plus the
//    parts of dotted keys and table headers) is limited.
//  - toml11 scans back to the start of the line for every key and value, so one long line costs
//    quadratic time (a 60 KB line of `a.a.a…` takes seconds). Lines are limited, so loading time
//    is linear in the file size.
// The scan must see strings and comments exactly as toml11 does (a fuzzer's crash: a
// multi-line string may end with up to two extra quotes before its closing `"""`); where it is
// unsure it counts brackets rather than skipping them.
constexpr int kMaxTomlNesting = 64;
constexpr std::size_t kMaxTomlLineBytes = 4096;

struct ScanError {
  int line = 0;
  std::string message;
};

class TomlGuard {
 public:
  explicit TomlGuard(std::string_view t) : t_(t) {}

  std::optional<ScanError> run() {
    while (!error_ && i_ < t_.size()) step();
    if (!error_) end_line();
    return error_;
  }

 private:
  // An open array or inline table. `weight` = the levels it adds: 1, plus the tables that the
  // dotted key (and, at the top, the table header) it is the value of created.
  struct Frame {
    bool inline_table = false;
    int weight = 0;
    bool in_key = false;  // before the `=` of the current key/value pair
    int key_dots = 0;
  };

  Frame& current() { return frames_.empty() ? top_ : frames_.back(); }
  int header_levels() const { return frames_.empty() ? base_ : 0; }

  void step() {
    const char c = t_[i_];
    if (c == '\n') return newline();
    if (c == ' ' || c == '\t' || c == '\r') return void(++i_);
    if (c == '#') {
      while (i_ < t_.size() && t_[i_] != '\n') ++i_;
      return;
    }
    const bool line_start = at_line_start_;
    at_line_start_ = false;
    if (c == '"' || c == '\'') return skip_string(c);
    if (c == '[' && line_start && frames_.empty()) return header();
    ++i_;
    Frame& f = current();
    if (c == '[' || c == '{') {
      const int weight =
          1 + (f.inline_table || frames_.empty() ? f.key_dots : 0) + header_levels();
      if (depth_ + weight > kMaxTomlNesting) return too_deep();
      depth_ += weight;
      frames_.push_back(Frame{c == '{', weight, c == '{', 0});
    } else if (c == ']' || c == '}') {
      if (!frames_.empty()) {
        depth_ -= frames_.back().weight;
        frames_.pop_back();
      }
    } else if (c == '=') {
      f.in_key = false;
    } else if (c == ',' && f.inline_table) {
      f.in_key = true;
      f.key_dots = 0;
    } else if (c == '.' && f.in_key) {
      if (depth_ + header_levels() + ++f.key_dots >= kMaxTomlNesting) too_deep();
    }
  }

  void too_deep() {
    error_ = ScanError{line_, "nesting deeper than " + std::to_string(kMaxTomlNesting) +
                                  " levels (arrays, inline tables, dotted keys)"};
  }

  void end_line() {
    if (!error_ && i_ - line_start_ > kMaxTomlLineBytes)
      error_ = ScanError{line_, "line longer than " + std::to_string(kMaxTomlLineBytes) +
                                    " bytes (split it over several lines)"};
  }

  // Ends the line whose newline is at i_ - 1 (already consumed).
  void counted_newline() {
    end_line();
    ++line_;
    line_start_ = i_;
  }

  void newline() {
    ++i_;
    counted_newline();
    if (frames_.empty()) {  // a top-level newline ends the key/value pair
      top_.in_key = true;
      top_.key_dots = 0;
      at_line_start_ = true;
    }
  }

  // `[a.b]` or `[[a.b]]` at the start of a line: its parts nest what follows it.
  void header() {
    i_ += t_.substr(i_, 2) == "[[" ? 2 : 1;
    int parts = 1;
    while (!error_ && i_ < t_.size() && t_[i_] != ']' && t_[i_] != '\n') {
      if (t_[i_] == '"' || t_[i_] == '\'') {
        skip_string(t_[i_]);
      } else {
        if (t_[i_] == '.' && ++parts > kMaxTomlNesting) too_deep();
        ++i_;
      }
    }
    base_ = parts;
    top_.in_key = true;
    top_.key_dots = 0;
  }

  // Skips a string starting at i_ exactly as toml11's lexer reads it. A one-line string ends at
  // its quote, or at the end of the line (a syntax error there, so toml11 reads no further). A
  // multi-line string ends at the first run of three or more quotes, which closes it with up to
  // five (TOML 1.0: one or two quotes may come right before the closing delimiter).
  void skip_string(char q) {
    const std::string_view delim = q == '"' ? "\"\"\"" : "'''";
    if (t_.substr(i_, 3) != delim) {
      for (++i_; i_ < t_.size() && t_[i_] != q && t_[i_] != '\n'; ++i_)
        if (q == '"' && t_[i_] == '\\' && i_ + 1 < t_.size() && t_[i_ + 1] != '\n') ++i_;
      if (i_ < t_.size() && t_[i_] == q) ++i_;
      return;
    }
    i_ += 3;
    while (!error_ && i_ < t_.size()) {
      const char c = t_[i_++];
      if (c == '\n') {
        counted_newline();
      } else if (c == '\\' && q == '"' && i_ < t_.size() && t_[i_] != '\n') {
        ++i_;  // an escaped character (an escaped newline is counted as a newline)
      } else if (c == q) {
        std::size_t run = 1;
        while (i_ < t_.size() && t_[i_] == q) ++i_, ++run;
        if (run >= 3) {
          i_ -= run - std::min<std::size_t>(run, 5);  // a sixth quote is left to toml11's error
          return;
        }
      }
    }
  }

  std::string_view t_;
  std::size_t i_ = 0;
  std::size_t line_start_ = 0;
  int line_ = 1;
  bool at_line_start_ = true;
  int depth_ = 0;  // the open frames' weights
  int base_ = 0;   // parts of the last table header
  Frame top_{false, 0, true, 0};
  std::vector<Frame> frames_;
  std::optional<ScanError> error_;
};

// toml11's message for a syntax error is a diagram naming its parser function:
//   [error] toml::parse_key_value_pair: missing key-value separator `=`
//    --> rules.toml
//      |
//   13 | foo bar
//      |    ^--- should be `=`
// A user needs plain words and the place: the last quoted line and its caret give line and
// column (a duplicate's first quoted line is where it was first defined), the function and its
// message say what is wrong.
struct SyntaxError {
  std::string message;
  std::string source;  // the first quoted line: where the broken key/value starts
  int line = 0;
  int column = 0;
};

std::string trim(std::string s) {
  s.erase(0, s.find_first_not_of(" \t"));
  s.erase(s.find_last_not_of(" \t.") + 1);
  return s;
}

bool has(std::string_view s, std::string_view part) { return s.find(part) != std::string_view::npos; }

// What toml11's function + message mean, in words a person editing the file understands.
std::string plain_words(std::string_view fn, std::string_view msg, std::string_view hint,
                        int first_line) {
  const std::string first = first_line > 0 ? " (first defined at line " + std::to_string(first_line) + ")" : "";
  if (fn == "insert_value") {
    // `value ("a") already exists.` / `table ("a") already exists.` — keep the name.
    const auto open = msg.find("(\""), close = msg.find("\")");
    const std::string name = open != std::string_view::npos && close != std::string_view::npos && close > open
                                 ? std::string(msg.substr(open + 2, close - open - 2)) : "";
    if (has(msg, "already exists")) {
      if (msg.starts_with("value")) return "key '" + name + "' already exists" + first;
      if (msg.starts_with("table")) return "table [" + name + "] already exists" + first;
      return "'" + name + "' already exists" + first;
    }
    if (has(msg, "inline table")) return "an inline table { … } cannot be extended by a later key or [table]";
    return "'" + name + "' is defined twice with different kinds (a key, a [table] or an [[array of tables]])" + first;
  }
  if (fn == "parse_key_value_pair") {
    if (has(msg, "missing key-value separator")) return "expected `=` after the key";
    if (has(msg, "missing value")) return "a value is missing after `=`";
    if (has(msg, "empty key")) return "a key is missing before `=`";
  }
  if (fn == "parse_table") return "unexpected text after a value (one `key = value` per line; comments start with #)";
  if (fn == "parse_key" || fn == "parse_simple_key")
    return "invalid key (bare keys are letters, digits, _ and -; quote any other) or an unclosed [table] header";
  if (fn == "parse_table_key" || fn == "parse_array_table_key") {
    if (has(msg, "newline required")) return "unexpected text after a [table] header";
    if (has(msg, "]]")) return "an [[array of tables]] header is not closed with `]]`";
    if (has(msg, "]")) return "a [table] header is not closed with `]`";
    return "invalid [table] header";
  }
  if (fn == "parse_array") {
    if (has(msg, "separator")) return "`,` or `]` missing in an array";
    return "an array holds something that is not a value (or its `]` is missing)";
  }
  if (fn == "parse_inline_table") {
    if (has(msg, "trailing comma")) return "a trailing comma is not allowed in an inline table { … }";
    if (has(msg, "`}`")) return "an inline table { … } is not closed with `}`";
    if (has(msg, "`,`")) return "`,` or `}` missing in an inline table { … }";
    return "invalid inline table { … }";
  }
  if (fn.find("string") != std::string_view::npos || fn == "parse_escape_sequence")
    return "invalid string: a missing closing quote, a line break inside \"…\", or an unknown escape such as \\q";
  if (fn == "parse_integer" || fn == "parse_floating") return "invalid number";
  if (fn.find("date") != std::string_view::npos || fn.find("time") != std::string_view::npos)
    return "invalid date or time";
  if (fn == "parse_value" || fn == "parse_boolean")
    return "not a value (write true/false, a number, a \"string\", an [array] or an { inline table })";
  // Anything else: toml11's own words without its function name.
  std::string out = trim(std::string(msg));
  if (!hint.empty()) out += out.empty() ? trim(std::string(hint)) : " (" + trim(std::string(hint)) + ")";
  return out.empty() ? "invalid TOML" : out;
}

SyntaxError describe_syntax_error(const std::string& what) {
  std::vector<std::string> lines;
  for (std::size_t b = 0; b <= what.size();) {
    const std::size_t e = std::min(what.find('\n', b), what.size());
    lines.push_back(what.substr(b, e - b));
    b = e + 1;
  }
  // "[error] toml::fn: message"
  std::string head = lines.empty() ? "" : lines.front();
  if (head.starts_with("[error] ")) head.erase(0, 8);
  std::string fn, msg = head;
  if (head.starts_with("toml::")) {
    const auto colon = head.find(": ", 6);
    fn = head.substr(6, colon == std::string::npos ? std::string::npos : colon - 6);
    msg = colon == std::string::npos ? "" : head.substr(colon + 2);
  }
  SyntaxError out;
  int first_line = 0;
  std::string hint;
  for (std::size_t i = 0; i + 1 < lines.size(); ++i) {
    // " 13 | source" followed by "    |    ^--- hint"
    const std::string& l = lines[i];
    const auto bar = l.find(" | ");
    if (bar == std::string::npos) continue;
    const std::string num = trim(l.substr(0, bar));
    if (num.empty() || num.find_first_not_of("0123456789") != std::string::npos || num.size() > 9)
      continue;
    const std::string& c = lines[i + 1];
    const auto cbar = c.find('|');
    if (cbar == std::string::npos || cbar != bar + 1) continue;
    const auto mark = c.find_first_of("^~", cbar);
    if (mark == std::string::npos) continue;
    const int n = std::stoi(num);
    if (out.line > 0 && first_line == 0) first_line = out.line;
    out.line = n;
    if (out.source.empty()) out.source = l.substr(bar + 3);
    const std::string quoted = l.substr(bar + 3);
    const std::size_t offset = mark >= cbar + 2 ? mark - (cbar + 2) : 0;
    int column = 1;  // in code points: a line may hold Chinese text
    for (std::size_t k = 0; k < offset && k < quoted.size(); ++k)
      if ((static_cast<unsigned char>(quoted[k]) & 0xC0) != 0x80) ++column;
    out.column = column;
    const auto text = c.find_first_not_of("^~-", mark);
    hint = text == std::string::npos ? "" : trim(c.substr(text));
  }
  if (fn != "insert_value") first_line = 0;
  out.message = plain_words(fn, msg, hint, first_line);
  return out;
}

}  // namespace

Result<Value> parse(std::string_view text, const std::string& origin) {
  if (const std::size_t bad = first_invalid_utf8(text); bad != std::string_view::npos)
    return config_error("not valid UTF-8 (byte " + std::to_string(bad) + ")", origin, 0, "");
  if (auto bad = TomlGuard(text).run()) return config_error(bad->message, origin, bad->line, "");
  try {
    std::istringstream in{std::string(text)};
    return toml::parse(in, origin);
  } catch (const toml::exception& e) {
    const SyntaxError s = describe_syntax_error(e.what());
    // Name the key when the broken line is `key = …`, so the error points at what to fix.
    std::string key;
    const std::string src = s.source.empty() ? e.location().line_str() : s.source;
    if (const auto eq = src.find('='); eq != std::string::npos) {
      key = src.substr(0, eq);
      key.erase(0, key.find_first_not_of(" \t"));
      key.erase(key.find_last_not_of(" \t") + 1);
      if (key.find_first_of("[]\"'#") != std::string::npos) key.clear();
    }
    Error err = config_error("TOML syntax error: " + s.message, origin,
                             s.line > 0 ? s.line : static_cast<int>(e.location().line()), key);
    err.column = s.column;
    return err;
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
  // A top-level key is named alone ("default_scenario"), a table's as "[table] key".
  std::string field = path.empty() ? "" : "[" + path + "]";
  if (!key.empty()) field += (field.empty() ? "" : " ") + std::string(key);
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
  // toml11 saturates an integer that overflows 64 bits instead of failing; refuse it.
  if (out == std::numeric_limits<long long>::max() || out == std::numeric_limits<long long>::min())
    return err(*x, key, "out of range");
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
  // toml11 reads a float beyond double range (1e999) as ±DBL_MAX, and an integer beyond 64 bits
  // as the largest one: refuse both rather than use a value nobody wrote.
  if (std::fabs(out) == std::numeric_limits<double>::max() ||
      (x->is_integer() && (x->as_integer() == std::numeric_limits<long long>::max() ||
                           x->as_integer() == std::numeric_limits<long long>::min())))
    return err(*x, key, "out of range");
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
