// qaplan ask (include/qaplan/retrieval/ask.hpp): one question to passages over a saved index.
#include "qaplan/retrieval/ask.hpp"

#include <algorithm>
#include <chrono>
#include <nlohmann/json.hpp>
#include <set>
#include <unordered_map>

#include "qaplan/retrieval/executor.hpp"
#include "qaplan/planning/json.hpp"
#include "qaplan/ranking/tokenizer.hpp"
#include "retrieval/fusion.hpp"
#include "retrieval/vector_leg.hpp"

namespace qaplan {
namespace {

using nlohmann::json;

// Each list looks this far past doc_top_k for documents in scope before it stops.
constexpr std::size_t kPoolFactor = 20;

struct Scope {
  std::vector<std::string> sources;
  ExecutionFilters filters;
};

// Each candidate's corpus line parsed once per question, however many lists it is in.
class ParsedDocs {
 public:
  explicit ParsedDocs(const DocStore& store) : store_(store) {}
  const json& operator[](std::size_t doc) {
    auto [it, fresh] = docs_.try_emplace(doc);
    if (fresh) it->second = json::parse(store_.line(doc), nullptr, false);
    return it->second;
  }

 private:
  const DocStore& store_;
  std::unordered_map<std::size_t, json> docs_;
};

// A filter on one field holds unless the document's field says otherwise: a field that is
// absent or of another type is recorded in `unknown` and the document kept (recoverable).
template <class Holds>
bool field_allows(const json& doc, const char* key, json::value_t type, Holds holds,
                  std::set<std::string>& unknown) {
  const auto it = doc.find(key);
  if (it == doc.end() || it->type() != type) return unknown.insert(key), true;
  return holds(*it);
}

bool dates_allow(const json& doc, const ExecutionFilters& f, std::set<std::string>& unknown) {
  auto date = [&](const char* key) -> std::optional<std::string> {
    const auto it = doc.find(key);
    return it != doc.end() && it->is_string() ? std::optional(it->get<std::string>())
                                              : std::nullopt;
  };
  DocChunk c;
  c.effective_from = date("effective_from");
  c.effective_to = date("effective_to");
  if (!doc.contains("effective_from") && !doc.contains("effective_to"))
    unknown.insert("effective_from");
  return effective_in(c, f.date_from, f.date_to);
}

bool in_scope(const json& doc, const Scope& s, std::set<std::string>& unknown) {
  using T = json::value_t;
  const ExecutionFilters& f = s.filters;
  auto str = [](const json& v) -> const std::string& { return v.get_ref<const std::string&>(); };
  auto listed = [](const auto& list, const auto& v) {
    return std::find(list.begin(), list.end(), v) != list.end();
  };
  auto source_listed = [&](const json& v) { return listed(s.sources, str(v)); };
  auto same_department = [&](const json& v) { return str(v) == *f.department; };
  auto under_path = [&](const json& v) { return str(v).starts_with(*f.path_prefix); };
  auto same_signed = [&](const json& v) { return v.get<bool>() == *f.is_signed; };
  auto every_tag = [&](const json& v) {
    return std::all_of(f.tags.begin(), f.tags.end(),
                       [&](const std::string& t) { return listed(v, json(t)); });
  };
  if (!s.sources.empty() && !field_allows(doc, "source", T::string, source_listed, unknown))
    return false;
  if ((!f.date_from.empty() || !f.date_to.empty()) && !dates_allow(doc, f, unknown)) return false;
  if (f.department && !field_allows(doc, "department", T::string, same_department, unknown))
    return false;
  if (f.path_prefix && !field_allows(doc, "path", T::string, under_path, unknown)) return false;
  if (f.is_signed && !field_allows(doc, "is_signed", T::boolean, same_signed, unknown))
    return false;
  return f.tags.empty() || field_allows(doc, "tags", T::array, every_tag, unknown);
}

// The `top_k` documents of a ranked list that are in scope.
RankedList in_scope_only(const RankedList& ranked, ParsedDocs& docs, const Scope& scope,
                         std::size_t top_k, std::set<std::string>& unknown) {
  RankedList out;
  for (const ScoredDoc& h : ranked) {
    const json& doc = docs[h.doc];
    if (doc.is_object() && !in_scope(doc, scope, unknown)) continue;
    out.push_back(h);
    if (out.size() == top_k) break;
  }
  return out;
}

// The candidates: one BM25 list per query text, then one cosine list per query vector (at most
// one per text), each `top_k * kPoolFactor` deep, not yet scoped.
Result<std::vector<RankedList>> candidates(const std::vector<std::string>& queries,
                                           const std::vector<std::vector<float>>& vectors,
                                           const CollectionIndex& index, std::size_t top_k) {
  QAPLAN_ASSIGN_OR_RETURN(const Tokenizer tok, Tokenizer::create());
  std::vector<RankedList> out;
  std::vector<std::string> tokens;
  for (const std::string& q : queries) {
    QAPLAN_TRY(tok.tokenize_into(q, tokens));
    out.push_back(index.bm25().search(tokens, top_k * kPoolFactor));
  }
  if (index.vectors() == nullptr) return out;
  for (std::size_t i = 0; i < vectors.size() && i < queries.size(); ++i) {
    auto hits = internal::vector_leg(*index.vectors(), vectors[i], top_k * kPoolFactor);
    if (!hits) {
      Error e = std::move(hits).error();
      e.field = "query_vectors[" + std::to_string(i) + "]";
      return e;
    }
    out.push_back(std::move(*hits));
  }
  return out;
}

// Every candidate list cut to its `top_k` documents in scope, then — when the analysis has
// preferences (Filters::preferred) — the main query's lists again requiring them, as the
// executor fuses them (searched once, scoped twice).
Result<std::vector<RankedList>> legs(const std::vector<std::string>& queries,
                                     const std::vector<std::vector<float>>& vectors,
                                     const CollectionIndex& index, ParsedDocs& docs,
                                     const Scope& scope, std::size_t top_k,
                                     std::set<std::string>& unknown) {
  QAPLAN_ASSIGN_OR_RETURN(const std::vector<RankedList> raw,
                          candidates(queries, vectors, index, top_k));
  std::vector<RankedList> lists;
  for (const RankedList& r : raw) lists.push_back(in_scope_only(r, docs, scope, top_k, unknown));
  if (!scope.filters.prefer.any()) return lists;
  const Scope preferred{scope.sources, scope.filters.with_preferences_required()};
  lists.push_back(in_scope_only(raw.front(), docs, preferred, top_k, unknown));
  if (raw.size() > queries.size())  // the main query's cosine list
    lists.push_back(in_scope_only(raw[queries.size()], docs, preferred, top_k, unknown));
  return lists;
}

std::string string_field(const json& doc, const char* key, std::string fallback) {
  const auto it = doc.is_object() ? doc.find(key) : doc.end();
  return it != doc.end() && it->is_string() ? it->get<std::string>() : std::move(fallback);
}

// The legs fused, one document per parent (its corpus line's parent_id, else its id), at most
// `n`, as passages. Parents are numbered as they are first met: only equality matters.
Result<std::vector<AskPassage>> passages(const std::vector<RankedList>& lists,
                                         const RrfOptions& rrf, const CollectionIndex& index,
                                         const DocStore& store, ParsedDocs& docs, std::size_t n) {
  std::unordered_map<std::string, std::uint32_t> parent_ids;
  auto parent_of = [&](std::uint32_t doc) {
    std::string parent = string_field(docs[doc], "parent_id", std::string(index.doc_id(doc)));
    const auto next = static_cast<std::uint32_t>(parent_ids.size());
    return parent_ids.try_emplace(std::move(parent), next).first->second;
  };
  QAPLAN_ASSIGN_OR_RETURN(const std::vector<FusedHit> fused,
                          internal::fuse_legs(lists, rrf, {n, parent_of}));
  std::vector<AskPassage> out;
  for (const FusedHit& h : fused)
    out.push_back({h.doc, std::string(index.doc_id(h.doc)), h.score,
                   string_field(docs[h.doc], "text", ""), std::string(store.line(h.doc))});
  return out;
}

}  // namespace

Result<AskResult> ask_index(const Planner& planner, const PrepareRequest& request,
                            const AnalysisContext& context, const CollectionIndex& index,
                            const DocStore& store, const RrfOptions& rrf,
                            const std::vector<std::vector<float>>& query_vectors) {
  AskResult r;
  auto t = std::chrono::steady_clock::now();
  auto lap = [&t] {
    const auto now = std::chrono::steady_clock::now();
    const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(now - t).count();
    t = now;
    return static_cast<std::int64_t>(ns);
  };
  QAPLAN_ASSIGN_OR_RETURN(r.preparation, planner.prepare(request));
  r.timings.prepare_ns = lap();
  const Preparation& prep = r.preparation;
  if (prep.route.route == Route::kDirectAnswer || !prep.plan) return r;
  QAPLAN_ASSIGN_OR_RETURN(r.analysis, planner.analyze(prep, context));
  r.timings.analyze_ns = lap();
  const ExecutionInputs in = execution_inputs(*r.analysis);
  r.queries.push_back(in.query.value_or(prep.normalized.text));
  if (prep.plan->knobs().use_query_variants)
    for (const std::string& v : in.variants) r.queries.push_back(v);
  Scope scope{in.filters.sources.empty() ? prep.effective_sources : in.filters.sources, in.filters};
  // The searches below are one batch over the index: a mapped file written over or truncated
  // since it was opened is refused here (one fstat), not read (docs/indexes.md).
  QAPLAN_TRY(index.unchanged());
  const auto top_k = static_cast<std::size_t>(std::max(prep.plan->knobs().doc_top_k, 1));
  std::set<std::string> unknown;
  ParsedDocs docs(store);
  const auto top_n = static_cast<std::size_t>(std::max(prep.plan->knobs().final_context_top_n, 1));
  auto search = [&]() -> Result<std::vector<AskPassage>> {
    QAPLAN_ASSIGN_OR_RETURN(const std::vector<RankedList> lists,
                            legs(r.queries, query_vectors, index, docs, scope, top_k, unknown));
    return passages(lists, rrf, index, store, docs, top_n);
  };
  QAPLAN_ASSIGN_OR_RETURN(r.passages, search());
  // A scope qaplan chose that holds nothing is searched again at its fallback's width (the
  // executor's step 7).
  if (r.passages.empty() && in.filters.sources.empty() && prep.fallback_sources) {
    scope.sources = *prep.fallback_sources;
    QAPLAN_ASSIGN_OR_RETURN(r.passages, search());
    r.notes.push_back("nothing in the planned sources: searched " +
                      std::string(scope.sources.empty() ? "every source" : "the scenario's sources"));
  }
  r.timings.retrieve_ns = lap();
  for (const std::string& field : unknown)
    r.notes.push_back("filter on " + field + " not applied to documents without that field (kept)");
  if (index.vectors() != nullptr && query_vectors.size() < r.queries.size())
    r.notes.push_back("the index has vectors but " +
                      std::to_string(r.queries.size() - query_vectors.size()) +
                      " query text(s) came without one: lexical only for those");
  if (index.vectors() == nullptr && !query_vectors.empty())
    r.notes.push_back("query vectors given but the index has none: lexical only");
  return r;
}

namespace {

// The fields of a corpus line a reader wants beside the text (the KB schema's names).
nlohmann::ordered_json passage_json(const AskPassage& p, std::size_t rank) {
  nlohmann::ordered_json j{{"rank", rank}, {"id", p.id}, {"score", p.score}};
  const json doc = json::parse(p.line, nullptr, false);
  for (const char* key :
       {"title", "section", "source", "parent_id", "effective_from", "effective_to"})
    if (doc.is_object() && doc.contains(key) && !doc[key].is_null()) j[key] = doc[key];
  j["text"] = p.text;
  return j;
}

}  // namespace

std::string ask_to_json(const AskResult& r, bool explain, bool pretty) {
  const Preparation& prep = r.preparation;
  nlohmann::ordered_json j;
  j["question"] = prep.query;
  j["route"] = std::string(to_string(prep.route.route));
  if (!r.analysis) {
    j["reply"] = prep.route.reply;
  } else {
    j["queries"] = r.queries;
    j["passages"] = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < r.passages.size(); ++i)
      j["passages"].push_back(passage_json(r.passages[i], i + 1));
    if (!r.notes.empty()) j["notes"] = r.notes;
  }
  if (explain)
    j["plan"] =
        nlohmann::ordered_json::parse(r.analysis ? to_json(prep, *r.analysis) : to_json(prep));
  return j.dump(pretty ? 2 : -1);
}

}  // namespace qaplan
