// Ctrl-C and SystemExit while a request waits for a Python hook (docs/python.md). The hook runs
// on a thread of its own (the library's deadline), so Python's signal handler, which only ever
// runs on the main thread, is polled by the waiting request through the library's interrupt
// check; an exit a hook itself raises is kept here and raised again in the caller.
#include <memory>
#include <mutex>

#include "common.hpp"
#include "qaplan/planning/extensions.hpp"

namespace qaplan::py {
namespace {

std::mutex g_mutex;
// A KeyboardInterrupt or SystemExit raised inside a hook, waiting for its caller. Leaked at
// interpreter exit on purpose: its objects may only be dropped with the GIL.
py::error_already_set* g_pending = nullptr;

bool take_pending_locked() {
  if (g_pending == nullptr) return false;
  g_pending->restore();
  delete g_pending;
  g_pending = nullptr;
  return true;
}

// Polled by a request waiting for a hook, without the GIL. Signals are delivered to the main
// thread only; PyErr_CheckSignals does nothing elsewhere. The error it raises stays set on this
// thread's state until the binding returns to Python (raise_pending).
bool check() {
  if (!Py_IsInitialized()) return false;
  py::gil_scoped_acquire gil;
  if (PyErr_Occurred() != nullptr) return true;
  {
    std::lock_guard lock(g_mutex);
    if (take_pending_locked()) return true;
  }
  return PyErr_CheckSignals() != 0;
}

}  // namespace

void install_interrupts() { set_hook_interrupt_check(&check); }

bool stash_fatal(py::error_already_set& e) {
  if (!e.matches(PyExc_KeyboardInterrupt) && !e.matches(PyExc_SystemExit)) return false;
  std::lock_guard lock(g_mutex);
  if (g_pending == nullptr) g_pending = new py::error_already_set(std::move(e));
  return true;
}

void raise_pending() {
  if (PyErr_Occurred() == nullptr) {
    std::lock_guard lock(g_mutex);
    if (!take_pending_locked()) return;
  }
  throw py::error_already_set();
}

}  // namespace qaplan::py
