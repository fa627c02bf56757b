#pragma once
// qaplan.SavedIndex: an index directory from `qaplan index build` opened once (its BM25 file and
// its document store), for Planner.ask. Immutable; shared between threads.
#include <string>

#include "qaplan/ranking/doc_store.hpp"
#include "qaplan/ranking/index_dir.hpp"

namespace qaplan::py {

struct PySavedIndex {
  CollectionIndex index;
  DocStore store;
  std::string path;
};

}  // namespace qaplan::py
