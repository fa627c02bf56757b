// The plan executor (executor.hpp).
#include "qaplan/retrieval/executor.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <unordered_map>

#include "common/dates.hpp"
#include "common/utf8.hpp"
#include "planning/text.hpp"
#include "qaplan/ranking/tokenizer.hpp"
#include "retrieval/fusion.hpp"
#include "retrieval/tfidf_cosine.hpp"

namespace qaplan {
namespace {

using Clock = std::chrono::steady_clock;
std::int64_t ns_since(Clock::time_point t0) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - t0).count();
}

constexpr std::array<std::string_view, 4> kHitTypeNames = {"direct_answer", "faq_direct", "rag",
                                                           "no_evidence"};

// One searchable collection: records (FAQ questions/paraphrases, or chunks), each belonging to an
// item (the FAQ entry, or the section).
struct Collection {
  std::vector<std::uint32_t> item_of;            // record → item
  std::vector<std::vector<std::string>> tokens;  // record → tokens (build time only)
  std::optional<Bm25Index> bm25;
  std::optional<internal::TfidfCosine> cosine;
  std::size_t items = 0;
};

struct Section {
  std::string parent_id;
  std::vector<std::uint32_t> chunks;  // indexes into kb.docs, file order
};

// A query text prepared for both collections.
struct PreparedQuery {
  std::vector<std::string> tokens;
  internal::SparseVec faq_vec, doc_vec;
};

// One list of (item, score), best first, unique items.
using ItemList = RankedList;

}  // namespace

struct KbIndex::Impl {
  KnowledgeBase kb;
  KbIndexOptions options;
  Tokenizer tokenizer;
  Collection faq, doc;
  std::vector<Section> sections;
  std::unordered_map<std::string, std::uint32_t> section_by_chunk, faq_by_id;
  std::unordered_map<std::string, std::uint32_t> exact;  // exact_match_key → FAQ
  // The KB's own source names (a host's KB has its own), interned in order of first use.
  std::unordered_map<std::string, std::uint32_t> source_ids;
  std::vector<std::uint32_t> faq_source, doc_source;  // index into source_ids' numbering
  explicit Impl(Tokenizer t) : tokenizer(t) {}

  std::uint32_t source_index(const std::string& s) {
    return source_ids.try_emplace(s, static_cast<std::uint32_t>(source_ids.size())).first->second;
  }
};

namespace {

// The filter's dates are whole ISO days, or absent; anything else is refused by field.
Status check_dates(const ExecutionFilters& f) {
  for (const auto* d : {&f.date_from, &f.date_to})
    if (!d->empty() && !internal::dates::is_iso_date(*d))
      return make_error(ErrorCode::kInvalidInput, "not an ISO-8601 date YYYY-MM-DD: " + *d,
                        d == &f.date_from ? "filters.date_from" : "filters.date_to");
  return {};
}

Status build_collection(Collection& c, const std::vector<std::string>& texts, const Tokenizer& tok,
                        const Bm25Options& bm25, std::string_view what,
                        const std::vector<std::string>& ids) {
  c.tokens.resize(texts.size());
  for (std::size_t i = 0; i < texts.size(); ++i) {
    QAPLAN_TRY(tok.tokenize_into(texts[i], c.tokens[i]));
    if (c.tokens[i].empty())
      return make_error(ErrorCode::kInvalidInput, std::string(what) + " record has no token",
                        ids[i]);
  }
  QAPLAN_ASSIGN_OR_RETURN(Bm25Index idx, Bm25Index::create(c.tokens, bm25));
  c.bm25 = std::move(idx);
  QAPLAN_ASSIGN_OR_RETURN(internal::TfidfCosine cosine,
                          internal::TfidfCosine::fit(texts, c.tokens));
  c.cosine = std::move(cosine);
  c.tokens.clear();
  c.tokens.shrink_to_fit();
  return {};
}

// The record scores of one query text, keeping the best record per item: returns the items with
// score > 0 and `allowed`, best first (ties by item), and fills best[item] (0 when absent).
ItemList best_per_item(const RankedList& record_scores, const Collection& c,
                       const std::vector<char>& allowed, std::vector<double>& best) {
  best.assign(c.items, 0.0);
  std::vector<char> seen(c.items, 0);
  ItemList out;
  for (const auto& [r, s] : record_scores) {
    if (!(s > 0) || !allowed[r]) continue;
    const std::uint32_t item = c.item_of[r];
    if (!seen[item]) {
      seen[item] = 1;
      best[item] = s;
      out.push_back({item, s});
    }
  }
  return out;
}

void cut(ItemList& l, int k) {
  if (k >= 0 && l.size() > static_cast<std::size_t>(k)) l.resize(static_cast<std::size_t>(k));
}

// First `max_chars` code points of `s`.
std::string head_chars(std::string_view s, std::size_t max_chars, std::size_t& chars,
                       bool& truncated) {
  std::size_t i = 0, n = 0;
  while (i < s.size() && n < max_chars) {
    internal::next_code_point(s, i);
    ++n;
  }
  truncated = i < s.size();
  chars = n;
  return std::string(s.substr(0, i));
}

bool is_key_separator(std::int32_t cp) {
  if (cp < 0x80) return !internal::is_ascii_alnum(cp);
  return (cp >= 0xA0 && cp <= 0xBF) || (cp >= 0x2000 && cp <= 0x206F) ||
         (cp >= 0x3000 && cp <= 0x303F) || (cp >= 0xFE30 && cp <= 0xFE4F) ||
         (cp >= 0xFF00 && cp <= 0xFF0F) || (cp >= 0xFF1A && cp <= 0xFF20) ||
         (cp >= 0xFF3B && cp <= 0xFF40) || (cp >= 0xFF5B && cp <= 0xFF65);
}

std::string strip_separators(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t at = i;
    const std::int32_t cp = internal::next_code_point(s, i);
    if (cp < 0 || is_key_separator(cp)) continue;
    out.append(s.substr(at, i - at));
  }
  return out;
}

const InputConfig& key_limits() {
  static const InputConfig limits{1 << 20, 1 << 20};
  return limits;
}

}  // namespace

std::string_view to_string(HitType t) noexcept {
  return kHitTypeNames[static_cast<std::size_t>(t)];
}

Result<HitType> parse_hit_type(std::string_view s) {
  for (std::size_t i = 0; i < kHitTypeNames.size(); ++i)
    if (kHitTypeNames[i] == s) return static_cast<HitType>(i);
  return make_error(
      ErrorCode::kInvalidInput,
      "unknown hit type \"" + std::string(s) + "\" (direct_answer, faq_direct, rag, no_evidence)",
      "hit_type");
}

std::string exact_match_key(std::string_view text) {
  auto n = internal::normalize_question(text, key_limits(), "text");
  if (!n.ok()) return {};
  return strip_separators(n->text);
}

Result<KbIndex> KbIndex::create(KnowledgeBase kb, const KbIndexOptions& options) {
  QAPLAN_TRY(options.bm25.validate());
  QAPLAN_TRY(options.rrf.validate());
  QAPLAN_ASSIGN_OR_RETURN(Tokenizer tok, Tokenizer::create());
  auto impl = std::make_shared<Impl>(tok);
  impl->options = options;

  // FAQ records: the standard question, then each paraphrase.
  std::vector<std::string> texts, ids;
  for (std::size_t f = 0; f < kb.faqs.size(); ++f) {
    const FaqEntry& e = kb.faqs[f];
    impl->faq_by_id.emplace(e.id, static_cast<std::uint32_t>(f));
    impl->faq_source.push_back(impl->source_index(e.source));
    for (std::size_t p = 0; p <= e.paraphrases.size(); ++p) {
      const std::string& t = p == 0 ? e.question : e.paraphrases[p - 1];
      texts.push_back(t);
      ids.push_back(e.id + (p == 0 ? " question" : " paraphrases[" + std::to_string(p - 1) + "]"));
      impl->faq.item_of.push_back(static_cast<std::uint32_t>(f));
      // The first FAQ that owns a key answers it.
      if (std::string key = exact_match_key(t); !key.empty())
        impl->exact.try_emplace(std::move(key), static_cast<std::uint32_t>(f));
    }
  }
  impl->faq.items = kb.faqs.size();
  QAPLAN_TRY(build_collection(impl->faq, texts, tok, options.bm25, "FAQ", ids));

  // Document records: one per chunk; items are sections (parent ids, in order of first chunk).
  texts.clear();
  ids.clear();
  std::unordered_map<std::string, std::uint32_t> section_index;
  for (std::size_t i = 0; i < kb.docs.size(); ++i) {
    const DocChunk& c = kb.docs[i];
    auto [it, fresh] =
        section_index.try_emplace(c.parent_id, static_cast<std::uint32_t>(impl->sections.size()));
    if (fresh) {
      impl->sections.push_back({c.parent_id, {}});
    } else {
      const DocChunk& first = kb.docs[impl->sections[it->second].chunks.front()];
      if (first.source != c.source || first.doc_id != c.doc_id || first.kind != c.kind)
        return make_error(ErrorCode::kInvalidInput,
                          "chunks of parent " + c.parent_id + " disagree on doc_id, source or kind",
                          c.id);
    }
    impl->sections[it->second].chunks.push_back(static_cast<std::uint32_t>(i));
    impl->section_by_chunk.emplace(c.id, it->second);
    impl->doc.item_of.push_back(it->second);
    impl->doc_source.push_back(impl->source_index(c.source));
    texts.push_back(c.title + " " + c.section + " " + c.text);
    ids.push_back(c.id);
  }
  impl->doc.items = impl->sections.size();
  QAPLAN_TRY(build_collection(impl->doc, texts, tok, options.bm25, "document", ids));
  impl->kb = std::move(kb);
  return KbIndex(std::move(impl));
}

const KnowledgeBase& KbIndex::kb() const noexcept { return impl_->kb; }
std::size_t KbIndex::sections() const noexcept { return impl_->sections.size(); }
const std::string& KbIndex::section_id(std::size_t s) const {
  return impl_->sections.at(s).parent_id;
}
const std::vector<std::uint32_t>& KbIndex::section_chunks(std::size_t s) const {
  return impl_->sections.at(s).chunks;
}
std::optional<std::size_t> KbIndex::section_of_chunk(std::string_view chunk_id) const {
  auto it = impl_->section_by_chunk.find(std::string(chunk_id));
  if (it == impl_->section_by_chunk.end()) return std::nullopt;
  return it->second;
}
std::optional<std::size_t> KbIndex::faq_index(std::string_view faq_id) const {
  auto it = impl_->faq_by_id.find(std::string(faq_id));
  if (it == impl_->faq_by_id.end()) return std::nullopt;
  return it->second;
}
std::size_t KbIndex::faq_dimensions() const noexcept { return impl_->faq.cosine->dimensions(); }
std::size_t KbIndex::doc_dimensions() const noexcept { return impl_->doc.cosine->dimensions(); }
const KbIndexOptions& KbIndex::options() const noexcept { return impl_->options; }

Result<Execution> execute_plan(const Preparation& prep, const KbIndex& kb,
                               const ExecutionInputs& inputs) {
  if (prep.route.route == Route::kRetrieval && !prep.plan)
    return make_error(ErrorCode::kInvalidInput, "a retrieval preparation has no plan", "plan");
  static const PlanKnobs kNone{};
  return execute_with_knobs(prep, prep.plan ? prep.plan->knobs() : kNone, kb, inputs);
}

ExecutionInputs execution_inputs(const QueryAnalysis& a) {
  ExecutionInputs in;
  if (a.rewrite.rewritten && !a.rewrite.query.empty()) in.query = a.rewrite.query;
  for (const QueryVariant& v : a.variants) {
    if (v.kind == "original" || v.kind == "rewrite") continue;
    in.variants.push_back(v.text);
  }
  const Filters& f = a.filters;
  if (f.time) {
    in.filters.date_from = f.time->from;
    in.filters.date_to = f.time->to;
  }
  (f.prefers("department") ? in.filters.prefer.department : in.filters.department) = f.department;
  (f.prefers("tags") ? in.filters.prefer.tags : in.filters.tags) = f.tags;
  (f.prefers("path_prefix") ? in.filters.prefer.path_prefix : in.filters.path_prefix) =
      f.path_prefix;
  in.filters.is_signed = f.is_signed;
  return in;
}

Result<Execution> execute_plan(const Preparation& prep, const QueryAnalysis& analysis,
                               const KbIndex& kb) {
  return execute_plan(prep, kb, execution_inputs(analysis));
}

namespace {

// Per KB source: in scope? An empty scope is every source; a scoped source the KB does not hold
// selects nothing.
template <class K>
std::vector<char> sources_ok(const K& k, const std::vector<std::string>& sources) {
  std::vector<char> ok(k.source_ids.size(), sources.empty());
  for (const std::string& s : sources)
    if (auto it = k.source_ids.find(s); it != k.source_ids.end()) ok[it->second] = true;
  return ok;
}

// Records of the FAQ collection in scope: metadata filters describe documents, so an FAQ is
// scoped by its source only.
// (A template only because KbIndex::Impl is private to KbIndex; K is always that.)
template <class K>
std::vector<char> faq_scope(const K& k, const std::vector<std::string>& sources) {
  const auto ok = sources_ok(k, sources);
  std::vector<char> allowed(k.faq.item_of.size());
  for (std::size_t r = 0; r < allowed.size(); ++r) {
    const std::uint32_t fi = k.faq.item_of[r];
    allowed[r] = ok[k.faq_source[fi]];
  }
  return allowed;
}

template <class K>
std::vector<char> doc_scope(const K& k, const std::vector<std::string>& sources,
                            const ExecutionFilters& f) {
  const auto ok = sources_ok(k, sources);
  auto all_tags = [&](const std::vector<std::string>& tags) {
    for (const std::string& t : f.tags)
      if (std::find(tags.begin(), tags.end(), t) == tags.end()) return false;
    return true;
  };
  std::vector<char> allowed(k.doc.item_of.size());
  for (std::size_t r = 0; r < allowed.size(); ++r) {
    const DocChunk& c = k.kb.docs[r];
    allowed[r] = ok[k.doc_source[r]] && effective_in(c, f.date_from, f.date_to) &&
                 (!f.department || c.department == *f.department) && all_tags(c.tags) &&
                 (!f.path_prefix || c.path.starts_with(*f.path_prefix)) &&
                 (!f.is_signed || c.is_signed == *f.is_signed);
  }
  return allowed;
}

}  // namespace

ExecutionFilters ExecutionFilters::with_preferences_required() const {
  ExecutionFilters f = *this;
  if (f.prefer.department) f.department = f.prefer.department;
  for (const std::string& t : f.prefer.tags)
    if (std::find(f.tags.begin(), f.tags.end(), t) == f.tags.end()) f.tags.push_back(t);
  if (f.prefer.path_prefix) f.path_prefix = f.prefer.path_prefix;
  f.prefer = {};
  return f;
}

Result<std::vector<std::uint32_t>> KbIndex::search_leg(const LegQuery& q) const {
  const Impl& k = *impl_;
  QAPLAN_TRY(check_dates(q.filters));
  PreparedQuery pq;
  QAPLAN_TRY(k.tokenizer.tokenize_into(q.text, pq.tokens));
  const Collection& c = q.faq ? k.faq : k.doc;
  const std::vector<char> allowed =
      q.faq ? faq_scope(k, q.filters.sources) : doc_scope(k, q.filters.sources, q.filters);
  std::vector<double> best, acc;
  ItemList list =
      q.dense ? best_per_item(c.cosine->search(c.cosine->weigh(pq.tokens), acc), c, allowed, best)
              : best_per_item(c.bm25->search(pq.tokens, 0), c, allowed, best);
  cut(list, q.top_k);
  std::vector<std::uint32_t> items;
  for (const ScoredDoc& d : list) items.push_back(d.doc);
  return items;
}

bool KbIndex::section_is_table(std::size_t s) const {
  const Impl& k = *impl_;
  return k.kb.docs[k.sections[s].chunks.front()].kind == KbChunkKind::kTableRow;
}

namespace {

// The lists of one leg over every query text: [cosine, bm25] per text, each unique per item,
// in scope and cut to top_k; main_cos / main_bm25 hold the main query's best score per item and
// best_cos the best cosine over every text.
// (Named LegRun, not Leg, so it cannot clash with qaplan::Leg of engines.hpp.)
struct LegRun {
  std::vector<RankedList> lists;
  std::vector<double> main_cos, main_bm25, best_cos;
  std::vector<FusedHit> fused;
};

// 1. Query texts: the main query (rewrite or normalized question), then the variants, each
// tokenized and weighed for the legs the knobs run. Sets ex.query and ex.variants.
// (A template only because KbIndex::Impl is private to KbIndex; K is always that.)
template <class K>
Result<std::vector<PreparedQuery>> prepare_queries(const K& k, const Preparation& prep,
                                                   const PlanKnobs& knobs,
                                                   const ExecutionInputs& inputs, Execution& ex) {
  ex.query = inputs.query ? *inputs.query : prep.normalized.text;
  if (knobs.use_query_variants)
    for (const std::string& v : inputs.variants)
      if (v != ex.query &&
          std::find(ex.variants.begin(), ex.variants.end(), v) == ex.variants.end())
        ex.variants.push_back(v);
  std::vector<PreparedQuery> queries(1 + ex.variants.size());
  for (std::size_t i = 0; i < queries.size(); ++i) {
    const std::string& text = i == 0 ? ex.query : ex.variants[i - 1];
    if (Status st = k.tokenizer.tokenize_into(text, queries[i].tokens); !st.ok()) {
      Error e = std::move(st).error();
      e.field = i == 0 ? "query" : "variants[" + std::to_string(i - 1) + "]";
      return e;
    }
    if (knobs.run_faq) queries[i].faq_vec = k.faq.cosine->weigh(queries[i].tokens);
    if (knobs.run_doc) queries[i].doc_vec = k.doc.cosine->weigh(queries[i].tokens);
  }
  return queries;
}

// Runs one leg of collection `c` over every query text and fuses its lists (RRF), cut to top_k.
// `preferred`: the scope of the main query's extra cosine and BM25 lists (preferences).
// `acc`: scratch for the cosine search, shared by the legs of one execution.
Status run_leg(const std::vector<PreparedQuery>& queries, const RrfOptions& rrf,
               std::vector<double>& acc, const Collection& c, const std::vector<char>& allowed,
               bool faq_side, int top_k, LegRun& leg,
               const std::vector<char>* preferred = nullptr) {
  std::vector<double> best;
  leg.best_cos.assign(c.items, 0.0);
  // The main query's record scores, kept for the preferred lists (scored once, scoped twice).
  RankedList main_cos_raw, main_bm_raw;
  auto add_cut = [&](ItemList list) {
    cut(list, top_k);
    leg.lists.push_back(std::move(list));
  };
  for (std::size_t i = 0; i < queries.size(); ++i) {
    const internal::SparseVec& qv = faq_side ? queries[i].faq_vec : queries[i].doc_vec;
    RankedList cos_raw = c.cosine->search(qv, acc);
    RankedList bm_raw = c.bm25->search(queries[i].tokens, 0);
    ItemList cos = best_per_item(cos_raw, c, allowed, best);
    for (std::size_t it = 0; it < c.items; ++it)
      leg.best_cos[it] = std::max(leg.best_cos[it], best[it]);
    if (i == 0) leg.main_cos = best;
    ItemList bm = best_per_item(bm_raw, c, allowed, best);
    if (i == 0) leg.main_bm25 = best;
    add_cut(std::move(cos));
    add_cut(std::move(bm));
    if (i == 0 && preferred) {
      main_cos_raw = std::move(cos_raw);
      main_bm_raw = std::move(bm_raw);
    }
  }
  if (preferred) {
    add_cut(best_per_item(main_cos_raw, c, *preferred, best));
    add_cut(best_per_item(main_bm_raw, c, *preferred, best));
  }
  // A negative top_k cuts nothing (as cut() does with a list).
  const std::size_t limit = top_k < 0 ? internal::kKeepAll : static_cast<std::size_t>(top_k);
  QAPLAN_ASSIGN_OR_RETURN(leg.fused, internal::fuse_legs(leg.lists, rrf, {limit, nullptr}));
  return {};
}

// A fused hit of `leg` as reported: its RRF score, best cosine, main BM25 and list ranks.
LegHit to_hit(const FusedHit& h, const LegRun& leg, std::string id) {
  LegHit x;
  x.item = h.doc;
  x.id = std::move(id);
  x.fused = h.score;
  x.cosine = leg.best_cos[h.doc];
  if (leg.main_bm25[h.doc] > 0) x.bm25 = leg.main_bm25[h.doc];
  x.cosine_rank = h.ranks[0];
  x.bm25_rank = h.ranks[1];
  return x;
}

// 4. The direct decision: the FAQ owning the query's exact-match `key` when in scope, else the
// FAQ leg's first hit, answered by the knobs' rule; its reasons go to `reasons`.
// (A template only because KbIndex::Impl is private to KbIndex; K is always that.)
template <class K>
FaqDirectDecision decide_faq_direct(const K& k, const PlanKnobs& knobs, const std::string& key,
                                    const std::vector<char>& allowed, const LegRun& faq_leg,
                                    std::vector<std::string>& reasons) {
  FaqDirectDecision d;
  d.threshold = knobs.faq_direct_threshold;
  d.exact_only = knobs.faq_direct_exact_only;
  if (auto it = k.exact.find(key); !key.empty() && it != k.exact.end()) {
    const std::uint32_t fi = it->second;
    // The exact FAQ must be in scope like any other hit.
    bool in_scope = false;
    for (std::size_t r = 0; r < allowed.size() && !in_scope; ++r)
      in_scope = k.faq.item_of[r] == fi && allowed[r];
    if (in_scope) {
      d.has_candidate = true;
      d.faq = fi;
      d.exact = true;
      d.score = 1.0;
    }
  }
  if (!d.has_candidate && !faq_leg.fused.empty()) {
    d.has_candidate = true;
    d.faq = faq_leg.fused.front().doc;
    d.score = faq_leg.main_cos[d.faq];
  }
  if (d.has_candidate) {
    d.faq_id = k.kb.faqs[d.faq].id;
    d.answered = d.exact_only ? d.exact : d.score >= d.threshold;
    reasons.push_back(d.exact ? "faq_exact_match" : "faq_not_exact");
    if (!d.exact_only)
      reasons.push_back(d.answered ? "faq_score_at_or_above_threshold"
                                   : "faq_score_below_threshold");
    else if (!d.exact)
      reasons.push_back("faq_direct_exact_only");
  } else {
    reasons.push_back("no_faq_candidate");
  }
  return d;
}

// 3–4. FAQ leg and the direct decision: fills ex.faq_hits and ex.faq_direct.
// (A template only because KbIndex::Impl is private to KbIndex; K is always that.)
template <class K>
Status run_faq_leg(const K& k, const Preparation& prep, const PlanKnobs& knobs,
                   const ExecutionInputs& inputs, const std::vector<std::string>& sources,
                   const std::vector<PreparedQuery>& queries, std::vector<double>& acc,
                   Execution& ex) {
  LegRun faq_leg;
  const std::vector<char> allowed = faq_scope(k, sources);
  QAPLAN_TRY(run_leg(queries, k.options.rrf, acc, k.faq, allowed, true, knobs.faq_top_k, faq_leg));
  for (const FusedHit& h : faq_leg.fused)
    ex.faq_hits.push_back(to_hit(h, faq_leg, k.kb.faqs[h.doc].id));
  const std::string key =
      inputs.query ? exact_match_key(ex.query) : strip_separators(prep.normalized.text);
  ex.faq_direct = decide_faq_direct(k, knobs, key, allowed, faq_leg, ex.reasons);
  return {};
}

// 3. Document leg: fills ex.doc_hits (preferences boost the main query's lists; prefer_table
// moves table rows first).
// (A template only because KbIndex::Impl is private to KbIndex; K is always that.)
template <class K>
Status run_doc_leg(const K& k, const PlanKnobs& knobs, const ExecutionFilters& f,
                   const std::vector<std::string>& sources,
                   const std::vector<PreparedQuery>& queries, std::vector<double>& acc,
                   Execution& ex) {
  LegRun doc_leg;
  const std::vector<char> allowed = doc_scope(k, sources, f);
  std::vector<char> preferred;
  if (f.prefer.any()) {
    preferred = doc_scope(k, sources, f.with_preferences_required());
    ex.reasons.push_back("doc_preferences_boosted");
  }
  QAPLAN_TRY(run_leg(queries, k.options.rrf, acc, k.doc, allowed, false, knobs.doc_top_k, doc_leg,
                     f.prefer.any() ? &preferred : nullptr));
  for (const FusedHit& h : doc_leg.fused)
    ex.doc_hits.push_back(to_hit(h, doc_leg, k.sections[h.doc].parent_id));
  if (knobs.prefer_table)
    std::stable_partition(ex.doc_hits.begin(), ex.doc_hits.end(), [&](const LegHit& h) {
      return k.kb.docs[k.sections[h.item].chunks.front()].kind == KbChunkKind::kTableRow;
    });
  return {};
}

// The context being filled: what is left of max_context_chars, each item cut to
// max_context_doc_chars.
struct ContextFill {
  const KnowledgeBase& kb;
  Execution& ex;
  std::size_t budget;
  std::size_t per_item;

  // Adds `item` with the head of `text` that fits; false when the budget is spent.
  bool add(ContextItem item, std::string_view text) {
    if (budget == 0) return false;
    std::size_t chars = 0;
    item.text = head_chars(text, std::min(per_item, budget), chars, item.truncated);
    item.chars = chars;
    budget -= chars;
    ex.context_chars += chars;
    ex.contexts.push_back(std::move(item));
    return true;
  }

  // Adds FAQ `fi`'s answer.
  void faq_item(std::uint32_t fi, double score, double fused) {
    const FaqEntry& e = kb.faqs[fi];
    ContextItem c;
    c.kind = "faq";
    c.id = e.id;
    c.source = e.source;
    c.title = e.question;
    c.score = score;
    c.fused = fused;
    add(std::move(c), e.answer);
  }

  // Adds the section of document hit `h` (its chunks' texts joined); false when the budget is
  // spent.
  bool section_item(const Section& s, const LegHit& h) {
    const DocChunk& first = kb.docs[s.chunks.front()];
    ContextItem c;
    c.kind = "doc";
    c.id = s.parent_id;
    std::string text;
    for (std::uint32_t ci : s.chunks) {
      c.chunk_ids.push_back(kb.docs[ci].id);
      text += kb.docs[ci].text;
    }
    c.source = first.source;
    c.title = first.title;
    c.section = first.section;
    c.doc_id = first.doc_id;
    c.version = first.version;
    c.effective_from = first.effective_from;
    c.effective_to = first.effective_to;
    c.is_signed = first.is_signed;
    c.table_row = first.kind == KbChunkKind::kTableRow;
    c.score = h.cosine;
    c.fused = h.fused;
    return add(std::move(c), text);
  }
};

// 5. Context: the direct FAQ's answer, then document sections, then the other FAQ hits, up to
// final_context_top_n items above min_context_score. Returns the number of document items.
std::size_t add_contexts(const KnowledgeBase& kb, const std::vector<Section>& sections,
                         const PlanKnobs& knobs, bool direct, Execution& ex) {
  const std::size_t top_n = static_cast<std::size_t>(std::max(0, knobs.final_context_top_n));
  ContextFill fill{kb, ex, static_cast<std::size_t>(std::max(0, knobs.max_context_chars)),
                   static_cast<std::size_t>(std::max(0, knobs.max_context_doc_chars))};
  if (direct) {
    const FaqDirectDecision& d = *ex.faq_direct;
    double fused = 0;
    for (const LegHit& h : ex.faq_hits)
      if (h.item == d.faq) fused = h.fused;
    fill.faq_item(d.faq, d.score, fused);
    ex.answer = kb.faqs[d.faq].answer;
  }
  std::size_t docs_added = 0, faqs_added = 0;
  for (const LegHit& h : ex.doc_hits) {
    if (ex.contexts.size() >= top_n || fill.budget == 0) break;
    if (h.cosine < knobs.min_context_score) continue;
    if (fill.section_item(sections[h.item], h)) ++docs_added;
  }
  for (const LegHit& h : ex.faq_hits) {
    if (ex.contexts.size() >= top_n || fill.budget == 0) break;
    if (direct && h.item == ex.faq_direct->faq) continue;
    if (h.cosine < knobs.min_context_score) continue;
    fill.faq_item(h.item, h.cosine, h.fused);
    ++faqs_added;
  }
  return docs_added;
}

// 6. Hit type, with the reason when it is not an FAQ direct answer.
void decide_hit_type(bool direct, std::size_t docs_added, Execution& ex) {
  if (direct) {
    ex.hit_type = HitType::kFaqDirect;
  } else if (!ex.contexts.empty()) {
    ex.hit_type = HitType::kRag;
    ex.reasons.push_back(docs_added > 0 ? "context_from_documents" : "context_from_faq_only");
  } else {
    ex.hit_type = HitType::kNoEvidence;
    ex.reasons.push_back((ex.doc_hits.empty() && ex.faq_hits.empty())
                             ? "nothing_matched_in_scope"
                             : "no_context_above_min_score");
  }
}

// What a widened search must find to replace "no evidence": a direct FAQ answer or a document
// section above min_context_score. An FAQ-only context there is not enough: short FAQ questions
// share a few bigrams with almost any question (chain set: 15 of 15 such widenings were
// unrelated FAQs, 7 of them on questions the KB cannot answer).
bool strong_evidence(const Execution& ex) {
  if (ex.hit_type == HitType::kFaqDirect) return true;
  return std::any_of(ex.contexts.begin(), ex.contexts.end(),
                     [](const ContextItem& c) { return c.kind == "doc"; });
}

// 3–6 over one scope: the legs the plan runs, the context and the hit type.
template <class K>
Status search_scope(const K& k, const Preparation& prep, const PlanKnobs& knobs,
                    const ExecutionInputs& inputs, const std::vector<std::string>& sources,
                    const std::vector<PreparedQuery>& queries, Execution& ex) {
  std::vector<double> acc;
  if (knobs.run_faq) {
    const auto t0 = Clock::now();
    QAPLAN_TRY(run_faq_leg(k, prep, knobs, inputs, sources, queries, acc, ex));
    ex.timings.faq_ns = ns_since(t0);
  }
  if (knobs.run_doc) {
    const auto t0 = Clock::now();
    QAPLAN_TRY(run_doc_leg(k, knobs, inputs.filters, sources, queries, acc, ex));
    ex.timings.doc_ns = ns_since(t0);
  }
  const auto t0 = Clock::now();
  const bool direct = ex.faq_direct && ex.faq_direct->answered;
  const std::size_t docs_added = add_contexts(k.kb, k.sections, knobs, direct, ex);
  ex.timings.context_ns = ns_since(t0);
  decide_hit_type(direct, docs_added, ex);
  return {};
}

}  // namespace

Result<Execution> execute_with_knobs(const Preparation& prep, const PlanKnobs& knobs,
                                     const KbIndex& index, const ExecutionInputs& inputs) {
  const auto t_start = Clock::now();
  Execution ex;
  if (prep.route.route == Route::kDirectAnswer) {
    ex.hit_type = HitType::kDirectAnswer;
    ex.answer = prep.route.reply;
    ex.reasons.push_back("route_direct_answer");
    ex.reasons.push_back(std::string(to_string(prep.route.reason)));
    ex.timings.total_ns = ns_since(t_start);
    return ex;
  }
  const KbIndex::Impl& k = *index.impl_;
  const ExecutionFilters& f = inputs.filters;
  QAPLAN_TRY(check_dates(f));

  // 1. Query texts: the main query (rewrite or normalized question), then the variants.
  auto t0 = Clock::now();
  QAPLAN_ASSIGN_OR_RETURN(const std::vector<PreparedQuery> queries,
                          prepare_queries(k, prep, knobs, inputs, ex));
  ex.timings.query_ns = ns_since(t0);

  // 2. Scope. Sources: the filters', else the Preparation's effective sources (empty = all).
  const bool host_scope = !f.sources.empty();
  const Execution before = ex;
  QAPLAN_TRY(search_scope(k, prep, knobs, inputs, host_scope ? f.sources : prep.effective_sources,
                          queries, ex));
  // 7. A scope qaplan chose that found nothing is searched again at the fallback's width.
  if (ex.hit_type == HitType::kNoEvidence && !host_scope && prep.fallback_sources) {
    Execution wide = before;
    QAPLAN_TRY(search_scope(k, prep, knobs, inputs, *prep.fallback_sources, queries, wide));
    if (strong_evidence(wide)) {
      wide.reasons.insert(wide.reasons.begin() + static_cast<std::ptrdiff_t>(before.reasons.size()),
                          "scope_widened_after_no_evidence");
      wide.timings.faq_ns += ex.timings.faq_ns;
      wide.timings.doc_ns += ex.timings.doc_ns;
      wide.timings.context_ns += ex.timings.context_ns;
      ex = std::move(wide);
    } else {
      ex.reasons.push_back("wider_scope_no_document_evidence");
    }
  }
  ex.timings.total_ns = ns_since(t_start);
  return ex;
}

}  // namespace qaplan
