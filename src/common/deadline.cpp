#include "common/deadline.hpp"

namespace qaplan::internal {
namespace {
std::atomic<InterruptCheck> g_interrupt_check{nullptr};
}  // namespace

namespace deadline_detail {
std::atomic<int>& abandoned() noexcept {
  static std::atomic<int> count{0};
  return count;
}
}  // namespace deadline_detail

void set_interrupt_check(InterruptCheck check) noexcept { g_interrupt_check.store(check); }

bool interrupt_pending() noexcept {
  const InterruptCheck check = g_interrupt_check.load();
  return check != nullptr && check();
}

int abandoned_calls() noexcept { return deadline_detail::abandoned().load(); }

std::string deadline_error(DeadlineOutcome outcome, const std::string& waited, const std::string& budget) {
  switch (outcome) {
    case DeadlineOutcome::kDone:
      return "";
    case DeadlineOutcome::kTimeout:
      return "timeout: no reply within the budget of " + budget + " (abandoned after " +
             waited + ")";
    case DeadlineOutcome::kBusy:
      return "busy: " + std::to_string(kMaxAbandoned) +
             " earlier calls are still running past their deadline; not called";
    case DeadlineOutcome::kInterrupted:
      return "interrupted while waiting (abandoned after " + waited + ")";
    case DeadlineOutcome::kNoThread:
      return "error: no thread could be started for the call";
  }
  return "error";
}

}  // namespace qaplan::internal
