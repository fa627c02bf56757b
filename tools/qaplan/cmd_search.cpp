// qaplan search: rank a JSONL corpus for one query or a JSONL query file with BM25, vector
// (local TF-IDF + HNSW) or hybrid (RRF of both) search; optional timing rounds printed like the
// Lucene harness (../shared/peers/lucene/LuceneBm25.java) so the two can be compared line by line.
#include <algorithm>
#include <chrono>
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
#include "qaplan/ranking/hybrid.hpp"

namespace qaplan::cli {
namespace {

using Clock = std::chrono::steady_clock;

struct SearchOptions {
  std::string corpus;
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
};

// Ranked hits for one query; in hybrid mode the score is the fused RRF score.
Result<RankedList> rank(const HybridSearcher& s, const std::string& mode, const HybridQuery& q,
                        std::size_t k) {
  if (mode == "bm25") return s.bm25(q.tokens, k);
  if (mode == "vector") return s.vector(q.vector, k);
  return s.fused(q, k);
}

std::string format_tsv(const std::string& qid, const RankedList& hits,
                       const std::vector<TextRecord>& docs) {
  std::string out;
  char buf[64];
  for (std::size_t r = 0; r < hits.size(); ++r) {
    std::snprintf(buf, sizeof buf, "%.9g", hits[r].score);
    out += qid;
    out += '\t';
    out += std::to_string(r + 1);
    out += '\t';
    out += docs[hits[r].doc].id;
    out += '\t';
    out += buf;
    out += '\n';
  }
  return out;
}

std::string format_json(const std::string& qid, const RankedList& hits,
                        const std::vector<TextRecord>& docs, bool pretty) {
  nlohmann::ordered_json j;  // keys in the documented order: qid, hits[{rank, id, score}]
  j["qid"] = qid;
  j["hits"] = nlohmann::ordered_json::array();
  for (std::size_t r = 0; r < hits.size(); ++r)
    j["hits"].push_back(
        nlohmann::ordered_json{{"rank", r + 1}, {"id", docs[hits[r].doc].id}, {"score", hits[r].score}});
  return j.dump(pretty ? 2 : -1) + "\n";
}

int run_search(const SearchOptions& o) {
  if (o.query.empty() == o.queries.empty())
    return report(make_error(ErrorCode::kInvalidInput, "give exactly one of --query or --queries"));
  if (o.rounds && *o.rounds < 1)
    return report(make_error(ErrorCode::kInvalidInput, "must be >= 1", "--rounds"));
  HybridOptions hopts{o.ranking.bm25, o.ranking.hnsw, o.ranking.rrf};
  if (o.norms) {
    auto norms = parse_bm25_norms(*o.norms);
    if (!norms) return report(norms.error());
    hopts.bm25.norms = *norms;
  }
  hopts.bm25.k1 = o.k1.value_or(hopts.bm25.k1);
  hopts.bm25.b = o.b.value_or(hopts.bm25.b);
  if (Status s = hopts.bm25.validate(); !s) return report(s.error());

  auto docs = load_jsonl(o.corpus, JsonlKind::kCorpus);
  if (!docs) return report(docs.error());
  std::vector<TextRecord> queries;
  std::vector<std::filesystem::path> inputs = {o.corpus};
  if (!o.queries.empty()) {
    auto q = load_jsonl(o.queries, JsonlKind::kQueries);
    if (!q) return report(q.error());
    queries = std::move(*q);
    inputs.emplace_back(o.queries);
  } else {
    queries.push_back({"query", o.query});
  }

  // Index build: tokenization + BM25 (+ TF-IDF fit, embedding and HNSW for vector modes).
  const auto t0 = Clock::now();
  const HybridLegs legs{o.mode != "vector", o.mode != "bm25"};
  auto searcher = HybridSearcher::from_records(*docs, hopts, legs);
  if (!searcher) {
    Error e = searcher.error();
    e.file = o.corpus;
    return report(e);
  }
  const double build_s = std::chrono::duration<double>(Clock::now() - t0).count();

  // Tokenization and embedding are excluded from the timed ranking, as in the Lucene harness
  // which times only search().
  std::vector<HybridQuery> prepared;
  prepared.reserve(queries.size());
  for (const auto& q : queries) {
    auto p = searcher->prepare(q.text);
    if (!p) {
      Error e = p.error();
      if (o.queries.empty()) {
        e.field = "--query";
      } else {
        e.file = o.queries;
        e.field = "id " + q.id;
      }
      return report(e);
    }
    prepared.push_back(std::move(*p));
  }

  std::vector<RankedList> results(prepared.size());
  auto one_round = [&](std::vector<double>* lat) -> Status {
    for (std::size_t i = 0; i < prepared.size(); ++i) {
      const auto q0 = Clock::now();
      auto r = rank(*searcher, o.mode, prepared[i], o.k);
      if (lat) (*lat)[i] = std::chrono::duration<double, std::micro>(Clock::now() - q0).count();
      if (!r) return r.error();
      results[i] = std::move(*r);
    }
    return {};
  };
  if (!o.rounds) {
    if (Status s = one_round(nullptr); !s) return report(s.error());
  } else {
    // The Lucene harness's protocol: two warm-up passes, then the best (fastest) of N timed
    // passes, one thread; per-query latency percentiles of that best pass (nearest rank).
    std::fprintf(stderr, "qaplan index docs=%zu index_s=%.3f docs_per_s=%.0f\n", docs->size(),
                 build_s, build_s > 0 ? static_cast<double>(docs->size()) / build_s : 0.0);
    std::vector<double> lat(prepared.size()), best_lat;
    double best = 1e300;
    for (int round = 0; round < 2 + *o.rounds; ++round) {
      const auto r0 = Clock::now();
      if (Status s = one_round(&lat); !s) return report(s.error());
      const double sec = std::chrono::duration<double>(Clock::now() - r0).count();
      if (round >= 2 && sec < best) {
        best = sec;
        best_lat = lat;
      }
    }
    const double n = static_cast<double>(prepared.size());
    auto pct = [&](double p) { return nearest_rank_percentile(best_lat, p).value_or(0.0); };
    std::fprintf(stderr,
                 "qaplan search mode=%s queries=%zu qps=%.1f p50_us=%.1f p95_us=%.1f p99_us=%.1f\n",
                 o.mode.c_str(), prepared.size(), best > 0 ? n / best : 0.0, pct(50), pct(95),
                 pct(99));
  }

  std::string out;
  for (std::size_t i = 0; i < prepared.size(); ++i)
    out += o.format == "tsv" ? format_tsv(queries[i].id, results[i], *docs)
                             : format_json(queries[i].id, results[i], *docs, o.pretty);
  if (o.output.empty() || o.output == "-") {
    std::cout << out << std::flush;
    return std::cout ? kOk : report(make_error(ErrorCode::kIo, "cannot write to stdout"));
  }
  if (Status s = write_file_atomic(o.output, out, inputs); !s) return report(s.error());
  return kOk;
}

}  // namespace

Runner register_search(CLI::App& app, GlobalOptions& g) {
  auto o = std::make_shared<SearchOptions>();
  auto* sub = app.add_subcommand(
      "search", "Rank a JSONL corpus ({\"id\",\"text\"}) for --query or --queries ({\"id\",\"query\"})");
  sub->add_option("--corpus", o->corpus, "JSONL corpus, one {\"id\",\"text\"} per line")
      ->required();
  auto* q = sub->add_option("--query", o->query, "one query text (its qid is \"query\")");
  auto* qs = sub->add_option("--queries", o->queries, "JSONL queries, one {\"id\",\"query\"} per line");
  q->excludes(qs);
  sub->add_option("--mode", o->mode,
                  "bm25 | vector (local TF-IDF, HNSW cosine) | hybrid (RRF k=60 of both)")
      ->check(CLI::IsMember({"bm25", "vector", "hybrid"}));
  sub->add_option("--k", o->k, "hits per query (0 = every match)")
      ->capture_default_str()
      ->check(CLI::Range(0, 100000000));
  sub->add_option("--config", o->config,
                  "rules file whose [ranking.*] gives the defaults (default: $QAPLAN_CONFIG, then the shipped one)");
  sub->add_option("--norms", o->norms, "BM25 length norms: exact | lucene (default: [ranking.bm25])")
      ->check(CLI::IsMember({"exact", "lucene"}));
  sub->add_option("--k1", o->k1, "BM25 k1 (>= 0; default: [ranking.bm25])");
  sub->add_option("--b", o->b, "BM25 b (0..1; default: [ranking.bm25])");
  sub->add_option("--format", o->format, "json (one object per query per line) | tsv "
                  "(qid<TAB>rank<TAB>docid<TAB>score)")
      ->check(CLI::IsMember({"json", "tsv"}));
  sub->add_option("--output", o->output, "output file (default: stdout); never an input");
  sub->add_option("--rounds", o->rounds,
                  "timing: 2 warm-up passes, then N timed passes; prints index docs/s and the "
                  "best pass's qps and p50/p95/p99 µs per query to stderr");
  sub->add_flag("--pretty", o->pretty, "indent JSON output");
  return [o, &g] {
    if (g.pretty) o->pretty = true;
    auto ranking = load_cli_ranking_config(o->config);
    if (!ranking) return report(ranking.error());
    o->ranking = std::move(*ranking);
    return run_search(*o);
  };
}

}  // namespace qaplan::cli
