// LIBLINEAR vs fastText on the router data: try both briefly, pick one (docs/model.md). Not
// part of the product: the only binary that links fastText.
//
//   build/bench/model_compare [--data eval_sets/router] [--reps 200] [--ft HEAD=epoch,lr,dim]...
//   build/bench/model_compare --sweep      # LIBLINEAR C × class balance grid, dev split only
//   build/bench/model_compare --ft-sweep   # fastText epoch × lr × dim grid, dev split only
//   build/bench/model_compare --errors act dev [--c act=32 --balance act=1]   # error analysis
//   build/bench/model_compare --predict MODEL.qpm IN.jsonl   # {"text","previous"?} → labels
//   build/bench/model_compare --heldout MODEL.qpm   # data it never trained on (../shared/external)
//
// Both learners see the same rows (eval_sets/router, train split; a head trains on the rows that
// carry its label) and the same features: the ids of `router-features-2`, given to fastText as
// space-separated tokens "f<id>" (text features for four heads, text + pair features for the
// dependent head). fastText: supervised, softmax loss, no subwords, no word n-grams (the tokens
// already are n-grams), minCount 2 (LIBLINEAR: min_count 2), one thread, fixed seed.
//
// Reported per learner: test accuracy per head, training time (all five heads), model size, and
// inference time per question: each of tools/bench/data/planner_questions.jsonl timed alone,
// `reps` passes, median per question, then p50 / p95 over questions. LIBLINEAR inference is the
// shipped path (RouterModel::predict: quantized int8 table, all heads in one pass); fastText
// inference is feature extraction + a prebuilt feature-id → fastText-word-id map per head +
// FastText::predict(k = 1) per head (no string building, so fastText is not charged for it).
#include <fasttext/fasttext.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "common/percentile.hpp"
#include "eval/router_data.hpp"
#include "planning/model/features.hpp"
#include "planning/model/model_format.hpp"
#include "planning/model/router_model.hpp"
#include "planning/text.hpp"
#include "qaplan/eval/train_model.hpp"
#include "qaplan/io.hpp"

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using qaplan::internal::FeatureBuffer;
using qaplan::internal::Head;
using qaplan::internal::kHeadNames;
using qaplan::internal::kHeads;
using qaplan::internal::RouterData;
using qaplan::internal::RouterRow;
using qaplan::internal::RouterSplit;

constexpr unsigned kHashBits = 20;

[[noreturn]] void die(const std::string& msg) {
  std::fprintf(stderr, "model_compare: %s\n", msg.c_str());
  std::exit(2);
}

template <class T>
T check(qaplan::Result<T> r) {
  if (!r.ok()) die(r.error().to_string());
  return std::move(r).value();
}

struct Data {
  std::vector<qaplan::NamedText> files;
  qaplan::NamedText fingerprints;
  RouterData rows;
};

Data read_data(const fs::path& dir) {
  Data d;
  std::vector<fs::path> found;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file() && e.path().extension() == ".jsonl") found.push_back(e.path());
  std::sort(found.begin(), found.end());
  for (const fs::path& p : found)
    d.files.push_back({p.lexically_relative(dir).generic_string(), check(qaplan::read_file(p))});
  d.fingerprints = {"fingerprints.json", check(qaplan::read_file(dir / "fingerprints.json"))};
  d.rows = check(qaplan::internal::load_router_data(d.files, d.fingerprints));
  return d;
}

struct Item {
  std::string text, previous;
};

std::vector<Item> bench_questions() {
  const std::string path = QAPLAN_SOURCE_DIR "/tools/bench/data/planner_questions.jsonl";
  std::ifstream in(path);
  if (!in) die("cannot read " + path);
  std::vector<Item> out;
  std::string line;
  const qaplan::InputConfig limits;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    const auto j = nlohmann::json::parse(line);
    Item it;
    it.text =
        check(qaplan::internal::normalize_question(j.at("question").get<std::string>(), limits))
            .text;
    if (j.contains("history") && !j.at("history").empty())
      it.previous = check(qaplan::internal::normalize_question(
                              j.at("history").back().get<std::string>(), limits))
                        .text;
    out.push_back(std::move(it));
  }
  return out;
}

// Median per question over `reps` passes, then percentiles over questions.
template <class F>
std::pair<double, double> time_per_question(const std::vector<Item>& items, int reps, F&& run) {
  std::vector<std::vector<double>> t(items.size());
  for (int r = 0; r < reps; ++r)
    for (std::size_t i = 0; i < items.size(); ++i) {
      const auto t0 = Clock::now();
      run(items[i]);
      t[i].push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count());
    }
  std::vector<double> med;
  for (auto& v : t) {
    std::sort(v.begin(), v.end());
    med.push_back(v[v.size() / 2]);
  }
  return {*qaplan::internal::nearest_rank_percentile(med, 50),
          *qaplan::internal::nearest_rank_percentile(med, 95)};
}

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// ---- fastText ----------------------------------------------------------------------------------

struct FtParams {
  int epoch = 25;
  double lr = 0.5;
  int dim = 32;
};

std::string tokens(const RouterRow& row, bool pair, FeatureBuffer& buf) {
  qaplan::internal::extract_router_features(row.text, pair ? std::string_view(row.previous) : "",
                                            kHashBits, buf);
  std::string s;
  for (std::uint32_t i = 0; i < buf.size; ++i) s += " f" + std::to_string(buf.ids[i]);
  return s;
}

struct FtHead {
  fasttext::FastText ft;
  std::unordered_map<std::uint32_t, std::int32_t> word_of;  // feature id → fastText word id
  std::vector<int> label_of;                                // fastText label id → our label
};

void train_ft(const Data& d, std::size_t h, const FtParams& p, FtHead& out, const fs::path& tmp) {
  const bool pair = h == static_cast<std::size_t>(Head::kDependent);
  FeatureBuffer buf;
  const fs::path file = tmp / ("ft_train_" + std::string(kHeadNames[h]) + ".txt");
  {
    std::ofstream f(file);
    for (const RouterRow& r : d.rows.rows)
      if (r.split == RouterSplit::kTrain && r.label[h] >= 0)
        f << "__label__" << int(r.label[h]) << tokens(r, pair, buf) << '\n';
  }
  fasttext::Args a;
  a.input = file.string();
  a.model = fasttext::model_name::sup;
  a.loss = fasttext::loss_name::softmax;
  a.minCount = 2;
  a.minCountLabel = 0;
  a.minn = 0;
  a.maxn = 0;
  a.wordNgrams = 1;
  a.bucket = 0;
  a.dim = p.dim;
  a.epoch = p.epoch;
  a.lr = p.lr;
  a.thread = 1;
  a.seed = 1;
  a.verbose = 0;
  out.ft.train(a);
  const auto dict = out.ft.getDictionary();
  for (std::int32_t w = 0; w < dict->nwords(); ++w) {
    const std::string word = dict->getWord(w);
    if (word.size() < 2 || word[0] != 'f') continue;  // fastText's own end-of-line token "</s>"
    out.word_of[static_cast<std::uint32_t>(std::stoul(word.substr(1)))] = w;
  }
  for (std::int32_t l = 0; l < dict->nlabels(); ++l)
    out.label_of.push_back(std::stoi(dict->getLabel(l).substr(9)));
}

int ft_predict(const FtHead& m, const FeatureBuffer& buf, std::uint32_t n,
               std::vector<std::int32_t>& words, fasttext::Predictions& preds) {
  words.clear();
  preds.clear();
  for (std::uint32_t i = 0; i < n; ++i)
    if (auto it = m.word_of.find(buf.ids[i]); it != m.word_of.end()) words.push_back(it->second);
  if (words.empty()) return m.label_of.empty() ? 0 : m.label_of[0];
  m.ft.predict(1, words, preds);
  return preds.empty() ? m.label_of[0] : m.label_of[static_cast<std::size_t>(preds[0].second)];
}

double ft_accuracy(const Data& d, std::size_t h, const FtHead& m, RouterSplit split) {
  const bool pair = h == static_cast<std::size_t>(Head::kDependent);
  FeatureBuffer buf;
  std::vector<std::int32_t> words;
  fasttext::Predictions preds;
  int n = 0, ok = 0;
  for (const RouterRow& r : d.rows.rows) {
    if (r.split != split || r.label[h] < 0) continue;
    qaplan::internal::extract_router_features(r.text, pair ? std::string_view(r.previous) : "",
                                              kHashBits, buf);
    ok += ft_predict(m, buf, buf.size, words, preds) == r.label[h];
    ++n;
  }
  return n ? static_cast<double>(ok) / n : 0.0;
}

// ---- LIBLINEAR ---------------------------------------------------------------------------------

qaplan::RouterTrainOptions liblinear_options(const Data& d) {
  qaplan::RouterTrainOptions o;
  o.data = d.files;
  o.fingerprints = d.fingerprints;
  return o;
}

double head_metric(const qaplan::RouterReport& r, const char* split, const char* head, bool f1) {
  for (const auto& h : r.heads)
    if (h.split == split && h.head == head) return f1 ? h.macro_f1 : h.accuracy;
  return 0.0;
}

int sweep(const Data& d) {
  std::printf("LIBLINEAR grid on dev (accuracy / macro F1), per head\n\n");
  std::printf("| C | balance |");
  for (const char* h : kHeadNames) std::printf(" %s |", h);
  std::printf("\n|---:|---:|");
  for (std::size_t h = 0; h < kHeads; ++h) std::printf("---|");
  std::printf("\n");
  // The choice rule: act by dev macro F1 (its direct-answer labels are small classes that matter),
  // every other head by dev accuracy; ties go to the smaller C, then the smaller balance.
  std::array<double, kHeads> best_score{}, best_c{}, best_b{};
  best_score.fill(-1.0);
  for (double c : {0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0})
    for (double b : {0.0, 0.5, 1.0}) {
      auto o = liblinear_options(d);
      o.c.fill(c);
      o.balance.fill(b);
      const auto t = check(qaplan::train_router_model(o));
      std::printf("| %g | %g |", c, b);
      for (std::size_t h = 0; h < kHeads; ++h) {
        const double acc = head_metric(t.report, "dev", kHeadNames[h], false);
        const double f1 = head_metric(t.report, "dev", kHeadNames[h], true);
        std::printf(" %.3f / %.3f |", acc, f1);
        const double score = h == static_cast<std::size_t>(Head::kAct) ? f1 : acc;
        if (score > best_score[h] + 1e-12) {
          best_score[h] = score;
          best_c[h] = c;
          best_b[h] = b;
        }
      }
      std::printf("\n");
      std::fflush(stdout);
    }
  std::printf("\nchosen (act: dev macro F1; others: dev accuracy; ties → smaller C, balance):\n");
  for (std::size_t h = 0; h < kHeads; ++h)
    std::printf("  %-9s C %g, balance %g (dev %.3f)\n", kHeadNames[h], best_c[h], best_b[h],
                best_score[h]);
  return 0;
}

int ft_sweep(const Data& d) {
  const fs::path tmp = fs::temp_directory_path() / "qaplan_model_compare";
  fs::create_directories(tmp);
  std::printf("fastText grid on dev (accuracy), per head\n\n| epoch | lr | dim |");
  for (const char* h : kHeadNames) std::printf(" %s |", h);
  std::printf("\n|---:|---:|---:|");
  for (std::size_t h = 0; h < kHeads; ++h) std::printf("---:|");
  std::printf("\n");
  std::array<double, kHeads> best{};
  std::array<FtParams, kHeads> chosen{};
  best.fill(-1.0);
  for (int epoch : {10, 25, 50})
    for (double lr : {0.1, 0.5, 1.0})
      for (int dim : {16, 64}) {
        std::printf("| %d | %g | %d |", epoch, lr, dim);
        for (std::size_t h = 0; h < kHeads; ++h) {
          FtHead m;
          train_ft(d, h, {epoch, lr, dim}, m, tmp);
          const double acc = ft_accuracy(d, h, m, RouterSplit::kDev);
          std::printf(" %.3f |", acc);
          if (acc > best[h] + 1e-12) {
            best[h] = acc;
            chosen[h] = {epoch, lr, dim};
          }
        }
        std::printf("\n");
        std::fflush(stdout);
      }
  fs::remove_all(tmp);
  std::printf("\nchosen per head (dev accuracy; ties → the first in grid order):");
  for (std::size_t h = 0; h < kHeads; ++h)
    std::printf(" --ft %s=%d,%g,%d", kHeadNames[h], chosen[h].epoch, chosen[h].lr, chosen[h].dim);
  std::printf("\n");
  return 0;
}

int compare(const Data& d, int reps, const std::array<FtParams, kHeads>& ftp) {
  const auto items = bench_questions();
  const fs::path tmp = fs::temp_directory_path() / "qaplan_model_compare";
  fs::create_directories(tmp);

  // LIBLINEAR (the shipped path).
  auto t0 = Clock::now();
  const auto trained = check(qaplan::train_router_model(liblinear_options(d)));
  const double ll_train = seconds_since(t0);
  const auto again = check(qaplan::train_router_model(liblinear_options(d)));
  const bool ll_det = again.bytes == trained.bytes;
  const auto model = check(qaplan::internal::RouterModel::parse(trained.bytes, "trained"));
  qaplan::internal::ModelOutput out;
  const auto ll_time = time_per_question(
      items, reps, [&](const Item& it) { model.predict(it.text, it.previous, out); });

  // fastText.
  std::vector<FtHead> ft(kHeads);
  t0 = Clock::now();
  for (std::size_t h = 0; h < kHeads; ++h) train_ft(d, h, ftp[h], ft[h], tmp);
  const double ft_train = seconds_since(t0);
  std::uintmax_t ft_size = 0;
  bool ft_det = true;
  for (std::size_t h = 0; h < kHeads; ++h) {
    const fs::path a = tmp / ("a_" + std::to_string(h) + ".bin"),
                   b = tmp / ("b_" + std::to_string(h) + ".bin");
    ft[h].ft.saveModel(a.string());
    ft_size += fs::file_size(a);
    FtHead again_h;
    train_ft(d, h, ftp[h], again_h, tmp);
    again_h.ft.saveModel(b.string());
    ft_det = ft_det && check(qaplan::read_file(a)) == check(qaplan::read_file(b));
  }
  FeatureBuffer buf;
  std::vector<std::int32_t> words;
  fasttext::Predictions preds;
  const auto ft_time = time_per_question(items, reps, [&](const Item& it) {
    for (std::size_t h = 0; h < kHeads; ++h) {
      const bool pair = h == static_cast<std::size_t>(Head::kDependent);
      if (pair && it.previous.empty()) continue;
      qaplan::internal::extract_router_features(it.text, pair ? std::string_view(it.previous) : "",
                                                kHashBits, buf);
      const std::uint32_t n = buf.size;
      volatile int best = ft_predict(ft[h], buf, n, words, preds);
      (void)best;
    }
  });
  fs::remove_all(tmp);

  std::printf("fastText per head (epoch, lr, dim):");
  for (std::size_t h = 0; h < kHeads; ++h)
    std::printf(" %s %d/%g/%d", kHeadNames[h], ftp[h].epoch, ftp[h].lr, ftp[h].dim);
  std::printf("\n\n| | LIBLINEAR 2.30 (shipped: int8 table) | fastText 0.9.2 |\n");
  std::printf("|---|---:|---:|\n");
  for (std::size_t h = 0; h < kHeads; ++h)
    std::printf("| test accuracy, %s | %.1f %% | %.1f %% |\n", kHeadNames[h],
                100 * head_metric(trained.report, "test", kHeadNames[h], false),
                100 * ft_accuracy(d, h, ft[h], RouterSplit::kTest));
  std::printf(
      "| inference per question, p50 / p95 (all heads) | %.2f / %.2f µs | %.2f / %.2f µs |\n",
      ll_time.first, ll_time.second, ft_time.first, ft_time.second);
  std::printf("| training time (five heads, one thread) | %.1f s | %.1f s |\n", ll_train, ft_train);
  std::printf("| model size | %.0f KB | %.0f KB |\n", trained.bytes.size() / 1024.0,
              static_cast<double>(ft_size) / 1024.0);
  std::printf("| byte-identical retraining | %s | %s |\n", ll_det ? "yes" : "no",
              ft_det ? "yes" : "no");
  return 0;
}

// Misclassified rows of one head and split, for error analysis: file:line, gold, predicted, p.
int errors(const Data& d, const std::string& head, const std::string& split,
           const qaplan::RouterTrainOptions& o) {
  const auto t = check(qaplan::train_router_model(o));
  const auto model = check(qaplan::internal::RouterModel::parse(t.bytes, "trained"));
  std::size_t h = 0;
  while (h < kHeads && head != kHeadNames[h]) ++h;
  if (h == kHeads) die("unknown head " + head);
  qaplan::internal::ModelOutput out;
  const auto& labels = model.labels(static_cast<Head>(h));
  for (const RouterRow& r : d.rows.rows) {
    if (qaplan::internal::kRouterSplitNames[static_cast<std::size_t>(r.split)] != split ||
        r.label[h] < 0)
      continue;
    model.predict(r.text, r.has_previous ? std::string_view(r.previous) : "", out);
    if (out[h].best == r.label[h]) continue;
    std::printf("%s:%d\t%s\t%s\t%.2f\t%s%s%s\n", r.file.c_str(), r.line,
                labels[static_cast<std::size_t>(r.label[h])].c_str(), labels[out[h].best].c_str(),
                out[h].score, r.text.c_str(), r.has_previous ? "\t<- " : "",
                r.has_previous ? r.previous.c_str() : "");
  }
  return 0;
}

// ---- held-out checks -------------------------------------------------------------------------

std::vector<std::vector<std::string>> read_tsv(const fs::path& p) {
  std::ifstream in(p);
  if (!in) die("cannot read " + p.string());
  std::vector<std::vector<std::string>> rows;
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    std::vector<std::string> cols;
    std::size_t a = 0;
    for (std::size_t b; (b = line.find('\t', a)) != std::string::npos; a = b + 1)
      cols.push_back(line.substr(a, b - a));
    cols.push_back(line.substr(a));
    rows.push_back(std::move(cols));
  }
  return rows;
}

std::vector<nlohmann::json> read_jsonl(const fs::path& p) {
  std::ifstream in(p);
  if (!in) die("cannot read " + p.string());
  std::vector<nlohmann::json> out;
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) out.push_back(nlohmann::json::parse(line));
  return out;
}

// The model on data it never trained on: the held-out parts of the external sets (NLPCC 2023
// test tracks, MultiWOZ-zh test, CHASE-C dev) and the repository's test tables. Prints the
// route-level figures the targets are stated in (docs/model.md#on-data-it-never-trained-on).
int heldout(const std::string& model_path, const fs::path& external) {
  const auto model = check(qaplan::internal::RouterModel::load(model_path));
  const qaplan::InputConfig limits;
  const auto& act_labels = model.labels(Head::kAct);
  const auto& dep_labels = model.labels(Head::kDependent);
  qaplan::internal::ModelOutput out;
  auto run = [&](const std::string& text, const std::string& prev) {
    auto t = qaplan::internal::normalize_question(text, limits);
    if (!t.ok()) return false;
    std::string p;
    if (!prev.empty()) {
      auto n = qaplan::internal::normalize_question(prev, limits);
      if (n.ok()) p = n->text;
    }
    model.predict(t->text, p, out);
    return true;
  };
  auto act = [&] { return act_labels[out[0].best]; };
  auto dependent = [&] {
    return dep_labels[out[static_cast<std::size_t>(Head::kDependent)].best] == "dependent";
  };
  std::printf(
      "held-out checks of %s (%s)\n\n| set | rows | measure | value |\n|---|---:|---|---:|\n",
      model.name().c_str(), model.sha256().substr(0, 12).c_str());

  int n = 0, direct = 0;
  for (const auto& r : read_tsv(external / "xiaomi_nlpcc2023_task9_chitchat" / "queries.tsv"))
    if (r.size() >= 2 && r[0] != "dev" && run(r[1], "")) {
      ++n;
      direct += act() != "question";
    }
  std::printf(
      "| NLPCC 2023 task 9 test_track1+2 (chit-chat) | %d | answered directly | %.1f %% |\n", n,
      100.0 * direct / n);

  int ns = 0, social = 0, nt = 0, kept = 0;
  for (const auto& r : read_tsv(external / "multiwoz_zh_user_acts" / "user_turns.tsv")) {
    if (r.size() < 8 || r[0] != "test" || !run(r[7], "")) continue;
    if (r[4] == "1") {
      ++ns;
      social += act() != "question";
    } else {
      ++nt;
      kept += act() == "question";
    }
  }
  std::printf("| MultiWOZ-zh test, social-only user turns | %d | answered directly | %.1f %% |\n",
              ns, 100.0 * social / ns);
  std::printf("| MultiWOZ-zh test, task user turns | %d | kept on retrieval | %.1f %% |\n", nt,
              100.0 * kept / nt);

  auto dep_stats = [&](const char* name,
                       const std::vector<std::tuple<std::string, std::string, bool>>& rows) {
    int tp = 0, fp = 0, fn = 0;
    for (const auto& [text, prev, gold] : rows) {
      if (!run(text, prev)) continue;
      const bool d = dependent();
      tp += d && gold;
      fp += d && !gold;
      fn += !d && gold;
    }
    const double p = tp + fp ? static_cast<double>(tp) / (tp + fp) : 0.0;
    const double r = tp + fn ? static_cast<double>(tp) / (tp + fn) : 0.0;
    std::printf("| %s | %zu | dependent P / R / F1 | %.3f / %.3f / %.3f |\n", name, rows.size(), p,
                r, p + r > 0 ? 2 * p * r / (p + r) : 0.0);
  };
  std::vector<std::tuple<std::string, std::string, bool>> chase;
  for (const auto& j : read_jsonl(external / "chase_context_dependency" / "chase_c_turns.jsonl"))
    if (j["split"] == "dev" && !j["context"].empty())
      chase.emplace_back(j["utterance"], j["context"].back(), j["dependent"].get<bool>());
  dep_stats("CHASE-C dev (database questions)", chase);
  const fs::path tables = fs::path(QAPLAN_SOURCE_DIR) / "tests" / "data";
  std::vector<std::tuple<std::string, std::string, bool>> follow;
  for (const auto& j : read_jsonl(tables / "followups.jsonl"))
    if (j["split"] == "test")
      follow.emplace_back(j["question"], j["history"].back(), j["follow_up"].get<bool>());
  dep_stats("tests/data/followups.jsonl test rows", follow);

  int nq = 0, agree = 0;
  for (const auto& j : read_jsonl(tables / "trap_questions.jsonl")) {
    if (!run(j["question"], "")) continue;
    ++nq;
    agree += (act() == "question") == (j["expect_route"] == "retrieval");
  }
  std::printf(
      "| tests/data/trap_questions.jsonl | %d | act agrees with expected route | %.1f %% |\n", nq,
      100.0 * agree / nq);
  int nc = 0, cat = 0, src = 0;
  const auto& cat_labels = model.labels(Head::kCategory);
  const auto& src_labels = model.labels(Head::kSource);
  for (const auto& j : read_jsonl(tables / "category_source.jsonl")) {
    if (!run(j["question"], "")) continue;
    ++nc;
    cat += cat_labels[out[2].best] == j["category"].get<std::string>();
    src += src_labels[out[3].best] ==
           (j["source"].is_null() ? "none" : j["source"].get<std::string>());
  }
  std::printf(
      "| tests/data/category_source.jsonl | %d | category / source accuracy | %.1f %% / %.1f %% "
      "|\n",
      nc, 100.0 * cat / nc, 100.0 * src / nc);
  return 0;
}

// Predictions of a model file for JSONL lines {"text", "previous"?}: one JSON line each with the
// best label and its probability per head (the dependent head only with a previous turn).
int predict_file(const std::string& model_path, const std::string& input) {
  const auto model = check(qaplan::internal::RouterModel::load(model_path));
  std::ifstream in(input);
  if (!in) die("cannot read " + input);
  const qaplan::InputConfig limits;
  qaplan::internal::ModelOutput out;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    const auto j = nlohmann::json::parse(line);
    const auto text =
        check(qaplan::internal::normalize_question(j.at("text").get<std::string>(), limits)).text;
    std::string prev;
    if (j.contains("previous") && j.at("previous").is_string())
      prev =
          check(qaplan::internal::normalize_question(j.at("previous").get<std::string>(), limits))
              .text;
    model.predict(text, prev, out);
    nlohmann::json o;
    for (std::size_t h = 0; h < kHeads; ++h)
      o[kHeadNames[h]] = {{"label", model.labels(static_cast<Head>(h))[out[h].best]},
                          {"p", out[h].score}};
    std::printf("%s\n", o.dump().c_str());
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  fs::path data = QAPLAN_SOURCE_DIR "/eval_sets/router";
  int reps = 200;
  std::array<FtParams, kHeads> ftp{};
  bool do_sweep = false, do_ft_sweep = false;
  std::string err_head, err_split;
  auto c = qaplan::kDefaultRouterC;
  auto balance = qaplan::kDefaultRouterBalance;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) die("missing value after " + a);
      return argv[++i];
    };
    if (a == "--data")
      data = next();
    else if (a == "--reps")
      reps = std::max(1, std::atoi(next().c_str()));
    else if (a == "--sweep")
      do_sweep = true;
    else if (a == "--ft-sweep")
      do_ft_sweep = true;
    else if (a == "--ft") {  // HEAD=epoch,lr,dim
      const std::string v = next();
      const auto eq = v.find('=');
      std::size_t h = 0;
      while (h < kHeads && v.substr(0, eq) != kHeadNames[h]) ++h;
      FtParams p;
      if (eq == std::string::npos || h == kHeads ||
          std::sscanf(v.c_str() + eq + 1, "%d,%lf,%d", &p.epoch, &p.lr, &p.dim) != 3)
        die("expected --ft HEAD=epoch,lr,dim, got " + v);
      ftp[h] = p;
    } else if (a == "--heldout") {
      const std::string m = next();
      return heldout(m, fs::path(QAPLAN_SOURCE_DIR) / ".." / "shared" / "external");
    } else if (a == "--predict") {
      const std::string m = next();
      return predict_file(m, next());
    } else if (a == "--errors") {
      err_head = next();
      err_split = next();
    } else if (a == "--c" || a == "--balance") {
      const std::string v = next();
      const auto eq = v.find('=');
      std::size_t h = 0;
      while (h < kHeads && v.substr(0, eq) != kHeadNames[h]) ++h;
      if (eq == std::string::npos || h == kHeads) die("expected HEAD=VALUE after " + a);
      (a == "--c" ? c : balance)[h] = std::atof(v.c_str() + eq + 1);
    } else
      die("unknown argument " + a);
  }
  const Data d = read_data(data);
  if (do_sweep) return sweep(d);
  if (do_ft_sweep) return ft_sweep(d);
  if (!err_head.empty()) {
    auto o = liblinear_options(d);
    o.c = c;
    o.balance = balance;
    return errors(d, err_head, err_split, o);
  }
  return compare(d, reps, ftp);
}
