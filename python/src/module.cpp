// The extension module qaplan._core; the package qaplan (python/qaplan/__init__.py) re-exports
// it. One file per room: planning.cpp, ranking.cpp, eval.cpp; errors.cpp maps errors; config.cpp
// finds the rules file.
#include "common.hpp"
#include "qaplan/version.hpp"

PYBIND11_MODULE(_core, m) {
  m.doc() = "qaplan: query preparation and in-process ranking for RAG (C++ core)";
  m.attr("__version__") = QAPLAN_VERSION_STRING;
  qaplan::py::register_errors(m);
  qaplan::py::install_interrupts();
  qaplan::py::register_config_lookup(m);
  qaplan::py::register_planning(m);
  qaplan::py::register_ranking(m);
  qaplan::py::register_eval(m);
}
