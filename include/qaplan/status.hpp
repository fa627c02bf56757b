#pragma once
/// Errors as values (abseil-style): every fallible public function returns `Result<T>`;
/// `Status` is `Result<void>`. Nothing in qaplan throws across the public API, except that
/// `value()` on an error and `error()` on a success throw `BadResultAccess` — the same rule for
/// `Result<T>` and `Status`, for callers who prefer exceptions.
///
/// ```cpp
/// qaplan::Status load(const std::string& path) {
///   QAPLAN_ASSIGN_OR_RETURN(auto config, qaplan::load_config(path));  // returns the error
///   QAPLAN_TRY(config.validate());
///   return {};
/// }
/// ```
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

#include "qaplan/export.hpp"

namespace qaplan {

/// What kind of failure; one code per kind, whichever room reports it. The CLI maps them to
/// exit codes in one table: kInternal → 1, every other code → 2.
enum class ErrorCode {
  kInvalidInput,         ///< bad question or request field, malformed data file
  kInvalidConfig,        ///< a config file or an options struct failed validation
  kIo,                   ///< a file could not be read or written
  kFingerprintMismatch,  ///< frozen data whose hash or version is not registered
  kInternal,             ///< a bug or an unexpected dependency failure
};

/// "invalid_input", "invalid_config", "io_error", "fingerprint_mismatch", "internal_error".
QAPLAN_API std::string_view to_string(ErrorCode code) noexcept;

/// An error: a code, a one-line message, and where it happened, each part structured so a host
/// can point at it: the file (or named input), the 1-based line and column in it, and the field
/// (a TOML key with its table, a JSON path, a request field such as `question`, a CLI flag).
/// Every location part is optional.
struct Error {
  ErrorCode code = ErrorCode::kInternal;
  std::string message;
  std::string file;   ///< "config/rules.toml", "corpus.jsonl"; empty when not about a file
  int line = 0;       ///< 1-based; 0 = unknown
  int column = 0;     ///< 1-based; 0 = unknown
  std::string field;  ///< "[retrieval_strategy.defaults] faq_top_k", "queries[3].split", "--k"

  /// "file:line:column field", or "file: field" without a line, with the absent parts left out
  /// ("" when nothing is known).
  QAPLAN_API std::string where() const;
  /// "where: message" (or just the message), always one line.
  QAPLAN_API std::string to_string() const;
};

/// An error about a request field, flag or value that is not in a file.
inline Error make_error(ErrorCode code, std::string message, std::string field = {}) {
  Error e;
  e.code = code;
  e.message = std::move(message);
  e.field = std::move(field);
  return e;
}

/// An error located in a file (`line` 0 when unknown).
inline Error make_file_error(ErrorCode code, std::string message, std::string file, int line = 0,
                             std::string field = {}) {
  Error e = make_error(code, std::move(message), std::move(field));
  e.file = std::move(file);
  e.line = line;
  return e;
}

/// Thrown by `Result::value()` on an error and by `Result::error()` on a success.
class BadResultAccess : public std::logic_error {
 public:
  explicit BadResultAccess(const Error& e) : std::logic_error(e.to_string()), error_(e) {}
  const Error& error() const noexcept { return error_; }

 private:
  Error error_;
};

namespace detail {
[[noreturn]] QAPLAN_API void throw_no_error();
}  // namespace detail

/// Value or Error. Cheap to move; never empty.
template <class T>
class [[nodiscard]] Result {
 public:
  using value_type = T;
  Result(T value) : v_(std::in_place_index<0>, std::move(value)) {}  // NOLINT(google-explicit-constructor)
  Result(Error error) : v_(std::in_place_index<1>, std::move(error)) {}  // NOLINT(google-explicit-constructor)

  bool ok() const noexcept { return v_.index() == 0; }
  explicit operator bool() const noexcept { return ok(); }

  /// The value; throws BadResultAccess when this holds an error.
  T& value() & {
    check();
    return std::get<0>(v_);
  }
  const T& value() const& {
    check();
    return std::get<0>(v_);
  }
  T&& value() && {
    check();
    return std::get<0>(std::move(v_));
  }
  /// The value, or `fallback` when this holds an error.
  template <class U>
  T value_or(U&& fallback) const& {
    return ok() ? std::get<0>(v_) : static_cast<T>(std::forward<U>(fallback));
  }
  template <class U>
  T value_or(U&& fallback) && {
    return ok() ? std::get<0>(std::move(v_)) : static_cast<T>(std::forward<U>(fallback));
  }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T&& operator*() && { return std::move(*this).value(); }

  /// The error; throws BadResultAccess when this holds a value.
  const Error& error() const& {
    if (ok()) detail::throw_no_error();
    return std::get<1>(v_);
  }
  Error&& error() && {
    if (ok()) detail::throw_no_error();
    return std::get<1>(std::move(v_));
  }

 private:
  void check() const {
    if (!ok()) throw BadResultAccess(std::get<1>(v_));
  }
  std::variant<T, Error> v_;
};

template <>
class [[nodiscard]] Result<void> {
 public:
  using value_type = void;
  Result() = default;
  Result(Error error) : error_(std::move(error)), ok_(false) {}  // NOLINT

  bool ok() const noexcept { return ok_; }
  explicit operator bool() const noexcept { return ok_; }
  /// Throws BadResultAccess when this holds an error.
  void value() const {
    if (!ok_) throw BadResultAccess(error_);
  }
  /// The error; throws BadResultAccess on success, like Result<T>::error().
  const Error& error() const& {
    if (ok_) detail::throw_no_error();
    return error_;
  }
  Error&& error() && {
    if (ok_) detail::throw_no_error();
    return std::move(error_);
  }

 private:
  Error error_;
  bool ok_ = true;
};

using Status = Result<void>;

}  // namespace qaplan

#define QAPLAN_CONCAT_INNER_(a, b) a##b
#define QAPLAN_CONCAT_(a, b) QAPLAN_CONCAT_INNER_(a, b)

/// Evaluates `expr` (a Status or a Result<T>) and returns its error from the enclosing function
/// when it failed; the value, if any, is discarded.
#define QAPLAN_TRY(expr) QAPLAN_TRY_IMPL_(QAPLAN_CONCAT_(qaplan_try_, __COUNTER__), expr)
#define QAPLAN_TRY_IMPL_(tmp, expr)                            \
  do {                                                         \
    if (auto tmp = (expr); !tmp.ok()) return std::move(tmp).error(); \
  } while (0)

/// `QAPLAN_ASSIGN_OR_RETURN(auto x, make_x());` declares `x` from a Result's value, or returns the
/// Result's error from the enclosing function. It expands to several statements: inside an `if`
/// or a loop, use braces.
#define QAPLAN_ASSIGN_OR_RETURN(decl, expr) \
  QAPLAN_ASSIGN_OR_RETURN_IMPL_(QAPLAN_CONCAT_(qaplan_result_, __COUNTER__), decl, expr)
#define QAPLAN_ASSIGN_OR_RETURN_IMPL_(tmp, decl, expr) \
  auto tmp = (expr);                                   \
  if (!tmp.ok()) return std::move(tmp).error();        \
  decl = std::move(tmp).value()
