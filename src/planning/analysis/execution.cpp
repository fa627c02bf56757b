// Execution path, fallback ladder and budget (docs/guide.md). Rules over cue words stand
// in for the seed's small classifier: an explicit request (帮我深度研究…) is taken as it is; a
// relation cue (旗下, 子公司, 汇报关系) points at graph, a cross-document cue (之间的区别, 哪些文件)
// at research; both at once is unsure; below [execution] min_confidence the path is semantic
// (seed: 保守降级).
#include <algorithm>

#include "planning/analysis/analyzer.hpp"

namespace qaplan::internal {
namespace {

std::string fmt2(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

std::string joined(const std::vector<std::string>& parts, char sep) {
  std::string out;
  for (const std::string& x : parts) {
    if (!out.empty()) out += sep;
    out += x;
  }
  return out;
}

}  // namespace

ExecutionPath decide_execution_path(const Preparation& prep, std::string_view query,
                                    const std::vector<CueHit>& hits, const AnalysisLists& lists,
                                    const ExecutionConfig& c) {
  ExecutionPath e;
  if (prep.route.route == Route::kDirectAnswer) {
    const bool oos = prep.route.reason == RouteReason::kOutOfScope ||
                     prep.route.reason == RouteReason::kSourceBoundary;
    e.path = oos ? "out_of_scope" : "direct";
    e.confidence = prep.route.decided_by == DecidedBy::kModel ? prep.route.score : 1.0;
    e.reasons.push_back("route:" + std::string(to_string(prep.route.reason)));
    return e;
  }
  if (const CueHit* h = first_of(hits, lists.research_explicit)) {
    e.path = "research";
    e.confidence = c.explicit_confidence;
    e.explicit_request = true;
    e.reasons.push_back("explicit:" + std::string(text_of(query, *h)));
    return e;
  }
  const CueHit* graph = first_of(hits, lists.graph);
  const CueHit* research = first_of(hits, lists.research);
  std::string candidate = "semantic";
  double confidence = c.semantic_confidence;
  if (graph && research) {
    candidate = count_of(hits, lists.graph) >= count_of(hits, lists.research) ? "graph" : "research";
    confidence = c.mixed_cue_confidence;
    e.reasons.push_back("cues:graph " + std::string(text_of(query, *graph)) + " and research " +
                        std::string(text_of(query, *research)));
  } else if (graph) {
    candidate = "graph";
    confidence = c.cue_confidence;
    e.reasons.push_back("cue:graph " + std::string(text_of(query, *graph)));
  } else if (research) {
    candidate = "research";
    confidence = c.cue_confidence;
    e.reasons.push_back("cue:research " + std::string(text_of(query, *research)));
  } else {
    e.reasons.push_back("no_cue");
  }
  e.confidence = confidence;
  if (confidence < c.min_confidence && candidate != "semantic") {
    e.path = "semantic";
    e.reasons.push_back("below_min_confidence:" + candidate + " " + fmt2(confidence) + " < " +
                        fmt2(c.min_confidence));
  } else {
    e.path = candidate;
  }
  return e;
}

BudgetPolicy budget_policy(const ExecutionConfig& c) {
  BudgetPolicy b;
  b.normal_below_tokens = c.budget_normal_tokens;
  b.stop_retrieval_at_tokens = c.budget_stop_retrieval_tokens;
  b.max_tool_calls = c.max_tool_calls;
  b.escalate_below_rerank_score = c.escalate_below_rerank_score;
  b.max_research_rounds = c.max_research_rounds;
  b.escalate_when = {"fallback_exhausted", "all_rerank_below:" + fmt2(c.escalate_below_rerank_score),
                     "quality_check_failed"};
  return b;
}

std::vector<FallbackStep> fallback_ladder(const QueryAnalysis& a, const Preparation& prep,
                                          const std::vector<std::string>& core_terms,
                                          const ExecutionConfig& c) {
  std::vector<FallbackStep> out;
  if (prep.route.route == Route::kDirectAnswer) return out;
  out.reserve(c.fallback.size());
  const Filters& f = a.filters;
  const std::string& query = a.rewrite.query;
  const std::string core = joined(core_terms, ' ');
  const std::string_view tool = a.execution.path == "graph" ? "graph_search"
                                : a.routing.mode == "bm25"  ? "keyword_search"
                                                            : "hybrid_search";
  for (const std::string& action : c.fallback) {
    FallbackStep s;
    s.action = action;
    // Every analysis builds the ladder: each parameter is made in its map node (a braced list
    // copied every key and value once more), the keys in sorted order so each goes at the end.
    auto set = [&p = s.params](std::string_view key, std::string_view value) {
      p.emplace_hint(p.end(), key, value);
    };
    if (action == "relax_filters") {
      // Ladder step 1: drop the date limit and the non-essential filters. Nothing to relax
      // → the step would repeat the first request: left out.
      std::vector<std::string> drop;
      if (f.time || !f.time_ranges.empty()) drop.push_back("date_range");  // or a comparison's
      if (f.department) drop.push_back("department");
      if (!f.tags.empty()) drop.push_back("tags");
      if (f.path_prefix) drop.push_back("path_prefix");
      if (f.is_signed) drop.push_back("is_signed");
      if (f.user) drop.push_back("user");
      if (drop.empty()) continue;
      set("drop", joined(drop, ','));
      set("tool", tool);
    } else if (action == "switch_tool") {
      // hybrid → keyword (exact match); keyword → hybrid with filters relaxed; graph → hybrid.
      set("from", tool);
      set("query", query);
      set("to", tool == "hybrid_search" ? "keyword_search" : "hybrid_search");
    } else if (action == "rewrite_query") {
      // Synonyms / the broader question when a hook can write them; else only the core
      // entities. Left out when neither would change the query.
      if (!a.hook_calls.empty()) {
        set("query", query);
        set("using", "hook:step_back");
      } else if (!core.empty() && core != query) {
        set("query", core);
        set("using", "core_terms");
      } else {
        continue;
      }
    } else if (action == "search_files") {
      // Within the same sources: a scenario's boundary holds on every rung.
      const std::string scope = joined(prep.effective_sources, ',');
      set("query", core.empty() ? query : core);
      set("sources", scope.empty() ? "all" : scope);
      set("top_k", "5");
    } else if (action == "escalate") {
      if (a.execution.path == "research") {
        set("say", "what was searched and what is missing");
        set("to", "user");
      } else {
        set("max_rounds", std::to_string(c.max_research_rounds));
        set("then", "user");
        set("to", "research");
      }
    }
    // Never the same request twice in a row.
    if (!out.empty() && out.back().action == s.action && out.back().params == s.params) continue;
    s.step = static_cast<int>(out.size()) + 1;
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace qaplan::internal
