#pragma once
/// Extension points a host implements: its own intent model (an LLM, a remote classifier) in
/// place of the built-in one. The gateway treats the host's candidate exactly like the built-in
/// model's (rule_model_agree, model_override, conflict) and records a failure as
/// `model_failed` while the rule candidate stands — a slow or broken model never blocks a plan.
#include <chrono>
#include <string>
#include <string_view>
#include <vector>

#include "qaplan/export.hpp"
#include "qaplan/planning/types.hpp"
#include "qaplan/status.hpp"

namespace qaplan {

/// What an intent model sees.
struct IntentModelInput {
  std::string_view question;               ///< as the user typed it
  std::string_view normalized;             ///< NFKC casefold, whitespace rules, Simplified
  const std::vector<std::string>& history;  ///< earlier turns, oldest first
  std::chrono::microseconds budget;        ///< [intent_gateway] model_budget_us
};

/// A host's intent model. `classify()` may be called from many threads at once (Planner is
/// shared); it returns the model's candidate (intent, score in [0, 1]; `rule_id` may name the
/// model) or an error. An exception, an error, a score outside [0, 1] or a call that takes longer
/// than `budget` all count as model_failed.
class QAPLAN_API IntentModel {
 public:
  virtual ~IntentModel();
  virtual std::string_view name() const = 0;
  virtual Result<IntentCandidate> classify(const IntentModelInput& input) const = 0;
};

}  // namespace qaplan

namespace qaplan {

/// What a rewrite hook is asked for. The hook gets the prompt already filled in.
struct RewriteRequest {
  std::string_view kind;  ///< "multi_query", "hyde", "step_back", "decomposition" or "condense"
  /// the query to vary (a follow-up's rewrite); for "condense" the follow-up turn itself, whose
  /// standalone form (the reply's first string) replaces the built-in rewrite
  std::string_view question;
  std::string_view history_summary;  ///< "[上下文] … 实体：… [当前] …" ("" without history)
  std::string_view prompt;           ///< [rewrite] template with {q} and {history} filled in
  std::chrono::milliseconds budget;  ///< [rewrite] hook_budget_ms: a later answer is discarded
};

/// A host's query rewriter: typically its LLM behind the configured rewrite prompt. `generate()`
/// returns the model's raw text, which qaplan validates fail-closed: it must be a JSON array of
/// strings, and a variant that drops an entity, number, ID or date of the question (or adds a
/// number or ID it does not have) is refused with a reason. An error, an exception, invalid JSON,
/// an empty array or a reply later than the budget leaves the built-in rewrite standing and is
/// reported — a broken model never breaks a request. May be called from many threads at once.
class QAPLAN_API QueryRewriter {
 public:
  virtual ~QueryRewriter();
  virtual std::string_view name() const = 0;
  virtual Result<std::string> generate(const RewriteRequest& request) const = 0;
};

/// Deadlines: an IntentModel or QueryRewriter call runs on a thread of its own and the request
/// waits at most its budget; a call still running then is abandoned (it finishes on its thread
/// and its result is dropped) and the plan records `timeout`. The call owns copies of what it
/// reads, and the Planner's shared_ptr keeps the hook alive until it returns; at most 16
/// abandoned calls run at once, past that a call is not started ("busy"). A host that handles
/// interrupts installs a check the waiting request polls every 10 ms: true abandons the call as
/// "interrupted" (the Python module uses it for Ctrl-C). Null removes it. Thread-safe.
QAPLAN_API void set_hook_interrupt_check(bool (*check)()) noexcept;

}  // namespace qaplan
