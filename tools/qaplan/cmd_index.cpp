// qaplan index build: stream a JSONL corpus into a saved index directory (docs/indexes.md) that
// `qaplan search --index DIR` maps and answers from without rebuilding.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "cli.hpp"
#include "config_lookup.hpp"
#include "qaplan/ranking/doc_store.hpp"
#include "qaplan/ranking/index_dir.hpp"
#include "qaplan/ranking/vector_index.hpp"

namespace qaplan::cli {
namespace {

using Clock = std::chrono::steady_clock;

struct IndexOptions {
  std::string corpus;
  std::string output;
  std::optional<std::string> norms;
  std::optional<double> k1, b;
  std::string config;
  std::string vectors;
  unsigned threads = 1;
  bool pretty = false;
  bool no_store = false;
};

// {"id": "...", "vector": [numbers]} per line, one per document (any order); row i of the
// result belongs to document i of `bm25`.
Result<std::vector<std::vector<float>>> read_vectors(const std::string& path, const Bm25Index& bm25,
                                                     std::size_t& dims) {
  QAPLAN_ASSIGN_OR_RETURN(std::string text, read_file(path, "vectors file"));
  std::unordered_map<std::string, std::uint32_t> doc;
  for (std::size_t i = 0; i < bm25.size(); ++i) doc.emplace(bm25.doc_id(i), static_cast<std::uint32_t>(i));
  std::vector<std::vector<float>> rows(bm25.size());
  std::string_view rest = text;
  int line_no = 0;
  dims = 0;
  while (!rest.empty()) {
    const std::size_t nl = rest.find('\n');
    const std::string_view line = rest.substr(0, nl);
    rest.remove_prefix(nl == std::string_view::npos ? rest.size() : nl + 1);
    ++line_no;
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    auto fail = [&](const std::string& msg, const std::string& field) {
      return make_file_error(ErrorCode::kInvalidInput, msg, path, line_no, field);
    };
    nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.is_object()) return fail("expected one JSON object per line", "");
    auto id = j.find("id");
    if (id == j.end() || !id->is_string()) return fail("missing or non-string id", "id");
    auto it = doc.find(id->get_ref<const std::string&>());
    if (it == doc.end()) return fail("id not in the corpus", "id");
    auto v = j.find("vector");
    if (v == j.end() || !v->is_array() || v->empty()) return fail("must be a non-empty array", "vector");
    if (dims == 0) dims = v->size();
    if (v->size() != dims)
      return fail("has " + std::to_string(v->size()) + " values, expected " + std::to_string(dims),
                  "vector");
    if (!rows[it->second].empty()) return fail("duplicate id", "id");
    auto& row = rows[it->second];
    row.reserve(dims);
    for (const auto& x : *v) {
      if (!x.is_number()) return fail("values must be numbers", "vector");
      row.push_back(x.get<float>());
    }
  }
  for (std::size_t i = 0; i < rows.size(); ++i)
    if (rows[i].empty())
      return make_file_error(ErrorCode::kInvalidInput,
                             "no vector for document \"" + bm25.doc_id(i) + "\"", path);
  return rows;
}

int run_index_build(const IndexOptions& o, const RankingConfig& ranking) {
  IndexBuildOptions bo;
  bo.bm25 = ranking.bm25;
  if (o.norms) {
    auto norms = parse_bm25_norms(*o.norms);
    if (!norms) return report(norms.error());
    bo.bm25.norms = *norms;
  }
  bo.bm25.k1 = o.k1.value_or(bo.bm25.k1);
  bo.bm25.b = o.b.value_or(bo.bm25.b);
  if (Status s = bo.bm25.validate(); !s) return report(s.error());
  if (o.threads < 1 || o.threads > 256)
    return report(make_error(ErrorCode::kInvalidInput, "must be in 1..256", "--threads"));
  bo.threads = o.threads;
  const bool tty = ::isatty(2) != 0;
  if (tty)
    bo.progress = [](std::size_t docs, std::uint64_t done, std::uint64_t total) {
      std::fprintf(stderr, "\rqaplan index: %zu documents, %.0f%% of the corpus read", docs,
                   total ? 100.0 * static_cast<double>(done) / static_cast<double>(total) : 100.0);
    };
  const auto t0 = Clock::now();
  auto bm25 = build_bm25_from_jsonl(o.corpus, bo);
  if (tty) std::fprintf(stderr, "\n");
  if (!bm25) return report(bm25.error());
  std::optional<VectorIndex> vec;
  std::size_t dims = 0;
  if (!o.vectors.empty()) {
    auto rows = read_vectors(o.vectors, *bm25, dims);
    if (!rows) return report(rows.error());
    auto v = VectorIndex::create(dims, *rows, ranking.hnsw);
    if (!v) {
      Error e = v.error();
      e.file = o.vectors;
      return report(e);
    }
    vec = std::move(*v);
  }
  std::optional<std::string> store;
  if (!o.no_store) {
    auto made = make_doc_store(o.corpus, *bm25);
    if (!made) return report(made.error());
    store = std::move(*made);
  }
  std::vector<std::filesystem::path> inputs = {o.corpus};
  if (!o.vectors.empty()) inputs.emplace_back(o.vectors);
  if (Status s = save_collection_index(o.output, *bm25, vec ? &*vec : nullptr, inputs,
                                       store ? &*store : nullptr);
      !s)
    return report(s.error());
  const double secs = std::chrono::duration<double>(Clock::now() - t0).count();
  const Bm25Stats st = bm25->stats();
  nlohmann::ordered_json j;
  j["index"] = o.output;
  j["documents"] = st.docs;
  j["terms"] = st.terms;
  j["postings"] = st.postings;
  j["bm25_bytes"] = st.file_bytes;
  j["postings_bytes"] = st.postings_bytes;
  j["norms"] = std::string(to_string(bo.bm25.norms));
  j["k1"] = bo.bm25.k1;
  j["b"] = bo.bm25.b;
  j["vectors"] = vec ? nlohmann::ordered_json(dims) : nlohmann::ordered_json(nullptr);
  j["store_bytes"] = store ? nlohmann::ordered_json(store->size()) : nlohmann::ordered_json(nullptr);
  j["threads"] = o.threads;
  j["timing"] = {{"build_s", secs},
                 {"docs_per_s", secs > 0 ? static_cast<double>(st.docs) / secs : 0.0}};
  std::cout << j.dump(o.pretty ? 2 : -1) << '\n';
  return flush_stdout();
}

}  // namespace

Runner register_index(CLI::App& app, GlobalOptions& g) {
  auto o = std::make_shared<IndexOptions>();
  auto* sub = app.add_subcommand("index", "Build saved indexes (index build …)");
  sub->require_subcommand(1);
  auto* build = sub->add_subcommand(
      "build", "Stream a JSONL corpus ({\"id\",\"text\"}) into an index directory that "
               "`qaplan search --index DIR` opens without rebuilding");
  build->add_option("--corpus", o->corpus, "JSONL corpus, one {\"id\",\"text\"} per line")
      ->required();
  build->add_option("--output", o->output, "index directory (created; its files are replaced atomically)")
      ->required();
  build->add_option("--norms", o->norms, "BM25 length norms: exact | lucene (default: [ranking.bm25])")
      ->check(CLI::IsMember({"exact", "lucene"}));
  build->add_option("--k1", o->k1, "BM25 k1 (>= 0; default: [ranking.bm25])");
  build->add_option("--b", o->b, "BM25 b (0..1; default: [ranking.bm25])");
  build->add_option("--vectors", o->vectors,
                    "JSONL {\"id\",\"vector\":[…]} for every document (default: none, BM25 only): also build and save the HNSW "
                    "graph ([ranking.hnsw])");
  build->add_option("--threads", o->threads,
                    "parse/tokenize/encode threads (default 1); the files do not depend on it")
      ->capture_default_str();
  build->add_option("--config", o->config,
                    "rules file whose [ranking.*] gives the defaults (default: $QAPLAN_CONFIG, the checkout's config/rules.toml, ~/.config/qaplan, then the installed one; -v names it)");
  build->add_flag("--no-store", o->no_store,
                  "keep no document store (docs.jsonl): search --with-text and ask then cannot "
                  "show passages");
  build->add_flag("--pretty", o->pretty, "indent the JSON summary");
  return [o, &g] {
    if (g.pretty) o->pretty = true;
    auto ranking = load_cli_ranking_config(o->config);
    if (!ranking) return report(ranking.error());
    return run_index_build(*o, *ranking);
  };
}

}  // namespace qaplan::cli
