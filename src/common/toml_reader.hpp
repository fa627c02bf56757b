#pragma once
// The strict TOML reading style shared by every config section reader (planning's rules, the
// ranking parameters, later glossaries): every key a reader does not ask for is an error, every
// error names file:line, the table and the key. toml++ (the parser) never leaks past this header's
// users: it parses the shipped 64 KB rules file in about 1 ms where toml11 took 12 (docs/benchmarks.md).
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <toml++/toml.h>
#include <vector>

#include "qaplan/status.hpp"

namespace qaplan::internal::toml_reader {

using Value = toml::node;

/// Parses TOML text after the guards (valid UTF-8, bounded nesting and line length); syntax
/// errors become one line naming origin:line:column and the key. Errors: kInvalidConfig.
Result<toml::table> parse(std::string_view text, const std::string& origin);

/// The table / array a node is (the caller checked is_table() / is_array()).
inline const toml::table& table_of(const Value& v) { return *v.as_table(); }
inline const toml::array& array_of(const Value& v) { return *v.as_array(); }
/// Where a node starts in its file (1-based; 0 when unknown). Columns count code points.
int line_of(const Value& v) noexcept;
int column_of(const Value& v) noexcept;

/// parse() then `read(root, origin)`; a dependency exception becomes kInvalidConfig naming the
/// file. Every rules-file reader (planning, ranking) goes through here.
template <class Read>
auto read_document(std::string_view text, std::string_view origin, Read&& read)
    -> decltype(read(std::declval<const Value&>(), std::string())) {
  const std::string name(origin);
  auto root = parse(text, name);
  if (!root.ok()) return std::move(root).error();
  try {
    return read(*root, name);
  } catch (const std::exception& e) {
    return make_file_error(ErrorCode::kInvalidConfig, std::string("cannot read: ") + e.what(),
                           name);
  }
}

/// Reads one table. Keys are marked as used when asked for; finish() reports the first unused.
struct Reader {
  const Value& v;
  std::string path;  // dotted table path for messages ("retrieval_strategy.defaults")
  const std::string& origin;
  std::set<std::string> used;

  Error err(const Value& at, std::string_view key, std::string msg) const;
  const Value* find(std::string_view key);
  Status finish() const;
  Status missing(std::string_view key, bool required) const;
  Reader sub(const Value& t, std::string sub_path) const { return Reader{t, std::move(sub_path), origin, {}}; }

  Status get(std::string_view key, bool& out, bool required = false);
  Status get(std::string_view key, long long& out, bool required = false);
  Status get_int(std::string_view key, int& out, bool required = false);
  Status get(std::string_view key, double& out, bool required = false);
  Status get(std::string_view key, std::string& out, bool required = false);
  Status get(std::string_view key, std::vector<std::string>& out, bool required = false);
  /// A real in [0, 1].
  Status unit(std::string_view key, double& out, bool required = false);
  /// An integer > 0.
  Status count(std::string_view key, int& out, bool required = false);
  /// A sub-table (nullptr when absent and not required).
  Result<const Value*> table(std::string_view key, bool required = false);
  /// An array of tables ([[key]]), nullptr when absent.
  Result<const Value*> array_of_tables(std::string_view key);
  /// Runs `fn(Reader&)` on the sub-table `key` when present (or required), then finish().
  template <class Fn>
  Status section(std::string_view key, bool required, Fn&& fn) {
    auto t = table(key, required);
    if (!t.ok()) return std::move(t).error();
    if (*t == nullptr) return {};
    Reader s = sub(**t, path.empty() ? std::string(key) : path + "." + std::string(key));
    QAPLAN_TRY(fn(s));
    return s.finish();
  }
};

/// Reads every table of the array `key` with `fn(Reader&, T&)` into `out`.
template <class T, class Fn>
Status each_table(Reader& parent, std::string_view key, std::vector<T>& out, Fn&& fn) {
  auto arr = parent.array_of_tables(key);
  if (!arr.ok()) return std::move(arr).error();
  if (*arr == nullptr) return {};
  std::size_t i = 0;
  for (const auto& t : array_of(**arr)) {
    const std::string name = std::string(key) + "[" + std::to_string(i++) + "]";
    Reader r = parent.sub(t, parent.path.empty() ? name : parent.path + "." + name);
    T item;
    QAPLAN_TRY(fn(r, item));
    QAPLAN_TRY(r.finish());
    out.push_back(std::move(item));
  }
  return {};
}

/// "must be within [0, 1]" or "" — shared by readers and struct validate() functions.
std::string check_unit(double v);
/// "must be > 0" or "".
std::string check_count(long long v);
/// Word lists: no empty entry, valid UTF-8.
std::string check_words(const std::vector<std::string>& words);

}  // namespace qaplan::internal::toml_reader
