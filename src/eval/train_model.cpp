#include "qaplan/eval/train_model.hpp"

#include <linear.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>

#include "eval/router_data.hpp"
#include "planning/model/features.hpp"
#include "planning/model/model_format.hpp"
#include "planning/model/router_model.hpp"

namespace qaplan {
namespace {

using internal::FeatureBuffer;
using internal::Head;
using internal::kHeadNames;
using internal::kHeads;
using internal::RouterData;
using internal::RouterRow;
using internal::RouterSplit;
using nlohmann::json;

void quiet(const char*) {}

std::string liblinear_version_string() {
  return std::to_string(liblinear_version / 100) + "." + (liblinear_version % 100 < 10 ? "0" : "") +
         std::to_string(liblinear_version % 100);
}

// The sparse vector of one row for one head: (feature id, value), ids ascending and unique.
// Value = occurrences / sqrt(text feature count), as RouterModel::predict computes it.
std::vector<std::pair<std::uint32_t, double>> row_features(const RouterRow& row, bool pair,
                                                           unsigned hash_bits, FeatureBuffer& buf) {
  internal::extract_router_features(row.text, pair ? std::string_view(row.previous) : "", hash_bits,
                                    buf);
  std::vector<std::uint32_t> ids(buf.ids.begin(), buf.ids.begin() + buf.size);
  std::sort(ids.begin(), ids.end());
  const double scale =
      1.0 / std::sqrt(static_cast<double>(std::max<std::uint32_t>(buf.text_count, 1)));
  std::vector<std::pair<std::uint32_t, double>> out;
  for (std::size_t i = 0; i < ids.size();) {
    std::size_t j = i;
    while (j < ids.size() && ids[j] == ids[i]) ++j;
    out.emplace_back(ids[i], static_cast<double>(j - i) * scale);
    i = j;
  }
  return out;
}

struct HeadWeights {
  std::vector<std::uint32_t> ids;  // kept feature ids, ascending
  std::vector<double> w;           // ids.size() × labels, row-major
  std::vector<double> bias;        // per label
  int samples = 0;
};

struct ModelDeleter {
  void operator()(model* m) const { free_and_destroy_model(&m); }
};

Result<HeadWeights> train_head(const RouterData& data, std::size_t h, const RouterTrainOptions& o) {
  const auto& labels = data.labels[h];
  const std::size_t n_labels = labels.size();
  const bool pair = h == static_cast<std::size_t>(Head::kDependent);
  FeatureBuffer buf;
  std::vector<std::vector<std::pair<std::uint32_t, double>>> xs;
  std::vector<int> ys;
  std::vector<int> per_label(n_labels, 0);
  for (const RouterRow& row : data.rows) {
    if (row.split != RouterSplit::kTrain || row.label[h] < 0) continue;
    xs.push_back(row_features(row, pair, o.hash_bits, buf));
    ys.push_back(row.label[h]);
    ++per_label[static_cast<std::size_t>(row.label[h])];
  }
  for (std::size_t k = 0; k < n_labels; ++k)
    if (per_label[k] == 0)
      return make_error(ErrorCode::kInvalidInput, std::string(kHeadNames[h]) + " head: label \"" +
                                                      labels[k] + "\" has no training rows");

  // Document frequency → kept ids → LIBLINEAR's 1-based indexes.
  std::map<std::uint32_t, int> df;
  for (const auto& x : xs)
    for (const auto& [id, v] : x) ++df[id];
  HeadWeights hw;
  std::map<std::uint32_t, int> index;
  for (const auto& [id, n] : df)
    if (n >= o.min_count) {
      index[id] = static_cast<int>(hw.ids.size()) + 1;
      hw.ids.push_back(id);
    }
  const int n_features = static_cast<int>(hw.ids.size());

  std::vector<feature_node> nodes;
  std::vector<std::size_t> starts;
  for (const auto& x : xs) {
    starts.push_back(nodes.size());
    for (const auto& [id, v] : x)
      if (const auto it = index.find(id); it != index.end()) nodes.push_back({it->second, v});
    nodes.push_back({n_features + 1, 1.0});  // the bias feature
    nodes.push_back({-1, 0.0});
  }
  std::vector<feature_node*> x_ptrs;
  for (std::size_t s : starts) x_ptrs.push_back(nodes.data() + s);
  std::vector<double> y(ys.begin(), ys.end());

  problem prob{};
  prob.l = static_cast<int>(xs.size());
  prob.n = n_features + 1;
  prob.y = y.data();
  prob.x = x_ptrs.data();
  prob.bias = 1.0;
  parameter param{};
  param.solver_type = L2R_LR;
  param.eps = o.eps;
  param.C = o.c[h];
  // Class weights: LIBLINEAR multiplies C by them for the label's own one-vs-rest problem.
  std::vector<int> weight_label(n_labels);
  std::vector<double> weight(n_labels, 1.0);
  const int n_max = *std::max_element(per_label.begin(), per_label.end());
  for (std::size_t k = 0; k < n_labels; ++k) {
    weight_label[k] = static_cast<int>(k);
    weight[k] = std::pow(static_cast<double>(n_max) / per_label[k], o.balance[h]);
  }
  param.nr_weight = o.balance[h] > 0.0 ? static_cast<int>(n_labels) : 0;
  param.weight_label = weight_label.data();
  param.weight = weight.data();
  param.p = 0.1;
  param.init_sol = nullptr;
  if (const char* err = check_parameter(&prob, &param))
    return make_error(ErrorCode::kInternal, std::string("LIBLINEAR: ") + err);
  set_print_string_function(&quiet);
  std::unique_ptr<model, ModelDeleter> m(train(&prob, &param));
  if (!m) return make_error(ErrorCode::kInternal, "LIBLINEAR: training failed");

  // LIBLINEAR numbers classes in order of first appearance; map them back to our label order.
  // Two classes: one weight vector w scoring class 0, so logits are (w·x, 0); more: one-vs-rest.
  const int nr_class = get_nr_class(m.get());
  std::vector<int> class_label(static_cast<std::size_t>(nr_class));
  get_labels(m.get(), class_label.data());
  hw.w.assign(hw.ids.size() * n_labels, 0.0);
  hw.bias.assign(n_labels, 0.0);
  const int columns = nr_class == 2 ? 1 : nr_class;
  for (int c = 0; c < columns; ++c) {
    const auto k = static_cast<std::size_t>(class_label[static_cast<std::size_t>(c)]);
    for (int f = 0; f < n_features; ++f)
      hw.w[static_cast<std::size_t>(f) * n_labels + k] = get_decfun_coef(m.get(), f + 1, c);
    hw.bias[k] = get_decfun_bias(m.get(), c);
  }
  hw.samples = prob.l;
  return hw;
}

std::array<int, 3> split_counts(const RouterData& data, std::size_t h) {
  std::array<int, 3> n{};
  for (const RouterRow& row : data.rows)
    if (row.label[h] >= 0) ++n[static_cast<std::size_t>(row.split)];
  return n;
}

std::vector<RouterLabelCount> label_counts(const RouterData& data) {
  std::vector<RouterLabelCount> out;
  for (std::size_t h = 0; h < kHeads; ++h) {
    const auto& labels = data.labels[h];
    for (std::size_t k = 0; k < labels.size(); ++k) {
      RouterLabelCount c{kHeadNames[h], labels[k], {}};
      for (const RouterRow& row : data.rows)
        if (row.label[h] == static_cast<int>(k)) ++c.per_split[static_cast<std::size_t>(row.split)];
      out.push_back(std::move(c));
    }
  }
  return out;
}

RouterHeadReport head_report(std::string head, std::string split,
                             const std::vector<std::string>& labels,
                             const std::vector<std::pair<int, int>>& gold_pred) {
  RouterHeadReport r;
  r.head = std::move(head);
  r.split = std::move(split);
  r.labels = labels;
  const std::size_t n = labels.size();
  r.confusion.assign(n, std::vector<int>(n, 0));
  int correct = 0;
  for (const auto& [g, p] : gold_pred) {
    ++r.confusion[static_cast<std::size_t>(g)][static_cast<std::size_t>(p)];
    correct += g == p;
  }
  r.samples = static_cast<int>(gold_pred.size());
  r.accuracy = r.samples ? static_cast<double>(correct) / r.samples : 0.0;
  double f1_sum = 0.0;
  int f1_n = 0;
  for (std::size_t k = 0; k < n; ++k) {
    RouterClassMetrics c;
    c.label = labels[k];
    for (std::size_t j = 0; j < n; ++j) {
      c.support += r.confusion[k][j];
      c.predicted += r.confusion[j][k];
    }
    c.correct = r.confusion[k][k];
    c.precision = c.predicted ? static_cast<double>(c.correct) / c.predicted : 0.0;
    c.recall = c.support ? static_cast<double>(c.correct) / c.support : 0.0;
    c.f1 = c.precision + c.recall > 0 ? 2 * c.precision * c.recall / (c.precision + c.recall) : 0.0;
    if (c.support > 0) {
      f1_sum += c.f1;
      ++f1_n;
    }
    r.classes.push_back(std::move(c));
  }
  r.macro_f1 = f1_n ? f1_sum / f1_n : 0.0;
  return r;
}

RouterReport evaluate(const internal::RouterModel& model, const RouterData& data,
                      const std::vector<RouterSplit>& splits) {
  RouterReport rep;
  rep.model_name = model.name();
  rep.model_sha256 = model.sha256();
  rep.model_metadata = model.metadata();
  rep.data_fingerprint = data.fingerprint;
  rep.counts = label_counts(data);
  // gold/pred per (split, head) and per (file, split, head)
  std::map<std::pair<RouterSplit, std::size_t>, std::vector<std::pair<int, int>>> all;
  std::map<std::tuple<std::string, RouterSplit, std::size_t>, std::pair<int, int>> by_file;
  internal::ModelOutput out;
  for (const RouterRow& row : data.rows) {
    if (std::find(splits.begin(), splits.end(), row.split) == splits.end()) continue;
    model.predict(row.text, row.has_previous ? std::string_view(row.previous) : "", out);
    for (std::size_t h = 0; h < kHeads; ++h) {
      if (row.label[h] < 0) continue;
      const int pred = out[h].best;
      all[{row.split, h}].emplace_back(row.label[h], pred);
      auto& f = by_file[{row.file, row.split, h}];
      ++f.first;
      f.second += pred == row.label[h];
    }
  }
  for (RouterSplit s : splits)
    for (std::size_t h = 0; h < kHeads; ++h) {
      const auto it = all.find({s, h});
      if (it == all.end()) continue;
      rep.heads.push_back(head_report(kHeadNames[h],
                                      internal::kRouterSplitNames[static_cast<std::size_t>(s)],
                                      model.labels(static_cast<Head>(h)), it->second));
    }
  for (const auto& [key, v] : by_file) {
    const auto& [file, s, h] = key;
    rep.files.push_back({file, kHeadNames[h],
                         internal::kRouterSplitNames[static_cast<std::size_t>(s)], v.first,
                         static_cast<double>(v.second) / v.first});
  }
  return rep;
}

// How often the int8 model and the double weights it was made from pick the same label, over
// every row that carries the head's label (all splits).
std::vector<std::pair<std::string, double>> quantization_agreement(
    const internal::RouterModel& model, const RouterData& data,
    const std::array<HeadWeights, kHeads>& heads, unsigned hash_bits) {
  std::vector<std::pair<std::string, double>> out;
  FeatureBuffer buf;
  internal::ModelOutput pred;
  for (std::size_t h = 0; h < kHeads; ++h) {
    const HeadWeights& hw = heads[h];
    const std::size_t n = hw.bias.size();
    const bool pair = h == static_cast<std::size_t>(Head::kDependent);
    int rows = 0, same = 0;
    for (const RouterRow& row : data.rows) {
      if (row.label[h] < 0) continue;
      std::vector<double> z = hw.bias;
      for (const auto& [id, v] : row_features(row, pair, hash_bits, buf)) {
        const auto it = std::lower_bound(hw.ids.begin(), hw.ids.end(), id);
        if (it == hw.ids.end() || *it != id) continue;
        const auto f = static_cast<std::size_t>(it - hw.ids.begin());
        for (std::size_t k = 0; k < n; ++k) z[k] += hw.w[f * n + k] * v;
      }
      const auto best = static_cast<int>(std::max_element(z.begin(), z.end()) - z.begin());
      model.predict(row.text, row.has_previous ? std::string_view(row.previous) : "", pred);
      ++rows;
      same += pred[h].best == best;
    }
    out.emplace_back(kHeadNames[h], rows ? static_cast<double>(same) / rows : 1.0);
  }
  return out;
}

Result<std::vector<RouterSplit>> parse_splits(const std::vector<std::string>& names) {
  std::vector<RouterSplit> out;
  for (const std::string& s : names) {
    const auto it =
        std::find(internal::kRouterSplitNames.begin(), internal::kRouterSplitNames.end(), s);
    if (it == internal::kRouterSplitNames.end())
      return make_error(ErrorCode::kInvalidInput, "unknown split \"" + s + "\" (train, dev, test)",
                        "--split");
    out.push_back(static_cast<RouterSplit>(it - internal::kRouterSplitNames.begin()));
  }
  if (out.empty()) return make_error(ErrorCode::kInvalidInput, "no split to evaluate", "--split");
  return out;
}

internal::RouterLabelSets model_label_sets(const internal::RouterModel& model) {
  internal::RouterLabelSets sets;
  for (std::size_t h = 0; h < kHeads; ++h) sets[h] = model.labels(static_cast<Head>(h));
  return sets;
}

}  // namespace

void RouterTrainOptions::set_sources(const Config& config) {
  sources.clear();
  for (const SourceConfig& s : config.sources) sources.push_back(s.name);
  sources_origin = "the [[sources]] of " + config.origin;
}

Status RouterTrainOptions::validate() const {
  auto bad = [](std::string field, std::string message) {
    return make_error(ErrorCode::kInvalidConfig, std::move(message), std::move(field));
  };
  if (name.empty() || name.size() > 128) return bad("name", "must be 1–128 bytes");
  for (std::size_t h = 0; h < kHeads; ++h)
    if (!(c[h] > 0.0 && c[h] <= 1e4))
      return bad(std::string("c.") + kHeadNames[h], "must be in (0, 10000]");
  if (min_count < 1 || min_count > 1000) return bad("min_count", "must be in [1, 1000]");
  if (hash_bits < internal::kMinHashBits || hash_bits > internal::kMaxHashBits)
    return bad("hash_bits", "must be in [12, 26]");
  if (!(eps > 0.0 && eps < 1.0)) return bad("eps", "must be in (0, 1)");
  if (auto sets = internal::router_label_sets_with_sources(sources); !sets.ok())
    return bad("sources", sets.error().message + " (" + sources_origin + ")");
  for (std::size_t h = 0; h < kHeads; ++h)
    if (!(balance[h] >= 0.0 && balance[h] <= 1.0))
      return bad(std::string("balance.") + kHeadNames[h], "must be in [0, 1]");
  return {};
}

Result<TrainedRouterModel> train_router_model(const RouterTrainOptions& o) {
  QAPLAN_TRY(o.validate());
  QAPLAN_ASSIGN_OR_RETURN(const internal::RouterLabelSets sets,
                          internal::router_label_sets_with_sources(o.sources));
  QAPLAN_ASSIGN_OR_RETURN(const RouterData data, internal::load_router_data(
                                                     o.data, o.fingerprints, sets,
                                                     o.sources_origin));

  std::array<HeadWeights, kHeads> heads;
  for (std::size_t h = 0; h < kHeads; ++h) {
    QAPLAN_ASSIGN_OR_RETURN(heads[h], train_head(data, h, o));
  }

  // One table: every id any head kept; a head's columns are 0 where it did not keep the id.
  internal::RouterModelData md;
  md.name = o.name;
  md.hash_bits = o.hash_bits;
  std::vector<std::uint32_t> ids;
  for (const HeadWeights& hw : heads) ids.insert(ids.end(), hw.ids.begin(), hw.ids.end());
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  std::size_t width = 0;
  std::array<std::size_t, kHeads> offset{};
  for (std::size_t h = 0; h < kHeads; ++h) {
    const auto& labels = data.labels[h];
    md.heads[h].labels = labels;
    for (double b : heads[h].bias) md.heads[h].bias.push_back(static_cast<float>(b));
    offset[h] = width;
    width += labels.size();
  }
  md.feature_ids = ids;
  md.weights.assign(ids.size() * width, 0.0f);
  for (std::size_t h = 0; h < kHeads; ++h) {
    const HeadWeights& hw = heads[h];
    const std::size_t n = md.heads[h].labels.size();
    std::size_t r = 0;
    for (std::size_t f = 0; f < hw.ids.size(); ++f) {
      while (ids[r] != hw.ids[f]) ++r;  // both ascending
      for (std::size_t k = 0; k < n; ++k)
        md.weights[r * width + offset[h] + k] = static_cast<float>(hw.w[f * n + k]);
    }
  }

  json training;
  training["command"] = o.command;
  training["data_fingerprint"] = data.fingerprint;
  json files = json::object();
  for (const auto& [name, sha] : data.files) files[name] = sha;
  training["data_files"] = files;
  training["library"] = "LIBLINEAR " + liblinear_version_string();
  training["solver"] =
      "L2R_LR: L2-regularized logistic regression, primal trust-region Newton; one-vs-rest "
      "above two labels; bias feature 1; one thread";
  training["eps"] = o.eps;
  training["min_count"] = o.min_count;
  training["feature_value"] = "occurrences / sqrt(number of text features)";
  training["quantization"] = "int8 per head, scale = max |w| / 127";
  json c = json::object(), balance = json::object(), samples = json::object(),
       features = json::object();
  for (std::size_t h = 0; h < kHeads; ++h) {
    c[kHeadNames[h]] = o.c[h];
    balance[kHeadNames[h]] = o.balance[h];
    const auto n = split_counts(data, h);
    samples[kHeadNames[h]] = {{"train", n[0]}, {"dev", n[1]}, {"test", n[2]}};
    features[kHeadNames[h]] = heads[h].ids.size();
  }
  training["c"] = c;
  training["class_balance"] = balance;
  training["samples"] = samples;
  training["features"] = features;
  md.training_json = training.dump();

  QAPLAN_ASSIGN_OR_RETURN(std::string bytes, internal::serialize_router_model(md));
  // Evaluate what ships: the quantized file, parsed back.
  QAPLAN_ASSIGN_OR_RETURN(const internal::RouterModel model,
                          internal::RouterModel::parse(bytes, o.name));
  TrainedRouterModel out;
  out.report = evaluate(model, data, {RouterSplit::kTrain, RouterSplit::kDev, RouterSplit::kTest});
  out.report.quantization_agreement = quantization_agreement(model, data, heads, o.hash_bits);
  out.sha256 = model.sha256();
  out.bytes = std::move(bytes);
  return out;
}

Result<RouterReport> evaluate_router_model(std::string_view model_bytes,
                                           std::string_view model_origin,
                                           const std::vector<NamedText>& data_files,
                                           const NamedText& fingerprints,
                                           const std::vector<std::string>& splits) {
  QAPLAN_ASSIGN_OR_RETURN(const auto wanted, parse_splits(splits));
  QAPLAN_ASSIGN_OR_RETURN(const internal::RouterModel model,
                          internal::RouterModel::parse(model_bytes, model_origin));
  // The model's own labels, so a host's model is scored on the host's data without its config.
  QAPLAN_ASSIGN_OR_RETURN(
      const RouterData data,
      internal::load_router_data(data_files, fingerprints, model_label_sets(model),
                                 "the labels of " + std::string(model_origin)));
  return evaluate(model, data, wanted);
}

std::string router_report_json(const RouterReport& r, bool pretty) {
  json j;
  json meta = json::parse(r.model_metadata.empty() ? "{}" : r.model_metadata, nullptr, false);
  j["model"] = {{"name", r.model_name},
                {"sha256", r.model_sha256},
                {"metadata", meta.is_discarded() ? json(nullptr) : meta}};
  j["data_fingerprint"] = r.data_fingerprint;
  json counts = json::object();
  for (const RouterLabelCount& c : r.counts)
    counts[c.head][c.label] = {
        {"train", c.per_split[0]}, {"dev", c.per_split[1]}, {"test", c.per_split[2]}};
  j["counts"] = counts;
  json heads = json::array();
  for (const RouterHeadReport& h : r.heads) {
    json classes = json::array();
    for (const RouterClassMetrics& c : h.classes)
      classes.push_back({{"label", c.label},
                         {"support", c.support},
                         {"predicted", c.predicted},
                         {"correct", c.correct},
                         {"precision", c.precision},
                         {"recall", c.recall},
                         {"f1", c.f1}});
    heads.push_back({{"head", h.head},
                     {"split", h.split},
                     {"samples", h.samples},
                     {"accuracy", h.accuracy},
                     {"macro_f1", h.macro_f1},
                     {"labels", h.labels},
                     {"classes", classes},
                     {"confusion", h.confusion}});
  }
  j["heads"] = heads;
  json files = json::array();
  for (const RouterFileAccuracy& f : r.files)
    files.push_back({{"file", f.file},
                     {"head", f.head},
                     {"split", f.split},
                     {"samples", f.samples},
                     {"accuracy", f.accuracy}});
  j["files"] = files;
  if (!r.quantization_agreement.empty()) {
    json q = json::object();
    for (const auto& [head, share] : r.quantization_agreement) q[head] = share;
    j["quantization_agreement"] = q;
  }
  return j.dump(pretty ? 2 : -1) + "\n";
}

namespace {
std::string pct(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", 100.0 * x);
  return buf;
}
std::string num(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", x);
  return buf;
}
}  // namespace

std::string router_report_markdown(const RouterReport& r) {
  std::string md = "# Router model report\n\n";
  md += "- model: `" + r.model_name + "`, SHA-256 `" + r.model_sha256 + "`\n";
  md += "- data fingerprint: `" + r.data_fingerprint + "`\n\n";
  md +=
      "## Rows per head, label and split\n\n| head | label | train | dev | test |\n"
      "|---|---|---:|---:|---:|\n";
  for (const RouterLabelCount& c : r.counts)
    md += "| " + c.head + " | " + c.label + " | " + std::to_string(c.per_split[0]) + " | " +
          std::to_string(c.per_split[1]) + " | " + std::to_string(c.per_split[2]) + " |\n";
  md +=
      "\n## Accuracy\n\n| split | head | samples | accuracy % | macro F1 |\n"
      "|---|---|---:|---:|---:|\n";
  for (const RouterHeadReport& h : r.heads)
    md += "| " + h.split + " | " + h.head + " | " + std::to_string(h.samples) + " | " +
          pct(h.accuracy) + " | " + num(h.macro_f1) + " |\n";
  for (const RouterHeadReport& h : r.heads) {
    md += "\n## " + h.head + " — " + h.split + " (" + std::to_string(h.samples) +
          " rows, accuracy " + pct(h.accuracy) + " %)\n\n";
    md += "| label | support | precision | recall | F1 |\n|---|---:|---:|---:|---:|\n";
    for (const RouterClassMetrics& c : h.classes)
      md += "| " + c.label + " | " + std::to_string(c.support) + " | " + num(c.precision) + " | " +
            num(c.recall) + " | " + num(c.f1) + " |\n";
    md += "\nConfusion (rows = gold, columns = predicted):\n\n| gold \\ predicted |";
    for (const std::string& l : h.labels) md += " " + l + " |";
    md += "\n|---|";
    for (std::size_t k = 0; k < h.labels.size(); ++k) md += "---:|";
    md += "\n";
    for (std::size_t g = 0; g < h.labels.size(); ++g) {
      md += "| " + h.labels[g] + " |";
      for (int v : h.confusion[g]) {
        md += ' ';  // appended piecewise: GCC 12's -Wrestrict misfires on " " + to_string(v)
        md += std::to_string(v);
        md += " |";
      }
      md += "\n";
    }
  }
  if (!r.quantization_agreement.empty()) {
    md +=
        "\n## int8 vs unquantized weights\n\nShare of rows (all splits) where the shipped int8 "
        "model picks the same label as the weights it was quantized from:\n\n| head | same "
        "label % |\n|---|---:|\n";
    for (const auto& [head, share] : r.quantization_agreement)
      md += "| " + head + " | " + pct(share) + " |\n";
  }
  md +=
      "\n## Accuracy per data file\n\n| file | head | split | samples | accuracy % |\n"
      "|---|---|---|---:|---:|\n";
  for (const RouterFileAccuracy& f : r.files)
    md += "| " + f.file + " | " + f.head + " | " + f.split + " | " + std::to_string(f.samples) +
          " | " + pct(f.accuracy) + " |\n";
  return md;
}

}  // namespace qaplan
