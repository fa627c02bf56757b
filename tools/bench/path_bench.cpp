// The path a user runs, timed by stage: question → prepare → analyze → retrieval over a saved
// index (ask_index: BM25 legs per query text, scope, RRF, passages with text), one thread.
//
//   build/bench/path_bench [--docs N] [--vectors M] [--reps R] [--cache DIR]
//
// Two saved indexes are built once and kept in DIR (default /tmp/qaplan-path-bench): N documents
// (default 1 000 000) for BM25 alone, and M documents (default 100 000) with 256-dimension vectors
// for the hybrid path (BM25 + one cosine leg per query text). Their documents are three sentences
// drawn at random from the shipped knowledge base (eval_sets/kb/docs.jsonl) with that document's
// source, so the questions' words occur in them and source scopes cut. The questions are the
// planner benchmark's 370 (tools/bench/data/planner_questions.jsonl); those that retrieve are in
// the table (a direct answer searches nothing). R passes (default 5) over the set after one
// warm-up pass; per question the median of its passes, then p50 / p95 / p99 over questions per
// stage and end to end, and planning's share of retrieval. Between two plans the retrieval has
// run, so the planner's tables are as cold as in a host — unlike planner_bench's tight loop.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "common/percentile.hpp"
#include "qaplan/retrieval/ask.hpp"
#include "qaplan/io.hpp"
#include "qaplan/ranking/index_dir.hpp"
#include "qaplan/ranking/vector_index.hpp"
#include "support/rng.hpp"

namespace {

namespace fs = std::filesystem;
using qaplan::test::Rng;

constexpr std::size_t kDims = 256;

struct Sentence {
  std::string text;
  std::string source;
};

// The knowledge base's sentences (split at 。！？ and line ends), each with its document's source.
std::vector<Sentence> kb_sentences() {
  std::vector<Sentence> out;
  std::ifstream in(fs::path(QAPLAN_SOURCE_DIR) / "eval_sets" / "kb" / "docs.jsonl");
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    const auto j = nlohmann::json::parse(line);
    const std::string text = j.value("text", ""), source = j.value("source", "");
    std::size_t b = 0;
    for (std::size_t i = 0; i < text.size();) {
      std::size_t end = 0;
      for (std::string_view stop : {"。", "！", "？", "\n"})
        if (text.compare(i, stop.size(), stop) == 0) end = i + stop.size();
      i = end ? end : i + 1;
      if (end && end - b > 6) out.push_back({text.substr(b, end - b), source});
      if (end) b = end;
    }
  }
  return out;
}

// N documents of three random sentences; the source of the first.
void write_corpus(const fs::path& file, std::size_t n, const std::vector<Sentence>& s) {
  Rng rng(42);
  std::ofstream out(file);
  for (std::size_t i = 0; i < n; ++i) {
    const Sentence& a = s[rng.next() % s.size()];
    const std::string text = a.text + s[rng.next() % s.size()].text + s[rng.next() % s.size()].text;
    out << nlohmann::json{{"id", "d" + std::to_string(i)},
                          {"parent_id", "p" + std::to_string(i / 4)},
                          {"source", a.source},
                          {"text", text}}
               .dump()
        << '\n';
  }
}

// Unit vectors around 100 fixed centres (the vector benchmark's clustered shape).
std::vector<float> clustered_vector(Rng& rng, const std::vector<std::vector<float>>& centres) {
  const auto& c = centres[rng.next() % centres.size()];
  std::vector<float> v(kDims);
  for (std::size_t k = 0; k < kDims; ++k) v[k] = c[k] + static_cast<float>(0.15 * rng.normal());
  return v;
}

std::vector<std::vector<float>> centres() {
  Rng rng(7);
  std::vector<std::vector<float>> c(100, std::vector<float>(kDims));
  for (auto& row : c)
    for (auto& x : row) x = static_cast<float>(rng.normal());
  return c;
}

// Builds DIR once: the corpus, its BM25 index, its store and (when `vectors`) an HNSW graph.
bool ensure_index(const fs::path& dir, std::size_t n, bool vectors,
                  const std::vector<Sentence>& sentences) {
  if (fs::exists(dir / "CURRENT")) return true;
  fs::create_directories(dir);
  const fs::path corpus = dir.string() + ".corpus.jsonl";
  std::printf("# building %s (%zu documents%s) …\n", dir.c_str(), n, vectors ? ", vectors" : "");
  std::fflush(stdout);
  write_corpus(corpus, n, sentences);
  qaplan::IndexBuildOptions opts;
  opts.threads = 2;
  auto bm25 = qaplan::build_bm25_from_jsonl(corpus, opts);
  if (!bm25.ok()) return std::fprintf(stderr, "%s\n", bm25.error().to_string().c_str()), false;
  auto store = qaplan::make_doc_store(corpus, *bm25);
  if (!store.ok()) return std::fprintf(stderr, "%s\n", store.error().to_string().c_str()), false;
  std::optional<qaplan::VectorIndex> vi;
  if (vectors) {
    Rng rng(11);
    const auto c = centres();
    std::vector<std::vector<float>> rows;
    for (std::size_t i = 0; i < n; ++i) rows.push_back(clustered_vector(rng, c));
    auto built = qaplan::VectorIndex::create(kDims, rows);
    if (!built.ok()) return std::fprintf(stderr, "%s\n", built.error().to_string().c_str()), false;
    vi.emplace(std::move(built).value());
  }
  const auto st = qaplan::save_collection_index(dir, *bm25, vi ? &*vi : nullptr, {}, &*store);
  if (!st.ok()) return std::fprintf(stderr, "%s\n", st.error().to_string().c_str()), false;
  fs::remove(corpus);
  return true;
}

struct Question {
  std::string text;
  std::vector<std::string> history;
};

std::vector<Question> questions() {
  std::vector<Question> out;
  std::ifstream in(fs::path(QAPLAN_SOURCE_DIR) / "tools" / "bench" / "data" /
                   "planner_questions.jsonl");
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    const auto j = nlohmann::json::parse(line);
    out.push_back(
        {j.at("question").get<std::string>(), j.value("history", std::vector<std::string>{})});
  }
  return out;
}

struct Stages {
  std::vector<double> prepare, analyze, retrieve, total;  // µs, per question medians
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

// R passes over the questions; per question the median of each stage.
Stages run(const qaplan::Planner& planner, const qaplan::CollectionIndex& index,
           const qaplan::DocStore& store, const std::vector<Question>& qs, int reps, bool hybrid) {
  Rng rng(5);
  const auto c = centres();
  std::vector<std::vector<std::vector<double>>> t(qs.size(), std::vector<std::vector<double>>(4));
  qaplan::AnalysisContext ctx;
  ctx.now = "2026-03-15T10:00:00+08:00";
  for (int rep = 0; rep < reps; ++rep) {
    for (std::size_t i = 0; i < qs.size(); ++i) {
      std::vector<std::vector<float>> qv;
      if (hybrid)
        for (int k = 0; k < 4; ++k) qv.push_back(clustered_vector(rng, c));
      const auto t0 = std::chrono::steady_clock::now();
      auto r = qaplan::ask_index(planner, {qs[i].text, qs[i].history, "", std::nullopt}, ctx, index,
                                 store, {}, qv);
      const double total =
          std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
      if (!r.ok() || !r->analysis) continue;  // direct answers retrieve nothing: not timed here
      t[i][0].push_back(static_cast<double>(r->timings.prepare_ns) / 1e3);
      t[i][1].push_back(static_cast<double>(r->timings.analyze_ns) / 1e3);
      t[i][2].push_back(static_cast<double>(r->timings.retrieve_ns) / 1e3);
      t[i][3].push_back(total);
    }
  }
  Stages s;
  for (const auto& q : t) {
    if (q[3].empty()) continue;
    s.prepare.push_back(median(q[0]));
    s.analyze.push_back(median(q[1]));
    s.retrieve.push_back(median(q[2]));
    s.total.push_back(median(q[3]));
  }
  return s;
}

void print(const char* name, const Stages& s) {
  auto row = [](const char* stage, std::vector<double> v) {
    std::sort(v.begin(), v.end());
    double sum = 0;
    for (double x : v) sum += x;
    auto pct = [&](double p) {
      return qaplan::internal::nearest_rank_percentile(v, p).value_or(0);
    };
    std::printf("  %-10s p50 %9.1f  p95 %9.1f  p99 %9.1f  mean %9.1f us\n", stage, pct(50), pct(95),
                pct(99), v.empty() ? 0 : sum / static_cast<double>(v.size()));
    return sum;
  };
  std::printf("%s (%zu retrieval questions; direct answers are not in these rows)\n", name,
              s.total.size());
  const double p = row("prepare", s.prepare), a = row("analyze", s.analyze);
  const double r = row("retrieve", s.retrieve);
  row("total", s.total);
  std::printf("  planning (prepare + analyze) / retrieval, summed over questions: %.2f %%\n",
              r > 0 ? 100.0 * (p + a) / r : 0.0);
}

}  // namespace

int main(int argc, char** argv) {
  std::size_t docs = 1000000, vectors = 100000;
  int reps = 5;
  fs::path cache = "/tmp/qaplan-path-bench";
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i];
    if (a == "--docs")
      docs = std::strtoull(argv[i + 1], nullptr, 10);
    else if (a == "--vectors")
      vectors = std::strtoull(argv[i + 1], nullptr, 10);
    else if (a == "--reps")
      reps = std::max(1, std::atoi(argv[i + 1]));
    else if (a == "--cache")
      cache = argv[i + 1];
  }
  const auto sentences = kb_sentences();
  const fs::path lexical = cache / ("bm25-" + std::to_string(docs));
  const fs::path hybrid = cache / ("hybrid-" + std::to_string(vectors));
  if (!ensure_index(lexical, docs, false, sentences) ||
      !ensure_index(hybrid, vectors, true, sentences))
    return 1;
  auto planner = qaplan::Planner::create_default();
  if (!planner.ok()) return std::fprintf(stderr, "%s\n", planner.error().to_string().c_str()), 1;
  const auto qs = questions();
  for (const auto& [dir, is_hybrid] : {std::pair{lexical, false}, std::pair{hybrid, true}}) {
    auto index = qaplan::CollectionIndex::open(dir);
    if (!index.ok()) return std::fprintf(stderr, "%s\n", index.error().to_string().c_str()), 1;
    auto store = qaplan::DocStore::open(*index);
    if (!store.ok()) return std::fprintf(stderr, "%s\n", store.error().to_string().c_str()), 1;
    run(*planner, *index, *store, qs, 1, is_hybrid);  // warm-up pass
    const Stages s = run(*planner, *index, *store, qs, reps, is_hybrid);
    const std::string name = std::string(is_hybrid ? "hybrid, " : "bm25, ") +
                             std::to_string(index->size()) + " documents";
    print(name.c_str(), s);
  }
  return 0;
}
