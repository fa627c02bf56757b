#pragma once
// Shared plumbing for the qaplan CLI: exit codes, error printing, safe output files.
#include <CLI/CLI.hpp>
#include <filesystem>
#include <string>
#include <vector>

#include "qaplan/io.hpp"
#include "qaplan/status.hpp"

namespace qaplan::cli {

/// Exit codes (docs/guide.md, exit status), one table for every subcommand.
enum Exit : int { kOk = 0, kInternal = 1, kInvalid = 2, kGateFailed = 3 };

/// ErrorCode → exit status.
int exit_code_for(ErrorCode code);

/// Prints "qaplan: <error>" as one line on stderr and returns its exit code.
int report(const Error& e);

/// Results go to stdout, and a full disk or a closed pipe must not pass as success. While a
/// StdoutGuard lives, std::cout writes to descriptor 1 through a buffer that keeps the errno of
/// the first failed write (iostreams and stdio lose it: a later call overwrites errno).
/// flush_stdout() then returns `status`, or — when a write failed — prints "qaplan: stdout:
/// cannot write: <errno text>" and returns exit 2. One helper for every command's output.
class StdoutGuard {
 public:
  StdoutGuard();
  ~StdoutGuard();
  StdoutGuard(const StdoutGuard&) = delete;
  StdoutGuard& operator=(const StdoutGuard&) = delete;

 private:
  std::streambuf* previous_;
};
int flush_stdout(int status = kOk);

/// Before a long run, what its output write would meet: `path` is no directory, its directory
/// exists and a file can be created there now (a probe file, removed at once — a read-only
/// filesystem or a missing permission fails here, not after the work). kInvalidInput / kIo
/// naming `flag` and the path.
Status preflight_output_file(const std::filesystem::path& path, const char* flag);
/// The same for an output directory (it may not exist yet: its nearest existing parent is probed).
Status preflight_output_dir(const std::filesystem::path& dir, const char* flag);

/// A report command's output: publishes `files` into `dir` as one generation
/// (write_files_atomic, never over one of `inputs`), then prints each file's path on stdout in
/// the order given — the lines scripts read to find the reports.
Status publish_reports(const std::filesystem::path& dir,
                       const std::vector<std::pair<std::string, std::string>>& files,
                       const std::vector<std::filesystem::path>& inputs);

/// The flags of a command that runs the planner over a labelled set and writes report.json and
/// report.md: --dataset (`dataset_help`), --output (required) and --config.
void add_planner_report_flags(CLI::App& sub, std::string& dataset, std::string& output,
                              std::string& config, const std::string& dataset_help);

/// The chain set a KB command evaluates: --dataset when given, else the questions `kb build`
/// published beside --kb (KB/questions/questions.jsonl) when there are any, else "" (the shipped
/// set is then found as usual).
std::string chain_set_for(const std::string& dataset_flag, const std::string& kb_flag);

/// `qaplan --version`: version, config schema and file, model and dataset fingerprints.
std::string version_text();

/// Global options every subcommand sees.
struct GlobalOptions {
  std::string log_level = "warn";
  bool pretty = false;
};

/// Each subcommand registers itself on the app and returns the callback that runs it; the
/// callback returns the process exit status.
using Runner = std::function<int()>;
Runner register_plan(CLI::App& app, GlobalOptions& g);
Runner register_rewrite(CLI::App& app, GlobalOptions& g);
Runner register_config(CLI::App& app, GlobalOptions& g);
Runner register_bench(CLI::App& app, GlobalOptions& g);
Runner register_search(CLI::App& app, GlobalOptions& g);
Runner register_index(CLI::App& app, GlobalOptions& g);
Runner register_tokenize(CLI::App& app, GlobalOptions& g);
Runner register_model(CLI::App& app, GlobalOptions& g);
Runner register_eval_policy(CLI::App& app, GlobalOptions& g);
Runner register_eval_chain(CLI::App& app, GlobalOptions& g);
Runner register_eval_rewrite(CLI::App& app, GlobalOptions& g);
Runner register_eval_route(CLI::App& app, GlobalOptions& g);
Runner register_calibrate(CLI::App& app, GlobalOptions& g);
Runner register_recommend(CLI::App& app, GlobalOptions& g);
Runner register_domain(CLI::App& app, GlobalOptions& g);
Runner register_kb(CLI::App& app, GlobalOptions& g);
Runner register_ask(CLI::App& app, GlobalOptions& g);

}  // namespace qaplan::cli
