// The host's own labels (docs/train-your-own.md): a host whose knowledge base has other sources
// than the shipped five trains the router model on its own data, with the source labels taken from
// its own rules.toml, and plans with it. The data is generated here (templates about two bank
// sources, cards and loans, plus social and follow-up rows), so the test needs nothing but the
// checkout's config/rules.toml to start the host's config from.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "common/sha256.hpp"
#include "planning/model/router_model.hpp"
#include "qaplan/eval/train_model.hpp"
#include "qaplan/planning/config.hpp"
#include "qaplan/planning/planner.hpp"
#include "support/router_fixture.hpp"
#include "test_support.hpp"

namespace {

namespace fs = std::filesystem;
using Files = std::map<std::string, std::string>;
using qaplan::test::RouterFixtureRow;

// --- the generated data ------------------------------------------------------------------------

struct Subject {
  const char* source;
  const char* words;
};
// Each source's own words, none shared with the other: what its questions are about.
constexpr Subject kSubjects[] = {
    {"cards", "信用卡"},   {"cards", "借记卡"},   {"cards", "额度"},     {"cards", "年费"},
    {"cards", "挂失"},     {"cards", "账单"},     {"cards", "积分"},     {"cards", "附属卡"},
    {"cards", "刷卡"},     {"loans", "房贷"},     {"loans", "车贷"},     {"loans", "利率"},
    {"loans", "提前还款"}, {"loans", "放款"},     {"loans", "抵押"},     {"loans", "消费贷"},
    {"loans", "公积金"},   {"loans", "助学贷款"}, {"none", "营业时间"}, {"none", "客服热线"},
    {"none", "总行地址"},
};

struct Pattern {
  const char* before;
  const char* after;
  const char* intent;
  const char* category;
};
constexpr Pattern kPatterns[] = {
    {"", "怎么办理", "FAQ_QUERY", "default"},
    {"请问", "需要什么材料", "FAQ_QUERY", "default"},
    {"", "要收多少费用", "FAQ_QUERY", "pricing"},
    {"", "的手续费是多少钱", "FAQ_QUERY", "pricing"},
    {"", "有哪些合规要求", "KNOWLEDGE_QUERY", "compliance"},
    {"", "的监管规定是什么", "KNOWLEDGE_QUERY", "compliance"},
    {"", "办理失败怎么处理", "FAQ_QUERY", "troubleshooting"},
    {"", "一直提示错误怎么办", "FAQ_QUERY", "troubleshooting"},
    {"总结一下", "的政策", "KNOWLEDGE_QUERY", "summary"},
    {"概括一下", "的主要条款", "KNOWLEDGE_QUERY", "summary"},
    {"介绍一下", "", "KNOWLEDGE_QUERY", "default"},
};

constexpr std::pair<const char*, const char*> kSocial[] = {
    {"你好", "greeting"},          {"您好呀", "greeting"},        {"早上好", "greeting"},
    {"下午好", "greeting"},        {"在吗", "greeting"},          {"hello", "greeting"},
    {"hi there", "greeting"},      {"谢谢", "thanks"},            {"多谢啦", "thanks"},
    {"谢谢你", "thanks"},          {"太感谢了", "thanks"},        {"辛苦了", "thanks"},
    {"thanks a lot", "thanks"},    {"thank you", "thanks"},       {"再见", "goodbye"},
    {"拜拜", "goodbye"},           {"下次见", "goodbye"},         {"先这样吧", "goodbye"},
    {"晚安", "goodbye"},           {"bye bye", "goodbye"},        {"see you", "goodbye"},
    {"好的", "acknowledgement"},   {"嗯嗯", "acknowledgement"},   {"收到", "acknowledgement"},
    {"明白了", "acknowledgement"}, {"知道了", "acknowledgement"}, {"ok", "acknowledgement"},
    {"好滴", "acknowledgement"},   {"你是谁", "chit_chat"},       {"你喜欢什么电影", "chit_chat"},
    {"你今天心情怎么样", "chit_chat"}, {"你多大了", "chit_chat"}, {"你是机器人吗", "chit_chat"},
    {"你住在哪里", "chit_chat"},   {"你会做梦吗", "chit_chat"},   {"转人工", "handoff"},
    {"我要人工客服", "handoff"},   {"找真人", "handoff"},         {"人工服务", "handoff"},
    {"帮我转接人工", "handoff"},   {"我要找客服经理", "handoff"}, {"叫个真人来", "handoff"},
    {"明天天气怎么样", "out_of_scope"}, {"推荐一只股票", "out_of_scope"},
    {"给我唱首歌", "out_of_scope"}, {"播放音乐", "out_of_scope"}, {"讲个笑话", "out_of_scope"},
    {"帮我订外卖", "out_of_scope"}, {"今晚彩票号码", "out_of_scope"}, {"？？？", "unclear"},
    {"😂", "unclear"},             {"。。。", "unclear"},         {"？", "unclear"},
    {"!!!", "unclear"},            {"🙂🙂", "unclear"},           {"……", "unclear"},
};

// The split follows the text, as in eval_sets/router: one text is never in two splits.
const char* split_of(const std::string& text) {
  const unsigned v = std::stoul(qaplan::internal::sha256_hex(text).substr(0, 8), nullptr, 16);
  return v % 10 < 7 ? "train" : v % 10 < 8 ? "dev" : "test";
}

std::string line_of(RouterFixtureRow r, const std::string& text) {
  r.text = text.c_str();
  r.split = split_of(text);
  return qaplan::test::router_line(r);
}

// Rows from templates: every subject × pattern (source questions), the social list, and
// follow-ups (那…呢 after a question: dependent; a full question after another: independent).
Files generate_host_data() {
  std::string questions, social, followups;
  for (const Subject& s : kSubjects)
    for (const Pattern& p : kPatterns)
      questions += line_of({nullptr, "question", p.intent, p.category, s.source},
                           std::string(p.before) + s.words + p.after);
  for (const auto& [text, act] : kSocial) social += line_of({nullptr, act}, text);
  const std::size_t n = std::size(kSubjects);
  for (std::size_t i = 0; i < n; ++i) {
    const Subject& s = kSubjects[i];
    const Subject& other = kSubjects[(i + 7) % n];
    RouterFixtureRow dep{nullptr, nullptr};
    const std::string previous = std::string(other.words) + "怎么办理";
    dep.previous = previous.c_str();
    dep.dependent = true;
    followups += line_of(dep, std::string("那") + s.words + "呢");
    followups += line_of(dep, std::string(s.words) + "呢");
    dep.dependent = false;
    followups += line_of(dep, std::string(s.words) + "的手续费怎么算");
    followups += line_of(dep, std::string("我想了解") + s.words + "的规定");
  }
  return {{"bank_questions.jsonl", questions},
          {"social.jsonl", social},
          {"dialogue/followups.jsonl", followups}};
}

void write(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << text;
}

// --- the host's rules.toml ---------------------------------------------------------------------

// config/rules.toml with the bank's [[sources]] instead of the shipped five; every place that
// names a source follows: the scenarios' allowed_sources, [glossary.domains] (no bank glossary),
// and [model] path + sha256 point at the host's model.
std::string host_rules(const std::string& model_path, const std::string& model_sha) {
  std::istringstream in(qaplan::test::slurp(qaplan::test::source_dir() / "config/rules.toml"));
  std::string out, table;
  bool skipping = false, sources_written = false;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("[", 0) == 0) {
      table = line.substr(0, line.find(']') + 1);
      if (line.rfind("[[", 0) == 0) table = line.substr(0, line.find("]]") + 2);
      skipping = table == "[[sources]]";
      if (skipping && !sources_written) {
        out +=
            "[[sources]]\nname = \"cards\"\nkeywords = [\"信用卡\", \"借记卡\"]\n\n"
            "[[sources]]\nname = \"loans\"\nkeywords = [\"房贷\", \"贷款\"]\n\n";
        sources_written = true;
      }
    }
    if (skipping) continue;
    if (line.rfind("allowed_sources", 0) == 0)
      line = table == "[scenarios.default]" ? R"(allowed_sources = ["cards", "loans"])"
                                           : R"(allowed_sources = ["cards"])";
    else if (table == "[glossary.domains]" && line.find('=') != std::string::npos &&
             line[0] != '#')
      continue;
    else if (table == "[model]" && line.rfind("path =", 0) == 0)
      line = "path = \"" + model_path + "\"";
    else if (table == "[model]" && line.rfind("sha256 =", 0) == 0)
      line = "sha256 = \"" + model_sha + "\"";
    out += line + "\n";
  }
  return out;
}

// --- the test fixture: data, model and host config made once -----------------------------------

class HostSources : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new fs::path(fs::temp_directory_path() /
                        ("qaplan-host-sources-" + std::to_string(::getpid())));
    fs::remove_all(*dir_);
    files_ = new Files(generate_host_data());
    for (const auto& [name, text] : *files_) write(*dir_ / "data" / name, text);
    write(*dir_ / "data/fingerprints.json", qaplan::test::router_fixture_fingerprints(*files_));
    fs::create_directories(*dir_ / "host");
    qaplan::test::copy_config_companions(*dir_ / "host");
    // The sources come from a rules file whose [model] names the model not yet trained: training
    // reads only [[sources]], so a host retrains against its live config.
    write(*dir_ / "host/rules.toml", host_rules("models/bank-router.qpm", std::string(64, '0')));
  }
  static void TearDownTestSuite() {
    fs::remove_all(*dir_);
    delete dir_;
    delete files_;
  }

  static qaplan::RouterTrainOptions options(const qaplan::Config& config) {
    qaplan::RouterTrainOptions o;
    o.data = qaplan::test::named(*files_);
    o.fingerprints = {"fingerprints.json", qaplan::test::router_fixture_fingerprints(*files_)};
    o.name = "bank-router";
    o.set_sources(config);
    return o;
  }

  static qaplan::Config host_config() {
    auto c = qaplan::load_config(*dir_ / "host/rules.toml");
    EXPECT_TRUE(c.ok()) << c.error().to_string();
    return c.ok() ? *c : qaplan::Config{};
  }

  // Trains once per suite (the expensive step), writes the model beside the host config and
  // points [model] at it.
  static const qaplan::TrainedRouterModel& trained() {
    static const qaplan::TrainedRouterModel kModel = [] {
      auto t = qaplan::train_router_model(options(host_config()));
      EXPECT_TRUE(t.ok()) << t.error().to_string();
      if (!t.ok()) return qaplan::TrainedRouterModel{};
      write(*dir_ / "host/models/bank-router.qpm", t->bytes);
      write(*dir_ / "host/rules.toml", host_rules("models/bank-router.qpm", t->sha256));
      return *t;
    }();
    return kModel;
  }

  static inline fs::path* dir_ = nullptr;
  static inline Files* files_ = nullptr;
};

TEST_F(HostSources, GeneratedDataHasThreeSplitsAndTrains) {
  std::set<std::string> splits;
  for (const auto& [name, text] : *files_)
    for (const char* s : {"train", "dev", "test"})
      if (text.find(std::string("\"split\": \"") + s + "\"") != std::string::npos)
        splits.insert(s);
  EXPECT_EQ(splits.size(), 3u);
  const auto& t = trained();
  ASSERT_FALSE(t.bytes.empty());
  int rows = 0;
  for (const auto& c : t.report.counts)
    if (c.head == "act") rows += c.per_split[0] + c.per_split[1] + c.per_split[2];
  EXPECT_GE(rows, 250);
}

TEST_F(HostSources, SourceLabelsAreTheConfigsSourcesInFileOrder) {
  const auto& t = trained();
  const auto m = qaplan::internal::RouterModel::parse(t.bytes, "bank-router.qpm");
  ASSERT_TRUE(m.ok()) << m.error().to_string();
  using qaplan::internal::Head;
  EXPECT_EQ(m->labels(Head::kSource), (std::vector<std::string>{"cards", "loans", "none"}));
  // The other heads keep the planner's labels.
  EXPECT_EQ(m->labels(Head::kCategory).size(), 5u);
  EXPECT_EQ(m->labels(Head::kAct).back(), "question");
  // The same data and options give the same bytes.
  const auto again = qaplan::train_router_model(options(host_config()));
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->sha256, t.sha256);
  // model eval reads the rows against the model's own labels: no config needed.
  const auto o = options(host_config());
  const auto r = qaplan::evaluate_router_model(t.bytes, "bank-router.qpm", o.data, o.fingerprints,
                                               {"test"});
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  for (const auto& h : r->heads)
    if (h.head == "source") {
      EXPECT_EQ(h.labels, (std::vector<std::string>{"cards", "loans", "none"}));
      EXPECT_GE(h.accuracy, 0.8) << "source head on the generated test split";
    }
}

TEST_F(HostSources, PlannerGetsTheHostsSourceFromTheModel) {
  trained();
  const qaplan::Config config = host_config();
  auto planner = qaplan::Planner::create(config);
  ASSERT_TRUE(planner.ok()) << planner.error().to_string();
  // Unseen phrasings of each source's subjects (no keyword of [[sources]] in them).
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"积分怎么兑换", "cards"},       {"年费可以减免吗", "cards"},
      {"额度怎么提高", "cards"},       {"挂失要多久", "cards"},
      {"车贷需要哪些材料", "loans"},   {"提前还贷有违约金吗", "loans"},
      {"公积金能贷多少", "loans"},     {"抵押需要什么手续", "loans"},
  };
  int right = 0;
  for (const auto& [question, source] : cases) {
    auto p = planner->prepare({question});
    ASSERT_TRUE(p.ok()) << p.error().to_string();
    if (!p->model || p->model->source != source) {
      ADD_FAILURE() << question << ": model source "
                    << (p->model ? p->model->source + " " + std::to_string(p->model->source_score)
                                 : std::string("(none)"));
      continue;
    }
    ++right;
    EXPECT_GT(p->model->source_score, 0.5) << question;
    EXPECT_EQ(p->model->model, "bank-router");
    // How strong the scope is belongs to the planner; where it looks must include the source.
    const auto& where = p->effective_sources;
    EXPECT_TRUE(where.empty() || std::find(where.begin(), where.end(), source) != where.end())
        << question << " searches " << ::testing::PrintToString(where);
  }
  EXPECT_EQ(right, static_cast<int>(cases.size()));
  // The full template questions carry the source's keyword and the model agrees: the plan is
  // scoped to it.
  auto p = planner->prepare({"信用卡年费要收多少费用"});
  ASSERT_TRUE(p.ok());
  ASSERT_TRUE(p->model.has_value());
  EXPECT_EQ(p->model->source, "cards");
  EXPECT_NE(std::find(p->effective_sources.begin(), p->effective_sources.end(), "cards"),
            p->effective_sources.end());
}

TEST_F(HostSources, ARowWithAnUnknownSourceIsRefusedNamingIt) {
  Files files = *files_;
  files["bank_questions.jsonl"] += qaplan::test::router_line(
      {"理财产品收益率是多少", "question", "FAQ_QUERY", "pricing", "wealth", "train"});
  auto o = options(host_config());
  o.data = qaplan::test::named(files);
  o.fingerprints = {"fingerprints.json", qaplan::test::router_fixture_fingerprints(files)};
  const auto r = qaplan::train_router_model(o);
  ASSERT_FALSE(r.ok());
  const qaplan::Error& e = r.error();
  EXPECT_EQ(e.code, qaplan::ErrorCode::kInvalidInput);
  EXPECT_EQ(e.file, "bank_questions.jsonl");
  EXPECT_EQ(e.line, static_cast<int>(std::count(files["bank_questions.jsonl"].begin(),
                                                files["bank_questions.jsonl"].end(), '\n')));
  EXPECT_EQ(e.field, "source");
  EXPECT_NE(e.message.find("\"wealth\""), std::string::npos) << e.message;
  EXPECT_NE(e.message.find("cards, loans, none"), std::string::npos) << e.message;
  EXPECT_NE(e.message.find("rules.toml"), std::string::npos) << e.message;

  // The host's data against the shipped sources: "cards" is unknown there.
  qaplan::RouterTrainOptions shipped = options(host_config());
  shipped.sources = qaplan::default_router_sources();
  shipped.sources_origin = "config/rules.toml";
  const auto s = qaplan::train_router_model(shipped);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message.find("\"cards\""), std::string::npos) << s.error().message;
  EXPECT_NE(s.error().message.find("hr, finance, it, admin, legal, none"), std::string::npos);

  // A configured source without a training row cannot be learned.
  auto extra = options(host_config());
  extra.sources.push_back("deposits");
  const auto d = qaplan::train_router_model(extra);
  ASSERT_FALSE(d.ok());
  EXPECT_NE(d.error().message.find("\"deposits\" has no training rows"), std::string::npos)
      << d.error().message;

  // Source names a model file cannot hold.
  auto none = options(host_config());
  none.sources = {"cards", "none"};
  EXPECT_EQ(qaplan::train_router_model(none).error().code, qaplan::ErrorCode::kInvalidConfig);
  none.sources = {"cards", "cards"};
  EXPECT_EQ(qaplan::train_router_model(none).error().code, qaplan::ErrorCode::kInvalidConfig);
}

// The same through the binary: `model train --config` takes the sources from the rules file.
TEST_F(HostSources, CliTrainsWithTheConfigsSources) {
  const std::string bin = qaplan::test::qaplan_bin();
  if (bin.empty()) GTEST_SKIP() << "built without the CLI";
  using qaplan::test::sh_quote;
  const fs::path out = *dir_ / "cli.qpm";
  const auto ok = qaplan::test::run(sh_quote(bin) + " model train --data " +
                                    sh_quote((*dir_ / "data").string()) + " --config " +
                                    sh_quote((*dir_ / "host/rules.toml").string()) +
                                    " --name bank-router --output " + sh_quote(out.string()));
  ASSERT_EQ(ok.status, 0) << ok.err;
  const auto m = qaplan::internal::RouterModel::parse(qaplan::test::slurp(out), "cli.qpm");
  ASSERT_TRUE(m.ok()) << m.error().to_string();
  EXPECT_EQ(m->name(), "bank-router");
  EXPECT_EQ(m->labels(qaplan::internal::Head::kSource),
            (std::vector<std::string>{"cards", "loans", "none"}));
  const auto refused = qaplan::test::run(
      sh_quote(bin) + " model train --data " + sh_quote((*dir_ / "data").string()) +
      " --config " + sh_quote((qaplan::test::source_dir() / "config/rules.toml").string()) +
      " --output " + sh_quote((*dir_ / "never.qpm").string()));
  EXPECT_EQ(refused.status, 2);
  EXPECT_NE(refused.err.find("bank_questions.jsonl:1 source: unknown source \"cards\""),
            std::string::npos)
      << refused.err;
  EXPECT_NE(refused.err.find("(hr, finance, it, admin, legal, none)"), std::string::npos)
      << refused.err;
  EXPECT_FALSE(fs::exists(*dir_ / "never.qpm"));
}

TEST_F(HostSources, TheShippedConfigTakesNoSourceFromTheHostsModel) {
  const auto& t = trained();
  auto shipped = qaplan::load_config(qaplan::test::source_dir() / "config/rules.toml");
  ASSERT_TRUE(shipped.ok()) << shipped.error().to_string();
  shipped->model.path = (*dir_ / "host/models/bank-router.qpm").string();
  shipped->model.sha256 = t.sha256;
  const auto p = qaplan::Planner::create(*shipped);
  // Either policy keeps a host's label from becoming a scope the config does not have: refusing
  // the model at load (what map_model_labels once did) or treating its unknown source labels
  // as no evidence for any source (the other heads still serve).
  if (!p.ok()) {
    EXPECT_EQ(p.error().code, qaplan::ErrorCode::kInvalidConfig);
    EXPECT_NE(p.error().message.find("source label 'cards'"), std::string::npos)
        << p.error().to_string();
  } else {
    for (const char* q : {"信用卡年费要收多少费用", "房贷怎么办理", "年费可以减免吗"}) {
      const auto prep = p->prepare({q});
      ASSERT_TRUE(prep.ok()) << prep.error().to_string();
      for (const std::string& s : prep->effective_sources)
        EXPECT_TRUE(s != "cards" && s != "loans") << q;
      EXPECT_NE(prep->source.decided_by, qaplan::DecidedBy::kModel) << q;
    }
  }
  // And the host's config refuses another file than the one it pins.
  qaplan::Config host = host_config();
  host.model.sha256 = std::string(64, 'a');
  const auto q = qaplan::Planner::create(host);
  ASSERT_FALSE(q.ok());
  EXPECT_NE(q.error().message.find("fingerprint mismatch"), std::string::npos)
      << q.error().to_string();
}

}  // namespace
