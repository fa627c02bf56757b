// Deadlines that hold (docs/reliability.md). A host hook or intent model that never returns costs a
// request its budget, not the request (src/common/deadline.hpp); an abandoned call's late result
// never reaches a later request; hung calls are capped. The bound checked:
// budget + 50 ms (a correctness bound on a call that never returns, not a speed measurement).
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>

#include "common/deadline.hpp"
#include "qaplan/qaplan.hpp"
#include "support/planners.hpp"
#include "test_support.hpp"

namespace {

using namespace qaplan;
using internal::call_with_deadline;
using internal::DeadlineOutcome;
using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

// A gate the test opens at its end, so a "never returning" call ends before the process does.
struct DeadlineGate {
  std::mutex m;
  std::condition_variable cv;
  bool open = false;
  void wait() {
    std::unique_lock lock(m);
    cv.wait(lock, [&] { return open; });
  }
  void release() {
    {
      std::lock_guard lock(m);
      open = true;
    }
    cv.notify_all();
  }
};

// Waits (up to 5 s) until no abandoned call is left running.
void drain() {
  const auto until = Clock::now() + std::chrono::seconds(5);
  while (internal::abandoned_calls() > 0 && Clock::now() < until)
    std::this_thread::sleep_for(milliseconds(5));
}

long long ms_since(Clock::time_point t0) {
  return std::chrono::duration_cast<milliseconds>(Clock::now() - t0).count();
}

TEST(Deadline, AFastCallReturnsItsValue) {
  auto r = call_with_deadline<int>([] { return 42; }, milliseconds(1000));
  EXPECT_EQ(r.outcome, DeadlineOutcome::kDone);
  EXPECT_EQ(r.value, 42);
}

// What the call holds is dropped before its result is handed back: a host that ends right after
// (a Python script whose interpreter then finalizes) finds nothing of it still being released
// on the call's thread. The holder's destructor takes 30 ms; the caller sees it finished.
TEST(Deadline, TheCallsCopiesAreDroppedBeforeItsResultIsReturned) {
  struct SlowToDrop {
    std::shared_ptr<std::atomic<bool>> dropped;
    explicit SlowToDrop(std::shared_ptr<std::atomic<bool>> d) : dropped(std::move(d)) {}
    ~SlowToDrop() {
      std::this_thread::sleep_for(milliseconds(30));
      dropped->store(true);
    }
  };
  auto dropped = std::make_shared<std::atomic<bool>>(false);
  auto holder = std::make_shared<SlowToDrop>(dropped);
  auto r = call_with_deadline<int>([h = std::move(holder)] { return h ? 7 : 0; }, milliseconds(2000));
  EXPECT_EQ(r.outcome, DeadlineOutcome::kDone);
  EXPECT_EQ(r.value, 7);
  EXPECT_TRUE(dropped->load()) << "the call's captures were still alive when its result returned";
}

TEST(Deadline, ACallThatNeverReturnsIsAbandonedAtTheBudget) {
  auto gate = std::make_shared<DeadlineGate>();
  const auto t0 = Clock::now();
  auto r = call_with_deadline<int>([gate] { gate->wait(); return 1; }, milliseconds(100));
  const long long took = ms_since(t0);
  EXPECT_EQ(r.outcome, DeadlineOutcome::kTimeout);
  EXPECT_FALSE(r.value);
  EXPECT_GE(took, 100);
  EXPECT_LT(took, 150);
  EXPECT_EQ(internal::abandoned_calls(), 1);
  gate->release();  // the call ends on its own thread; its result is dropped
  drain();
  EXPECT_EQ(internal::abandoned_calls(), 0);
}

TEST(Deadline, HungCallsAreCappedAndTheNextOneIsNotStarted) {
  auto gate = std::make_shared<DeadlineGate>();
  for (int i = 0; i < internal::kMaxAbandoned; ++i)
    EXPECT_EQ(call_with_deadline<int>([gate] { gate->wait(); return 1; }, milliseconds(1)).outcome,
              DeadlineOutcome::kTimeout);
  bool started = false;
  auto r = call_with_deadline<int>([&started] { started = true; return 1; }, milliseconds(1000));
  EXPECT_EQ(r.outcome, DeadlineOutcome::kBusy);
  EXPECT_FALSE(started);
  EXPECT_EQ(internal::deadline_error(r.outcome, "0 ms", "1000 ms").rfind("busy:", 0), 0u);
  gate->release();
  drain();
  EXPECT_EQ(call_with_deadline<int>([] { return 2; }, milliseconds(1000)).value, 2);
}

TEST(Deadline, AnInterruptEndsTheWait) {
  static std::atomic<bool> interrupt{false};
  internal::set_interrupt_check([] { return interrupt.load(); });
  auto gate = std::make_shared<DeadlineGate>();
  std::thread ctrl_c([] {
    std::this_thread::sleep_for(milliseconds(50));
    interrupt = true;
  });
  const auto t0 = Clock::now();
  auto r = call_with_deadline<int>([gate] { gate->wait(); return 1; }, std::chrono::seconds(60));
  ctrl_c.join();
  EXPECT_EQ(r.outcome, DeadlineOutcome::kInterrupted);
  EXPECT_LT(ms_since(t0), 1000);
  internal::set_interrupt_check(nullptr);
  gate->release();
  drain();
}

// ---- through the Planner ---------------------------------------------------------------------

using qaplan::test::rules_only;

// A host intent model that never returns until the test ends.
class HungModel : public IntentModel {
 public:
  explicit HungModel(std::shared_ptr<DeadlineGate> g) : gate_(std::move(g)) {}
  std::string_view name() const override { return "hung"; }
  Result<IntentCandidate> classify(const IntentModelInput&) const override {
    gate_->wait();
    return IntentCandidate{};
  }

 private:
  std::shared_ptr<DeadlineGate> gate_;
};

TEST(Deadline, AHostModelThatNeverReturnsCostsTheBudgetAndTheRuleStands) {
  auto gate = std::make_shared<DeadlineGate>();
  PlannerOptions o;
  o.intent_model = std::make_shared<HungModel>(gate);
  Config c = rules_only();
  c.intent_gateway.model_budget_us = 100'000;
  {
    const Planner p = Planner::create(c, o).value();
    const auto t0 = Clock::now();
    auto r = p.prepare({"年假怎么申请", {}, "", std::nullopt});
    EXPECT_LT(ms_since(t0), 150);
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->intent->decision_policy, DecisionPolicy::kModelFailed);
    EXPECT_EQ(r->intent->model_error.rfind("timeout:", 0), 0u) << r->intent->model_error;
    EXPECT_EQ(r->intent->intent, Intent::kFaqQuery);
  }  // the Planner is gone; the abandoned call still holds the model
  gate->release();
  drain();
}

// A rewrite hook whose first call hangs until released and then answers with a variant meant
// for that first request; later calls answer at once.
class LateHook : public QueryRewriter {
 public:
  explicit LateHook(std::shared_ptr<DeadlineGate> g) : gate_(std::move(g)) {}
  std::string_view name() const override { return "late"; }
  Result<std::string> generate(const RewriteRequest&) const override {
    if (calls_.fetch_add(1) == 0) {
      gate_->wait();
      return std::string(R"(["出差北京住宿超过550元的部分迟到的变体"])");
    }
    return std::string(R"(["出差北京住宿超过550元的报销审批规定"])");
  }

 private:
  std::shared_ptr<DeadlineGate> gate_;
  mutable std::atomic<int> calls_{0};
};

TEST(Deadline, AnAbandonedHookCallNeverWritesIntoALaterRequest) {
  auto gate = std::make_shared<DeadlineGate>();
  Config c = rules_only();
  c.rewrite.hook = "late";
  c.rewrite.hook_kinds = {"multi_query"};
  c.rewrite.hook_budget_ms = 100;
  PlannerOptions o;
  o.rewriters["late"] = std::make_shared<LateHook>(gate);
  const Planner p = Planner::create(c, o).value();
  const std::string q = "出差北京住宿超过550元的部分，制度里是怎么规定报销和审批的";
  auto analyze = [&] {
    auto prep = p.prepare({q, {}, "", std::nullopt}).value();
    return p.analyze(prep, AnalysisContext{}).value();
  };
  const auto t0 = Clock::now();
  const QueryAnalysis first = analyze();
  EXPECT_LT(ms_since(t0), 150 + 100);  // prepare + one hook call under its 100 ms budget
  ASSERT_EQ(first.hook_calls.size(), 1u);
  EXPECT_FALSE(first.hook_calls[0].ok);
  EXPECT_EQ(first.hook_calls[0].error.rfind("timeout:", 0), 0u) << first.hook_calls[0].error;
  gate->release();  // the late answer arrives now, while the next request runs
  const QueryAnalysis second = analyze();
  ASSERT_EQ(second.hook_calls.size(), 1u);
  EXPECT_TRUE(second.hook_calls[0].ok) << second.hook_calls[0].error;
  for (const QueryVariant& v : second.variants)
    EXPECT_EQ(v.text.find("迟到"), std::string::npos) << v.text;
  drain();
}

}  // namespace
