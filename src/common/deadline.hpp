#pragma once
// A host's hook or model called under a deadline that holds (docs/reliability.md). The call runs
// on a thread of its own and the caller waits at most the budget: a call past its deadline is
// abandoned — its thread finishes it and drops the result, so nothing it returns reaches this or
// a later request. The call owns copies of everything it reads (the caller's strings may be gone
// by the time it ends). Threads still running abandoned calls are capped (kMaxAbandoned): past
// the cap a call fails at once instead of starting yet another thread for a hook that hangs.
//
// A thread per call, not a pool: a hook is a model call (milliseconds and up), next to which
// starting a thread (~20 µs) is small, and a pool would need the same replacement logic for
// workers lost to abandoned calls.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

namespace qaplan::internal {

enum class DeadlineOutcome {
  kDone,         ///< returned within the budget
  kTimeout,      ///< still running at the deadline: abandoned
  kBusy,         ///< not started: kMaxAbandoned calls are still running
  kInterrupted,  ///< the caller was interrupted while waiting (see set_interrupt_check)
  kNoThread,     ///< not started: the system refused a thread
};

inline constexpr int kMaxAbandoned = 16;

/// The waiting caller polls this every few milliseconds; true ends the wait as kInterrupted.
/// The Python module installs one that notices Ctrl-C (a pending KeyboardInterrupt).
using InterruptCheck = bool (*)();
void set_interrupt_check(InterruptCheck check) noexcept;
bool interrupt_pending() noexcept;

/// Abandoned calls still running (for tests and the reliability docs).
int abandoned_calls() noexcept;

/// The failure a plan records for a call that did not finish: "timeout: no reply within the
/// budget of 2000 ms (abandoned after 2003 ms)", "busy: …", "interrupted …".
std::string deadline_error(DeadlineOutcome outcome, const std::string& waited, const std::string& budget);

namespace deadline_detail {
std::atomic<int>& abandoned() noexcept;

template <class T>
struct CallState {
  std::mutex m;
  std::condition_variable cv;
  bool done = false;
  bool abandoned = false;
  std::optional<T> value;
};
}  // namespace deadline_detail

template <class T>
struct DeadlineResult {
  DeadlineOutcome outcome = DeadlineOutcome::kDone;
  std::optional<T> value;  ///< set only for kDone
};

/// Runs `fn` (which must not throw) on a thread of its own and waits for it at most `budget`.
template <class T>
DeadlineResult<T> call_with_deadline(std::function<T()> fn, std::chrono::microseconds budget) {
  using namespace deadline_detail;
  if (abandoned().load() >= kMaxAbandoned) return {DeadlineOutcome::kBusy, std::nullopt};
  auto state = std::make_shared<CallState<T>>();
  try {
    std::thread([state, fn = std::move(fn)]() mutable {
      std::optional<T> v(fn());
      // The call's own copies (a host's objects: a Python callable, its request) go before the
      // caller may go on: a caller that returns and ends the program must not find this thread
      // still dropping them (a Python host's interpreter may be finalizing by then).
      fn = nullptr;
      std::lock_guard lock(state->m);
      state->value = std::move(v);
      state->done = true;
      if (state->abandoned) abandoned().fetch_sub(1);
      state->cv.notify_all();
    }).detach();
  } catch (const std::system_error&) {
    return {DeadlineOutcome::kNoThread, std::nullopt};
  }
  // Wait in slices so that an interrupt (Ctrl-C in a Python host) is seen within one slice.
  constexpr auto kSlice = std::chrono::milliseconds(10);
  const auto deadline = std::chrono::steady_clock::now() + budget;
  std::unique_lock lock(state->m);
  DeadlineOutcome outcome = DeadlineOutcome::kTimeout;
  for (;;) {
    const auto now = std::chrono::steady_clock::now();
    const auto until = std::min(deadline, now + kSlice);
    if (state->cv.wait_until(lock, until, [&] { return state->done; })) {
      return {DeadlineOutcome::kDone, std::move(state->value)};
    }
    if (std::chrono::steady_clock::now() >= deadline) break;
    lock.unlock();
    const bool interrupted = interrupt_pending();
    lock.lock();
    if (state->done) return {DeadlineOutcome::kDone, std::move(state->value)};
    if (interrupted) {
      outcome = DeadlineOutcome::kInterrupted;
      break;
    }
  }
  state->abandoned = true;
  abandoned().fetch_add(1);
  return {outcome, std::nullopt};
}

}  // namespace qaplan::internal
