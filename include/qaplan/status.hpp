#pragma once
/// Errors as values (abseil-style): every fallible public function returns `Result<T>`;
/// `Status` is `Result<void>`. `value()` on an error throws `BadResultAccess` for callers who
/// prefer exceptions. Nothing in qaplan throws across the public API otherwise.
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

#include "qaplan/export.hpp"

namespace qaplan {

/// What kind of failure. The CLI maps these to exit codes in one table:
/// kInvalidInput/kInvalidConfig/kIo/kFingerprintMismatch → 2, kInternal → 1.
enum class ErrorCode {
  kInvalidInput,         ///< bad question, bad request field, malformed data file
  kInvalidConfig,        ///< config/rules.toml (or another config) failed strict validation
  kIo,                   ///< a file could not be read or written
  kFingerprintMismatch,  ///< frozen data whose hash or version is not registered
  kInternal,             ///< a bug or an unexpected dependency failure
};

QAPLAN_API std::string_view to_string(ErrorCode code) noexcept;

/// An error: `code`, a one-line human `message`, and where it happened (`context`, e.g.
/// "config/rules.toml:14 [retrieval_strategy] faq_top_k").
struct Error {
  ErrorCode code = ErrorCode::kInternal;
  std::string message;
  std::string context;

  /// "context: message" (or just the message without context), always one line.
  QAPLAN_API std::string to_string() const;
};

class BadResultAccess : public std::runtime_error {
 public:
  explicit BadResultAccess(const Error& e) : std::runtime_error(e.to_string()), error_(e) {}
  const Error& error() const noexcept { return error_; }

 private:
  Error error_;
};

/// Value or Error. Cheap to move; never empty.
template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}  // NOLINT(google-explicit-constructor)
  Result(Error error) : v_(std::move(error)) {}  // NOLINT(google-explicit-constructor)

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
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

  /// The error; only valid when !ok().
  const Error& error() const& { return std::get<1>(v_); }
  Error&& error() && { return std::get<1>(std::move(v_)); }

 private:
  void check() const {
    if (!ok()) throw BadResultAccess(std::get<1>(v_));
  }
  std::variant<T, Error> v_;
};

template <>
class [[nodiscard]] Result<void> {
 public:
  Result() = default;
  Result(Error error) : error_(std::move(error)), ok_(false) {}  // NOLINT

  bool ok() const noexcept { return ok_; }
  explicit operator bool() const noexcept { return ok_; }
  void value() const {
    if (!ok_) throw BadResultAccess(error_);
  }
  const Error& error() const& { return error_; }

 private:
  Error error_;
  bool ok_ = true;
};

using Status = Result<void>;

/// Shorthand for building errors: `return make_error(ErrorCode::kInvalidInput, "empty question");`
inline Error make_error(ErrorCode code, std::string message, std::string context = {}) {
  return Error{code, std::move(message), std::move(context)};
}

}  // namespace qaplan
