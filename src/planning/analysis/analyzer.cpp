#include "planning/analysis/analyzer.hpp"


#include <algorithm>
#include <chrono>

#include "common/dates.hpp"
#include "common/deadline.hpp"
#include "common/utf8.hpp"
#include "planning/analysis/constraints.hpp"
#include "planning/analysis/filters.hpp"
#include "planning/analysis/rewrite.hpp"
#include "planning/analysis/rewrite_check.hpp"
#include "planning/segment.hpp"
#include "planning/text.hpp"

namespace qaplan::internal {

struct Analyzer::Impl {
  AnalysisLists lists;
  BudgetPolicy budget;  // a function of the config alone: made once, copied into each analysis
  std::shared_ptr<const QueryRewriter> hook;  // [rewrite] hook, null = built-in only
  bool domain_word_break = false;             // [rewrite] domain_word_break
  std::shared_ptr<const FiltersIndex> filters;  // [filters] compiled: the config never changes
};

Result<Analyzer> Analyzer::create(const Config& c,
                                  std::map<std::string, std::shared_ptr<const QueryRewriter>> rewriters) {
  auto impl = std::make_shared<Impl>();
  AnalysisLists& l = impl->lists;
  for (const RoutingIndex& ix : c.routing.indexes) l.index.push_back(l.cues.add(ix.cues));
  l.part = l.cues.add(c.routing.part_markers);
  l.research_explicit = l.cues.add(c.execution.research_explicit);
  l.research = l.cues.add(c.execution.research_cues);
  l.graph = l.cues.add(c.execution.graph_cues);
  l.cues.build();
  impl->budget = budget_policy(c.execution);
  impl->domain_word_break = c.rewrite.domain_word_break;
  impl->filters = filters_index(c.filters);
  l.function_words = WordSet(c.rewrite.function_words);
  l.rewrite_words = rewrite_words(c.rewrite);
  for (const auto& [source, terms] : c.glossary.terms) {
    CueLists g;
    for (const GlossaryTerm& t : terms) {
      g.add(t.aliases);
      l.glossary_words.add(t.standard, 0);
      for (const std::string& a : t.aliases) {
        l.glossary_words.add(a, 0);
        l.glossary_aliases.add(a, 0);
      }
    }
    g.build();
    l.glossary.emplace(source, std::move(g));
  }
  l.glossary_words.build();
  l.glossary_aliases.build();
  if (!c.rewrite.hook.empty()) {
    const auto it = rewriters.find(c.rewrite.hook);
    if (it == rewriters.end() || !it->second) {
      std::string names;
      for (const auto& [name, r] : rewriters) names += (names.empty() ? "" : ", ") + name;
      return make_file_error(ErrorCode::kInvalidConfig,
                             "no rewriter named '" + c.rewrite.hook + "' is registered (" +
                                 (names.empty() ? std::string("none are") : "registered: " + names) +
                                 "; PlannerOptions::rewriters)",
                             c.origin, 0, "[rewrite] hook");
    }
    impl->hook = it->second;
  }
  return Analyzer(std::move(impl));
}

std::string expand_glossary(std::string_view query, const std::string& source,
                            const AnalysisLists& lists, const GlossaryConfig& glossary,
                            std::vector<std::string>& reasons) {
  const auto g = lists.glossary.find(source);
  const auto terms = glossary.terms.find(source);
  if (g == lists.glossary.end() || terms == glossary.terms.end()) {
    reasons.push_back("glossary:" + source + " none");
    return "";
  }
  std::string out;
  std::size_t at = 0;
  for (const CueHit& h : g->second.scan(query)) {
    const GlossaryTerm& t = terms->second[h.list];
    // The standard term is there already (社保 inside 社保公积金): nothing to add.
    if (query.find(t.standard) != std::string_view::npos) continue;
    out.append(query.substr(at, h.begin - at));
    out += t.standard;
    at = h.end;
    reasons.push_back("glossary:" + source + " " + std::string(text_of(query, h)) + "→" + t.standard);
  }
  if (at == 0) {
    reasons.push_back("glossary:" + source + " no alias");
    return "";
  }
  out.append(query.substr(at));
  return out;
}

namespace {

using Clock = std::chrono::steady_clock;

std::string fill_prompt(std::string_view tmpl, std::string_view q, std::string_view history) {
  std::string out;
  for (std::size_t i = 0; i < tmpl.size();) {
    if (tmpl.substr(i, 3) == "{q}") {
      out += q;
      i += 3;
    } else if (tmpl.substr(i, 9) == "{history}") {
      out += history;
      i += 9;
    } else {
      out += tmpl[i++];
    }
  }
  return out;
}

const std::string& prompt_for(std::string_view kind, const RewriteConfig& w) {
  if (kind == "hyde") return w.hyde_prompt;
  if (kind == "step_back") return w.step_back_prompt;
  if (kind == "decomposition") return w.decomposition_prompt;
  if (kind == "condense") return w.condense_prompt;
  return w.prompt;
}

bool seen(const std::vector<QueryVariant>& vs, std::string_view text) {
  return std::any_of(vs.begin(), vs.end(), [&](const QueryVariant& v) { return v.text == text; });
}

// Without one source the question may be in any of its candidates (every source when none are
// named): each candidate's glossary that knows an alias of the query adds its variant — one more
// search each, where a scope too narrow would have lost the answer.
void glossary_of_candidates(std::string_view query, const std::vector<std::string>& candidates,
                            const AnalysisLists& lists, const GlossaryConfig& glossary,
                            QueryAnalysis& a) {
  // Most questions hold no alias of any glossary: one scan, not one per source.
  bool alias = false;
  lists.glossary_aliases.scan(query, [&](std::uint32_t, std::uint32_t, std::uint32_t) { alias = true; });
  if (!alias) {
    a.variant_reasons.push_back("glossary:none (no alias in the candidate sources)");
    return;
  }
  bool any = false;
  auto expand = [&](const std::string& source) {
    std::vector<std::string> why;
    std::string g = expand_glossary(query, source, lists, glossary, why);
    if (g.empty() || seen(a.variants, g)) return;
    any = true;
    a.variant_reasons.insert(a.variant_reasons.end(), why.begin(), why.end());
    a.variants.push_back(QueryVariant{std::move(g), "glossary", false, source});
  };
  if (candidates.empty())
    for (const auto& [source, terms] : glossary.terms) expand(source);
  for (const std::string& source : candidates) expand(source);
  if (!any) a.variant_reasons.push_back("glossary:none (no alias in the candidate sources)");
}

// One hook call: its raw text, validated fail-closed. Returns the call record; kept variants go
// to `a.variants`, refused ones to `a.rejected`.
// What a variant is checked against: the question's constraints, and for a rewrite-like variant
// (not a HyDE passage, not a decomposition piece) the garble check (rewrite_check.hpp); a
// follow-up's variants must share its topic anchor.
struct VariantCheck {
  const Constraints& constraints;
  const GarbleCheck& garble;
  bool follow_up = false;
};

// Calls the hook once under its budget; the raw reply items, or an error recorded in `call`.
std::optional<std::vector<std::string>> invoke_hook(const std::shared_ptr<const QueryRewriter>& hook,
                                                   std::string_view kind, const std::string& query,
                                                   const Config& c, const QueryAnalysis& a,
                                                   HookCall& call) {
  call.hook = std::string(hook->name());
  call.kind = std::string(kind);
  const auto budget = std::chrono::milliseconds(c.rewrite.hook_budget_ms);
  // The call owns its inputs: past the deadline it is abandoned and may outlive this request
  // (common/deadline.hpp).
  struct Copies {
    std::string kind, query, summary, prompt;
  };
  auto in = std::make_shared<Copies>(Copies{std::string(kind), query, a.rewrite.history_summary,
                                            fill_prompt(prompt_for(kind, c.rewrite), query,
                                                        a.rewrite.history_summary)});
  auto generate = [hook, in, budget]() -> Result<std::string> {
    try {
      return hook->generate(RewriteRequest{in->kind, in->query, in->summary, in->prompt, budget});
    } catch (const std::exception& e) {
      return make_error(ErrorCode::kInternal, std::string("exception: ") + e.what());
    } catch (...) {
      return make_error(ErrorCode::kInternal, "exception");
    }
  };
  const auto t0 = Clock::now();
  auto done = call_with_deadline<Result<std::string>>(generate, budget);
  const auto took = std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - t0);
  call.elapsed_us = took.count();
  if (done.outcome != DeadlineOutcome::kDone) {
    call.error = deadline_error(done.outcome, std::to_string(took.count() / 1000) + " ms",
                                std::to_string(c.rewrite.hook_budget_ms) + " ms");
    return std::nullopt;
  }
  Result<std::string>& raw = *done.value;
  if (!raw.ok()) {
    call.error = raw.error().code == ErrorCode::kInternal && raw.error().message.starts_with("exception")
                     ? raw.error().message
                     : "error: " + raw.error().message;
    return std::nullopt;
  }
  if (took > budget) {
    call.error = "timeout: " + std::to_string(took.count() / 1000) + " ms > budget " +
                 std::to_string(c.rewrite.hook_budget_ms) + " ms";
    return std::nullopt;
  }
  auto items = parse_hook_output(*raw);
  if (!items.ok()) {
    call.error = items.error().message;
    return std::nullopt;
  }
  return std::move(items).value();
}

HookCall call_hook(const std::shared_ptr<const QueryRewriter>& hook, std::string_view kind, const std::string& query,
                   const VariantCheck& check, const Config& c, int& budget_left, QueryAnalysis& a) {
  const Constraints& constraints = check.constraints;
  HookCall call;
  auto items = invoke_hook(hook, kind, query, c, a, call);
  if (!items) return call;
  call.ok = true;
  auto reject = [&](std::string text, std::string why) {
    a.rejected.push_back({std::move(text), std::string(kind), std::move(why)});
    ++call.rejected;
  };
  // Each item in the normalized form retrieval sees; one that cannot be normalized is refused.
  std::vector<std::string> texts;
  for (std::string& s : *items) {
    auto n = normalize_question(s, c.input, "variant");
    if (!n.ok()) reject(std::move(s), n.error().message);
    else texts.push_back(std::move(n->text));
  }
  if (kind == "decomposition" && !texts.empty()) {
    if (std::string why = check_decomposition(constraints, texts); !why.empty()) {
      for (std::string& t : texts) reject(std::move(t), "decomposition " + why);
      return call;
    }
  }
  for (std::string& t : texts) {
    const bool hyde = kind == "hyde";
    std::string why = kind == "decomposition" ? "" : check_variant(constraints, t, hyde);
    if (why.empty() && !hyde && kind != "decomposition")
      why = check.garble.reason(t, {check.follow_up, check.follow_up});
    if (why.empty() && seen(a.variants, t)) why = "duplicate";
    if (why.empty() && budget_left <= 0) why = "over max_variants";
    if (!why.empty()) {
      reject(std::move(t), std::move(why));
      continue;
    }
    --budget_left;
    ++call.kept;
    a.variants.push_back(QueryVariant{std::move(t), std::string(kind), hyde, call.hook});
  }
  return call;
}

// What a follow-up's rewrite and its variants are checked against: the turn without the social
// words around it, the window the rewrite read, its anchor.
RewriteSources sources_of(const ScannedQuery& turn, const Preparation& prep, const QueryAnalysis& a,
                          const Config& c) {
  RewriteSources s{turn.content(), {}, a.rewrite.topic_anchor, c.rewrite.max_growth};
  const bool follow_up = prep.intent && prep.intent->intent == Intent::kFollowUp;
  for (std::size_t i = prep.history.size(), n = 0;
       follow_up && i-- > 0 && n < static_cast<std::size_t>(c.rewrite.window_turns); ++n)
    s.history.push_back(prep.history[i]);
  return s;
}

// The host replaces a follow-up's rewrite (hook kind "condense": LangChain's and LlamaIndex's
// condense-question step, e.g. its LLM): the reply's first string stands in for the built-in
// rewrite when it keeps the turn's numbers, IDs and entities and passes the garble check;
// otherwise the built-in rewrite stands and the call and `rewrite.reasons` say why.
HookCall condense(const std::shared_ptr<const QueryRewriter>& hook, const std::string& turn, const GarbleCheck& garble,
                  const WordSet& function_words, const Config& c, QueryAnalysis& a) {
  HookCall call;
  auto items = invoke_hook(hook, "condense", turn, c, a, call);
  if (!items) {
    a.rewrite.reasons.push_back("hook:condense:failed");
    return call;
  }
  call.ok = true;
  auto n = normalize_question(items->front(), c.input, "condense");
  std::string why = n.ok() ? "" : n.error().message;
  if (why.empty())
    why = check_variant(extract_constraints(turn, function_words), n->text, /*allow_additions=*/true);
  if (why.empty()) why = garble.reason(n->text);
  if (!why.empty()) {
    a.rejected.push_back({n.ok() ? n->text : items->front(), "condense", why});
    ++call.rejected;
    a.rewrite.reasons.push_back("hook:condense:rejected:" + why);
    return call;
  }
  ++call.kept;
  a.rewrite.query = std::move(n->text);
  a.rewrite.rewritten = a.rewrite.query != turn;
  a.rewrite.by = call.hook;
  a.rewrite.reasons.push_back("hook:condense");
  return call;
}

// The paths retrieval runs (execution_inputs): the query — the rewrite, else the question — and
// every other variant; a follow-up's fragment as typed is no path of its own.
CostLedger cost_of(const QueryAnalysis& a, const PlanKnobs& k) {
  CostLedger cost;
  cost.variant_paths = a.variants.empty() ? 0 : 1;
  for (const QueryVariant& v : a.variants)
    cost.variant_paths += v.kind != "original" && v.kind != "rewrite";
  cost.retrieval_calls = cost.variant_paths * (int{k.run_faq} + int{k.run_doc});
  cost.model_calls = static_cast<int>(a.hook_calls.size());
  cost.hook_failures = static_cast<int>(
      std::count_if(a.hook_calls.begin(), a.hook_calls.end(), [](const HookCall& h) { return !h.ok; }));
  cost.variants_rejected = static_cast<int>(a.rejected.size());
  return cost;
}

// Words to search for when the whole question found nothing: IDs, names, and the lexicon's
// subject words (sources, categories) in the query.
std::vector<std::string> core_terms(std::string_view query, const Constraints& cons,
                                    const Lexicon& lex) {
  std::vector<std::string> out;
  auto add = [&](std::string s) {
    if (!s.empty() && std::find(out.begin(), out.end(), s) == out.end()) out.push_back(std::move(s));
  };
  for (const auto& s : cons.ids) add(s);
  for (const auto& s : cons.entities) add(s);
  // Only which cues the query holds: the scan's social edges and counts are not read here.
  thread_local std::vector<CueHit> hits;
  lex.cue_hits(query, hits);
  const LexiconIds& ids = lex.ids();
  for (const CueHit& h : hits) {
    const bool subject =
        std::find(ids.source.begin(), ids.source.end(), h.list) != ids.source.end() ||
        std::find(ids.category.begin(), ids.category.end(), h.list) != ids.category.end();
    if (subject) add(std::string(text_of(query, h)));
  }
  return out;
}

}  // namespace

void Analyzer::prepare_terms(const DomainLexicon* terms) const {
  if (impl_->domain_word_break) build_term_trie(WordTerms{terms, &impl_->lists.glossary_words});
}

Result<QueryAnalysis> Analyzer::analyze(const Preparation& prep, const AnalysisContext& context,
                                        const Lexicon& lex, const DomainLexicon* terms) const {
  const Config& c = lex.config();
  const AnalysisLists& lists = impl_->lists;
  const ScopedTerms vocabulary(
      WordTerms{terms, c.rewrite.domain_word_break ? &lists.glossary_words : nullptr});
  if (!context.now.empty() && !dates::parse_time_point(context.now)) {
    // Echo the value only when it is one short printable line (the analyze fuzzer: a
    // `now` holding NUL bytes and a cut UTF-8 sequence reached the error line).
    const std::string& v = context.now;
    const bool echo = v.size() <= 100 && internal::is_valid_utf8(v) &&
                      std::none_of(v.begin(), v.end(), [](char ch) {
                        return static_cast<unsigned char>(ch) < 0x20 || ch == 0x7F;
                      });
    return make_error(ErrorCode::kInvalidInput,
                      "not an ISO-8601 date-time with offset" +
                          (echo ? ": \"" + v + "\""
                                : " (" + std::to_string(v.size()) + " bytes, not shown)"),
                      "now");
  }
  // An unknown zone would silently anchor at now's offset: refuse it like a malformed `now`.
  if (!context.timezone.empty())
    if (auto tz = check_timezone(context.timezone); !tz.ok()) return tz.error();
  QueryAnalysis a;
  a.budget = impl_->budget;
  const std::string& original = prep.normalized.text;

  if (prep.route.route == Route::kDirectAnswer || !prep.plan || !prep.intent) {
    // A direct answer retrieves nothing: no variants, no filters, no ladder.
    a.rewrite.query = original;
    a.rewrite.by = "none";
    a.rewrite.reasons.push_back("direct_answer");
    a.execution = decide_execution_path(prep, original, {}, lists, c.execution);
    a.variant_reasons.push_back("variants:none (direct answer)");
    a.prompt.id = "";
    a.prompt.reasons.push_back("profile:none (direct answer)");
    return a;
  }
  const RetrievalPlan& plan = *prep.plan;
  const IntentResult& intent = *prep.intent;

  // 1. Rewrite: a follow-up with its history; retrieval then uses the rewrite, not the history.
  if (intent.intent == Intent::kFollowUp) {
    a.rewrite = rewrite_follow_up(original, prep.history, lex, impl_->lists.rewrite_words);
  } else {
    a.rewrite.query = original;
    a.rewrite.by = "none";
    a.rewrite.reasons.push_back(prep.history.empty() ? "not_follow_up" : "not_follow_up:standalone");
  }
  std::optional<ScannedQuery> turn;  // for the hook's checks only
  std::optional<RewriteSources> sources;
  std::optional<GarbleCheck> garble;
  if (impl_->hook) {
    turn = lex.scan(NormalizedQuery{original, 0});
    sources = sources_of(*turn, prep, a, c);
    garble.emplace(*sources, impl_->lists.rewrite_words);
  }
  const auto& kinds = c.rewrite.hook_kinds;
  if (impl_->hook && intent.intent == Intent::kFollowUp &&
      std::find(kinds.begin(), kinds.end(), "condense") != kinds.end())
    a.hook_calls.push_back(condense(impl_->hook, original, *garble, impl_->lists.function_words, c, a));
  const std::string& query = a.rewrite.query;

  // 2. Paths: the original always, then the rewrite.
  a.variants.push_back(QueryVariant{original, "original", false, ""});
  if (a.rewrite.rewritten && query != original)
    a.variants.push_back(QueryVariant{query, "rewrite", false, a.rewrite.by});

  const std::vector<CueHit> hits = lists.cues.scan(query);
  a.filters = extract_filters(query, c.filters, context, *impl_->filters);
  a.routing = decide_routing(query, hits, lists, plan.question_category(),
                             count_query_units(query), c.routing);
  const Constraints cons = extract_constraints(query, impl_->lists.function_words, a.routing.ids);

  // 3. Variants, when the plan asks for them: the glossary first (no generation cost), then the
  // hook's.
  if (!plan.knobs().use_query_variants) {
    a.variant_reasons.push_back("variants:off (plan use_query_variants = false)");
  } else {
    if (prep.effective_source) {
      std::string g = expand_glossary(query, *prep.effective_source, lists, c.glossary,
                                      a.variant_reasons);
      if (!g.empty() && !seen(a.variants, g))
        a.variants.push_back(QueryVariant{std::move(g), "glossary", false, *prep.effective_source});
    } else {
      glossary_of_candidates(query, prep.effective_sources, lists, c.glossary, a);
    }
    if (impl_->hook) {
      int budget_left = c.rewrite.max_variants;
      const bool follow_up = intent.intent == Intent::kFollowUp;
      const VariantCheck check{cons, *garble, follow_up};
      for (const std::string& kind : c.rewrite.hook_kinds) {
        if (kind == "condense") continue;  // done above
        // HyDE dilutes an exact token (a model number or an error code).
        if (kind == "hyde" && a.routing.mode == "bm25") {
          a.variant_reasons.push_back("hyde:skipped (the query carries an ID)");
          continue;
        }
        a.hook_calls.push_back(call_hook(impl_->hook, kind, query, check, c, budget_left, a));
      }
      for (const HookCall& h : a.hook_calls)
        if (!h.ok && a.rewrite.hook_error.empty()) a.rewrite.hook_error = h.kind + ": " + h.error;
    } else {
      a.variant_reasons.push_back("hook:none ([rewrite] hook is empty)");
    }
  }

  // 4. Execution path, ladder, prompt profile, cost.
  a.execution = decide_execution_path(prep, query, hits, lists, c.execution);
  a.fallback = fallback_ladder(a, prep, core_terms(query, cons, lex), c.execution);
  a.prompt = build_answer_prompt_profile(plan, intent, c);
  a.cost = cost_of(a, plan.knobs());
  return a;
}

}  // namespace qaplan::internal
