#pragma once
// Small helpers shared by tests: paths, reading files, running the CLI.
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <set>
#include <string>
#include <vector>
#include <sys/wait.h>
#include <unistd.h>

namespace qaplan::test {

inline std::filesystem::path source_dir() { return QAPLAN_SOURCE_DIR; }
inline std::filesystem::path shared_dir() { return QAPLAN_SHARED_DIR; }
inline std::filesystem::path shipped_config() { return source_dir() / "config" / "rules.toml"; }

/// An edited rules.toml written into `dir` needs the files it names beside it (glossaries, the
/// model): copies them from config/.
inline void copy_config_companions(const std::filesystem::path& dir) {
  namespace fs = std::filesystem;
  for (const char* sub : {"glossary", "models", "domain"})
    fs::copy(source_dir() / "config" / sub, dir / sub,
             fs::copy_options::recursive | fs::copy_options::overwrite_existing);
}

/// The question tables of tests/data (every file with a "question" per line), for tests that
/// run all of them (Traditional parity, the model's script fold).
inline constexpr const char* kQuestionTables[] = {"golden_plans.jsonl",    "labelled_plans.jsonl",
                                                  "own_plans.jsonl",       "trap_questions.jsonl",
                                                  "category_source.jsonl", "followups.jsonl"};

inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct RunResult {
  int status = -1;
  std::string out;
  std::string err;
};

/// Runs a shell command line, capturing stdout and stderr (stderr through a temp file).
inline RunResult run(const std::string& cmdline) {
  RunResult r;
  const std::string errfile = (std::filesystem::temp_directory_path() /
                               ("qaplan-test-err-" + std::to_string(::getpid()))).string();
  FILE* p = ::popen((cmdline + " 2>" + errfile).c_str(), "r");
  if (!p) return r;
  std::array<char, 4096> buf{};
  size_t n;
  while ((n = std::fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
  const int st = ::pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  r.err = slurp(errfile);
  std::filesystem::remove(errfile);
  return r;
}

/// Single-quotes an argument for /bin/sh.
inline std::string sh_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') out += "'\\''";
    else out += c;
  }
  return out + "'";
}

inline std::string qaplan_bin() { return QAPLAN_BIN; }
/// `text` split into lines (without '\n'): line i+1 of a file is element i.
inline std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

/// The CLI's path quoted for a command line.
inline std::string quoted_bin() { return sh_quote(qaplan_bin()); }

/// The CLI's error contract: one line, "qaplan: …".
inline bool one_error_line(const std::string& err) {
  return !err.empty() && err.find('\n') == err.size() - 1 && err.rfind("qaplan: ", 0) == 0;
}

// The files of a report set published into `dir` (qaplan/io.hpp write_files_atomic): each name
// is a link through DIR/current into the live generation. Empty when the layout is anything else
// (a regular file at a name, a dangling link, staging or temp files left behind — allowed with
// `leftovers`: a killed run leaves them for the next publish to remove).
inline std::set<std::string> published_names(const std::filesystem::path& dir, bool leftovers = false) {
  namespace fs = std::filesystem;
  std::set<std::string> names;
  std::error_code ec;
  const fs::path gen = fs::read_symlink(dir / "current", ec);
  if (ec || !fs::is_directory(dir / gen)) return {};
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string n = e.path().filename().string();
    if (n == "current" || n == ".lock" || n == gen.string() || n.starts_with("gen-")) continue;
    if (leftovers && (n.starts_with(".gen-") || n.starts_with(".qaplan-tmp-"))) continue;
    if (!fs::is_symlink(e.symlink_status()) ||
        fs::read_symlink(e.path()) != fs::path("current") / n || !fs::is_regular_file(dir / gen / n))
      return {};
    names.insert(n);
  }
  return names;
}

// A fresh empty directory, removed with everything in it when the test ends.
class ScratchDir {
 public:
  explicit ScratchDir(const std::string& tag) {
    static int counter = 0;
    path_ = std::filesystem::temp_directory_path() /
            ("qaplan-" + tag + "-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

// The non-empty lines of the first ```bash block under the heading `heading` (e.g. "## Quickstart")
// of a Markdown file: the commands a page tells users to run, run by the tests as written.
inline std::vector<std::string> bash_block(const std::filesystem::path& md, const std::string& heading) {
  const std::string doc = slurp(md);
  const std::size_t section = doc.find("\n" + heading + "\n");
  if (section == std::string::npos) return {};
  const std::size_t begin = doc.find("```bash\n", section);
  const std::size_t end = begin == std::string::npos ? begin : doc.find("```", begin + 8);
  if (end == std::string::npos) return {};
  std::vector<std::string> lines;
  std::istringstream in(doc.substr(begin + 8, end - begin - 8));
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) lines.push_back(line);
  return lines;
}

// `line` (starting "build/qaplan ") with the test's binary, `/tmp/<prefix>` paths in `scratch`.
inline std::string doc_command(const std::string& line, const std::string& tmp_prefix,
                               const std::filesystem::path& scratch) {
  std::string s = line;
  const std::string from = "/tmp/" + tmp_prefix, to = (scratch / tmp_prefix).string();
  for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
    s.replace(at, from.size(), to);
  const std::string bin = "build/qaplan";
  if (s.rfind(bin, 0) == 0) s = sh_quote(qaplan_bin()) + s.substr(bin.size());
  return "cd " + sh_quote(source_dir().string()) + " && env -u QAPLAN_CONFIG " + s;
}

}  // namespace qaplan::test
