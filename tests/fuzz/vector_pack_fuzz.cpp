// Fuzz target: the cached backend's vector files (vector_pack.hpp): the input is read both as a
// query pack and as a document-index file.
//
// Invariants: an error is one line, kInvalidInput; what parses holds only finite floats and
// round-trips bit for bit (parse(write(x)) == x with the same float bits, and write(parse(
// write(x))) == write(x)); validation against the expectations the file itself implies passes
// or fails with a one-line error, and a pass returns one vector of `dimensions` values per key.
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "common/sha256.hpp"
#include "fuzz_support.hpp"
#include "qaplan/eval/vector_pack.hpp"

using namespace qaplan;

namespace {

bool same_bits(const std::vector<NamedVector>& a, const std::vector<NamedVector>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].key != b[i].key || a[i].values.size() != b[i].values.size()) return false;
    if (!a[i].values.empty() && std::memcmp(a[i].values.data(), b[i].values.data(),
                                            a[i].values.size() * sizeof(float)) != 0)
      return false;
  }
  return true;
}

void check_finite(const std::vector<NamedVector>& v) {
  for (const auto& nv : v)
    for (float f : nv.values) QAPLAN_FUZZ_CHECK(std::isfinite(f), nv.key);
}

template <class T, class Parse, class Write>
void round_trip(const T& x, Parse parse, Write write,
                const std::vector<NamedVector> T::*vectors) {
  check_finite(x.*vectors);
  // Every string came through the JSON parser, which refuses invalid UTF-8, so writing works.
  auto text = write(x);
  QAPLAN_FUZZ_CHECK(text.ok(), text.error().to_string());
  auto back = parse(*text);
  QAPLAN_FUZZ_CHECK(back.ok(), back.error().to_string() + "\n  " + *text);
  QAPLAN_FUZZ_CHECK(same_bits((*back).*vectors, x.*vectors), *text);
  QAPLAN_FUZZ_CHECK(*back == x, *text);
  auto text2 = write(*back);
  QAPLAN_FUZZ_CHECK(text2.ok() && *text2 == *text, *text);
}

// "not a finite float" is only for numbers beyond float range: one below the smallest subnormal
// becomes a signed zero (vector_pack.hpp), however small (1e-400 was once refused).
void check_parse_error(const Error& e) {
  fuzz::check_error(e);
  QAPLAN_FUZZ_CHECK(e.code == ErrorCode::kInvalidInput, e.to_string());
  const std::string& m = e.message;
  constexpr std::string_view kSuffix = " is not a finite float";
  if (!m.ends_with(kSuffix)) return;
  const auto end = m.size() - kSuffix.size();
  const auto begin = m.rfind("value ", end);
  QAPLAN_FUZZ_CHECK(begin != std::string::npos, m);
  const std::string number = m.substr(begin + 6, end - begin - 6);
  const long double v = std::strtold(number.c_str(), nullptr);
  QAPLAN_FUZZ_CHECK(std::fabs(v) >= 1.0L, "refused a tiny number: " + m);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = fuzz::as_view(data, size);
  auto pack = parse_query_pack(text);
  if (!pack.ok()) {
    check_parse_error(pack.error());
  } else {
    round_trip(*pack, parse_query_pack, write_query_pack, &QueryVectorPack::query_vectors);
  }
  auto index = parse_vector_index(text);
  if (!index.ok()) {
    check_parse_error(index.error());
    return 0;
  }
  round_trip(*index, parse_vector_index, write_vector_index, &DocumentVectorIndex::vectors);

  // A pack for this index, with the expectations the index implies: validation and loading.
  auto index_text = write_vector_index(*index);
  if (!index_text.ok()) return 0;
  QueryVectorPack p;
  p.model = index->model;
  p.index_sha256 = internal::sha256_hex(*index_text);
  p.corpus_sha256 = index->corpus_sha256;
  p.dimensions = index->dimensions;
  p.query_vectors = index->vectors;  // the chunks' vectors serve as queries
  auto pack_text = write_query_pack(p);
  if (!pack_text.ok()) return 0;
  PackExpectations want;
  want.corpus_sha256 = index->corpus_sha256;
  for (const auto& nv : index->vectors) {
    want.queries.push_back(nv.key);
    want.chunk_ids.push_back(nv.key);
  }
  auto loaded = load_vector_pack(*pack_text, *index_text, want);
  if (!loaded.ok()) {
    fuzz::check_error(loaded.error());
    return 0;
  }
  QAPLAN_FUZZ_CHECK(loaded->query_vectors.size() == want.queries.size(), "queries");
  QAPLAN_FUZZ_CHECK(loaded->chunk_vectors.size() == want.chunk_ids.size(), "chunks");
  for (const auto& v : loaded->chunk_vectors)
    QAPLAN_FUZZ_CHECK(v.size() == loaded->dimensions, "dimensions");
  return 0;
}
