// Library errors → qaplan.Error subclasses (defined in qaplan/_errors.py so they are ordinary,
// picklable Python exceptions that also derive from ValueError / OSError / RuntimeError).
#include <Python.h>

#include <string_view>

#include "common.hpp"

namespace qaplan::py {

namespace {

py::object error_class(ErrorCode code) {
  py::object by_code = py::module_::import("qaplan._errors").attr("BY_CODE");
  return by_code[py::str(std::string(to_string(code)))];
}

// A message may quote the caller's bad bytes (an unknown scenario that is not UTF-8): decoded
// with backslashreplace, so reporting the error never fails on the very input it is about.
py::str text(const std::string& s) {
  PyObject* u = PyUnicode_DecodeUTF8(s.data(), static_cast<Py_ssize_t>(s.size()), "backslashreplace");
  if (u == nullptr) throw py::error_already_set();
  return py::reinterpret_steal<py::str>(u);
}

void set_python_error(const Error& e) {
  try {
    py::object cls = error_class(e.code);
    py::dict kw;
    kw["code"] = std::string(to_string(e.code));
    if (!e.file.empty()) kw["file"] = text(e.file);
    if (e.line > 0) kw["line"] = e.line;
    if (e.column > 0) kw["column"] = e.column;
    if (!e.field.empty()) kw["field"] = text(e.field);
    kw["context"] = text(e.where());
    py::object exc = cls(text(e.message), **kw);
    PyErr_SetObject(cls.ptr(), exc.ptr());
  } catch (py::error_already_set& err) {
    err.restore();  // building the exception failed (no memory…): raise that instead
  }
}

[[noreturn]] void raise_invalid(const char* field, const std::string& message) {
  raise(make_error(ErrorCode::kInvalidInput, message, field));
}

}  // namespace

std::string utf8(py::handle obj, const char* field) {
  if (PyUnicode_Check(obj.ptr())) {
    Py_ssize_t n = 0;
    if (const char* s = PyUnicode_AsUTF8AndSize(obj.ptr(), &n)) return std::string(s, static_cast<std::size_t>(n));
    PyErr_Clear();  // lone surrogates: keep them as bytes the library will refuse by name
    PyObject* b = PyUnicode_AsEncodedString(obj.ptr(), "utf-8", "surrogatepass");
    if (b == nullptr) throw py::error_already_set();
    py::bytes bytes = py::reinterpret_steal<py::bytes>(b);
    return std::string(bytes);
  }
  if (PyBytes_Check(obj.ptr())) return std::string(py::reinterpret_borrow<py::bytes>(obj));
  raise_invalid(field, std::string("must be str, not ") + Py_TYPE(obj.ptr())->tp_name);
}

std::vector<std::string> utf8_list(py::handle obj, const char* field) {
  std::vector<std::string> out;
  if (obj.is_none()) return out;
  if (PyUnicode_Check(obj.ptr()) || PyBytes_Check(obj.ptr()) || !PySequence_Check(obj.ptr()))
    raise_invalid(field, std::string("must be a sequence of str, not ") + Py_TYPE(obj.ptr())->tp_name);
  py::sequence seq = py::reinterpret_borrow<py::sequence>(obj);
  const std::size_t n = seq.size();
  out.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::string name = std::string(field) + "[" + std::to_string(i) + "]";
    out.push_back(utf8(seq[i], name.c_str()));
  }
  return out;
}

std::string fspath(py::handle obj, const char* field) {
  PyObject* p = PyOS_FSPath(obj.ptr());
  if (p == nullptr) {
    PyErr_Clear();
    raise_invalid(field, std::string("must be a path (str or os.PathLike), not ") +
                             Py_TYPE(obj.ptr())->tp_name);
  }
  py::object path = py::reinterpret_steal<py::object>(p);
  if (PyBytes_Check(path.ptr())) return std::string(py::reinterpret_borrow<py::bytes>(path));
  return utf8(path, field);
}

void register_errors(py::module_&) {
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const LibraryError& e) {
      set_python_error(e.error());
    } catch (const BadResultAccess& e) {
      set_python_error(e.error());
    }
  });
}

}  // namespace qaplan::py
