#pragma once
/// Umbrella header: every public header of the three rooms.
///  - planning (qaplan::planning): question → route → intent → RetrievalPlan
///  - ranking (qaplan::ranking): tokenizer, BM25, HNSW vectors, RRF, one HybridSearcher
///  - eval (qaplan::eval): frozen datasets, scope, metrics, calibration, the benchmark runner
///  - engines (qaplan::engines): the plan as Elasticsearch / OpenSearch / Milvus requests
#include "qaplan/config_location.hpp"
#include "qaplan/io.hpp"
#include "qaplan/status.hpp"
#include "qaplan/version.hpp"

#include "qaplan/planning/config.hpp"
#include "qaplan/planning/json.hpp"
#include "qaplan/planning/plan.hpp"
#include "qaplan/planning/planner.hpp"
#include "qaplan/planning/types.hpp"

#include "qaplan/ranking/bm25.hpp"
#include "qaplan/ranking/config.hpp"
#include "qaplan/ranking/corpus.hpp"
#include "qaplan/ranking/embedder.hpp"
#include "qaplan/ranking/fusion.hpp"
#include "qaplan/ranking/hybrid.hpp"
#include "qaplan/ranking/tokenizer.hpp"
#include "qaplan/ranking/types.hpp"
#include "qaplan/ranking/vector_index.hpp"

#include "qaplan/eval/bench.hpp"
#include "qaplan/eval/calibrate.hpp"
#include "qaplan/eval/dataset.hpp"
#include "qaplan/eval/metrics.hpp"
#include "qaplan/eval/scope.hpp"
#include "qaplan/eval/vector_pack.hpp"

#include "qaplan/engines/engines.hpp"
