// The router model file: the writer's output parses, and every kind of bad file (truncated at any
// offset, foreign magic, future version, label-count overflow, inconsistent sizes, corrupted
// bytes) is refused with kInvalidInput naming the file — never a crash or an out-of-bounds read.
#include "planning/model/model_format.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "common/sha256.hpp"
#include "planning/model/features.hpp"
#include "planning/model/router_model.hpp"
#include "support/rng.hpp"

namespace {

using qaplan::ErrorCode;
using qaplan::internal::Head;
using qaplan::internal::kHeads;
using qaplan::internal::RouterModel;
using qaplan::internal::RouterModelData;

constexpr const char* kOrigin = "models/test.qpm";

// A small valid model: 4 labels of act … 2 of dependent, three feature rows.
RouterModelData small_model() {
  RouterModelData d;
  d.name = "test-model";
  d.hash_bits = 16;
  const std::vector<std::vector<std::string>> labels = {
      {"greeting", "thanks", "chit_chat", "question"},
      {"FAQ_QUERY", "KNOWLEDGE_QUERY"},
      {"default", "pricing", "summary"},
      {"hr", "it", "none"},
      {"independent", "dependent"}};
  std::size_t width = 0;
  for (std::size_t h = 0; h < kHeads; ++h) {
    d.heads[h].labels = labels[h];
    for (std::size_t k = 0; k < labels[h].size(); ++k)
      d.heads[h].bias.push_back(0.1f * static_cast<float>(k) - 0.2f);
    width += labels[h].size();
  }
  d.feature_ids = {7, 300, 65535};
  for (std::size_t r = 0; r < d.feature_ids.size(); ++r)
    for (std::size_t j = 0; j < width; ++j)
      d.weights.push_back(static_cast<float>((static_cast<int>(r * width + j) % 7) - 3) * 0.25f);
  d.training_json = R"({"command": "test"})";
  return d;
}

std::string small_bytes() {
  return qaplan::internal::serialize_router_model(small_model()).value();
}

std::uint32_t get_u32(const std::string& b, std::size_t at) {
  std::uint32_t v = 0;
  for (int i = 0; i < 4; ++i)
    v |= static_cast<std::uint32_t>(static_cast<unsigned char>(b[at + i])) << (8 * i);
  return v;
}

void put_u32(std::string& b, std::size_t at, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) b[at + i] = static_cast<char>((v >> (8 * i)) & 0xFF);
}

// Recomputes the trailing SHA-256 so a deliberate edit is judged by the structural checks, not
// only by the checksum.
void reseal(std::string& b) {
  qaplan::internal::Sha256 h;
  h.update(std::string_view(b).substr(0, b.size() - 32));
  const auto d = h.finish();
  b.replace(b.size() - 32, 32, reinterpret_cast<const char*>(d.data()), 32);
}

// Offset of the binary tables (after the metadata and its padding).
std::size_t table_offset(const std::string& b) {
  std::size_t at = 16 + get_u32(b, 12);
  return (at + 3) / 4 * 4;
}

void expect_invalid(const std::string& bytes, const std::string& needle) {
  const auto r = RouterModel::parse(bytes, kOrigin);
  ASSERT_FALSE(r.ok()) << "accepted a bad file; expected: " << needle;
  EXPECT_EQ(r.error().code, ErrorCode::kInvalidInput);
  EXPECT_EQ(r.error().file, kOrigin);
  EXPECT_NE(r.error().to_string().find(needle), std::string::npos) << r.error().to_string();
  EXPECT_EQ(r.error().to_string().find('\n'), std::string::npos);
}

TEST(ModelFormat, WrittenModelParses) {
  const std::string bytes = small_bytes();
  const auto m = RouterModel::parse(bytes, kOrigin);
  ASSERT_TRUE(m.ok()) << m.error().to_string();
  EXPECT_EQ(m->name(), "test-model");
  EXPECT_EQ(m->sha256(), qaplan::internal::sha256_hex(bytes));
  EXPECT_EQ(m->labels(Head::kAct),
            (std::vector<std::string>{"greeting", "thanks", "chit_chat", "question"}));
  EXPECT_EQ(m->labels(Head::kDependent), (std::vector<std::string>{"independent", "dependent"}));
  EXPECT_NE(m->metadata().find("\"command\":\"test\""), std::string::npos) << m->metadata();
  EXPECT_EQ(bytes.substr(0, 8), "QPRouter");
  EXPECT_EQ(bytes.size() % 4, 0u);
}

TEST(ModelFormat, WriterIsDeterministicAndQuantizesPerHead) {
  EXPECT_EQ(small_bytes(), small_bytes());
  // All-zero weights of a row are not stored: zero the middle row and the file shrinks by one
  // row (4 bytes of id + one byte per label).
  RouterModelData d = small_model();
  const std::size_t width = d.weights.size() / d.feature_ids.size();
  std::fill(d.weights.begin() + static_cast<std::ptrdiff_t>(width),
            d.weights.begin() + static_cast<std::ptrdiff_t>(2 * width), 0.0f);
  const std::string smaller = qaplan::internal::serialize_router_model(d).value();
  const std::size_t diff = small_bytes().size() - smaller.size();
  EXPECT_GE(diff + 3, 4 + width);  // one row less, give or take the 4-byte padding
  EXPECT_LE(diff, 4 + width + 3);
  EXPECT_LT(smaller.size(), small_bytes().size());
  EXPECT_TRUE(RouterModel::parse(smaller, kOrigin).ok());
}

TEST(ModelFormat, WriterRejectsInconsistentData) {
  auto bad = [](RouterModelData d) {
    const auto r = qaplan::internal::serialize_router_model(d);
    EXPECT_FALSE(r.ok());
    if (!r.ok()) EXPECT_EQ(r.error().code, ErrorCode::kInvalidInput);
  };
  RouterModelData d = small_model();
  d.feature_ids = {300, 7, 65535};
  bad(d);
  d = small_model();
  d.feature_ids.back() = 70000;  // ≥ 2^16
  bad(d);
  d = small_model();
  d.weights.pop_back();
  bad(d);
  d = small_model();
  d.heads[0].labels.assign(17, "x");
  bad(d);
  d = small_model();
  d.heads[2].bias.pop_back();
  bad(d);
  d = small_model();
  d.weights[3] = std::numeric_limits<float>::quiet_NaN();
  bad(d);
  d = small_model();
  d.training_json = "[1, 2]";
  bad(d);
  d = small_model();
  d.name.clear();
  bad(d);
}

TEST(ModelFormat, EveryTruncationIsRefused) {
  const std::string bytes = small_bytes();
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    const auto r = RouterModel::parse(bytes.substr(0, n), kOrigin);
    ASSERT_FALSE(r.ok()) << "prefix of " << n << " bytes accepted";
    EXPECT_EQ(r.error().code, ErrorCode::kInvalidInput) << n;
    EXPECT_EQ(r.error().file, kOrigin);
  }
  expect_invalid(bytes.substr(0, 5), "truncated");
  expect_invalid(bytes.substr(0, 40), "truncated");
  expect_invalid(bytes.substr(0, bytes.size() - 1), "");
}

TEST(ModelFormat, ForeignAndFutureFilesAreRefused) {
  std::string b = small_bytes();
  b[0] = 'X';
  expect_invalid(b, "bad magic");
  expect_invalid("{\"not\": \"a model\"}", "");
  b = small_bytes();
  put_u32(b, 8, 2);
  reseal(b);
  expect_invalid(b, "format version 2 not supported");
  b = small_bytes();
  b += std::string(4, '\0');
  expect_invalid(b, "unexpected bytes");
}

TEST(ModelFormat, MetadataIsValidatedStrictly) {
  auto with_meta = [](const std::string& meta) {
    std::string b = small_bytes();
    const std::size_t old_len = get_u32(b, 12);
    const std::size_t old_end = (16 + old_len + 3) / 4 * 4;
    std::string head = b.substr(0, 12);
    std::string m = meta;
    std::string out = head;
    out.append(4, '\0');
    put_u32(out, 12, static_cast<std::uint32_t>(m.size()));
    out += m;
    while (out.size() % 4) out.push_back('\0');
    out += b.substr(old_end);
    reseal(out);
    return out;
  };
  const std::string heads =
      R"("heads":[{"name":"act","labels":["greeting","thanks","chit_chat","question"]},)"
      R"({"name":"intent","labels":["FAQ_QUERY","KNOWLEDGE_QUERY"]},)"
      R"({"name":"category","labels":["default","pricing","summary"]},)"
      R"({"name":"source","labels":["hr","it","none"]},)"
      R"({"name":"dependent","labels":["independent","dependent"]}])";
  const std::string ok = R"({"feature_spec":"router-features-2","hash_bits":16,)" + heads +
                         R"(,"name":"m","training":{}})";
  ASSERT_TRUE(RouterModel::parse(with_meta(ok), kOrigin).ok());
  expect_invalid(with_meta("not json"), "metadata");
  expect_invalid(with_meta(R"({"feature_spec":"router-features-9","hash_bits":16,)" + heads +
                           R"(,"name":"m","training":{}})"),
                 "feature spec \"router-features-9\" not supported");
  expect_invalid(with_meta(R"({"feature_spec":"router-features-2","hash_bits":17,)" + heads +
                           R"(,"name":"m","training":{}})"),
                 "hash bits 16 differ");
  expect_invalid(with_meta(R"({"feature_spec":"router-features-2","hash_bits":16,)" + heads +
                           R"(,"name":"m","training":{},"extra":1})"),
                 "extra");
  std::string renamed = ok;
  renamed.replace(renamed.find("\"intent\""), 8, "\"intend\"");
  expect_invalid(with_meta(renamed), "expected \"intent\"");
  std::string dup = ok;
  dup.replace(dup.find("\"thanks\""), 8, "\"greeting\"");
  expect_invalid(with_meta(dup), "duplicate label");
  // 17 labels in the metadata: more than kMaxLabels.
  std::string many =
      R"({"feature_spec":"router-features-2","hash_bits":16,"heads":[{"name":"act","labels":[)";
  for (int i = 0; i < 17; ++i)
    many += (i ? "," : "") + std::string("\"l") + std::to_string(i) + "\"";
  many +=
      R"(]},)" + heads.substr(heads.find("{\"name\":\"intent\"")) + R"(,"name":"m","training":{}})";
  expect_invalid(with_meta(many), "2 to 16 labels");
}

TEST(ModelFormat, BinaryCountsAndSizesAreChecked) {
  const std::string good = small_bytes();
  const std::size_t a = table_offset(good);
  // act head label count: 17 (> kMaxLabels), and 5 (≠ the metadata's 4).
  std::string b = good;
  put_u32(b, a + 8, 17);
  reseal(b);
  expect_invalid(b, "more than 16");
  b = good;
  put_u32(b, a + 8, 5);
  reseal(b);
  expect_invalid(b, "the metadata names 4");
  b = good;
  put_u32(b, a + 4, 4);  // head count
  reseal(b);
  expect_invalid(b, "head count 4");
  // Row count / row width sit after the five heads: label count + scale + biases each.
  std::size_t at = a + 8;
  for (std::size_t n : {4u, 2u, 3u, 3u, 2u}) at += 4 + 4 + 4 * n;
  EXPECT_EQ(get_u32(good, at), 3u);       // rows
  EXPECT_EQ(get_u32(good, at + 4), 14u);  // width
  b = good;
  put_u32(b, at, 1000000);
  reseal(b);
  expect_invalid(b, "");
  b = good;
  put_u32(b, at, 4);  // one row more than stored
  reseal(b);
  expect_invalid(b, "truncated");
  b = good;
  put_u32(b, at + 4, 13);
  reseal(b);
  expect_invalid(b, "row width 13");
  // Ids not increasing, and an id beyond 2^hash_bits.
  b = good;
  put_u32(b, at + 8, 300);
  reseal(b);
  expect_invalid(b, "strictly increasing");
  b = good;
  put_u32(b, at + 16, 1u << 16);
  reseal(b);
  expect_invalid(b, "not below 2^hash_bits");
  // A scale that is not a positive finite number; a weight of -128.
  b = good;
  put_u32(b, a + 12, std::bit_cast<std::uint32_t>(std::numeric_limits<float>::infinity()));
  reseal(b);
  expect_invalid(b, "not a finite number");
  b = good;
  put_u32(b, a + 12, std::bit_cast<std::uint32_t>(-1.0f));
  reseal(b);
  expect_invalid(b, "scale must be > 0");
  b = good;
  b[at + 8 + 12] = static_cast<char>(-128);
  reseal(b);
  expect_invalid(b, "-128");
}

TEST(ModelFormat, CorruptedBytesAreCaught) {
  const std::string good = small_bytes();
  // A flipped bit anywhere (header, metadata, tables, checksum) is refused.
  for (std::size_t at = 0; at < good.size(); ++at) {
    std::string b = good;
    b[at] = static_cast<char>(b[at] ^ 0x10);
    const auto r = RouterModel::parse(b, kOrigin);
    ASSERT_FALSE(r.ok()) << "flip at byte " << at << " accepted";
    EXPECT_EQ(r.error().code, ErrorCode::kInvalidInput);
  }
  std::string b = good;
  b[table_offset(good) + 40] ^= 0x01;
  expect_invalid(b, "checksum mismatch");
  // Random garbage of many lengths never crashes.
  qaplan::test::Rng rng(7);
  for (int i = 0; i < 500; ++i) {
    std::string g(rng.next() % 400, '\0');
    for (char& c : g) c = static_cast<char>(rng.next() & 0xFF);
    if (i % 2 == 0 && g.size() >= 12) g.replace(0, 12, good.substr(0, 12));
    EXPECT_FALSE(RouterModel::parse(g, kOrigin).ok());
  }
}

TEST(ModelFormat, LoadNamesMissingFile) {
  const auto r = RouterModel::load("/nonexistent/dir/router.qpm");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kIo);
  EXPECT_NE(r.error().to_string().find("/nonexistent/dir/router.qpm"), std::string::npos);
}

TEST(ModelFormat, PredictOnSmallModelMatchesHandComputation) {
  RouterModelData d = small_model();
  d.hash_bits = 20;
  // One row for the feature "len 1" (shape of a one-unit message) and nothing else: the act head
  // scores bias + scale·q / sqrt(n) for a one-character message.
  qaplan::internal::FeatureBuffer buf;
  qaplan::internal::extract_router_features("嗨", "", 20, buf);
  ASSERT_GT(buf.text_count, 0u);
  std::vector<std::uint32_t> ids(buf.ids.begin(), buf.ids.begin() + buf.text_count);
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  const std::size_t width = 14;
  d.feature_ids = {ids[0]};
  d.weights.assign(width, 0.0f);
  d.weights[3] = 2.54f;  // act "question": the largest |w| of the act head → int8 127
  const auto m = RouterModel::parse(qaplan::internal::serialize_router_model(d).value(), kOrigin);
  ASSERT_TRUE(m.ok()) << m.error().to_string();
  qaplan::internal::ModelOutput out;
  m->predict("嗨", "", out);
  const float inv = 1.0f / std::sqrt(static_cast<float>(buf.text_count));
  // The id occurs once in "嗨"'s features unless it repeats; count it.
  const auto occ = std::count(buf.ids.begin(), buf.ids.begin() + buf.text_count, ids[0]);
  std::array<float, 4> z{-0.2f, -0.1f, 0.0f, 0.1f + 2.54f * inv * static_cast<float>(occ)};
  const float zmax = *std::max_element(z.begin(), z.end());
  float sum = 0;
  for (float v : z) sum += std::exp(v - zmax);
  EXPECT_EQ(out[0].best, 3);
  EXPECT_NEAR(out[0].probs[3], std::exp(z[3] - zmax) / sum, 1e-5);
  // Without history the dependent head is "independent" with certainty.
  EXPECT_EQ(out[static_cast<std::size_t>(Head::kDependent)].best, 0);
  EXPECT_FLOAT_EQ(out[static_cast<std::size_t>(Head::kDependent)].score, 1.0f);
  float total = 0;
  for (float p : out[0].probs) total += p;
  EXPECT_NEAR(total, 1.0f, 1e-5);
}

}  // namespace
