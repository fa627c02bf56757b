#pragma once
/// The ranking parameters of a rules file ([ranking.*] in config/rules.toml), as the option
/// structs of the ranking library. `validate()` delegates to each struct's own `validate()`, so
/// `qaplan config check`, the CLI's run time and a host building the options in code all accept
/// and refuse exactly the same values.
#include <filesystem>
#include <string>
#include <string_view>

#include "qaplan/export.hpp"
#include "qaplan/ranking/bm25.hpp"
#include "qaplan/ranking/fusion.hpp"
#include "qaplan/ranking/vector_index.hpp"
#include "qaplan/status.hpp"

namespace qaplan {

/// [ranking.bm25] k1, b, norms → bm25; [ranking.hnsw] m, ef_construction, ef_search, seed →
/// hnsw; [ranking.rrf] k → rrf.k; [ranking.bench] current_vector_threshold. Absent tables or
/// keys keep the defaults below.
struct RankingConfig {
  Bm25Options bm25;
  HnswOptions hnsw;
  RrfOptions rrf;
  double current_vector_threshold = 0.57;  ///< deployed cosine threshold (bench `vector_current`), [0, 1]
  /// [ranking.index] load: how a saved index's BM25 file is opened — "mmap" (shared page cache;
  /// a file changed on disk is refused at the next check, not between two) or "memory" (read into memory:
  /// immune to any change on disk, costs the file's size in RAM per process).
  std::string load = "mmap";
  std::string origin = "<memory>";         ///< file the config came from, used in error context

  /// Every option struct's validate(), then the threshold range. Errors: kInvalidConfig.
  QAPLAN_API Status validate() const;
};

/// Reads the [ranking] table of a rules file (other tables are the planning room's and are not
/// looked at). Strict: unknown keys, wrong types and out-of-range values are kInvalidConfig
/// naming file, line and key.
QAPLAN_API Result<RankingConfig> parse_ranking_config(std::string_view toml_text,
                                                      std::string_view origin);

/// Reads and parses a file. Errors: kIo, kInvalidConfig.
QAPLAN_API Result<RankingConfig> load_ranking_config(const std::filesystem::path& path);

}  // namespace qaplan
