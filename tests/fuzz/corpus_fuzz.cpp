// Fuzz target: a JSONL corpus or query file (`qaplan search --corpus/--queries`) through
// parse_jsonl, then ranked as `search` ranks it: tokenized, indexed with BM25 (both norms), and
// searched with each record's text as the query. Byte 0 picks the kind (corpus, queries, auto)
// and the BM25 norms; the rest is the file.
//
// Invariants: an error is one line, kInvalidInput, naming the source; records have unique,
// non-empty ids without tab/CR/LF and valid UTF-8 text; BM25's pruned search (k = 1, 3, 10)
// equals the exhaustive reference truncated to k, scores are finite, > 0 and sorted with ties
// by lower document; the untruncated list (k = 0) holds every document that shares a term.
#include <cmath>
#include <set>

#include "fuzz_support.hpp"
#include "qaplan/ranking/bm25.hpp"
#include "qaplan/ranking/corpus.hpp"
#include "qaplan/ranking/tokenizer.hpp"

using namespace qaplan;

namespace {
Tokenizer* g_tok = nullptr;
constexpr std::size_t kMaxQueries = 16;  // keeps one execution fast on large inputs
}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  auto t = Tokenizer::create();
  if (!t.ok()) std::abort();
  g_tok = new Tokenizer(*t);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  constexpr JsonlKind kKinds[] = {JsonlKind::kCorpus, JsonlKind::kQueries, JsonlKind::kAuto,
                                  JsonlKind::kCorpus};
  const JsonlKind kind = kKinds[data[0] & 3];
  Bm25Options opts;
  opts.norms = (data[0] & 4) ? Bm25Norms::kLucene : Bm25Norms::kExact;
  auto recs = parse_jsonl(fuzz::as_view(data + 1, size - 1), kind, "fuzz.jsonl");
  if (!recs.ok()) {
    const Error& e = recs.error();
    fuzz::check_error(e);
    QAPLAN_FUZZ_CHECK(e.code == ErrorCode::kInvalidInput, e.to_string());
    QAPLAN_FUZZ_CHECK(e.file == "fuzz.jsonl", e.to_string());
    return 0;
  }
  std::set<std::string> ids;
  std::vector<std::vector<std::string>> docs;
  for (const auto& r : *recs) {
    QAPLAN_FUZZ_CHECK(!r.id.empty() && r.id.find_first_of("\t\r\n") == std::string::npos, r.id);
    QAPLAN_FUZZ_CHECK(ids.insert(r.id).second, r.id);
    QAPLAN_FUZZ_CHECK(fuzz::valid_utf8(r.id) && fuzz::valid_utf8(r.text), r.id);
    auto toks = g_tok->tokenize(r.text);
    QAPLAN_FUZZ_CHECK(toks.ok(), r.id);  // valid UTF-8 always tokenizes
    docs.push_back(std::move(*toks));
  }
  auto index = Bm25Index::create(docs, opts);
  QAPLAN_FUZZ_CHECK(index.ok(), index.error().to_string());
  QAPLAN_FUZZ_CHECK(index->size() == docs.size(), "size");
  for (std::size_t q = 0; q < docs.size() && q < kMaxQueries; ++q) {
    const auto& query = docs[q];
    const RankedList all = index->search(query, 0);
    const RankedList ref = index->search_exhaustive(query, 0);
    QAPLAN_FUZZ_CHECK(all == ref, "k=0 differs for query " + std::to_string(q));
    for (std::size_t i = 0; i < all.size(); ++i) {
      QAPLAN_FUZZ_CHECK(std::isfinite(all[i].score) && all[i].score > 0, std::to_string(i));
      QAPLAN_FUZZ_CHECK(all[i].doc < docs.size(), std::to_string(i));
      if (i > 0)
        QAPLAN_FUZZ_CHECK(all[i - 1].score > all[i].score ||
                              (all[i - 1].score == all[i].score && all[i - 1].doc < all[i].doc),
                          std::to_string(i));
    }
    // The query's own document matches whenever it has a token.
    if (!query.empty()) {
      bool self = false;
      for (const auto& h : all) self = self || h.doc == q;
      QAPLAN_FUZZ_CHECK(self, "document " + std::to_string(q) + " does not match itself");
    }
    for (std::size_t k : {1, 3, 10}) {
      const RankedList top = index->search(query, k);
      const RankedList want(ref.begin(), ref.begin() + static_cast<std::ptrdiff_t>(
                                                           std::min(k, ref.size())));
      QAPLAN_FUZZ_CHECK(top == want, "pruned != exhaustive at k=" + std::to_string(k) +
                                         " for query " + std::to_string(q));
    }
  }
  return 0;
}
