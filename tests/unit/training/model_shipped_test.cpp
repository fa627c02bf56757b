// The shipped router model (config/models/router-v1.qpm): it loads, its fingerprint is the one
// recorded beside it, it was trained from exactly the data in eval_sets/router (retraining gives
// the same bytes), it reaches its pinned accuracy on the frozen test split, predict() is
// deterministic and thread-safe, and it behaves on clearly labelled messages written for this test
// (checked to be absent from the training data).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "common/sha256.hpp"
#include "eval/router_data.hpp"
#include "planning/model/router_model.hpp"
#include "planning/text.hpp"
#include "qaplan/eval/train_model.hpp"
#include "qaplan/io.hpp"
#include "test_support.hpp"

namespace {

namespace fs = std::filesystem;
using qaplan::internal::Head;
using qaplan::internal::ModelOutput;
using qaplan::internal::RouterModel;

fs::path model_path() { return qaplan::test::source_dir() / "config" / "models" / "router-v1.qpm"; }
fs::path router_dir() { return qaplan::test::source_dir() / "eval_sets" / "router"; }

struct Data {
  std::vector<qaplan::NamedText> files;
  qaplan::NamedText fingerprints;
};

const Data& data() {
  static const Data d = [] {
    Data out;
    std::vector<fs::path> found;
    for (const auto& e : fs::recursive_directory_iterator(router_dir()))
      if (e.is_regular_file() && e.path().extension() == ".jsonl") found.push_back(e.path());
    std::sort(found.begin(), found.end());
    for (const fs::path& p : found)
      out.files.push_back(
          {p.lexically_relative(router_dir()).generic_string(), qaplan::test::slurp(p)});
    out.fingerprints = {"fingerprints.json", qaplan::test::slurp(router_dir() / "fingerprints.json")};
    return out;
  }();
  return d;
}

const RouterModel& model() {
  static const RouterModel m = RouterModel::load(model_path()).value();
  return m;
}

std::string norm(std::string_view raw) {
  return qaplan::internal::normalize_question(raw, qaplan::InputConfig{}).value().text;
}

ModelOutput predict(std::string_view text, std::string_view previous = "") {
  ModelOutput out;
  model().predict(norm(text), previous.empty() ? "" : norm(previous), out);
  return out;
}

std::string label(const ModelOutput& out, Head h) {
  return model().labels(h)[out[static_cast<std::size_t>(h)].best];
}

TEST(ModelShipped, LoadsWithTheRecordedFingerprint) {
  const auto loaded = RouterModel::load(model_path());
  ASSERT_TRUE(loaded.ok()) << loaded.error().to_string();
  const std::string bytes = qaplan::test::slurp(model_path());
  EXPECT_EQ(loaded->sha256(), qaplan::internal::sha256_hex(bytes));
  const std::string recorded = qaplan::test::slurp(model_path().string() + ".sha256");
  EXPECT_EQ(recorded.substr(0, 64), loaded->sha256());
  EXPECT_EQ(recorded.substr(64), "  router-v1.qpm\n");
  EXPECT_EQ(loaded->name(), "router-v1");
  EXPECT_LE(bytes.size(), 3u << 20);  // the size budget: 3 MB
  EXPECT_EQ(
      loaded->labels(Head::kAct),
      (std::vector<std::string>{"greeting", "thanks", "goodbye", "acknowledgement", "chit_chat",
                                "handoff", "out_of_scope", "unclear", "question"}));
  EXPECT_EQ(loaded->labels(Head::kIntent),
            (std::vector<std::string>{"FAQ_QUERY", "KNOWLEDGE_QUERY"}));
  EXPECT_EQ(
      loaded->labels(Head::kCategory),
      (std::vector<std::string>{"default", "pricing", "compliance", "troubleshooting", "summary"}));
  EXPECT_EQ(loaded->labels(Head::kSource),
            (std::vector<std::string>{"hr", "finance", "it", "admin", "legal", "none"}));
  EXPECT_EQ(loaded->labels(Head::kDependent),
            (std::vector<std::string>{"independent", "dependent"}));
}

// The manual names the shipped file's fingerprint; a retrained model must update it.
TEST(ModelShipped, TheDocsNameTheShippedFingerprint) {
  const std::string sha = model().sha256();
  for (const char* doc : {"docs/model.md", "docs/classifier.md"}) {
    const std::string text = qaplan::test::slurp(qaplan::test::source_dir() / doc);
    EXPECT_NE(text.find(sha), std::string::npos) << doc << " does not name " << sha;
  }
}

TEST(ModelShipped, TrainedFromTheDataInTheRepository) {
  // The model's metadata names the data it was trained on; the data on disk must still be it.
  const auto meta = nlohmann::json::parse(model().metadata());
  const auto loaded = qaplan::internal::load_router_data(data().files, data().fingerprints);
  ASSERT_TRUE(loaded.ok()) << loaded.error().to_string();
  EXPECT_EQ(meta["training"]["data_fingerprint"], loaded->fingerprint);
  // And retraining reproduces the file byte for byte (what scripts/train_model.sh checks in CI).
  qaplan::RouterTrainOptions o;
  o.data = data().files;
  o.fingerprints = data().fingerprints;
  const auto t = qaplan::train_router_model(o);
  ASSERT_TRUE(t.ok()) << t.error().to_string();
  EXPECT_EQ(t->sha256, model().sha256());
  EXPECT_TRUE(t->bytes == qaplan::test::slurp(model_path()));
}

TEST(ModelShipped, PinnedAccuracyOnTheFrozenTestSplit) {
  const auto r = qaplan::evaluate_router_model(qaplan::test::slurp(model_path()), "router-v1.qpm",
                                               data().files, data().fingerprints, {"test"});
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  // Figures of the shipped model (docs/model.md); the tolerance absorbs libm differences only.
  const std::map<std::string, std::pair<int, double>> pinned = {{"act", {4674, 0.9542}},
                                                                {"intent", {509, 0.9096}},
                                                                {"category", {509, 0.7937}},
                                                                {"source", {578, 0.7785}},
                                                                {"dependent", {958, 0.9676}}};
  ASSERT_EQ(r->heads.size(), pinned.size());
  for (const auto& h : r->heads) {
    ASSERT_TRUE(pinned.count(h.head)) << h.head;
    EXPECT_EQ(h.samples, pinned.at(h.head).first) << h.head;
    EXPECT_NEAR(h.accuracy, pinned.at(h.head).second, 0.003) << h.head;
  }
}

TEST(ModelShipped, PredictIsDeterministicAndThreadSafe) {
  const std::vector<std::pair<std::string, std::string>> inputs = {{"你好", ""},
                                                                   {"报销要多久到账", ""},
                                                                   {"它支持mac吗", "vpn怎么连"},
                                                                   {"thanks a lot", ""},
                                                                   {"转人工", ""},
                                                                   {"那病假呢", "年假有几天"},
                                                                   {"🙂", ""},
                                                                   {"加班要审批吗", "工资几号发"}};
  auto run_all = [&] {
    std::vector<ModelOutput> outs(inputs.size());
    for (std::size_t i = 0; i < inputs.size(); ++i)
      model().predict(inputs[i].first, inputs[i].second, outs[i]);
    return outs;
  };
  const auto expected = run_all();
  auto same = [](const std::vector<ModelOutput>& a, const std::vector<ModelOutput>& b) {
    for (std::size_t i = 0; i < a.size(); ++i)
      for (std::size_t h = 0; h < a[i].size(); ++h)
        if (a[i][h].best != b[i][h].best || a[i][h].probs != b[i][h].probs) return false;
    return true;
  };
  std::vector<std::thread> threads;
  std::vector<int> ok(8, 1);
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&, t] {
      for (int rep = 0; rep < 200; ++rep)
        if (!same(run_all(), expected)) ok[static_cast<std::size_t>(t)] = 0;
    });
  for (auto& th : threads) th.join();
  for (int t = 0; t < 8; ++t) EXPECT_EQ(ok[static_cast<std::size_t>(t)], 1) << "thread " << t;
  // Probabilities are a distribution; scores are the argmax's.
  for (const auto& out : expected)
    for (const auto& h : out) {
      float sum = 0;
      for (float p : h.probs) sum += p;
      EXPECT_NEAR(sum, 1.0f, 1e-4);
      EXPECT_EQ(h.score, h.probs[h.best]);
    }
}

// Written for this test, not copied from any data file (checked below).
struct Case {
  const char* text;
  const char* previous;
  const char* act;
  const char* source;    // nullptr: not checked
  const char* category;  // nullptr: not checked
};
const std::vector<Case> kCases = {
    {"嗨嗨，小助手早呀", "", "greeting", nullptr, nullptr},
    {"多谢你的耐心帮忙啦", "", "thanks", nullptr, nullptr},
    {"谢谢你呀小助手，辛苦啦", "", "thanks", nullptr, nullptr},
    {"好的那我先下线了，拜拜", "", "goodbye", nullptr, nullptr},
    {"嗯嗯好的明白", "", "acknowledgement", nullptr, nullptr},
    {"好嘞，收到", "", "acknowledgement", nullptr, nullptr},
    {"你平时喜欢听什么歌呀", "", "chit_chat", nullptr, nullptr},
    {"你到底是不是个机器人呀", "", "chit_chat", nullptr, nullptr},
    {"请帮我转接人工客服", "", "handoff", nullptr, nullptr},
    {"帮我查下明天深圳会不会下雨", "", "out_of_scope", nullptr, nullptr},
    {"？？？？？？", "", "unclear", nullptr, nullptr},
    {"😂😂😂😂", "", "unclear", nullptr, nullptr},
    {"Thanks so much, bye!", "", "thanks", nullptr, nullptr},
    {"报销的发票丢了还能报吗", "", "question", "finance", nullptr},
    {"年假怎么申请", "", "question", "hr", "default"},
    {"笔记本连不上公司wifi怎么办", "", "question", "it", "troubleshooting"},
    {"筆電的螢幕突然不亮了怎麼處理", "", "question", "it", "troubleshooting"},
    {"差旅補助的標準是多少", "", "question", "finance", "pricing"},
    {"劳动合同到期不续签有补偿吗", "", "question", "hr", nullptr},
    {"签合同前法务要审核哪些条款", "", "question", "legal", "compliance"},
    {"How do I apply for annual leave?", "", "question", "hr", nullptr},
    {"My laptop won't connect to the VPN", "", "question", "it", "troubleshooting"},
    {"打扰了，报销单被退回了要怎么重新提交呢？多谢", "", "question", "finance", nullptr},
    {"会议室在哪里预订", "年假有几天", "question", "admin", nullptr},
};

TEST(ModelShipped, BehavesOnHeldOutMessages) {
  // Held out: no case's normalized text is a training (or any) row.
  const auto loaded = qaplan::internal::load_router_data(data().files, data().fingerprints);
  ASSERT_TRUE(loaded.ok());
  std::set<std::string> texts;
  for (const auto& row : loaded->rows) texts.insert(row.text);
  for (const Case& c : kCases) {
    SCOPED_TRACE(c.text);
    ASSERT_EQ(texts.count(norm(c.text)), 0u) << "not held out";
    const ModelOutput out = predict(c.text, c.previous);
    EXPECT_EQ(label(out, Head::kAct), c.act);
    if (c.source) EXPECT_EQ(label(out, Head::kSource), c.source);
    if (c.category) EXPECT_EQ(label(out, Head::kCategory), c.category);
  }
  // The dependent head: an elliptical follow-up needs its context, a complete new question does
  // not, and without history nothing is dependent.
  EXPECT_EQ(label(predict("那如果超过了怎么办", "住宿费标准是多少"), Head::kDependent),
            "dependent");
  EXPECT_EQ(label(predict("那产假呢", "婚假有几天"), Head::kDependent), "dependent");
  EXPECT_EQ(label(predict("会议室在哪里预订", "年假有几天"), Head::kDependent), "independent");
  EXPECT_EQ(label(predict("那产假呢"), Head::kDependent), "independent");
  // Social words around a real question leave it a question.
  EXPECT_EQ(label(predict("打扰了，报销单被退回了要怎么重新提交呢？多谢"), Head::kAct), "question");
}

}  // namespace
