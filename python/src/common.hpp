#pragma once
// Shared helpers of the Python binding: errors as Python exceptions, str/bytes → UTF-8 without
// losing bad input (the library, not the binding, decides what is invalid), and the per-room
// registration functions module.cpp calls.
#include <pybind11/pybind11.h>

#include <exception>
#include <string>
#include <utility>
#include <vector>

#include "qaplan/status.hpp"

namespace qaplan::py {

namespace py = pybind11;

/// A library error on its way to Python; the translator in errors.cpp raises the matching
/// qaplan.Error subclass with code, message, file, line, column and field.
class LibraryError : public std::exception {
 public:
  explicit LibraryError(Error e) : error_(std::move(e)), what_(error_.to_string()) {}
  const Error& error() const noexcept { return error_; }
  const char* what() const noexcept override { return what_.c_str(); }

 private:
  Error error_;
  std::string what_;
};

[[noreturn]] inline void raise(Error e) { throw LibraryError(std::move(e)); }

template <class T>
T unwrap(Result<T>&& r) {
  if (!r.ok()) raise(std::move(r).error());
  return std::move(r).value();
}
inline void unwrap(const Status& s) {
  if (!s.ok()) raise(s.error());
}

/// A Python str (or bytes, taken as they are) as UTF-8. A str that cannot be encoded strictly
/// (lone surrogates) is encoded with "surrogatepass", so the library sees invalid UTF-8 and
/// reports kInvalidInput naming `field`, exactly as for bad bytes from any other host.
/// Anything else raises qaplan.InvalidInput naming `field`.
std::string utf8(py::handle obj, const char* field);

/// A sequence of str (not a str itself) as UTF-8 strings; `field` names the argument and an
/// element is named `field[i]`. None gives an empty list.
std::vector<std::string> utf8_list(py::handle obj, const char* field);

/// os.PathLike / str / bytes → a filesystem path string.
std::string fspath(py::handle obj, const char* field);

/// Ctrl-C and exit must reach the program even while a request waits for a hook
/// (docs/python.md). install_interrupts() makes the library's waiting request poll Python's signal
/// handlers; a KeyboardInterrupt or SystemExit raised inside a hook is kept by stash_fatal() and
/// raised again in the caller by raise_pending(), which every binding that may call a hook runs
/// (GIL held) after the library returns.
void install_interrupts();
/// Keeps `e` when it is KeyboardInterrupt or SystemExit (GIL held); true when it did.
bool stash_fatal(py::error_already_set& e);
void raise_pending();

void register_errors(py::module_& m);
void register_config_lookup(py::module_& m);
void register_planning(py::module_& m);
void register_ranking(py::module_& m);
void register_eval(py::module_& m);

}  // namespace qaplan::py
