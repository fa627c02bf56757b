// qaplan._core.bench_run: the frozen retrieval benchmark (qaplan/eval/bench.hpp) returning the
// report — the library's own report.json text, which qaplan.bench.run() turns into a dict.
#include <pybind11/stl.h>

#include <filesystem>
#include <string>
#include <utility>

#include "common.hpp"
#include "qaplan/eval/bench.hpp"
#include "qaplan/eval/dataset.hpp"
#include "qaplan/io.hpp"
#include "qaplan/ranking/config.hpp"

namespace qaplan::py {
namespace {

namespace fs = std::filesystem;

NamedText load(const fs::path& path) {
  return NamedText{path.filename().string(), unwrap(read_file(path, "file"))};
}

}  // namespace

void register_eval(py::module_& m) {
  m.def("_bench_run", [](const std::string& dataset, const std::string& fingerprints,
                         const std::string& backend, const std::string& query_vectors,
                         const std::string& index_vectors, const std::string& config,
                         std::size_t reported_hits) {
          BenchInputs in;
          in.backend = unwrap(parse_vector_backend(backend));
          const bool cached = in.backend == VectorBackend::kCached;
          if (cached && (query_vectors.empty() || index_vectors.empty()))
            raise(make_error(ErrorCode::kInvalidInput,
                             "backend 'cached' needs query_vectors and index_vectors", "backend"));
          if (!cached && (!query_vectors.empty() || !index_vectors.empty()))
            raise(make_error(ErrorCode::kInvalidInput,
                             "query_vectors/index_vectors are only used with backend 'cached'",
                             "backend"));
          if (reported_hits < 3)
            raise(make_error(ErrorCode::kInvalidInput, "must be >= 3", "reported_hits"));
          Result<std::pair<std::string, std::string>> r =
              make_error(ErrorCode::kInternal, "not run");
          {
            py::gil_scoped_release nogil;
            r = [&]() -> Result<std::pair<std::string, std::string>> {
              const fs::path ds(dataset);
              in.dataset = load(ds);
              in.fingerprints =
                  load(fingerprints.empty() ? fingerprint_registry_path(ds) : fs::path(fingerprints));
              if (cached) {
                in.query_vectors = load(query_vectors);
                in.index_vectors = load(index_vectors);
              }
              QAPLAN_ASSIGN_OR_RETURN(RankingConfig ranking, load_ranking_config(config));
              BenchOptions opts = bench_options(ranking);
              opts.reported_hits = reported_hits;
              QAPLAN_ASSIGN_OR_RETURN(BenchRun run, run_bench(in, opts));
              return std::make_pair(bench_report_json(run, false), bench_report_markdown(run));
            }();
          }
          auto [json, md] = unwrap(std::move(r));
          return py::make_tuple(py::str(json), py::str(md));
        },
        py::arg("dataset"), py::arg("fingerprints"), py::arg("backend"), py::arg("query_vectors"),
        py::arg("index_vectors"), py::arg("config"), py::arg("reported_hits"));
}

}  // namespace qaplan::py
