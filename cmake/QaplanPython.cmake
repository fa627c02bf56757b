# Finds what the Python binding (python/, docs/python.md) needs: a Python 3 interpreter with its
# headers and pybind11 — on Debian `python3-dev` and `pybind11-dev`, which scripts/setup.sh
# installs. Sets QAPLAN_PYTHON_AVAILABLE and, when it is false, QAPLAN_PYTHON_MISSING (what to
# install).
#
# The interpreter: -DPython_EXECUTABLE=… when given; otherwise Debian's /usr/bin/python3 when it
# exists — the interpreter for which Debian's python3-numpy and python3-pytest are installed
# (an interpreter earlier on PATH, e.g. pyenv's, has neither) — else the first python3 on PATH.
# `pip install .` passes the interpreter that runs pip.
if(NOT Python_EXECUTABLE AND EXISTS /usr/bin/python3)
  set(Python_EXECUTABLE /usr/bin/python3 CACHE FILEPATH "Python interpreter for the qaplan module")
endif()
set(QAPLAN_PYTHON_AVAILABLE OFF)
set(QAPLAN_PYTHON_MISSING "")
find_package(Python 3.8 QUIET COMPONENTS Interpreter Development.Module)
if(NOT Python_FOUND)
  set(QAPLAN_PYTHON_MISSING "Python 3 interpreter and headers (python3-dev)")
else()
  find_package(pybind11 2.6 CONFIG QUIET)
  if(NOT pybind11_FOUND)
    set(QAPLAN_PYTHON_MISSING "pybind11 (pybind11-dev)")
  else()
    set(QAPLAN_PYTHON_AVAILABLE ON)
  endif()
endif()
