#pragma once
/// Query analysis (docs/guide.md): what happens after the plan, deterministic around the host's
/// LLM. `Planner::analyze(preparation, context)` gives the rewrite of a follow-up (with history;
/// retrieval uses the rewrite only), the query variants (the original always first; glossary
/// expansion; model variants through host hooks, validated fail-closed), the filters (an anchored
/// [from, to) time range, department, tags, path prefix, signed documents), the routing
/// dimensions (index, bm25 vs hybrid, model tier), the execution path (semantic / graph /
/// research / out_of_scope) with its confidence, the fallback ladder, the prompt profile and a
/// cost ledger. Every part carries reason tags, like the plan.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "qaplan/export.hpp"
#include "qaplan/status.hpp"

namespace qaplan {

/// What analyze() needs beyond the Preparation. `now` and `timezone` are inputs — the library
/// never reads the clock, so a cached analysis replays the same range it was computed with.
struct AnalysisContext {
  /// ISO-8601 date-time with its UTC offset ("2026-11-30T10:00:00+08:00"); empty → relative
  /// time expressions become no filter and an `uncertain` flag.
  std::string now;
  /// The zone whose calendar day `now` falls on: an IANA name ICU knows ("Asia/Shanghai",
  /// "America/New_York", with its DST rules) or an offset ("+08:00", "UTC+8", "GMT-05:30").
  /// Empty → `now`'s own offset. analyze() refuses an unknown zone (kInvalidInput, field
  /// "timezone"; see check_timezone()). Recorded with each range in its canonical spelling.
  std::string timezone;
  std::optional<std::string> session_department;  ///< who "我们组 / 我们部门" is
  std::optional<std::string> session_user;        ///< who "我的 / 我" is
};

/// An absolute time range [from, to) in local calendar dates of the context's zone (or of
/// `now`'s offset when no zone was given).
struct TimeRange {
  std::string from;        ///< "YYYY-MM-DD", inclusive
  std::string to;          ///< "YYYY-MM-DD", exclusive
  std::string expression;  ///< the words it came from ("上个月")
  std::string anchor;      ///< the `now` it was anchored to
  std::string timezone;    ///< the canonical zone ("Asia/Shanghai", "+08:00"), else now's offset
  /// Which date of a document it constrains: "effective" (in force at some time in the range;
  /// the default, also with 生效/施行), "published" (发布/印发/公布 …), "signed" (签署/签订 …),
  /// "updated" (更新/修订/修改 …).
  std::string date = "effective";
  /// The metadata field of an event date ([filters] published_date_field, signed_date_field,
  /// updated_date_field); "" for "effective" (the engines' date_field / date_end_field).
  std::string field;
  friend bool operator==(const TimeRange&, const TimeRange&) = default;
};

/// Structured filters with why each was set.
struct Filters {
  std::optional<TimeRange> time;
  std::optional<std::string> department;
  std::vector<std::string> tags;
  std::optional<std::string> path_prefix;
  std::optional<bool> is_signed;
  std::optional<std::string> user;  ///< "我的…" with a session user
  /// A context-dependent entity (我们组, 我的, 上个月 without `now`) could not be resolved, so no
  /// filter was set for it; the answer should say it is unsure.
  bool uncertain = false;
  std::vector<std::string> reasons;
  /// Every period the question names, in text order, one range each (at most 4; more is no
  /// filter). A comparison (去年和今年, 今年比去年, 对比…, vs) gives two, never their merged
  /// span; the two ends of one range (2024年1月至3月) are one. `time` is set only when there is
  /// exactly one period (then this holds that range alone), so a host reading `time` never
  /// filters a comparison to one side. Engine requests filter a single period only; for several,
  /// a host may run one retrieval per range. Empty when no expression gave a filter.
  std::vector<TimeRange> time_ranges;
  /// Which of "department", "tags", "path_prefix" are preferences, not requirements: read from
  /// the question's words ([filters] word_filters = "prefer"), a guess at how the documents are
  /// filed. Retrieval ranks documents that match them higher (an extra leg that requires them)
  /// and keeps the others, so a wrong guess costs rank, never the answer.
  std::vector<std::string> preferred;
  /// Whether `name` ("department", "tags", "path_prefix") is a preference.
  bool prefers(std::string_view name) const noexcept {
    for (const std::string& p : preferred)
      if (p == name) return true;
    return false;
  }
  friend bool operator==(const Filters&, const Filters&) = default;
};

/// The follow-up rewrite (docs/rewrite.md): rewritten with history, retrieved without it.
struct Rewrite {
  std::string query;           ///< what retrieval uses (the question itself when not rewritten)
  bool rewritten = false;
  std::string by;              ///< "builtin", a hook's name, or "none"
  std::string topic_anchor;    ///< the entity the history is about
  std::string history_summary;  ///< "[上下文] … [当前] …" handed to a hook
  std::vector<std::string> reasons;
  std::string hook_error;      ///< why a hook's output was refused (the built-in rewrite stood)
};

/// One retrieval path.
struct QueryVariant {
  std::string text;
  /// "original", "rewrite", "glossary", "multi_query", "hyde", "step_back", "decomposition"
  std::string kind;
  bool hypothetical = false;  ///< HyDE text: used for retrieval only, never shown as evidence
  std::string origin;         ///< glossary domain or hook name
};

/// A variant a hook proposed and validation refused.
struct RejectedVariant {
  std::string text;
  std::string kind;    ///< what the hook was asked for
  std::string reason;  ///< "drops the number 5000", "adds the ID po-77", "duplicate", …
};

/// One call to a rewrite hook and what became of it.
struct HookCall {
  std::string hook;  ///< the registered QueryRewriter's name
  std::string kind;  ///< multi_query, hyde, step_back, decomposition
  bool ok = false;   ///< false: the call failed as a whole (error below); no variant from it
  std::string error;  ///< "timeout: 2300 ms > budget 2000 ms", "invalid JSON: …", "empty array", …
  std::int64_t elapsed_us = 0;
  int kept = 0;      ///< variants kept after validation
  int rejected = 0;  ///< variants refused (see QueryAnalysis::rejected)
};

/// Routing dimensions.
struct Routing {
  std::string index;       ///< which index ([[routing.indexes]] cues; [routing] default_index otherwise)
  std::string mode;        ///< "bm25" for IDs, error codes, SKUs, versions; else "hybrid"
  std::string model_tier;  ///< "small" | "large"
  std::vector<std::string> ids;  ///< the ID / code / version shapes found (what made it bm25)
  int parts = 1;                 ///< sub-questions counted
  std::vector<std::string> reasons;
};

/// Execution path.
struct ExecutionPath {
  /// "semantic" | "graph" | "research" | "out_of_scope"; "direct" for a social direct answer
  /// (a greeting is not out of scope, but nothing is retrieved either)
  std::string path;
  double confidence = 0.0;
  bool explicit_request = false;  ///< the user asked for it (帮我深度研究…)
  std::vector<std::string> reasons;
};

/// One rung of the fallback ladder, with concrete parameters. A rung that would
/// repeat the previous request (no filter to relax, no other query) is left out.
struct FallbackStep {
  int step = 0;  ///< 1-based position in the ladder as emitted
  std::string action;  ///< "relax_filters", "switch_tool", "rewrite_query", "search_files", "escalate"
  std::map<std::string, std::string> params;
};

/// When to escalate and the token budget.
struct BudgetPolicy {
  int normal_below_tokens = 8000;        ///< below: load evidence in full
  int stop_retrieval_at_tokens = 10000;  ///< between: summaries only; above: stop retrieving
  int max_tool_calls = 8;
  double escalate_below_rerank_score = 0.3;  ///< every hit below: escalate
  int max_research_rounds = 2;
  /// When to escalate to research: "fallback_exhausted",
  /// "all_rerank_below:0.30", "quality_check_failed".
  std::vector<std::string> escalate_when;
};

/// What build_answer_prompt_profile() returns.
struct PromptProfile {
  std::string id;  ///< default, pricing, compliance, troubleshooting, summary, follow_up, table
  std::string citation_style;
  std::string caution;
  std::string answer_format;
  int max_context_chars = 0;
  int max_context_doc_chars = 0;
  int final_context_top_n = 0;
  std::vector<std::string> reasons;
};

/// What the request costs. The built-in rewrite and the glossary cost no
/// generation call; each path retrieval runs (the query — a follow-up's rewrite, else the question
/// — and each variant but the original and the rewrite, as execution_inputs() hands them on)
/// costs one retrieval per collection the plan searches.
struct CostLedger {
  int model_calls = 0;      ///< generation calls (hook calls made, failed ones included)
  int retrieval_calls = 0;  ///< variant paths × collections searched (FAQ, documents)
  int variant_paths = 0;
  int hook_failures = 0;
  int variants_rejected = 0;
};

/// Everything analyze() decided.
struct QueryAnalysis {
  Rewrite rewrite;
  /// The retrieval paths: the original question first, always (the most faithful
  /// carrier of the intent is never dropped), then a follow-up's rewrite, then — when the plan
  /// says use_query_variants — the glossary expansion and the hook's variants. Empty for a
  /// direct answer.
  std::vector<QueryVariant> variants;
  std::vector<std::string> variant_reasons;  ///< "variants:off …", "glossary:hr 带薪年假→年假", …
  std::vector<RejectedVariant> rejected;
  std::vector<HookCall> hook_calls;
  Filters filters;
  Routing routing;
  ExecutionPath execution;
  std::vector<FallbackStep> fallback;
  BudgetPolicy budget;
  PromptProfile prompt;
  CostLedger cost;
};

/// Whether analyze() accepts `name` as AnalysisContext::timezone: an IANA name ICU knows or an
/// offset. Returns the canonical spelling ("asia/shanghai" → "Asia/Shanghai", "UTC+8" →
/// "+08:00"), or kInvalidInput naming the field "timezone" and the zone. Thread-safe.
QAPLAN_API Result<std::string> check_timezone(std::string_view name);

class RetrievalPlan;
struct IntentResult;
struct Config;

/// The answer prompt's profile: the first [[prompt_profiles]] entry whose `when`
/// holds for the plan and intent (file order), with the context limits of the plan.
QAPLAN_API PromptProfile build_answer_prompt_profile(const RetrievalPlan& plan,
                                                     const IntentResult& intent,
                                                     const Config& config);

}  // namespace qaplan
