#include "common/toml_reader.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

#include "common/printable.hpp"
#include "common/utf8.hpp"

namespace qaplan::internal::toml_reader {
namespace {

// A quoted TOML key may hold any escaped control character ("a\u0001b" = 1), and the parser's
// messages may quote what it saw: escape both where the error is made, so Error::message is clean.
Error config_error(std::string_view msg, const std::string& origin, int line,
                   std::string_view field) {
  return make_file_error(ErrorCode::kInvalidConfig, one_printable_line(msg), origin, line,
                         one_printable_line(field));
}

// Limits checked by one linear scan before parsing (docs/reliability.md), so no file reaches the
// parser that could exhaust its stack or its time:
//  - nested arrays and inline tables are parsed recursively, and a dotted key `a.b.c` nests tables
//    that are destroyed recursively; 20 000 levels overflow the stack, which no catch can turn
//    into an error. No config needs more than a few levels, so nesting (brackets plus the parts of
//    dotted keys and table headers) is limited.
//  - no line may exceed 4 KB: a config line is a key and a value, and the limit keeps every
//    message short and loading linear in the file size whatever the parser does per line.
// The scan must see strings and comments exactly as the TOML grammar does (a fuzzer's crash: a
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

  // Skips a string starting at i_ exactly as a TOML lexer reads it. A one-line string ends at
  // its quote, or at the end of the line (a syntax error there, so the parser reads no further). A
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
          i_ -= run - std::min<std::size_t>(run, 5);  // a sixth quote is left to the parser's error
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

// toml++'s message for a syntax error reads "Error while parsing <what>: <detail>" with the
// position beside it. A person editing the file wants plain words for the common mistakes and the
// parser's own detail otherwise; a number out of range is a value error, not a syntax error.
struct SyntaxError {
  std::string message;
  bool value_error = false;  // out of range: reported like any bad value, under its key
};

bool has(std::string_view s, std::string_view part) { return s.find(part) != std::string_view::npos; }

// The quoted name in "cannot redefine existing table 'a.b'".
std::string quoted_name(std::string_view detail) {
  const auto open = detail.find('\'');
  const auto close = detail.rfind('\'');
  return open == std::string_view::npos || close <= open
             ? std::string()
             : std::string(detail.substr(open + 1, close - open - 1));
}

SyntaxError plain_words(std::string_view what, std::string_view detail) {
  if (has(detail, "cannot redefine existing")) {
    const std::string name = quoted_name(detail);
    if (what == "table header") return {"table [" + name + "] already exists"};
    if (has(detail, "dotted key")) return {"a [table] cannot be extended by a dotted key later"};
    return {"key '" + name + "' already exists"};
  }
  if (has(detail, "not representable in 64 bits") ||
      (what == "floating-point" && has(detail, "could not be interpreted")))
    return {"out of range", true};
  if (what == "key-value pair") {
    if (detail.starts_with("expected '='")) return {"expected `=` after the key"};
    if (detail.starts_with("expected a comment or whitespace"))
      return {"unexpected text after a value (one `key = value` per line; comments start with #)"};
  }
  if (what == "table header") {
    if (has(detail, "expected ']'")) return {"unclosed [table] header (expected `]`)"};
    if (detail.starts_with("expected a comment or whitespace"))
      return {"unexpected text after a [table] header"};
  }
  if (what == "inline table") {
    if (has(detail, "dangling comma")) return {"a trailing comma is not allowed in an inline table { … }"};
    if (has(detail, "closing '}'") || has(detail, "end-of-file"))
      return {"an inline table { … } is not closed with `}`"};
  }
  if (what == "array" && (has(detail, "closing ']'") || has(detail, "end-of-file")))
    return {"`,` or `]` missing in an array"};
  if (what == "string" || what == "multi-line string" || what == "literal string")
    return {"invalid string: " + std::string(detail)};
  if (what == "value" || what == "boolean")
    return {"not a value (write true/false, a number, a \"string\", an [array] or an { inline "
            "table }): " + std::string(detail)};
  return {std::string(what) + ": " + std::string(detail)};
}

SyntaxError describe_syntax_error(std::string_view description) {
  constexpr std::string_view kHead = "Error while parsing ";
  if (!description.starts_with(kHead)) return {std::string(description)};
  description.remove_prefix(kHead.size());
  const auto colon = description.find(": ");
  if (colon == std::string_view::npos) return {std::string(description)};
  return plain_words(description.substr(0, colon), description.substr(colon + 2));
}

// The key of a broken `key = …` line, so the error points at what to fix ("" when the line is
// no key/value pair).
std::string key_on_line(std::string_view text, int line) {
  std::size_t b = 0;
  for (int n = 1; n < line && b != std::string_view::npos; ++n) {
    b = text.find('\n', b);
    if (b != std::string_view::npos) ++b;
  }
  if (b == std::string_view::npos || b > text.size()) return "";
  const std::string_view src = text.substr(b, text.find('\n', b) - b);
  const auto eq = src.find('=');
  if (eq == std::string_view::npos) return "";
  std::string key(src.substr(0, eq));
  key.erase(0, key.find_first_not_of(" \t"));
  key.erase(key.find_last_not_of(" \t") + 1);
  if (key.find_first_of("[]\"'#{},") != std::string::npos) key.clear();
  return key;
}

}  // namespace

Result<toml::table> parse(std::string_view text, const std::string& origin) {
  if (const std::size_t bad = first_invalid_utf8(text); bad != std::string_view::npos)
    return config_error("not valid UTF-8 (byte " + std::to_string(bad) + ")", origin, 0, "");
  if (auto bad = TomlGuard(text).run()) return config_error(bad->message, origin, bad->line, "");
  try {
    return toml::parse(text, std::string_view(origin));
  } catch (const toml::parse_error& e) {
    const SyntaxError s = describe_syntax_error(e.description());
    const int line = static_cast<int>(e.source().begin.line);
    Error err = config_error(s.value_error ? s.message : "TOML syntax error: " + s.message, origin,
                             line, key_on_line(text, line));
    err.column = static_cast<int>(e.source().begin.column);
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

int line_of(const Value& v) noexcept { return static_cast<int>(v.source().begin.line); }

int column_of(const Value& v) noexcept { return static_cast<int>(v.source().begin.column); }

Error Reader::err(const Value& at, std::string_view key, std::string msg) const {
  // A top-level key is named alone ("default_scenario"), a table's as "[table] key".
  std::string field = path.empty() ? "" : "[" + path + "]";
  if (!key.empty()) {
    if (!field.empty()) field += ' ';
    field += key;
  }
  return config_error(std::move(msg), origin, line_of(at), std::move(field));
}

const Value* Reader::find(std::string_view key) {
  used.insert(std::string(key));
  return table_of(v).get(key);
}

// Reports the first key nobody asked for: a typo must not be silently ignored. The table is
// ordered by key, so the first unknown is the alphabetically first.
Status Reader::finish() const {
  for (const auto& [k, val] : table_of(v))
    if (!used.count(std::string(k.str()))) return err(val, k.str(), "unknown key");
  return {};
}

Status Reader::missing(std::string_view key, bool required) const {
  if (required) return err(v, key, "missing required key");
  return {};
}

Status Reader::get(std::string_view key, bool& out, bool required) {
  const Value* x = find(key);
  if (!x) return missing(key, required);
  if (!x->is_boolean()) return err(*x, key, "must be a boolean (true/false)");
  out = x->as_boolean()->get();
  return {};
}

// The parser refuses an integer beyond 64 bits and a float beyond double range (both "out of
// range" at their key), so every number read here is one the file wrote.
Status Reader::get(std::string_view key, long long& out, bool required) {
  const Value* x = find(key);
  if (!x) return missing(key, required);
  if (!x->is_integer()) return err(*x, key, "must be an integer");
  out = x->as_integer()->get();
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
  if (x->is_integer()) out = static_cast<double>(x->as_integer()->get());
  else if (x->is_floating_point()) out = x->as_floating_point()->get();
  else return err(*x, key, "must be a number");
  if (!std::isfinite(out)) return err(*x, key, "out of range");
  return {};
}

Status Reader::get(std::string_view key, std::string& out, bool required) {
  const Value* x = find(key);
  if (!x) return missing(key, required);
  if (!x->is_string()) return err(*x, key, "must be a string");
  out = x->as_string()->get();
  if (!is_valid_utf8(out)) return err(*x, key, "is not valid UTF-8");
  return {};
}

Status Reader::get(std::string_view key, std::vector<std::string>& out, bool required) {
  const Value* x = find(key);
  if (!x) return missing(key, required);
  if (!x->is_array()) return err(*x, key, "must be an array of strings");
  out.clear();
  for (const auto& e : array_of(*x)) {
    if (!e.is_string()) return err(e, key, "must be an array of strings");
    out.push_back(e.as_string()->get());
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
  for (const auto& e : array_of(*x))
    if (!e.is_table()) return err(e, key, "must be an array of tables");
  return x;
}

}  // namespace qaplan::internal::toml_reader
