#include "qaplan/eval/vector_pack.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "common/sha256.hpp"
#include "qaplan/ranking/embedder.hpp"

using qaplan::build_vector_pack;
using qaplan::DocumentVectorIndex;
using qaplan::ErrorCode;
using qaplan::load_vector_pack;
using qaplan::NamedVector;
using qaplan::PackExpectations;
using qaplan::parse_query_pack;
using qaplan::parse_vector_index;
using qaplan::QueryVectorPack;
using qaplan::validate_vector_pack;
using qaplan::write_query_pack;
using qaplan::write_vector_index;
using qaplan::internal::sha256_hex;

namespace {

const std::string kCorpusHash(64, 'c');
const std::string kOtherHash(64, 'd');

DocumentVectorIndex small_index() {
  return {"m1", 2, kCorpusHash, {{"c1", {0.6f, 0.8f}}, {"c2", {1.0f, 0.0f}}}};
}

// The index text and a pack bound to it.
struct Files {
  std::string index_text;
  std::string pack_text;
};

Files small_files() {
  const std::string idx = *write_vector_index(small_index());
  QueryVectorPack p{"m1", "unit test", sha256_hex(idx), kCorpusHash, 2,
                    {{"退货怎么办", {0.5f, -0.25f}}, {"q2", {0.1f, 3.0f}}}};
  return {idx, *write_query_pack(p)};
}

const PackExpectations kExpect = {{"q2", "退货怎么办"}, {"c1", "c2"}, kCorpusHash};

bool bits_equal(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

std::string replace(std::string s, const std::string& from, const std::string& to) {
  const auto pos = s.find(from);
  EXPECT_NE(pos, std::string::npos) << from;
  if (pos != std::string::npos) s.replace(pos, from.size(), to);
  return s;
}

}  // namespace

TEST(VectorPack, FixedLayoutHandWritten) {
  const std::string expect_index =
      "{\n"
      "  \"schema_version\": 1,\n"
      "  \"model\": \"m1\",\n"
      "  \"dimensions\": 2,\n"
      "  \"corpus_sha256\": \"" + kCorpusHash + "\",\n"
      "  \"vectors\": {\n"
      "    \"c1\": [0.6,0.8],\n"
      "    \"c2\": [1,0]\n"
      "  }\n"
      "}\n";
  EXPECT_EQ(*write_vector_index(small_index()), expect_index);
  QueryVectorPack p{"m1", "prov \"x\"", std::string(64, 'a'), kCorpusHash, 3,
                    {{"退货", {-0.0f, 1e-45f, 3.4028235e38f}}}};
  const std::string expect_pack =
      "{\n"
      "  \"schema_version\": 1,\n"
      "  \"model\": \"m1\",\n"
      "  \"provenance\": \"prov \\\"x\\\"\",\n"
      "  \"index_sha256\": \"" + std::string(64, 'a') + "\",\n"
      "  \"corpus_sha256\": \"" + kCorpusHash + "\",\n"
      "  \"dimensions\": 3,\n"
      "  \"query_vectors\": {\n"
      "    \"退货\": [-0.0,1e-45,3.4028235e+38]\n"
      "  }\n"
      "}\n";
  EXPECT_EQ(*write_query_pack(p), expect_pack);
}

TEST(VectorPack, RoundTripIsBitExact) {
  // Awkward floats: signed zero, subnormals, extremes, values with 9 significant digits, and a
  // sweep of pseudo-random bit patterns over all finite floats.
  std::vector<float> v = {0.0f, -0.0f, 1.0f, -1.0f, 0.1f, 1.0f / 3.0f,
                          std::numeric_limits<float>::denorm_min(),
                          -std::numeric_limits<float>::denorm_min(),
                          std::numeric_limits<float>::min(), std::numeric_limits<float>::max(),
                          -std::numeric_limits<float>::max(), 16777216.0f, 123456792.0f,
                          std::nextafter(1.0f, 2.0f), 1e30f, 2.5e-39f};
  std::uint32_t x = 12345;
  while (v.size() < 4096) {
    x = x * 1664525u + 1013904223u;
    float f;
    std::memcpy(&f, &x, sizeof f);
    if (std::isfinite(f)) v.push_back(f);
  }
  QueryVectorPack p{"model-ü", "line1\nline2\t\x01", std::string(64, '0'), kCorpusHash, v.size(),
                    {{"a\"b\\c", v}, {"空", std::vector<float>(v.rbegin(), v.rend())}}};
  auto text = write_query_pack(p);
  ASSERT_TRUE(text.ok()) << text.error().to_string();
  auto back = parse_query_pack(*text);
  ASSERT_TRUE(back.ok()) << back.error().to_string();
  ASSERT_EQ(back->query_vectors.size(), 2u);
  EXPECT_TRUE(bits_equal(back->query_vectors[0].values, p.query_vectors[0].values));
  EXPECT_TRUE(bits_equal(back->query_vectors[1].values, p.query_vectors[1].values));
  EXPECT_EQ(back->provenance, p.provenance);
  EXPECT_EQ(back->query_vectors[0].key, "a\"b\\c");
  // Writing what was parsed reproduces the file byte for byte.
  EXPECT_EQ(*write_query_pack(*back), *text);

  DocumentVectorIndex idx{"m", v.size(), kCorpusHash, {{"chunk-1", v}}};
  auto itext = write_vector_index(idx);
  ASSERT_TRUE(itext.ok());
  auto iback = parse_vector_index(*itext);
  ASSERT_TRUE(iback.ok()) << iback.error().to_string();
  EXPECT_TRUE(bits_equal(iback->vectors[0].values, v));
  EXPECT_EQ(*write_vector_index(*iback), *itext);
}

TEST(VectorPack, ForeignNumbersRoundOnceToNearestFloat) {
  // A provider may write float64 digits, integers, exponents or tiny values.
  const std::string text = std::string("{\"schema_version\":1,\"model\":\"m\",\"dimensions\":5,") +
                           "\"corpus_sha256\":\"" + kCorpusHash + "\",\"vectors\":{\"c\":" +
                           "[0.12345678901234567, 2, -3E-2, 1e-50, -1e-60]}}";
  auto r = parse_vector_index(text);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  const auto& v = r->vectors[0].values;
  EXPECT_EQ(v[0], std::strtof("0.12345678901234567", nullptr));
  EXPECT_EQ(v[1], 2.0f);
  EXPECT_EQ(v[2], std::strtof("-3E-2", nullptr));
  EXPECT_EQ(v[3], 0.0f);
  EXPECT_FALSE(std::signbit(v[3]));
  EXPECT_TRUE(std::signbit(v[4]));
}

TEST(VectorPack, ParseErrors) {
  const Files f = small_files();
  struct Case {
    std::string text;
    std::string message;
  };
  const std::string& p = f.pack_text;
  const std::vector<Case> cases = {
      {"", "malformed JSON at byte 1: "},
      {p.substr(0, p.size() - 3), "malformed JSON"},
      {"[1]", "top level must be a JSON object"},
      {replace(p, "\"schema_version\": 1", "\"schema_version\": 2"), "schema_version must be 1"},
      {replace(p, "\"dimensions\": 2", "\"dimensions\": 0"),
       "field \"dimensions\" must be a positive integer"},
      {replace(p, "\"dimensions\": 2", "\"dimensions\": \"2\""),
       "field \"dimensions\" must be a positive integer"},
      {replace(p, "\"dimensions\": 2", "\"dimensions\": 2.0"),
       "field \"dimensions\" must be a positive integer"},
      {replace(p, "\"model\": \"m1\"", "\"model\": 7"), "field \"model\" must be a string"},
      {replace(p, "\"model\": \"m1\"", "\"model\": \"\""), "field \"model\" is empty"},
      {replace(p, "\"model\": \"m1\",", "\"model\": \"m1\", \"extra\": 1,"),
       "unknown field \"extra\""},
      {replace(p, "\"model\": \"m1\",", "\"model\": \"m1\", \"model\": \"m1\","),
       "duplicate key \"model\""},
      {replace(p, "  \"provenance\": \"unit test\",\n", ""), "missing field \"provenance\""},
      {replace(p, "\"q2\": [0.1,3]", "\"退货怎么办\": [0.1,3]"), "duplicate query \"退货怎么办\""},
      {replace(p, "[0.1,3]", "[0.1,\"3\"]"), "query \"q2\": vector holds a non-number"},
      {replace(p, "[0.1,3]", "[0.1,[3]]"), "query \"q2\": vector must be a flat array of numbers"},
      {replace(p, "[0.1,3]", "{\"x\": 1}"), "query \"q2\": vector must be an array of numbers"},
      {replace(p, "[0.1,3]", "0.1"), "query \"q2\": vector must be an array of numbers"},
      {replace(p, "[0.1,3]", "[0.1,1e39]"), "query \"q2\": value 1e39 is not a finite float"},
      {replace(p, "\"index_sha256\": \"", "\"index_sha256\": \"A"),
       "field \"index_sha256\" must be 64 lower-case hex digits"},
      {replace(p, "\"query_vectors\": {", "\"query_vectors\": [{") , "field \"query_vectors\" has the wrong type"},
  };
  for (const auto& c : cases) {
    auto r = parse_query_pack(c.text);
    ASSERT_FALSE(r.ok()) << c.message;
    EXPECT_EQ(r.error().code, ErrorCode::kInvalidInput);
    EXPECT_EQ(r.error().file, "vector pack");
    EXPECT_EQ(r.error().message.rfind(c.message, 0), 0u)
        << "want: " << c.message << "\n got: " << r.error().message;
  }
  auto missing_vectors = parse_vector_index(replace(f.index_text, "\"vectors\"", "\"vectorz\""));
  ASSERT_FALSE(missing_vectors.ok());
  EXPECT_EQ(missing_vectors.error().file, "vector index");
}

TEST(VectorPack, LoadsInExpectationOrder) {
  const Files f = small_files();
  auto r = load_vector_pack(f.pack_text, f.index_text, kExpect);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(r->model, "m1");
  EXPECT_EQ(r->dimensions, 2u);
  ASSERT_EQ(r->query_vectors.size(), 2u);
  EXPECT_EQ(r->query_vectors[0], (std::vector<float>{0.1f, 3.0f}));    // "q2" first
  EXPECT_EQ(r->query_vectors[1], (std::vector<float>{0.5f, -0.25f}));  // "退货怎么办"
  EXPECT_EQ(r->chunk_vectors, (std::vector<std::vector<float>>{{0.6f, 0.8f}, {1.0f, 0.0f}}));
}

TEST(VectorPack, ValidationFailures) {
  const Files f = small_files();
  auto pack = *parse_query_pack(f.pack_text);
  auto index = *parse_vector_index(f.index_text);
  ASSERT_TRUE(validate_vector_pack(pack, index, f.index_text, kExpect).ok());

  auto expect_error = [&](const QueryVectorPack& p, const DocumentVectorIndex& i,
                          const std::string& raw, const PackExpectations& e,
                          const std::string& context, const std::string& message) {
    auto st = validate_vector_pack(p, i, raw, e);
    ASSERT_FALSE(st.ok()) << message;
    EXPECT_EQ(st.error().code, ErrorCode::kInvalidInput);
    EXPECT_EQ(st.error().file, context);
    EXPECT_EQ(st.error().message, message);
  };
  {  // an extra query
    auto p = pack;
    p.query_vectors.push_back({"额外", {1, 1}});
    expect_error(p, index, f.index_text, kExpect, "vector pack",
                 "unexpected query \"额外\" (not in the frozen dataset)");
  }
  {  // a missing query
    auto p = pack;
    p.query_vectors.pop_back();
    expect_error(p, index, f.index_text, kExpect, "vector pack", "missing query \"q2\"");
  }
  {  // a chunk without a vector, and an extra chunk
    auto e = kExpect;
    e.chunk_ids.push_back("c3");
    expect_error(pack, index, f.index_text, e, "vector index", "missing chunk \"c3\"");
    e.chunk_ids = {"c1"};
    expect_error(pack, index, f.index_text, e, "vector index",
                 "unexpected chunk \"c2\" (not in the frozen dataset)");
  }
  {  // wrong length, zero, non-finite
    auto p = pack;
    p.query_vectors[1].values = {1, 2, 3};
    expect_error(p, index, f.index_text, kExpect, "vector pack",
                 "query \"q2\": vector has 3 values, dimensions is 2");
    p.query_vectors[1].values = {0, -0.0f};
    expect_error(p, index, f.index_text, kExpect, "vector pack", "query \"q2\": zero vector");
    auto i = index;
    i.vectors[0].values[1] = std::numeric_limits<float>::infinity();
    expect_error(pack, i, f.index_text, kExpect, "vector index", "chunk \"c1\": non-finite value");
  }
  {  // model and dimensions must agree
    auto p = pack;
    p.model = "m2";
    expect_error(p, index, f.index_text, kExpect, "vector pack",
                 "pack model \"m2\" differs from index model \"m1\"");
    p = pack;
    p.dimensions = 3;
    expect_error(p, index, f.index_text, kExpect, "vector pack",
                 "pack dimensions 3 differ from index dimensions 2");
  }
  {  // index bytes changed (even whitespace) → hash mismatch
    const std::string raw = f.index_text + "\n";
    expect_error(pack, index, raw, kExpect, "vector pack",
                 "index_sha256 " + pack.index_sha256 + " does not match the index file (" +
                     sha256_hex(raw) + ")");
  }
  {  // stale corpus, in either file
    auto e = kExpect;
    e.corpus_sha256 = kOtherHash;
    expect_error(pack, index, f.index_text, e, "vector pack",
                 "corpus_sha256 " + kCorpusHash + " does not match the dataset corpus (" +
                     kOtherHash + ")");
    auto i = index;
    i.corpus_sha256 = kOtherHash;
    expect_error(pack, i, f.index_text, kExpect, "vector index",
                 "corpus_sha256 " + kOtherHash + " does not match the dataset corpus (" +
                     kCorpusHash + ")");
  }
  // load_vector_pack reports parse errors of either file.
  EXPECT_EQ(load_vector_pack(f.pack_text, "{", kExpect).error().file, "vector index");
  EXPECT_EQ(load_vector_pack("{", f.index_text, kExpect).error().file, "vector pack");
}

TEST(VectorPack, BuildFromLocalTfidfRoundTrips) {
  const std::vector<std::string> texts = {"退货退款需要七天内申请", "优惠券不能叠加使用",
                                          "订单取消后退款原路返回"};
  auto emb = qaplan::LocalTfidfEmbedder::fit(texts);
  ASSERT_TRUE(emb.ok());
  const PackExpectations e = {{"退款多久到账", "优惠券可以叠加吗"}, {"p1-s1", "p2-s1", "p3-s1"},
                              kCorpusHash};
  auto files = build_vector_pack(*emb, e, texts, "built by the test with local-tfidf");
  ASSERT_TRUE(files.ok()) << files.error().to_string();
  auto loaded = load_vector_pack(files->pack_json, files->index_json, e);
  ASSERT_TRUE(loaded.ok()) << loaded.error().to_string();
  EXPECT_EQ(loaded->model, "local-tfidf");
  EXPECT_EQ(loaded->dimensions, emb->dimensions());
  for (std::size_t i = 0; i < texts.size(); ++i) {
    EXPECT_TRUE(bits_equal(loaded->chunk_vectors[i], *emb->embed(texts[i])));
  }
  for (std::size_t i = 0; i < e.queries.size(); ++i) {
    EXPECT_TRUE(bits_equal(loaded->query_vectors[i], *emb->embed(e.queries[i])));
  }
  auto pack = parse_query_pack(files->pack_json);
  EXPECT_EQ(pack->index_sha256, sha256_hex(files->index_json));
  EXPECT_EQ(pack->provenance, "built by the test with local-tfidf");

  // A query with no corpus token cannot be embedded: the builder names it.
  auto bad = e;
  bad.queries.push_back("会员");
  auto err = build_vector_pack(*emb, bad, texts, "x");
  ASSERT_FALSE(err.ok());
  EXPECT_EQ(err.error().message, "query has no token in the corpus vocabulary");
  EXPECT_EQ(err.error().field, "vector pack builder: query \"会员\"");
  EXPECT_FALSE(build_vector_pack(*emb, e, {"only one"}, "x").ok());
}
