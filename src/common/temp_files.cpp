#include "common/temp_files.hpp"

#include <signal.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <climits>
#include <cstring>

#include "qaplan/io.hpp"

namespace qaplan {
namespace internal {
namespace {

constexpr int kSlots = 64;

struct Slot {
  std::atomic<bool> used{false};   // claimed by a guard
  std::atomic<bool> ready{false};  // path written: the handler may act on it
  std::atomic<unsigned> order{0};  // registration order: the handler removes newest first
  char path[PATH_MAX] = {};
};

std::array<Slot, kSlots> g_slots;
std::atomic<unsigned> g_next_order{1};

// Async-signal-safe: unlink / rmdir of the registered paths, newest first (files staged into a
// directory go before the directory), then the signal's default action.
void on_signal(int sig) {
  unsigned last = UINT_MAX;
  for (;;) {
    int best = -1;
    unsigned best_order = 0;
    for (int i = 0; i < kSlots; ++i) {
      const unsigned o = g_slots[i].order.load(std::memory_order_acquire);
      if (g_slots[i].ready.load(std::memory_order_acquire) && o < last && o > best_order) {
        best = i;
        best_order = o;
      }
    }
    if (best < 0) break;
    if (::unlink(g_slots[best].path) != 0) ::rmdir(g_slots[best].path);
    last = best_order;
  }
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

}  // namespace

TempGuard::TempGuard(const std::filesystem::path& path) noexcept {
  const std::string& s = path.native();
  if (s.size() >= PATH_MAX) return;
  for (int i = 0; i < kSlots; ++i) {
    bool expected = false;
    if (!g_slots[i].used.compare_exchange_strong(expected, true)) continue;
    std::memcpy(g_slots[i].path, s.c_str(), s.size() + 1);
    g_slots[i].order.store(g_next_order.fetch_add(1), std::memory_order_release);
    g_slots[i].ready.store(true, std::memory_order_release);
    slot_ = i;
    return;
  }
}

TempGuard::~TempGuard() {
  if (slot_ < 0) return;
  g_slots[slot_].ready.store(false, std::memory_order_release);
  g_slots[slot_].used.store(false, std::memory_order_release);
}

}  // namespace internal

void remove_temp_files_on_signals() {
  struct sigaction sa {};
  sa.sa_handler = internal::on_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESETHAND;
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) ::sigaction(sig, &sa, nullptr);
}

}  // namespace qaplan
