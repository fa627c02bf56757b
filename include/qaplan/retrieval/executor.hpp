#pragma once
/// The plan executor (docs/evaluation.md): runs a Preparation's RetrievalPlan over a knowledge base
/// in-process — exactly what the plan says — and returns the hit type, the context with
/// provenance and per-stage timings. Small deployments can use it as their retrieval; it is the
/// reference behaviour for hosts that execute plans on their own engine.
///
/// Collections (built once by `KbIndex::create`):
///  - FAQ: one searchable record per standard question and per paraphrase; a record's item is
///    its FAQ entry (hits are deduplicated per FAQ, best record first).
///  - Documents: one record per chunk (title, section and text); a record's item is its parent
///    section (`parent_id`), so a section split into two chunks is one hit whose context is the
///    whole section and whose provenance lists every chunk id.
///
/// Each collection is searched two ways over the same tokens (`nfkc-cjk-bigrams-ascii-1`):
///  - BM25 (ranking/bm25.hpp, k1 1.2, b 0.75, exact norms by default);
///  - cosine similarity of `local-tfidf` vectors (the built-in offline embedder of
///    ranking/embedder.hpp: vocabulary and idf fitted on the collection's own record texts). The
///    cosine is computed EXACTLY from the sparse vectors through an inverted index — at a few
///    hundred records an exact search is cheaper than HNSW and gives the exact scores a
///    calibrated threshold needs; the values equal `LocalTfidfEmbedder` + `VectorIndex` cosines
///    up to float rounding (tested). local-tfidf is a lexical proxy, not a semantic embedding.
///
/// One execution of a retrieval plan:
///  1. Query: `ExecutionInputs::query` (an analysis stage's rewrite) or the normalized question;
///     with `use_query_variants` the variants are searched as well (each variant adds its two
///     lists to the fusion); without it they are ignored.
///  2. Scope: the sources of `ExecutionInputs::filters` when given, else the Preparation's
///     `effective_sources` (empty = every source), for both collections; documents also honour
///     the date range, the department, tags (all of, as the analysis stage sets them), path
///     prefix and signed flag — metadata filters describe documents, never FAQ entries.
///  3. Each leg the plan runs (`run_faq`, `run_doc`): the cosine list and the BM25 list (score
///     > 0, in scope, one entry per item), each cut to `faq_top_k` / `doc_top_k`, fused by RRF
///     (k 60, ranking/fusion.hpp) and cut to the same top k. Ties by item order everywhere.
///  4. FAQ direct: the candidate is the FAQ whose question or paraphrase equals the query exactly
///     after normalization (`exact_match_key`), else the FAQ leg's top fused hit. Its direct
///     score is 1 for an exact match, else its cosine (the best over its question and
///     paraphrases, for the main query only — variants never answer directly). It is answered
///     directly when `faq_direct_exact_only` ? exact : score ≥ `faq_direct_threshold`.
///     Why cosine: it lies in [0, 1] and means the same on every query, so one threshold can be
///     calibrated; BM25 is unbounded and query-dependent, and an RRF score only encodes ranks
///     (rank 1 in both lists is 2/61 whatever the similarity).
///  5. Context: document hits (with `prefer_table`, table rows before text, each group in fused
///     order), then FAQ hits; only hits whose cosine ≥ `min_context_score`; at most
///     `final_context_top_n` items; each text cut to `max_context_doc_chars` code points and all
///     texts together to `max_context_chars` (the last item is cut to what remains; nothing is
///     added once the budget is spent). A faq_direct execution puts the answered FAQ first.
///  6. Hit type: direct_answer (the route answered; nothing is searched), faq_direct,
///     rag (≥ 1 context item), else no_evidence.
///  7. Fallback: when the scope was the Preparation's (no `filters.sources`) and 3–6 found no
///     evidence, they run once more over its `fallback_sources` (reason
///     `scope_widened_after_no_evidence`): the scope qaplan chose can be wrong, the search is cheap.
///
/// `KbIndex` is immutable after create() and `execute_plan` is thread-safe.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "qaplan/retrieval/kb.hpp"
#include "qaplan/export.hpp"
#include "qaplan/planning/analysis.hpp"
#include "qaplan/planning/plan.hpp"
#include "qaplan/planning/planner.hpp"
#include "qaplan/ranking/bm25.hpp"
#include "qaplan/ranking/fusion.hpp"
#include "qaplan/status.hpp"

namespace qaplan {

/// The outcome of a question. JSON spellings: "direct_answer", "faq_direct", "rag",
/// "no_evidence".
enum class HitType { kDirectAnswer, kFaqDirect, kRag, kNoEvidence };
QAPLAN_API std::string_view to_string(HitType t) noexcept;
QAPLAN_API Result<HitType> parse_hit_type(std::string_view s);

/// | field | default | meaning |
/// |---|---|---|
/// | bm25 | k1 1.2, b 0.75, exact | BM25 of both collections |
/// | rrf | k 60, equal weights | fusion of the cosine and BM25 lists |
struct KbIndexOptions {
  Bm25Options bm25;
  RrfOptions rrf;
};

/// Structured filters, as an analysis stage produces them. Every present filter must hold.
/// What the document leg prefers without requiring (Filters::preferred): one more cosine and one
/// more BM25 list of the main query that require them are fused beside the others, so matching
/// sections rank higher and the rest still come back.
struct ExecutionPreferences {
  std::optional<std::string> department;
  std::vector<std::string> tags;  ///< all of them
  std::optional<std::string> path_prefix;
  bool any() const noexcept { return department || !tags.empty() || path_prefix; }
};

struct ExecutionFilters {
  std::vector<std::string> sources;  ///< non-empty: replaces the Preparation's effective_sources
  std::string date_from;             ///< YYYY-MM-DD inclusive ("" = unbounded); documents only
  std::string date_to;               ///< YYYY-MM-DD exclusive ("" = unbounded); documents only
  std::optional<std::string> department;   ///< documents only
  std::vector<std::string> tags;           ///< a chunk must carry every one; documents only
  std::optional<std::string> path_prefix;  ///< documents only
  std::optional<bool> is_signed;           ///< documents only
  ExecutionPreferences prefer;             ///< documents only; ignored by KbIndex::search_leg
  /// These filters with the preferences required: the scope of a preferred list.
  QAPLAN_API ExecutionFilters with_preferences_required() const;
};

/// What an analysis stage adds to a Preparation (all optional).
struct ExecutionInputs {
  std::optional<std::string> query;   ///< the rewritten query; default: the normalized question
  std::vector<std::string> variants;  ///< more query texts, searched when use_query_variants
  ExecutionFilters filters;
};

/// One ranked item of a leg (an FAQ entry or a document section).
struct LegHit {
  std::uint32_t item = 0;  ///< FAQ index, or section index (KbIndex::section)
  std::string id;          ///< FAQ id, or the section's parent_id
  double fused = 0.0;      ///< RRF score
  double cosine = 0.0;     ///< best cosine over the item's records (main query), [0, 1]
  std::optional<double> bm25;                 ///< best BM25 over its records (main query)
  std::optional<std::uint32_t> cosine_rank;   ///< 1-based rank in the cut cosine list (main query)
  std::optional<std::uint32_t> bm25_rank;     ///< 1-based rank in the cut BM25 list (main query)
};

/// The FAQ-direct decision of an execution whose FAQ leg ran.
struct FaqDirectDecision {
  bool has_candidate = false;  ///< false: no FAQ in scope matched at all
  std::uint32_t faq = 0;       ///< FAQ index of the candidate
  std::string faq_id;
  double score = 0.0;          ///< 1 for an exact match, else the candidate's cosine
  bool exact = false;          ///< the query equals its question or a paraphrase (normalized)
  double threshold = 0.0;      ///< the plan's faq_direct_threshold
  bool exact_only = false;     ///< the plan's faq_direct_exact_only
  bool answered = false;       ///< exact_only ? exact : score >= threshold
};

/// One context item handed to the answer model, with provenance.
struct ContextItem {
  std::string kind;  ///< "faq" | "doc"
  std::string id;    ///< FAQ id, or the section's parent_id
  std::vector<std::string> chunk_ids;  ///< documents: every chunk of the section, in order
  std::string source;
  std::string title;    ///< documents: the title; FAQ: the standard question
  std::string section;  ///< documents only
  std::string doc_id;   ///< documents only
  std::string version;  ///< documents only
  std::optional<std::string> effective_from, effective_to;  ///< documents only
  bool is_signed = true;
  bool table_row = false;
  double score = 0.0;   ///< cosine, the relevance compared with min_context_score
  double fused = 0.0;   ///< RRF score in its leg
  std::string text;     ///< after the character limits (FAQ: the answer)
  std::size_t chars = 0;      ///< code points in `text`
  bool truncated = false;
};

/// Wall-clock nanoseconds per stage (timing only; never compared).
struct ExecutionTimings {
  std::int64_t query_ns = 0;    ///< tokenizing and weighting the query texts
  std::int64_t faq_ns = 0;      ///< FAQ leg: both lists, scope, fusion, direct decision
  std::int64_t doc_ns = 0;      ///< document leg
  std::int64_t context_ns = 0;  ///< context selection and limits
  std::int64_t total_ns = 0;
};

/// The result of one execution.
struct Execution {
  HitType hit_type = HitType::kNoEvidence;
  std::string query;                  ///< the main query text searched ("" for direct answers)
  std::vector<std::string> variants;  ///< variant texts searched besides it
  std::string answer;  ///< the route's reply (direct_answer) or the FAQ answer (faq_direct)
  std::optional<FaqDirectDecision> faq_direct;  ///< set when the FAQ leg ran
  std::vector<LegHit> faq_hits;  ///< ≤ faq_top_k, fused order ("" when not run)
  std::vector<LegHit> doc_hits;  ///< ≤ doc_top_k, context order (prefer_table applied)
  std::vector<ContextItem> contexts;
  std::size_t context_chars = 0;
  /// Why this hit type, as tags: "route_direct_answer", "faq_exact_match",
  /// "faq_score_at_or_above_threshold", "faq_below_threshold", "faq_not_exact",
  /// "no_faq_candidate", "context_from_documents", "no_context_above_min_score", …
  std::vector<std::string> reasons;
  ExecutionTimings timings;
};

/// The searchable knowledge base. Immutable; copies share the data; thread-safe.
class QAPLAN_API KbIndex {
 public:
  /// Tokenizes every record, builds BM25 and the local-tfidf vectors of both collections.
  /// Errors: kInvalidConfig (options), kInvalidInput (a record without any token, parent ids
  /// whose chunks disagree on source/title/section), kInternal (ICU).
  static Result<KbIndex> create(KnowledgeBase kb, const KbIndexOptions& options = {});

  const KnowledgeBase& kb() const noexcept;
  /// Number of document sections (distinct parent ids, in order of first chunk).
  std::size_t sections() const noexcept;
  /// The parent id and chunk indexes (into kb().docs, file order) of section `s`.
  const std::string& section_id(std::size_t s) const;
  const std::vector<std::uint32_t>& section_chunks(std::size_t s) const;
  /// Section index of a chunk id, or nullopt.
  std::optional<std::size_t> section_of_chunk(std::string_view chunk_id) const;
  /// FAQ index of an id, or nullopt.
  std::optional<std::size_t> faq_index(std::string_view faq_id) const;
  /// Vocabulary sizes of the two vector spaces (reports).
  std::size_t faq_dimensions() const noexcept;
  std::size_t doc_dimensions() const noexcept;
  const KbIndexOptions& options() const noexcept;
  /// True when section `s` is a table row (what prefer_table puts first).
  bool section_is_table(std::size_t s) const;

  /// One leg as an engine runs it in client fusion (qaplan::engines): the records of one
  /// collection ranked by cosine (`dense`) or BM25 for `text`, in scope (`filters.sources` on
  /// both collections, the other filters on documents), one entry per item (FAQ / section,
  /// its best record), cut to `top_k`. The same lists execute_plan fuses. Returns item indexes.
  struct LegQuery {
    bool faq = false;
    bool dense = false;
    std::string text;
    int top_k = 0;
    ExecutionFilters filters;
  };
  Result<std::vector<std::uint32_t>> search_leg(const LegQuery& q) const;

 private:
  friend Result<Execution> execute_with_knobs(const Preparation&, const PlanKnobs&,
                                               const KbIndex&, const ExecutionInputs&);
  struct Impl;
  explicit KbIndex(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}
  std::shared_ptr<const Impl> impl_;
};

/// The key two texts must share to match exactly: `normalize_question` (NFKC casefold,
/// whitespace, Traditional → Simplified), then every space, punctuation mark and symbol removed
/// (ASCII punctuation, U+2000–U+206F, U+3000–U+303F, U+FE30–U+FE4F, U+FF00–U+FF65 except letters
/// and digits). "" when the text does not normalize.
QAPLAN_API std::string exact_match_key(std::string_view text);

/// Executes `prep`'s plan (direct answers return at once). Errors: kInvalidInput (a retrieval
/// Preparation without a plan, a query or variant that is invalid UTF-8, a malformed date
/// filter).
QAPLAN_API Result<Execution> execute_plan(const Preparation& prep, const KbIndex& kb,
                                          const ExecutionInputs& inputs = {});

/// What the analysis stage (Planner::analyze, planning/analysis.hpp) hands the executor: the
/// query is the follow-up's rewrite when `rewrite.rewritten`, else the normalized question; the
/// variants are every analysis variant but the original and the rewrite (the analysis already
/// lists them only when the plan says use_query_variants); the filters are its time range
/// ([from, to)), department, tags, path prefix and signed flag. Sources stay the Preparation's.
QAPLAN_API ExecutionInputs execution_inputs(const QueryAnalysis& analysis);

/// execute_plan(prep, kb, execution_inputs(analysis)): the issue's
/// `execute_plan(plan, analysis, kb, config)` — the config is the Preparation's plan.
QAPLAN_API Result<Execution> execute_plan(const Preparation& prep, const QueryAnalysis& analysis,
                                          const KbIndex& kb);

/// Same as execute_plan but with `knobs` in place of the plan's (what-if evaluation and
/// threshold calibration; hosts should call execute_plan).
QAPLAN_API Result<Execution> execute_with_knobs(const Preparation& prep, const PlanKnobs& knobs,
                                                const KbIndex& kb,
                                                const ExecutionInputs& inputs = {});

}  // namespace qaplan
