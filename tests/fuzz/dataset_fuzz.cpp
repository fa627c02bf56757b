// Fuzz target: a frozen dataset file (eval_sets/policy-retrieval-v1.json schema) through
// parse_dataset, then scope selection as the benchmark runs it.
//
// Invariants: an error is one line, kInvalidInput, naming the file; a dataset that parses
// round-trips through its canonical form (parse(canonical(d)) parses, has the same canonical
// form and the same fingerprints); scope selection accounts for every chunk exactly once (in
// scope or excluded) and keeps ascending ids; relevant_docs() only returns in-scope indexes.
#include <set>

#include "fuzz_support.hpp"
#include "qaplan/eval/dataset.hpp"
#include "qaplan/eval/scope.hpp"

using namespace qaplan;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  constexpr const char* kName = "fuzz.json";
  auto d = parse_dataset(fuzz::as_view(data, size), kName);
  if (!d.ok()) {
    const Error& e = d.error();
    fuzz::check_error(e);
    QAPLAN_FUZZ_CHECK(e.code == ErrorCode::kInvalidInput, e.to_string());
    QAPLAN_FUZZ_CHECK(e.file == kName, e.to_string());
    return 0;
  }
  const std::string canonical = canonical_dataset_json(*d);
  auto again = parse_dataset(canonical, kName);
  QAPLAN_FUZZ_CHECK(again.ok(), again.error().to_string() + "\n  " + canonical);
  QAPLAN_FUZZ_CHECK(canonical_dataset_json(*again) == canonical, canonical);
  QAPLAN_FUZZ_CHECK(fingerprints(*again) == fingerprints(*d), canonical);

  const ScopeResult scope = select_policy_scope(*d);
  QAPLAN_FUZZ_CHECK(scope.chunks.size() + scope.excluded.size() == d->chunks.size(),
                    std::to_string(scope.chunks.size()) + " + " +
                        std::to_string(scope.excluded.size()) + " != " +
                        std::to_string(d->chunks.size()));
  std::set<std::string> seen;
  for (std::size_t i = 0; i < scope.chunks.size(); ++i) {
    QAPLAN_FUZZ_CHECK(seen.insert(scope.chunks[i].id).second, scope.chunks[i].id);
    if (i > 0) QAPLAN_FUZZ_CHECK(scope.chunks[i - 1].id < scope.chunks[i].id, scope.chunks[i].id);
  }
  for (const auto& x : scope.excluded) {
    QAPLAN_FUZZ_CHECK(seen.insert(x.chunk_id).second, x.chunk_id);
    QAPLAN_FUZZ_CHECK(x.detail.find('\n') == std::string::npos, x.detail);
  }
  for (const auto& q : d->queries)
    for (std::uint32_t doc : relevant_docs(scope, q))
      QAPLAN_FUZZ_CHECK(doc < scope.chunks.size(), q.id);
  const Status labels = check_labels_in_scope(*d, scope);
  if (!labels.ok()) fuzz::check_error(labels.error());
  return 0;
}
