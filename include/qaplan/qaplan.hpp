#pragma once
/// Umbrella header: every public header of the rooms, so `#include <qaplan/qaplan.hpp>` is all a
/// host needs.
///  - planning (qaplan::planning): question → route → intent → RetrievalPlan → analysis
///  - ranking (qaplan::ranking): tokenizer, BM25, HNSW vectors, RRF, saved indexes, document store
///  - retrieval (qaplan::retrieval): the KB and its executor, `ask`, the hybrid searcher
///  - eval (qaplan::eval): datasets, metrics, calibration (for hosts), then the CLI's harnesses
///  - training (qaplan::training): the router trainer, the domain lexicon's builder
///  - engines (qaplan::engines): the plan as Elasticsearch / OpenSearch / Milvus requests
/// Every public header is included (none is left out); tests/unit/house/umbrella_test.cpp fails
/// when one is neither here nor named in this comment as left out, with the reason.

#include "qaplan/config_location.hpp"
#include "qaplan/io.hpp"
#include "qaplan/status.hpp"
#include "qaplan/version.hpp"

#include "qaplan/planning/analysis.hpp"
#include "qaplan/planning/config.hpp"
#include "qaplan/planning/extensions.hpp"
#include "qaplan/planning/filters_config.hpp"
#include "qaplan/planning/json.hpp"
#include "qaplan/planning/plan.hpp"
#include "qaplan/planning/planner.hpp"
#include "qaplan/planning/preparation.hpp"
#include "qaplan/planning/types.hpp"

#include "qaplan/ranking/bm25.hpp"
#include "qaplan/ranking/config.hpp"
#include "qaplan/ranking/corpus.hpp"
#include "qaplan/ranking/doc_store.hpp"
#include "qaplan/ranking/embedder.hpp"
#include "qaplan/ranking/fusion.hpp"
#include "qaplan/ranking/index_dir.hpp"
#include "qaplan/ranking/tokenizer.hpp"
#include "qaplan/ranking/types.hpp"
#include "qaplan/ranking/vector_index.hpp"

#include "qaplan/retrieval/ask.hpp"
#include "qaplan/retrieval/executor.hpp"
#include "qaplan/retrieval/hybrid.hpp"
#include "qaplan/retrieval/kb.hpp"

// eval for hosts (docs/architecture.md#public-headers)
#include "qaplan/eval/calibrate.hpp"
#include "qaplan/eval/dataset.hpp"
#include "qaplan/eval/metrics.hpp"
#include "qaplan/eval/scope.hpp"
#include "qaplan/eval/vector_pack.hpp"
// eval: the CLI's harnesses
#include "qaplan/eval/bench.hpp"
#include "qaplan/eval/calibrate_band.hpp"
#include "qaplan/eval/chain_eval.hpp"
#include "qaplan/eval/policy_eval.hpp"
#include "qaplan/eval/recommend.hpp"
#include "qaplan/eval/rewrite_eval.hpp"
#include "qaplan/eval/route_eval.hpp"
// training
#include "qaplan/eval/domain_build.hpp"
#include "qaplan/eval/train_model.hpp"

#include "qaplan/engines/engines.hpp"
