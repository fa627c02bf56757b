// qaplan model — the built-in router classifier (docs/model.md).
//
//   qaplan model train --data DIR --output FILE [--config RULES] [--name NAME] [--report DIR]
//                      [--c HEAD=VALUE]... [--balance HEAD=VALUE]...
//   qaplan model eval  --model FILE --data DIR --split dev|test --output DIR
//
// DIR is a router data folder (eval_sets/router): every *.jsonl below it (subfolders included)
// plus its fingerprints.json. The source head's labels are the [[sources]] of the rules file
// (--config, else the one `plan` finds) plus "none", so a host trains on its own sources; the
// other heads' labels are fixed (the planner's enums). `train` writes the model atomically (never over an input) and
// prints {"output", "sha256", "bytes"}; with --report it also writes report.json and report.md
// (the trained model on train, dev and test). `eval` writes report.json and report.md for one
// split. Exit codes: 0 ok, 2 invalid input (usage, unreadable or malformed data or model,
// fingerprint mismatch), 1 internal error.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "cli.hpp"
#include "config_lookup.hpp"
#include "qaplan/eval/train_model.hpp"

namespace qaplan::cli {
namespace fs = std::filesystem;
namespace {

constexpr const char* kHeadNames[] = {"act", "intent", "category", "source", "dependent"};

// "act=8 intent=16 …" for --help, from the library's defaults so the text cannot drift.
std::string per_head(const std::array<double, 5>& values) {
  std::string out;
  for (std::size_t h = 0; h < values.size(); ++h) {
    std::ostringstream v;
    v << values[h];
    out += (h ? " " : "") + std::string(kHeadNames[h]) + "=" + v.str();
  }
  return out;
}

struct ModelArgs {
  std::string config;
  std::string name;
  std::string data;
  std::string output;
  std::string report;
  std::string model;
  std::string split;
  std::vector<std::string> c;
  std::vector<std::string> balance;
};

struct DataFiles {
  std::vector<NamedText> files;
  NamedText fingerprints;
  std::vector<fs::path> paths;  // every input, for the never-overwrite check
};

Result<DataFiles> read_data_dir(const std::string& dir_flag) {
  const fs::path dir(dir_flag);
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    return make_error(ErrorCode::kInvalidInput, "not a directory: " + dir_flag, "--data");
  DataFiles d;
  std::vector<fs::path> found;
  for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    if (it->is_regular_file(ec) && it->path().extension() == ".jsonl") found.push_back(it->path());
  if (ec)
    return make_file_error(ErrorCode::kIo, "cannot list directory: " + ec.message(), dir_flag);
  std::sort(found.begin(), found.end());
  for (const fs::path& p : found) {
    QAPLAN_ASSIGN_OR_RETURN(std::string text, read_file(p, "router data file"));
    d.files.push_back({p.lexically_relative(dir).generic_string(), std::move(text)});
    d.paths.push_back(p);
  }
  if (d.files.empty())
    return make_error(ErrorCode::kInvalidInput, "no *.jsonl files in " + dir_flag, "--data");
  const fs::path fp = dir / "fingerprints.json";
  QAPLAN_ASSIGN_OR_RETURN(std::string fp_text, read_file(fp, "fingerprint registry"));
  d.fingerprints = {"fingerprints.json", std::move(fp_text)};
  d.paths.push_back(fp);
  return d;
}

// HEAD=VALUE pairs into a per-head array; each pair is recorded in the model's command line.
Status parse_per_head(const std::vector<std::string>& given, const char* flag,
                      std::array<double, 5>& values, std::string& command) {
  for (const std::string& s : given) {
    const auto eq = s.find('=');
    const std::string head = s.substr(0, eq);
    const auto* it = std::find(std::begin(kHeadNames), std::end(kHeadNames), head);
    if (eq == std::string::npos || it == std::end(kHeadNames))
      return make_error(ErrorCode::kInvalidInput,
                        "expected HEAD=VALUE with HEAD one of act, intent, category, source, "
                        "dependent, got '" +
                            s + "'",
                        flag);
    double v = 0;
    try {
      std::size_t used = 0;
      v = std::stod(s.substr(eq + 1), &used);
      if (used != s.size() - eq - 1) throw std::invalid_argument("trailing characters");
    } catch (const std::exception&) {
      return make_error(ErrorCode::kInvalidInput, "not a number in '" + s + "'", flag);
    }
    values[static_cast<std::size_t>(it - std::begin(kHeadNames))] = v;
    command += std::string(" ") + flag + " " + s;
  }
  return {};
}

Status prepare_dir(const fs::path& dir, const std::vector<fs::path>& inputs, const char* flag) {
  std::error_code ec;
  for (const fs::path& in : inputs)
    if (fs::weakly_canonical(dir, ec) == fs::weakly_canonical(in, ec))
      return make_error(ErrorCode::kInvalidInput, "refusing to write into an input", flag);
  if (fs::exists(dir, ec) && !fs::is_directory(dir, ec))
    return make_error(ErrorCode::kInvalidInput, "must be a directory, not a file",
                      std::string(flag) + " " + dir.string());
  fs::create_directories(dir, ec);
  if (ec)
    return make_error(ErrorCode::kIo, "cannot create directory: " + ec.message(), dir.string());
  return {};
}

Status write_reports(const fs::path& dir, const RouterReport& report,
                     const std::vector<fs::path>& inputs, const char* flag) {
  QAPLAN_TRY(prepare_dir(dir, inputs, flag));
  // Both reports are rendered before either is written, so a rendering failure leaves nothing.
  const std::string json = router_report_json(report, true);
  const std::string md = router_report_markdown(report);
  return write_files_atomic(dir, {{"report.json", json}, {"report.md", md}}, inputs);
}

int run_train(const ModelArgs& a, const GlobalOptions& g) {
  auto data = read_data_dir(a.data);
  if (!data) return report(data.error());
  // The rules the model will serve: its [[sources]] are the source labels. The config is an
  // input too, so --output may not name it.
  const auto where = find_config(a.config);
  if (!where) return report(where.error());
  const auto config = load_config(*where);
  if (!config) return report(config.error());
  data->paths.push_back(*where);
  RouterTrainOptions o;
  o.data = std::move(data->files);
  o.fingerprints = std::move(data->fingerprints);
  o.set_sources(*config);
  if (!a.name.empty()) {
    o.name = a.name;
    o.command += " --name " + a.name;
  }
  if (Status st = parse_per_head(a.c, "--c", o.c, o.command); !st) return report(st.error());
  if (Status st = parse_per_head(a.balance, "--balance", o.balance, o.command); !st)
    return report(st.error());
  for (const fs::path& in : data->paths) {
    std::error_code ec;
    if (fs::weakly_canonical(a.output, ec) == fs::weakly_canonical(in, ec))
      return report(make_error(ErrorCode::kInvalidInput,
                               "refusing to overwrite an input: " + in.string(), "--output"));
  }
  // Training takes a while: an output it could not write is found now, not after it.
  if (Status st = preflight_output_file(a.output, "--output"); !st) return report(st.error());
  if (!a.report.empty())
    if (Status st = preflight_output_dir(a.report, "--report"); !st) return report(st.error());
  const auto t0 = std::chrono::steady_clock::now();
  auto trained = train_router_model(o);
  if (!trained) return report(trained.error());
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  spdlog::info("trained {} in {:.1f} s", o.name, secs);
  if (Status st = write_file_atomic(a.output, trained->bytes, data->paths); !st)
    return report(st.error());
  if (!a.report.empty()) {
    std::vector<fs::path> inputs = data->paths;
    inputs.push_back(a.output);
    if (Status st = write_reports(a.report, trained->report, inputs, "--report"); !st)
      return report(st.error());
  }
  nlohmann::json out = {
      {"output", a.output}, {"sha256", trained->sha256}, {"bytes", trained->bytes.size()}};
  std::cout << out.dump(g.pretty ? 2 : -1) << '\n';
  return flush_stdout();
}

int run_eval(const ModelArgs& a) {
  auto bytes = read_file(a.model, "router model");
  if (!bytes) return report(bytes.error());
  auto data = read_data_dir(a.data);
  if (!data) return report(data.error());
  auto rep = evaluate_router_model(*bytes, a.model, data->files, data->fingerprints, {a.split});
  if (!rep) return report(rep.error());
  std::vector<fs::path> inputs = data->paths;
  inputs.push_back(a.model);
  if (Status st = write_reports(a.output, *rep, inputs, "--output"); !st) return report(st.error());
  return kOk;
}

}  // namespace

Runner register_model(CLI::App& app, GlobalOptions& g) {
  auto a = std::make_shared<ModelArgs>();
  auto* sub = app.add_subcommand("model", "Train or evaluate the built-in router classifier");
  sub->require_subcommand(1);
  auto* train = sub->add_subcommand(
      "train", "Train the router model from a data folder (eval_sets/router); deterministic");
  train->add_option("--data", a->data, "router data folder: *.jsonl + fingerprints.json")
      ->required();
  train->add_option("--output", a->output, "model file to write (atomically; never an input)")
      ->required();
  train->add_option("--config", a->config,
                    "rules file whose [[sources]] names, in file order, plus none are the source "
                    "labels (default: $QAPLAN_CONFIG, the checkout's config/rules.toml, "
                    "~/.config/qaplan, then the installed one; -v names it)");
  train->add_option("--name", a->name,
                    "the model's name, recorded in the file and shown by `plan` (default: "
                    "router-v1)");
  train->add_option("--report", a->report, "also write report.json + report.md into this folder (default: none)");
  train->add_option("--c", a->c,
                    "LIBLINEAR C of a head, HEAD=VALUE (repeatable; default: " +
                        per_head(qaplan::kDefaultRouterC) + ")");
  train->add_option("--balance", a->balance,
                    "class-weight exponent of a head in [0, 1], HEAD=VALUE (repeatable; default: " +
                        per_head(qaplan::kDefaultRouterBalance) + ")");
  auto* eval = sub->add_subcommand("eval", "Score a router model on one split of a data folder");
  eval->add_option("--model", a->model, "model file")->required();
  eval->add_option("--data", a->data, "router data folder: *.jsonl + fingerprints.json")
      ->required();
  eval->add_option("--split", a->split, "dev or test")
      ->required()
      ->check(CLI::IsMember({"dev", "test"}));
  eval->add_option("--output", a->output, "folder for report.json + report.md")->required();
  return [a, train, &g] { return train->parsed() ? run_train(*a, g) : run_eval(*a); };
}

}  // namespace qaplan::cli
