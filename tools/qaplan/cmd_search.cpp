// qaplan search: rank a JSONL corpus for one query or a JSONL query file with BM25, vector
// (local TF-IDF + HNSW) or hybrid (RRF of both) search; optional timing rounds printed like the
// Lucene harness (../shared/peers/lucene/LuceneBm25.java) so the two can be compared line by line.
#include <algorithm>
#include <chrono>
#include <fstream>
#include <functional>
#include <unordered_map>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "cli.hpp"
#include "config_lookup.hpp"
#include "qaplan/eval/metrics.hpp"
#include "qaplan/ranking/corpus.hpp"
#include "qaplan/ranking/doc_store.hpp"
#include "qaplan/ranking/index_dir.hpp"
#include "qaplan/ranking/tokenizer.hpp"
#include "qaplan/retrieval/hybrid.hpp"

namespace qaplan::cli {
namespace {

using Clock = std::chrono::steady_clock;

struct SearchOptions {
  std::string corpus;
  std::string index;          // a directory from `qaplan index build` (instead of --corpus)
  std::string query_vectors;  // --index with --mode vector|hybrid: {"id","vector"} per query
  std::string query;
  std::string queries;
  std::string mode = "bm25";
  std::size_t k = 10;
  std::optional<std::string> norms;  // unset: [ranking.bm25] of the config
  std::optional<double> k1;
  std::optional<double> b;
  std::string config;
  RankingConfig ranking;  // [ranking.*] of the config, filled before run_search
  std::string format = "json";
  std::string output;
  std::optional<int> rounds;
  bool pretty = false;
  std::optional<std::string> load;  // unset: [ranking.index] load of the config
  bool with_text = false;           // each JSON hit carries its document's text (docs.jsonl)
};

// Ranked hits for one query; in hybrid mode the score is the fused RRF score.
Result<RankedList> rank(const HybridSearcher& s, const std::string& mode, const HybridQuery& q,
                        std::size_t k) {
  if (mode == "bm25") return s.bm25(q.tokens, k);
  if (mode == "vector") return s.vector(q.vector, k);
  return s.fused(q, k);
}

using IdOf = std::function<std::string(std::uint32_t)>;

// A query without a single token (only punctuation, say) still gets a line in every format, so
// a consumer can tell "searched, found nothing" from "lost": TSV writes the row
// qid<TAB>0<TAB>-<TAB>0<TAB>no_tokens (rank 0 is never a hit; a 5th column only on this row), JSON
// adds "no_tokens": true. A query with tokens but no match keeps the TREC convention (no TSV row;
// "hits": [] in JSON).
constexpr const char* kNoTokens = "no_tokens";

std::string format_tsv(const std::string& qid, const RankedList& hits, const IdOf& id_of,
                       bool no_tokens) {
  std::string out;
  if (no_tokens && hits.empty()) return qid + "\t0\t-\t0\t" + kNoTokens + "\n";
  char buf[64];
  for (std::size_t r = 0; r < hits.size(); ++r) {
    std::snprintf(buf, sizeof buf, "%.9g", hits[r].score);
    out += qid;
    out += '\t';
    out += std::to_string(r + 1);
    out += '\t';
    out += id_of(hits[r].doc);
    out += '\t';
    out += buf;
    out += '\n';
  }
  return out;
}

std::string format_json(const std::string& qid, const RankedList& hits, const IdOf& id_of,
                        bool no_tokens, bool pretty, const DocStore* store) {
  // Keys in the documented order: qid, no_tokens (only when true), hits[{rank, id, score, text?}].
  nlohmann::ordered_json j;
  j["qid"] = qid;
  if (no_tokens) j[kNoTokens] = true;
  j["hits"] = nlohmann::ordered_json::array();
  for (std::size_t r = 0; r < hits.size(); ++r) {
    nlohmann::ordered_json h{{"rank", r + 1}, {"id", id_of(hits[r].doc)}, {"score", hits[r].score}};
    if (store != nullptr) h["text"] = store->text(hits[r].doc);
    j["hits"].push_back(std::move(h));
  }
  return j.dump(pretty ? 2 : -1) + "\n";
}

// Resident and peak resident memory of this process (MB), from /proc/self/status.
std::pair<double, double> rss_mb() {
  std::ifstream in("/proc/self/status");
  std::string line;
  double rss = 0, hwm = 0;
  while (std::getline(in, line)) {
    if (line.rfind("VmRSS:", 0) == 0) rss = std::stod(line.substr(6)) / 1024.0;
    if (line.rfind("VmHWM:", 0) == 0) hwm = std::stod(line.substr(6)) / 1024.0;
  }
  return {rss, hwm};
}

// {"id","vector":[…]} per line, one per query id.
Result<std::unordered_map<std::string, std::vector<float>>> load_query_vectors(const std::string& path) {
  QAPLAN_ASSIGN_OR_RETURN(std::string text, read_file(path, "query vectors file"));
  std::unordered_map<std::string, std::vector<float>> out;
  std::string_view rest = text;
  int line_no = 0;
  while (!rest.empty()) {
    const std::size_t nl = rest.find('\n');
    const std::string_view line = rest.substr(0, nl);
    rest.remove_prefix(nl == std::string_view::npos ? rest.size() : nl + 1);
    ++line_no;
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
    auto bad = [&](const char* msg, const char* field) {
      return make_file_error(ErrorCode::kInvalidInput, msg, path, line_no, field);
    };
    if (j.is_discarded() || !j.is_object()) return bad("expected one JSON object per line", "");
    auto id = j.find("id");
    auto v = j.find("vector");
    if (id == j.end() || !id->is_string()) return bad("missing or non-string id", "id");
    if (v == j.end() || !v->is_array()) return bad("must be an array of numbers", "vector");
    std::vector<float> row;
    for (const auto& x : *v) {
      if (!x.is_number()) return bad("must be an array of numbers", "vector");
      row.push_back(x.get<float>());
    }
    out[id->get<std::string>()] = std::move(row);
  }
  return out;
}

// A query's error names the query: --query, or the queries file and the query's id.
Error query_error(Error e, const SearchOptions& o, const TextRecord& q) {
  if (o.queries.empty()) {
    e.field = "--query";
  } else {
    e.file = o.queries;
    e.field = "id " + q.id;
  }
  return e;
}

// The flags that must agree, and the BM25 / HNSW / RRF options they and the config give.
Result<HybridOptions> search_options(const SearchOptions& o) {
  if (o.query.empty() == o.queries.empty())
    return make_error(ErrorCode::kInvalidInput, "give exactly one of --query or --queries");
  if (o.corpus.empty() == o.index.empty())
    return make_error(ErrorCode::kInvalidInput, "give exactly one of --corpus or --index");
  if (o.rounds && *o.rounds < 1) return make_error(ErrorCode::kInvalidInput, "must be >= 1", "--rounds");
  if (o.with_text && (o.index.empty() || o.format != "json"))
    return make_error(ErrorCode::kInvalidInput, "needs --index (its docs.jsonl) and --format json",
                      "--with-text");
  HybridOptions hopts{o.ranking.bm25, o.ranking.hnsw, o.ranking.rrf};
  if (o.norms) {
    QAPLAN_ASSIGN_OR_RETURN(hopts.bm25.norms, parse_bm25_norms(*o.norms));
  }
  hopts.bm25.k1 = o.k1.value_or(hopts.bm25.k1);
  hopts.bm25.b = o.b.value_or(hopts.bm25.b);
  QAPLAN_TRY(hopts.bm25.validate());
  return hopts;
}

// Everything one run holds: the queries, what each needs to be ranked, and the collection.
struct SearchSession {
  std::vector<TextRecord> queries;
  std::vector<std::filesystem::path> inputs;  // never an output
  std::vector<HybridQuery> prepared;
  std::function<Result<RankedList>(std::size_t)> rank_one;
  IdOf id_of;
  std::optional<HybridSearcher> searcher;
  std::optional<CollectionIndex> index;
  std::optional<Bm25Index> bm25;
  std::optional<DocStore> store;
  std::vector<TextRecord> docs;
  double build_s = 0, open_ms = 0;
  std::size_t ndocs = 0;
};

Status read_queries(const SearchOptions& o, SearchSession& s) {
  if (!o.corpus.empty()) s.inputs.emplace_back(o.corpus);
  if (!o.queries.empty()) {
    QAPLAN_ASSIGN_OR_RETURN(s.queries, load_jsonl(o.queries, JsonlKind::kQueries));
    s.inputs.emplace_back(o.queries);
  } else {
    s.queries.push_back({"query", o.query});
  }
  s.prepared.resize(s.queries.size());
  return {};
}

Status tokenize_queries(const SearchOptions& o, SearchSession& s) {
  QAPLAN_ASSIGN_OR_RETURN(const Tokenizer tok, Tokenizer::create());
  for (std::size_t i = 0; i < s.queries.size(); ++i)
    if (Status st = tok.tokenize_into(s.queries[i].text, s.prepared[i].tokens); !st)
      return query_error(st.error(), o, s.queries[i]);
  return {};
}

// --mode vector|hybrid on a saved index: every query's vector from --query-vectors.
Status attach_query_vectors(const SearchOptions& o, SearchSession& s) {
  if (s.index->vectors() == nullptr)
    return make_error(ErrorCode::kInvalidInput, "the index has no vectors (build it with --vectors)",
                      "--mode");
  if (o.query_vectors.empty())
    return make_error(ErrorCode::kInvalidInput, "missing: needed with --mode " + o.mode + " on an index",
                      "--query-vectors");
  QAPLAN_ASSIGN_OR_RETURN(auto qv, load_query_vectors(o.query_vectors));
  for (std::size_t i = 0; i < s.queries.size(); ++i) {
    auto it = qv.find(s.queries[i].id);
    if (it == qv.end())
      return make_file_error(ErrorCode::kInvalidInput,
                             "no vector for query \"" + s.queries[i].id + "\"", o.query_vectors);
    s.prepared[i].vector = std::move(it->second);
  }
  return {};
}

// A saved index: mapped, nothing rebuilt, searched by the HybridSearcher a corpus file gets.
// Its BM25 parameters are part of it.
Status open_saved_index(const SearchOptions& o, const HybridOptions& hopts, SearchSession& s) {
  const auto t0 = Clock::now();
  const bool in_memory = o.load.value_or(o.ranking.load) == "memory";
  QAPLAN_ASSIGN_OR_RETURN(CollectionIndex ix, CollectionIndex::open(o.index, o.mode != "bm25", true, in_memory));
  s.index = std::move(ix);
  s.open_ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  const Bm25Options& built = s.index->bm25().options();
  if ((o.norms && hopts.bm25.norms != built.norms) || (o.k1 && *o.k1 != built.k1) ||
      (o.b && *o.b != built.b))
    return make_error(ErrorCode::kInvalidInput,
                      "the index was built with norms " + std::string(to_string(built.norms)) +
                          ", k1 " + std::to_string(built.k1) + ", b " + std::to_string(built.b) +
                          "; rebuild it to change them",
                      "--index");
  s.ndocs = s.index->size();
  s.id_of = [&s](std::uint32_t d) { return s.index->doc_id(d); };
  if (o.with_text) {
    QAPLAN_ASSIGN_OR_RETURN(s.store, DocStore::open(*s.index));
  }
  QAPLAN_TRY(tokenize_queries(o, s));
  if (o.mode != "bm25") QAPLAN_TRY(attach_query_vectors(o, s));
  QAPLAN_ASSIGN_OR_RETURN(s.searcher, HybridSearcher::open(*s.index, hopts.rrf));
  s.rank_one = [&o, &s](std::size_t i) { return rank(*s.searcher, o.mode, s.prepared[i], o.k); };
  return {};
}

// BM25 over a corpus file: streamed into a compact in-memory index (texts are not kept).
Status build_corpus_bm25(const SearchOptions& o, const HybridOptions& hopts, SearchSession& s) {
  const auto t0 = Clock::now();
  IndexBuildOptions bo;
  bo.bm25 = hopts.bm25;
  QAPLAN_ASSIGN_OR_RETURN(Bm25Index built, build_bm25_from_jsonl(o.corpus, bo));
  s.bm25 = std::move(built);
  s.build_s = std::chrono::duration<double>(Clock::now() - t0).count();
  s.ndocs = s.bm25->size();
  s.id_of = [&s](std::uint32_t d) { return s.bm25->doc_id(d); };
  QAPLAN_TRY(tokenize_queries(o, s));
  s.rank_one = [&o, &s](std::size_t i) -> Result<RankedList> {
    return s.bm25->search(s.prepared[i].tokens, o.k);
  };
  return {};
}

// Vector or hybrid over a corpus file: tokenization + BM25 + TF-IDF fit, embedding and HNSW.
Status build_corpus_hybrid(const SearchOptions& o, const HybridOptions& hopts, SearchSession& s) {
  const auto t0 = Clock::now();
  QAPLAN_ASSIGN_OR_RETURN(s.docs, load_jsonl(o.corpus, JsonlKind::kCorpus));
  const HybridLegs legs{o.mode != "vector", true};
  auto built = HybridSearcher::from_records(s.docs, hopts, legs);
  if (!built) {
    Error e = built.error();
    e.file = o.corpus;
    return e;
  }
  s.searcher = std::move(*built);
  s.build_s = std::chrono::duration<double>(Clock::now() - t0).count();
  s.ndocs = s.docs.size();
  s.id_of = [&s](std::uint32_t d) { return s.docs[d].id; };
  // Tokenization and embedding are excluded from the timed ranking, as in the Lucene harness
  // which times only search().
  for (std::size_t i = 0; i < s.queries.size(); ++i) {
    auto p = s.searcher->prepare(s.queries[i].text);
    if (!p) return query_error(p.error(), o, s.queries[i]);
    s.prepared[i] = std::move(*p);
  }
  s.rank_one = [&o, &s](std::size_t i) { return rank(*s.searcher, o.mode, s.prepared[i], o.k); };
  return {};
}

// Ranks every query once, or with --rounds the Lucene harness's protocol: two warm-up passes,
// then the best (fastest) of N timed passes, one thread; per-query latency percentiles of that
// best pass (nearest rank), reported on stderr.
Status run_rounds(const SearchOptions& o, const SearchSession& s, Clock::time_point t_start,
                  std::vector<RankedList>& results) {
  results.assign(s.prepared.size(), {});
  double first_ms = -1;
  // A mapped index written over or truncated in place is noticed at the start of each round
  // and every 256 queries (one fstat), and before the results read its ids; a change between
  // two checks can still be read (docs/indexes.md). A file replaced by rename is harmless.
  constexpr std::size_t kCheckEvery = 256;
  auto one_round = [&](std::vector<double>* lat) -> Status {
    for (std::size_t i = 0; i < s.prepared.size(); ++i) {
      if (s.index && i % kCheckEvery == 0) QAPLAN_TRY(s.index->unchanged());
      const auto q0 = Clock::now();
      auto r = s.rank_one(i);
      if (lat) (*lat)[i] = std::chrono::duration<double, std::micro>(Clock::now() - q0).count();
      if (!r) return r.error();
      results[i] = std::move(*r);
      if (first_ms < 0)  // process start → first answer (config, open or build, first query)
        first_ms = std::chrono::duration<double, std::milli>(Clock::now() - t_start).count();
    }
    return {};
  };
  if (!o.rounds) return one_round(nullptr);
  if (!o.index.empty())
    std::fprintf(stderr, "qaplan open docs=%zu open_ms=%.2f\n", s.ndocs, s.open_ms);
  else
    std::fprintf(stderr, "qaplan index docs=%zu index_s=%.3f docs_per_s=%.0f\n", s.ndocs, s.build_s,
                 s.build_s > 0 ? static_cast<double>(s.ndocs) / s.build_s : 0.0);
  std::vector<double> lat(s.prepared.size()), best_lat;
  double best = 1e300;
  for (int round = 0; round < 2 + *o.rounds; ++round) {
    const auto r0 = Clock::now();
    QAPLAN_TRY(one_round(&lat));
    const double sec = std::chrono::duration<double>(Clock::now() - r0).count();
    if (round >= 2 && sec < best) {
      best = sec;
      best_lat = lat;
    }
  }
  const double n = static_cast<double>(s.prepared.size());
  auto pct = [&](double p) { return nearest_rank_percentile(best_lat, p).value_or(0.0); };
  const auto [rss, hwm] = rss_mb();
  std::fprintf(stderr,
               "qaplan search mode=%s queries=%zu qps=%.1f p50_us=%.1f p95_us=%.1f p99_us=%.1f "
               "first_answer_ms=%.2f rss_mb=%.1f peak_rss_mb=%.1f\n",
               o.mode.c_str(), s.prepared.size(), best > 0 ? n / best : 0.0, pct(50), pct(95),
               pct(99), first_ms, rss, hwm);
  return {};
}

int write_results(const SearchOptions& o, const SearchSession& s,
                  const std::vector<RankedList>& results) {
  // Formatting reads each hit's id from the index: one more batch.
  if (s.index)
    if (Status st = s.index->unchanged(); !st) return report(st.error());
  std::string out;
  for (std::size_t i = 0; i < s.prepared.size(); ++i)
    out += o.format == "tsv"
               ? format_tsv(s.queries[i].id, results[i], s.id_of, s.prepared[i].tokens.empty())
               : format_json(s.queries[i].id, results[i], s.id_of, s.prepared[i].tokens.empty(),
                             o.pretty, s.store ? &*s.store : nullptr);
  if (o.output.empty() || o.output == "-") {
    std::cout << out;
    return flush_stdout();
  }
  if (Status st = write_file_atomic(o.output, out, s.inputs); !st) return report(st.error());
  return kOk;
}

int run_search(const SearchOptions& o) {
  const auto t_start = Clock::now();
  auto hopts = search_options(o);
  if (!hopts) return report(hopts.error());
  SearchSession s;  // the ranking functions below point into it: it never moves
  if (Status st = read_queries(o, s); !st) return report(st.error());
  const Status opened = !o.index.empty()  ? open_saved_index(o, *hopts, s)
                        : o.mode == "bm25" ? build_corpus_bm25(o, *hopts, s)
                                           : build_corpus_hybrid(o, *hopts, s);
  if (!opened) return report(opened.error());
  std::vector<RankedList> results;
  if (Status st = run_rounds(o, s, t_start, results); !st) return report(st.error());
  return write_results(o, s, results);
}

}  // namespace

Runner register_search(CLI::App& app, GlobalOptions& g) {
  auto o = std::make_shared<SearchOptions>();
  auto* sub = app.add_subcommand(
      "search", "Rank a JSONL corpus ({\"id\",\"text\"}) for --query or --queries ({\"id\",\"query\"})");
  auto* corpus = sub->add_option("--corpus", o->corpus, "JSONL corpus, one {\"id\",\"text\"} per line (no default; this or --index)");
  auto* index = sub->add_option("--index", o->index,
                                "index directory from `qaplan index build`, mapped, not rebuilt (no default; this or --corpus)");
  corpus->excludes(index);
  sub->add_option("--query-vectors", o->query_vectors,
                  "with --index and --mode vector|hybrid: JSONL {\"id\",\"vector\"} per query (default: none)");
  auto* q = sub->add_option("--query", o->query, "one query text, its qid is \"query\" (no default; this or --queries)");
  auto* qs = sub->add_option("--queries", o->queries, "JSONL queries, one {\"id\",\"query\"} per line (no default; this or --query)");
  q->excludes(qs);
  sub->add_option("--mode", o->mode,
                  "bm25 | vector (local TF-IDF, HNSW cosine) | hybrid (RRF of both, k from [ranking.rrf])")
      ->capture_default_str()
      ->check(CLI::IsMember({"bm25", "vector", "hybrid"}));
  sub->add_option("--k", o->k, "hits per query (0 = every match)")
      ->capture_default_str()
      ->check(CLI::Range(0, 100000000));
  sub->add_option("--config", o->config,
                  "rules file whose [ranking.*] gives the defaults (default: $QAPLAN_CONFIG, the checkout's config/rules.toml, ~/.config/qaplan, then the installed one; -v names it)");
  sub->add_option("--norms", o->norms, "BM25 length norms: exact | lucene (default: [ranking.bm25])")
      ->check(CLI::IsMember({"exact", "lucene"}));
  sub->add_option("--k1", o->k1, "BM25 k1 (>= 0; default: [ranking.bm25])");
  sub->add_option("--b", o->b, "BM25 b (0..1; default: [ranking.bm25])");
  sub->add_option("--format", o->format, "json (one object per query per line) | tsv "
                  "(qid<TAB>rank<TAB>docid<TAB>score); a query without tokens: \"no_tokens\": true "
                  "/ the row qid<TAB>0<TAB>-<TAB>0<TAB>no_tokens")
      ->capture_default_str()
      ->check(CLI::IsMember({"json", "tsv"}));
  sub->add_option("--output", o->output, "output file (default: stdout); never an input");
  sub->add_option("--rounds", o->rounds,
                  "timing: 2 warm-up passes, then N timed passes; prints index docs/s and the "
                  "best pass's qps and p50/p95/p99 µs per query to stderr (default: no timing)");
  sub->add_flag("--with-text", o->with_text,
                "each hit also carries its document's text (from the index's docs.jsonl; --index "
                "and --format json)");
  sub->add_flag("--pretty", o->pretty, "indent JSON output (default: one object per line)");
  sub->add_option("--load", o->load, "with --index: mmap (map the file; a change on disk is "
                  "refused at the next check, not in between) | memory (read it into memory: immune to changes on disk) "
                  "(default: [ranking.index] load)")
      ->check(CLI::IsMember({"mmap", "memory"}));
  return [o, &g] {
    if (g.pretty) o->pretty = true;
    auto ranking = load_cli_ranking_config(o->config);
    if (!ranking) return report(ranking.error());
    o->ranking = std::move(*ranking);
    return run_search(*o);
  };
}

}  // namespace qaplan::cli
