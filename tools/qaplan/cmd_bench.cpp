// qaplan bench — the frozen policy-retrieval benchmark (docs/guide.md).
//
//   qaplan bench --backend local-tfidf|cached [--query-vectors P --index-vectors P]
//                [--dataset P] [--fingerprints P] --output DIR [--compact]
//   qaplan bench --export-queries FILE [--dataset P] [--index-vectors P]
//   qaplan bench --backend local-tfidf --write-vector-pack DIR [--dataset P]
//
// Dataset lookup when --dataset is absent: find_data_file() (first existing file wins):
//   ./eval_sets/policy-retrieval-v1.json                   (run from the checkout root)
//   <dir of the qaplan binary>/../eval_sets/…               (a build directory inside the checkout)
//   <dir of the qaplan binary>/../share/qaplan/eval_sets/…  (an installed layout)
//   the checkout holding the working directory, the source tree of a build-tree binary, the
//   install prefix's share/qaplan (wherever the rules file would be found)
// The fingerprint registry defaults to fingerprints.json beside the dataset, the cached
// backend's vector pack to vectors/local-tfidf.{query-vectors,index}.json beside it (the
// shipped pack, eval_sets/vectors/).
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "cli.hpp"
#include "config_lookup.hpp"
#include "qaplan/eval/bench.hpp"
#include "qaplan/eval/dataset.hpp"

namespace qaplan::cli {
namespace fs = std::filesystem;
namespace {

constexpr const char* kDatasetFile = "policy-retrieval-v1.json";
constexpr const char* kPackIndexFile = "local-tfidf.index.json";
constexpr const char* kPackQueryFile = "local-tfidf.query-vectors.json";

struct BenchArgs {
  std::string backend;
  std::string dataset;
  std::string fingerprints;
  std::string query_vectors;
  std::string index_vectors;
  std::string output;
  std::string export_queries;
  std::string write_vector_pack;
  bool compact = false;
  std::string config;
};

Result<fs::path> find_dataset(const std::string& given) {
  return find_data_file(given, fs::path("eval_sets") / kDatasetFile, "--dataset");
}

// The shipped vector pack sits in vectors/ beside the dataset.
fs::path pack_file(const fs::path& dataset, const std::string& given, const char* name) {
  return given.empty() ? dataset.parent_path() / "vectors" / name : fs::path(given);
}

Result<NamedText> load(const fs::path& path) {
  auto text = read_file(path, "file");
  if (!text) return std::move(text).error();
  return NamedText{path.filename().string(), std::move(*text)};
}

bool same_file(const fs::path& a, const fs::path& b) {
  std::error_code e1, e2;
  const fs::path ca = fs::weakly_canonical(a, e1), cb = fs::weakly_canonical(b, e2);
  return !e1 && !e2 && ca == cb;
}

// A directory that will receive outputs: refused when it is an input, created when missing.
Status prepare_output_dir(const fs::path& dir, const std::vector<fs::path>& inputs,
                          const char* flag) {
  for (const fs::path& in : inputs)
    if (same_file(dir, in))
      return make_error(ErrorCode::kInvalidInput, "refusing to write into an input file", flag);
  std::error_code ec;
  if (fs::exists(dir, ec) && !fs::is_directory(dir, ec))
    return make_error(ErrorCode::kInvalidInput, "output must be a directory, not a file",
                      std::string(flag) + " " + dir.string());
  fs::create_directories(dir, ec);
  if (ec)
    return make_error(ErrorCode::kIo, "cannot create output directory: " + ec.message(),
                      dir.string());
  return {};
}

int run_export(const BenchArgs& a) {
  auto ds_path = find_dataset(a.dataset);
  if (!ds_path) return report(ds_path.error());
  const fs::path fp_path =
      a.fingerprints.empty() ? fingerprint_registry_path(*ds_path) : fs::path(a.fingerprints);
  const fs::path index_path = pack_file(*ds_path, a.index_vectors, kPackIndexFile);
  const std::vector<fs::path> inputs{*ds_path, fp_path, index_path};
  auto ds = load(*ds_path);
  if (!ds) return report(ds.error());
  auto fp = load(fp_path);
  if (!fp) return report(fp.error());
  auto idx = load(index_path);
  if (!idx) return report(idx.error());
  auto manifest = export_query_manifest(*ds, *fp, *idx, !a.compact);
  if (!manifest) return report(manifest.error());
  if (Status st = write_file_atomic(a.export_queries, *manifest, inputs); !st)
    return report(st.error());
  spdlog::info("wrote request manifest {}", a.export_queries);
  return kOk;
}

int run_write_pack(const BenchArgs& a) {
  if (a.backend != "local-tfidf")
    return report(make_error(ErrorCode::kInvalidInput,
                             "needs --backend local-tfidf (the built-in embedder produces the pack)",
                             "--write-vector-pack"));
  auto ds_path = find_dataset(a.dataset);
  if (!ds_path) return report(ds_path.error());
  const fs::path fp_path =
      a.fingerprints.empty() ? fingerprint_registry_path(*ds_path) : fs::path(a.fingerprints);
  const std::vector<fs::path> inputs{*ds_path, fp_path};
  auto ds = load(*ds_path);
  if (!ds) return report(ds.error());
  auto fp = load(fp_path);
  if (!fp) return report(fp.error());
  auto pack = make_local_tfidf_vector_pack(*ds, *fp, kPackIndexFile);
  if (!pack) return report(pack.error());
  const fs::path dir(a.write_vector_pack);
  if (Status st = prepare_output_dir(dir, inputs, "--write-vector-pack"); !st)
    return report(st.error());
  // The index and the query vectors are one set: published as one generation under DIR/.lock
  // like an index build (two renames without the lock could pair one run's index with another's
  // queries, or leave a half-switched pair after a kill).
  const std::vector<std::pair<std::string, std::string>> files{
      {std::string(kPackIndexFile), pack->index_json},
      {std::string(kPackQueryFile), pack->pack_json}};
  if (Status st = write_files_atomic(dir, files, inputs); !st) return report(st.error());
  std::cout << (dir / kPackIndexFile).string() << '\n' << (dir / kPackQueryFile).string() << '\n';
  return kOk;
}

int run_bench_cmd(const BenchArgs& a) {
  auto backend = parse_vector_backend(a.backend);
  if (!backend) return report(backend.error());
  const bool cached = *backend == VectorBackend::kCached;
  if (!cached && (!a.query_vectors.empty() || !a.index_vectors.empty()))
    return report(make_error(ErrorCode::kInvalidInput, "only used with --backend cached",
                             a.query_vectors.empty() ? "--index-vectors" : "--query-vectors"));
  if (a.output.empty())
    return report(make_error(ErrorCode::kInvalidInput,
                             "missing: the directory for report.json and report.md", "--output"));
  auto ds_path = find_dataset(a.dataset);
  if (!ds_path) return report(ds_path.error());
  spdlog::info("dataset {}", ds_path->string());
  const fs::path fp_path =
      a.fingerprints.empty() ? fingerprint_registry_path(*ds_path) : fs::path(a.fingerprints);
  std::vector<fs::path> inputs{*ds_path, fp_path};
  // Without --query-vectors/--index-vectors the cached backend reads the shipped pack.
  const fs::path qv_path = pack_file(*ds_path, a.query_vectors, kPackQueryFile);
  const fs::path iv_path = pack_file(*ds_path, a.index_vectors, kPackIndexFile);
  if (cached) {
    spdlog::info("vector pack {} {}", qv_path.string(), iv_path.string());
    inputs.push_back(qv_path);
    inputs.push_back(iv_path);
  }
  // Refuse before doing any work (and long before writing anything).
  const fs::path out_dir(a.output);
  for (const fs::path& in : inputs)
    if (same_file(out_dir, in))
      return report(make_error(ErrorCode::kInvalidInput,
                               "refusing to write into an input file: " + in.string(), "--output"));

  BenchInputs in;
  in.backend = *backend;
  auto ds = load(*ds_path);
  if (!ds) return report(ds.error());
  in.dataset = std::move(*ds);
  auto fp = load(fp_path);
  if (!fp) return report(fp.error());
  in.fingerprints = std::move(*fp);
  if (cached) {
    auto qv = load(qv_path);
    if (!qv) return report(qv.error());
    in.query_vectors = std::move(*qv);
    auto iv = load(iv_path);
    if (!iv) return report(iv.error());
    in.index_vectors = std::move(*iv);
  }
  auto ranking = load_cli_ranking_config(a.config);
  if (!ranking) return report(ranking.error());
  auto run = run_bench(in, bench_options(*ranking));
  if (!run) return report(run.error());

  if (Status st = prepare_output_dir(out_dir, inputs, "--output"); !st) return report(st.error());
  // Both reports are published as one generation (qaplan/io.hpp write_files_atomic): a failed
  // or killed run never leaves a new report.json beside a stale report.md.
  if (Status st = write_files_atomic(out_dir,
                                     {{"report.json", bench_report_json(*run, !a.compact)},
                                      {"report.md", bench_report_markdown(*run)}},
                                     inputs);
      !st)
    return report(st.error());
  // A one-line summary on stderr; the reports are the output.
  for (const BenchMethod& m : run->methods)
    spdlog::info("{}: threshold {} test accepted R@3 {}", m.name, m.threshold,
                 m.test.accepted_recall_at_3.value_or(-1));
  std::cout << (out_dir / "report.json").string() << '\n'
            << (out_dir / "report.md").string() << '\n';
  return kOk;
}

}  // namespace

Runner register_bench(CLI::App& app, GlobalOptions&) {
  auto args = std::make_shared<BenchArgs>();
  auto* sub = app.add_subcommand(
      "bench", "Run the frozen policy-retrieval benchmark (vector, BM25, RRF; dev calibration)");
  sub->add_option("--backend", args->backend,
                  "Vector backend: local-tfidf | cached (no default; required except with --export-queries)");
  sub->add_option("--dataset", args->dataset,
                  "Dataset JSON (default: eval_sets/policy-retrieval-v1.json, looked up as the "
                  "footer says)");
  sub->add_option("--fingerprints", args->fingerprints,
                  "Fingerprint registry (default: fingerprints.json beside the dataset)");
  sub->add_option("--query-vectors", args->query_vectors,
                  "cached: query vector pack JSON (default: the shipped pack, "
                  "vectors/local-tfidf.query-vectors.json beside the dataset)");
  sub->add_option("--index-vectors", args->index_vectors,
                  "cached: document-index JSON; --export-queries: the index the manifest binds "
                  "(default: vectors/local-tfidf.index.json beside the dataset)");
  sub->add_option("--output", args->output,
                  "Directory for report.json and report.md (no default; required to run the benchmark)");
  sub->add_option("--export-queries", args->export_queries,
                  "Write only the query request manifest to this file (default: none, run the benchmark)");
  sub->add_option("--write-vector-pack", args->write_vector_pack,
                  "Write the local-tfidf vector pack + index into this directory (default: none)");
  sub->add_flag("--compact", args->compact, "Write JSON without indentation (default: indented)");
  sub->add_option("--config", args->config,
                  "rules file whose [ranking.*] sets BM25/HNSW/RRF parameters (default: $QAPLAN_CONFIG, the checkout's config/rules.toml, ~/.config/qaplan, then the installed one; -v names it)");
  sub->footer(
      "Dataset lookup without --dataset: ./eval_sets/policy-retrieval-v1.json, then "
      "<binary dir>/../eval_sets/, <binary dir>/../share/qaplan/eval_sets/, then eval_sets/ of "
      "the checkout holding the working directory, of the source tree a build-tree binary came "
      "from, and of the install prefix's share/qaplan.\n"
      "Exit 0 for a complete run whatever the metrics; 2 for invalid input.");
  return [args]() -> int {
    const int modes = (!args->export_queries.empty()) + (!args->write_vector_pack.empty()) +
                      (!args->output.empty());
    if (modes > 1)
      return report(make_error(ErrorCode::kInvalidInput,
                               "give only one of --output, --export-queries, --write-vector-pack",
                               "bench"));
    if (!args->export_queries.empty()) {
      if (!args->backend.empty() || !args->query_vectors.empty())
        return report(make_error(ErrorCode::kInvalidInput,
                                 "takes only --dataset, --fingerprints and --index-vectors",
                                 "--export-queries"));
      return run_export(*args);
    }
    if (args->backend.empty())
      return report(make_error(ErrorCode::kInvalidInput, "missing: local-tfidf or cached",
                               "--backend"));
    if (!args->write_vector_pack.empty()) return run_write_pack(*args);
    return run_bench_cmd(*args);
  };
}

}  // namespace qaplan::cli
