#pragma once
/// Engine request adapters (docs/engines.md): a Preparation's RetrievalPlan and its
/// QueryAnalysis as the search requests of Elasticsearch 8/9, OpenSearch 2/3 or Milvus 2.4/2.5,
/// for a named server version, with field names from `[engines]` in the rules file.
///
/// What is searched is exactly what the in-process executor (retrieval/executor.hpp) searches:
///  - query texts: the rewrite of a follow-up (else the normalized question), then — only when
///    the plan says `use_query_variants` — the other variants, without repeats;
///  - collections: FAQ (`run_faq`, `faq_top_k`) and documents (`run_doc`, `doc_top_k`);
///  - per collection and text: a dense leg (the host's query vector) and a lexical leg (BM25),
///    in that order, each one hit per parent (`dedupe = "before_fusion"`), cut to the top k and
///    fused by RRF (k = `rrf_k`) into the top k;
///  - scope: the Preparation's effective sources on both collections; the analysis' time range,
///    department, tags (all of), path prefix and signed flag on documents only. A department,
///    tags or path that are preferences (Filters::preferred) are required only by one more
///    dense and BM25 leg of the main text on documents, so RRF ranks matching sections higher
///    and the others still come back.
///
/// Fusion mode, chosen per request set and reported with its reasons:
///  - `server_fusion`: the engine fuses (ES `retriever.rrf`, OpenSearch `hybrid` query with a
///    `score-ranker-processor` search pipeline, Milvus `hybrid_search` with an RRF ranker);
///  - `client_fusion`: one request per leg, and `fuse_client()` (qaplan's `fuse_rrf` plus the
///    parent dedupe) fuses the hits — the same ordering the in-process executor gives. Chosen
///    when the engine, its version or its licence cannot fuse (ES Basic, ES < 8.14, OpenSearch <
///    2.19), when the parent dedupe must happen before fusion, or when there are more legs than
///    the engine allows (OpenSearch `hybrid`: 5 sub-queries);
///  - `single_leg`: one leg per collection (no query vectors and no variants): nothing to fuse.
///
/// Every plan knob and filter is reported in `EngineRequests::knobs` as mapped into the request,
/// left to the client (context assembly, the FAQ-direct decision), or unsupported for that
/// engine/version — never silently dropped.
///
/// Pure functions; thread-safe.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "qaplan/export.hpp"
#include "qaplan/status.hpp"

namespace qaplan {
struct Preparation;
struct QueryAnalysis;
}  // namespace qaplan

namespace qaplan::engines {

enum class Engine { kElasticsearch, kOpenSearch, kMilvus };
/// "elasticsearch", "opensearch", "milvus".
QAPLAN_API std::string_view to_string(Engine e) noexcept;
/// Also accepts "es" and "os". Error kInvalidInput naming the known engines.
QAPLAN_API Result<Engine> parse_engine(std::string_view name);

/// How the parent dedupe relates to fusion.
///  - before_fusion: one hit per parent in every leg, then RRF (the in-process executor's
///    semantics; forces client fusion where an engine cannot collapse every leg before fusing);
///  - after_fusion: the engine collapses the fused list (ES ≥ 8.16, OpenSearch ≥ 3.1, Milvus ≥ 2.5);
///  - none: no dedupe.
enum class Dedupe { kBeforeFusion, kAfterFusion, kNone };
QAPLAN_API std::string_view to_string(Dedupe d) noexcept;

/// `[engines]` of the rules file (all optional; the defaults below).
///
/// | key | default | meaning |
/// |---|---|---|
/// | faq_index, doc_index | "qaplan_faq", "qaplan_docs" | index / collection names |
/// | text_field | "text" | analysed text (BM25) |
/// | vector_field | "embedding" | dense vector (cosine) |
/// | sparse_field | "sparse" | Milvus 2.5: output of the BM25 function over text_field |
/// | id_field, parent_field | "id", "parent_id" | record id; the item a hit counts for |
/// | source_field | "source" | the plan's source scope |
/// | date_field, date_end_field | "effective_from", "effective_to" | in force on [start, end]; end "" = one date per record |
/// | date_unit | "date" | "date" (yyyy-MM-dd), "epoch_seconds", "epoch_millis" |
/// | date_field_type | "date" | ES/OpenSearch mapping of epoch dates: "date" (ranges carry format epoch_second / epoch_millis) or "long" (plain numbers) |
/// | table_field | "is_table" | boolean: a table row (prefer_table) |
/// | department_field, tags_field, path_field, signed_field | "department", "tags", "path", "is_signed" | metadata filters |
/// | owner_field | "" | "我的" filter; "" = unsupported |
/// | dedupe | "before_fusion" | see Dedupe |
/// | rrf_k | 60 | RRF rank constant, an integer in [1, 10000] (OpenSearch's cap) |
/// | candidate_factor | 3 | records each leg asks for per parent wanted: factor × top_k chunks hold top_k parents when no parent has more than `factor` records |
/// | num_candidates_factor | 2 | ES kNN num_candidates / OpenSearch ef_search = min(10000, max(n, factor × n)) for n records wanted |
/// | faq_return_fields, doc_return_fields | ["text", "answer"], ["text", "title", "file", "section"] | stored fields returned with every hit (prompt text and citation) beside id, parent, source and table |
/// | highlight | false | ES / OpenSearch BM25 requests ask for highlighted fragments of text_field (not where the version cannot highlight fused hits: a note says so) |
/// | [engines.elasticsearch] version, license, embedding_model_id | "8.16", "basic", "" | license "enterprise"/"trial" allow RRF; a model id makes ES embed the query (query_vector_builder) |
/// | [engines.opensearch] version, pipeline_id | "2.19", "qaplan-rrf" | the pipeline is named pipeline_id + "-k" + rrf_k |
/// | [engines.milvus] version, metric_type, search_params | "2.5", "COSINE", {} | dense leg params (e.g. ef) |
struct EnginesConfig {
  std::string faq_index = "qaplan_faq";
  std::string doc_index = "qaplan_docs";
  std::string text_field = "text";
  std::string vector_field = "embedding";
  std::string sparse_field = "sparse";
  std::string id_field = "id";
  std::string parent_field = "parent_id";
  std::string source_field = "source";
  std::string date_field = "effective_from";
  std::string date_end_field = "effective_to";
  std::string date_unit = "date";
  std::string date_field_type = "date";
  std::string table_field = "is_table";
  std::string department_field = "department";
  std::string tags_field = "tags";
  std::string path_field = "path";
  std::string signed_field = "is_signed";
  std::string owner_field;
  Dedupe dedupe = Dedupe::kBeforeFusion;
  double rrf_k = 60.0;
  int candidate_factor = 3;
  int num_candidates_factor = 2;
  std::vector<std::string> faq_return_fields = {"text", "answer"};
  std::vector<std::string> doc_return_fields = {"text", "title", "file", "section"};
  bool highlight = false;
  std::string es_version = "8.16";
  std::string es_license = "basic";
  std::string es_embedding_model_id;
  std::string os_version = "2.19";
  std::string os_pipeline_id = "qaplan-rrf";
  std::string milvus_version = "2.5";
  std::string milvus_metric_type = "COSINE";
  std::vector<std::pair<std::string, double>> milvus_search_params;
  std::string origin;  ///< the file it was read from (messages)

  /// Checks values (field names non-empty where required, units, versions, k). Errors:
  /// kInvalidConfig naming `[engines] key`.
  QAPLAN_API Status validate() const;
};

/// Reads `[engines]` of a rules file strictly (unknown keys are errors, with file:line).
QAPLAN_API Result<EnginesConfig> parse_engines_config(std::string_view toml_text,
                                                      std::string_view origin);
QAPLAN_API Result<EnginesConfig> load_engines_config(const std::filesystem::path& path);

/// Per-request input beyond the plan.
struct EngineInputs {
  /// The server version; "" = the config's version for the engine. Known: ES "8.14".."9.x",
  /// OpenSearch "2.10".."3.x", Milvus "2.4", "2.5" (major.minor; a patch level is ignored).
  std::string version;
  /// One dense query vector per query text (EngineRequests::texts, in order), from the host's
  /// embedding model. Empty: the dense legs are left out and reported (ES with
  /// embedding_model_id embeds the text itself instead).
  std::vector<std::vector<float>> vectors;
};

/// One leg: what one list of the fusion is.
struct Leg {
  std::string collection;  ///< "faq" | "doc"
  std::string modality;    ///< "dense" | "bm25"
  std::size_t text = 0;    ///< index into EngineRequests::texts
  int top_k = 0;           ///< the plan's faq_top_k / doc_top_k: the leg's window and cut
  /// Documents only: the main text's leg that also requires the analysis' preferences
  /// (Filters::preferred), fused after the others so matching sections rank higher.
  bool preferred = false;
};

/// One HTTP/SDK request.
struct EngineRequest {
  std::string name;        ///< "doc:dense:0", "doc:rrf", …
  std::string collection;  ///< "faq" | "doc"; "" for a pipeline
  /// "search" (ES/OpenSearch _search, Milvus search), "hybrid_search" (Milvus),
  /// "put_search_pipeline" (OpenSearch)
  std::string api;
  std::string index;  ///< index / collection name (pipeline: its id)
  std::string body;   ///< compact JSON: the request body (ES: the client's SearchRequest members)
  /// Query-string parameters (OpenSearch `search_pipeline`), compact JSON object or "".
  std::string params;
  std::vector<std::size_t> legs;  ///< indexes into EngineRequests::legs that this request runs
  /// Milvus only (else ""): the same request as pymilvus keyword arguments — {"method":
  /// "MilvusClient.search" | "MilvusClient.hybrid_search", "kwargs": {…}}, each AnnSearchRequest
  /// and the RRFRanker as {"<class>": {constructor keyword arguments}} — and as a REST v2 call
  /// ({"path": "/v2/vectordb/entities/…", "body": {…}}). Compact JSON. `body` is the Node SDK's.
  std::string pymilvus;
  std::string rest;
};

/// How a plan knob or filter reached the engine.
struct KnobMapping {
  std::string name;    ///< "doc_top_k", "filters.time", …
  std::string status;  ///< "request" | "client" | "host" | "unsupported" | "not_set"
  std::string detail;  ///< where / why, in words
};

/// Everything to run one plan on an engine.
struct EngineRequests {
  Engine engine = Engine::kElasticsearch;
  std::string version;  ///< normalized major.minor
  std::string mode;     ///< "server_fusion" | "client_fusion" | "single_leg" | "none"
  std::vector<std::string> mode_reasons;
  std::vector<std::string> texts;  ///< query texts, main first
  std::vector<Leg> legs;           ///< in fusion order per collection (dense, bm25 per text)
  std::vector<EngineRequest> requests;  ///< the pipeline first when there is one
  double rrf_k = 60.0;
  Dedupe dedupe = Dedupe::kBeforeFusion;
  bool prefer_table = false;
  std::vector<KnobMapping> knobs;
  std::vector<std::string> notes;  ///< engine caveats the host should know (k per shard, …)
};

/// The adapters. A direct-answer Preparation gives mode "none" and no request. Errors:
/// kInvalidInput (a retrieval Preparation without a plan, a vector count that differs from the
/// texts', an empty or non-finite vector, vectors of different dimensions, a plan the engine
/// version cannot search at all: Milvus 2.4 without vectors), kInvalidConfig
/// (an unknown or unsupported version, a date unit the engine cannot filter on).
QAPLAN_API Result<EngineRequests> to_elasticsearch(const Preparation& prep,
                                                   const QueryAnalysis& analysis,
                                                   const EngineInputs& inputs,
                                                   const EnginesConfig& config);
QAPLAN_API Result<EngineRequests> to_opensearch(const Preparation& prep,
                                                const QueryAnalysis& analysis,
                                                const EngineInputs& inputs,
                                                const EnginesConfig& config);
QAPLAN_API Result<EngineRequests> to_milvus(const Preparation& prep, const QueryAnalysis& analysis,
                                            const EngineInputs& inputs,
                                            const EnginesConfig& config);
/// Dispatches on `engine`.
QAPLAN_API Result<EngineRequests> to_engine(Engine engine, const Preparation& prep,
                                            const QueryAnalysis& analysis,
                                            const EngineInputs& inputs,
                                            const EnginesConfig& config);

/// The request set as one JSON document: engine, version, mode and reasons, texts, legs,
/// requests (body and params as JSON, not strings), client fusion settings, knobs, notes.
QAPLAN_API std::string to_json(const EngineRequests& r, bool pretty = false);

/// The hits one leg's request returned, best first: the parent id of each hit (ES/OpenSearch
/// `_source[parent_field]`, Milvus the output field), and for documents whether it is a table row.
struct LegHits {
  std::vector<std::string> parents;
  std::vector<bool> table;  ///< empty, or one flag per hit
  /// Empty, or one key per hit (e.g. a stored sequence number of the parent): equal RRF scores
  /// break by the lower key, as the in-process executor breaks them by knowledge-base order.
  /// Without keys they break by first appearance in leg order.
  std::vector<std::int64_t> order;
};

/// One fused item.
struct FusedItem {
  std::string parent;
  double score = 0.0;  ///< RRF score
  /// Per leg of the collection, in fusion order: 1-based rank after the dedupe and cut.
  std::vector<std::optional<std::uint32_t>> ranks;
  bool table = false;
};

/// Client-side fusion of a client_fusion / single_leg request set: `hits[i]` are the hits of
/// legs[i] (one entry per leg). Per collection: each leg deduped by parent (first hit wins) and
/// cut to its top_k, `fuse_rrf` with k = rrf_k in leg order, cut to top_k; documents with
/// prefer_table: table rows first, each group in fused order. Returns {faq, doc} (empty when
/// the collection is not searched). Errors: kInvalidInput when the sizes do not match.
struct ClientFusion {
  std::vector<FusedItem> faq;
  std::vector<FusedItem> doc;
};
QAPLAN_API Result<ClientFusion> fuse_client(const EngineRequests& requests,
                                            const std::vector<LegHits>& hits);

}  // namespace qaplan::engines
