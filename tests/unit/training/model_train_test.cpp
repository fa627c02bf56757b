// The router trainer on a tiny data folder (tests/support/router_fixture.hpp): deterministic bytes,
// a model that fits its training rows, metadata that records how it was made, and strict refusal
// of bad data (fingerprints, labels, splits) and bad options.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "common/sha256.hpp"
#include "planning/model/router_model.hpp"
#include "qaplan/eval/train_model.hpp"
#include "support/router_fixture.hpp"

namespace {

using qaplan::ErrorCode;
using qaplan::RouterTrainOptions;
using qaplan::internal::Head;
using qaplan::internal::RouterModel;
using Files = std::map<std::string, std::string>;

RouterTrainOptions options(const Files& files, bool refingerprint = true,
                           const std::string& fingerprints = "") {
  RouterTrainOptions o;
  o.data = qaplan::test::named(files);
  o.fingerprints = {"fingerprints.json", refingerprint
                                             ? qaplan::test::router_fixture_fingerprints(files)
                                             : fingerprints};
  return o;
}

qaplan::Error train_error(const RouterTrainOptions& o) {
  auto r = qaplan::train_router_model(o);
  EXPECT_FALSE(r.ok());
  return r.ok() ? qaplan::Error{} : r.error();
}

TEST(ModelTrain, SameDataGivesIdenticalBytes) {
  const Files files = qaplan::test::router_fixture_files();
  const auto a = qaplan::train_router_model(options(files));
  ASSERT_TRUE(a.ok()) << a.error().to_string();
  const auto b = qaplan::train_router_model(options(files));
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(a->bytes, b->bytes);
  EXPECT_EQ(a->sha256, qaplan::internal::sha256_hex(a->bytes));
  EXPECT_EQ(qaplan::router_report_json(a->report, false),
            qaplan::router_report_json(b->report, false));
  // Another C is another model.
  auto o = options(files);
  o.c[0] = 0.5;
  const auto c = qaplan::train_router_model(o);
  ASSERT_TRUE(c.ok());
  EXPECT_NE(c->bytes, a->bytes);
}

TEST(ModelTrain, FitsItsTrainingRowsAndRecordsHowItWasMade) {
  const Files files = qaplan::test::router_fixture_files();
  const auto t = qaplan::train_router_model(options(files));
  ASSERT_TRUE(t.ok()) << t.error().to_string();
  const auto m = RouterModel::parse(t->bytes, "fixture");
  ASSERT_TRUE(m.ok()) << m.error().to_string();
  EXPECT_EQ(m->name(), "router-v1");
  EXPECT_EQ(m->labels(Head::kAct).size(), 9u);
  EXPECT_EQ(m->labels(Head::kSource).back(), "none");
  for (const auto& h : t->report.heads) {
    if (h.split != "train") continue;
    EXPECT_GE(h.accuracy, 0.8) << h.head;  // min_count 2 drops features seen once
    EXPECT_GT(h.samples, 0) << h.head;
  }
  // Every split with rows is reported; counts per label add up.
  int act_rows = 0;
  for (const auto& c : t->report.counts)
    if (c.head == "act") act_rows += c.per_split[0] + c.per_split[1] + c.per_split[2];
  EXPECT_EQ(act_rows, 35 + 17 + 4);
  const auto meta = nlohmann::json::parse(m->metadata());
  EXPECT_EQ(meta["feature_spec"], "router-features-2");
  EXPECT_EQ(meta["hash_bits"], 20);
  const auto& tr = meta["training"];
  EXPECT_EQ(tr["command"], "qaplan model train");
  EXPECT_EQ(tr["library"].get<std::string>().rfind("LIBLINEAR ", 0), 0u);
  EXPECT_EQ(tr["c"]["act"], qaplan::kDefaultRouterC[0]);
  EXPECT_EQ(tr["class_balance"]["source"], qaplan::kDefaultRouterBalance[3]);
  EXPECT_EQ(tr["samples"]["dependent"]["train"], 6);
  EXPECT_EQ(tr["data_files"].size(), 3u);
  EXPECT_EQ(tr["data_fingerprint"].get<std::string>().size(), 64u);
  EXPECT_EQ(t->report.data_fingerprint, tr["data_fingerprint"]);
  ASSERT_EQ(t->report.quantization_agreement.size(), 5u);
  for (const auto& [head, share] : t->report.quantization_agreement) EXPECT_GE(share, 0.9) << head;
  // Markdown names every head and has confusion matrices.
  const std::string md = qaplan::router_report_markdown(t->report);
  EXPECT_NE(md.find("## dependent — test"), std::string::npos);
  EXPECT_NE(md.find("Confusion"), std::string::npos);
}

TEST(ModelTrain, EvaluateScoresOneSplit) {
  const Files files = qaplan::test::router_fixture_files();
  const auto t = qaplan::train_router_model(options(files));
  ASSERT_TRUE(t.ok());
  const auto o = options(files);
  const auto r = qaplan::evaluate_router_model(t->bytes, "m.qpm", o.data, o.fingerprints, {"test"});
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  for (const auto& h : r->heads) EXPECT_EQ(h.split, "test");
  EXPECT_EQ(r->model_sha256, t->sha256);
  EXPECT_TRUE(r->quantization_agreement.empty());
  const auto bad_split =
      qaplan::evaluate_router_model(t->bytes, "m.qpm", o.data, o.fingerprints, {"holdout"});
  ASSERT_FALSE(bad_split.ok());
  EXPECT_EQ(bad_split.error().code, ErrorCode::kInvalidInput);
  std::string corrupt = t->bytes;
  corrupt[corrupt.size() / 2] ^= 0x01;
  const auto bad_model =
      qaplan::evaluate_router_model(corrupt, "m.qpm", o.data, o.fingerprints, {"test"});
  ASSERT_FALSE(bad_model.ok());
  EXPECT_EQ(bad_model.error().code, ErrorCode::kInvalidInput);
  EXPECT_EQ(bad_model.error().file, "m.qpm");
}

TEST(ModelTrain, FingerprintsGuardTheData) {
  Files files = qaplan::test::router_fixture_files();
  const std::string registry = qaplan::test::router_fixture_fingerprints(files);
  Files edited = files;
  edited["social.jsonl"] +=
      "{\"text\": \"嗨\", \"act\": \"greeting\", \"intent\": null, "
      "\"category\": null, \"source\": null, \"lang\": \"zh-Hans\", "
      "\"split\": \"train\"}\n";
  auto e = train_error(options(edited, false, registry));
  EXPECT_EQ(e.code, ErrorCode::kFingerprintMismatch);
  EXPECT_EQ(e.file, "social.jsonl");
  Files extra = files;
  extra["extra.jsonl"] = files["social.jsonl"];
  e = train_error(options(extra, false, registry));
  EXPECT_EQ(e.code, ErrorCode::kFingerprintMismatch);
  EXPECT_EQ(e.file, "extra.jsonl");
  Files fewer = files;
  fewer.erase("more/dependent.jsonl");
  e = train_error(options(fewer, false, registry));
  EXPECT_EQ(e.code, ErrorCode::kFingerprintMismatch);
  EXPECT_EQ(e.file, "more/dependent.jsonl");
  e = train_error(options(files, false, "{\"format\": \"other\", \"files\": {}}"));
  EXPECT_EQ(e.code, ErrorCode::kInvalidInput);
  EXPECT_EQ(e.file, "fingerprints.json");
}

// Appends `line` to social.jsonl (re-registered) and expects kInvalidInput at that line/field.
void expect_bad_row(const std::string& line, const std::string& field, const std::string& needle) {
  Files files = qaplan::test::router_fixture_files();
  const int lineno = static_cast<int>(std::count(files["social.jsonl"].begin(),
                                                 files["social.jsonl"].end(), '\n')) +
                     1;
  files["social.jsonl"] += line + "\n";
  const auto e = train_error(options(files));
  EXPECT_EQ(e.code, ErrorCode::kInvalidInput) << line;
  EXPECT_EQ(e.file, "social.jsonl") << line;
  EXPECT_EQ(e.line, lineno) << line;
  EXPECT_EQ(e.field, field) << line << " → " << e.to_string();
  EXPECT_NE(e.to_string().find(needle), std::string::npos) << e.to_string();
}

TEST(ModelTrain, MalformedRowsAreNamed) {
  const std::string tail = R"(, "lang": "zh-Hans", "split": "train"})";
  expect_bad_row(
      R"({"text": "嗨", "act": "wave", "intent": null, "category": null, "source": null)" + tail,
      "act", "unknown label \"wave\"");
  expect_bad_row(
      R"({"text": "嗨", "act": "greeting", "intent": "FAQ_QUERY", "category": null, "source": null)" +
          tail,
      "intent", "only act = question rows");
  expect_bad_row(
      R"({"text": "年假", "act": "question", "intent": null, "category": "cheap", "source": null)" +
          tail,
      "category", "unknown label");
  expect_bad_row(
      R"({"text": "嗨", "act": "greeting", "intent": null, "category": null, "source": null, "lang": "zh-Hans", "split": "holdout"})",
      "split", "must be train, dev or test");
  expect_bad_row(
      R"({"text": "   ", "act": "greeting", "intent": null, "category": null, "source": null)" +
          tail,
      "text", "");
  expect_bad_row(
      R"({"text": "那呢", "act": "question", "intent": null, "category": null, "source": null, "lang": "zh-Hans", "split": "train", "previous": "年假"})",
      "dependent", "true or false");
  expect_bad_row(
      R"({"text": "嗨", "act": "greeting", "intent": null, "category": null, "source": null, "lang": "zh-Hans", "split": "train", "mood": "happy"})",
      "mood", "");
  expect_bad_row(
      R"({"text": "嗨", "act": null, "intent": null, "category": null, "source": null)" + tail,
      "act", "no label for any head");
  // Traditional 謝謝 normalizes to 谢谢, which the fixture has in train: one text, two splits.
  expect_bad_row(
      R"({"text": "謝謝", "act": "thanks", "intent": null, "category": null, "source": null, "lang": "zh-Hant", "split": "test"})",
      "split", "social.jsonl:5");
  Files files = qaplan::test::router_fixture_files();
  files["social.jsonl"] += "{not json\n";
  const auto e = train_error(options(files));
  EXPECT_EQ(e.code, ErrorCode::kInvalidInput);
  EXPECT_EQ(e.file, "social.jsonl");
  EXPECT_EQ(e.line, 36);
}

TEST(ModelTrain, EveryLabelNeedsTrainingRows) {
  Files files = qaplan::test::router_fixture_files();
  std::string kept;
  std::istringstream in(files["social.jsonl"]);
  for (std::string line; std::getline(in, line);)
    if (line.find("\"unclear\"") == std::string::npos) kept += line + "\n";
  files["social.jsonl"] = kept;
  const auto e = train_error(options(files));
  EXPECT_EQ(e.code, ErrorCode::kInvalidInput);
  EXPECT_NE(e.message.find("label \"unclear\" has no training rows"), std::string::npos)
      << e.message;
}

TEST(ModelTrain, OptionsAreValidated) {
  const Files files = qaplan::test::router_fixture_files();
  auto bad = [&](auto edit, const std::string& field) {
    auto o = options(files);
    edit(o);
    const auto e = train_error(o);
    EXPECT_EQ(e.code, ErrorCode::kInvalidConfig) << field;
    EXPECT_EQ(e.field, field);
  };
  bad([](RouterTrainOptions& o) { o.c[1] = 0.0; }, "c.intent");
  bad([](RouterTrainOptions& o) { o.c[4] = 1e9; }, "c.dependent");
  bad([](RouterTrainOptions& o) { o.balance[2] = 2.0; }, "balance.category");
  bad([](RouterTrainOptions& o) { o.min_count = 0; }, "min_count");
  bad([](RouterTrainOptions& o) { o.hash_bits = 30; }, "hash_bits");
  bad([](RouterTrainOptions& o) { o.eps = 0.0; }, "eps");
  bad([](RouterTrainOptions& o) { o.name.clear(); }, "name");
}

}  // namespace
