#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <streambuf>

#include "cli.hpp"

namespace qaplan::cli {

int exit_code_for(ErrorCode code) {
  switch (code) {
    case ErrorCode::kInvalidInput:
    case ErrorCode::kInvalidConfig:
    case ErrorCode::kIo:
    case ErrorCode::kFingerprintMismatch:
      return kInvalid;
    case ErrorCode::kInternal:
      return kInternal;
  }
  return kInternal;
}

int report(const Error& e) {
  std::cerr << "qaplan: " << e.to_string() << '\n';
  return exit_code_for(e.code);
}

namespace {

namespace fs = std::filesystem;

// std::cout's buffer while a StdoutGuard lives: write(2) to descriptor 1, keeping the errno of
// the first failure. After a failure every write fails, so the stream goes bad and no later
// output pretends to follow lost output.
class CheckedStdout : public std::streambuf {
 public:
  int error() const noexcept { return error_; }
  bool drain() {
    std::size_t at = 0;
    while (error_ == 0 && at < buf_.size()) {
      const ssize_t n = ::write(STDOUT_FILENO, buf_.data() + at, buf_.size() - at);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) error_ = n < 0 ? errno : EIO;
      if (n > 0) at += static_cast<std::size_t>(n);
    }
    buf_.clear();
    return error_ == 0;
  }

 protected:
  int_type overflow(int_type c) override {
    if (traits_type::eq_int_type(c, traits_type::eof()))
      return drain() ? traits_type::not_eof(c) : traits_type::eof();
    const char ch = traits_type::to_char_type(c);
    return xsputn(&ch, 1) == 1 ? c : traits_type::eof();
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    if (error_ != 0) return 0;
    buf_.append(s, static_cast<std::size_t>(n));
    // A terminal sees each line when it is complete, as stdio's line buffering would give.
    const bool line = tty_ && std::memchr(s, '\n', static_cast<std::size_t>(n)) != nullptr;
    if ((line || buf_.size() >= kCapacity) && !drain()) return 0;
    return n;
  }
  int sync() override { return drain() ? 0 : -1; }

 private:
  static constexpr std::size_t kCapacity = std::size_t{1} << 16;
  std::string buf_;
  int error_ = 0;
  bool tty_ = ::isatty(STDOUT_FILENO) == 1;
};

CheckedStdout& checked_stdout() {
  static CheckedStdout buf;
  return buf;
}

Status probe_dir(const fs::path& dir, const char* flag, const fs::path& named) {
  const fs::path probe = dir / (".qaplan-tmp-" + std::to_string(::getpid()) + "-probe");
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0)
    return make_error(ErrorCode::kIo, std::string("cannot write: ") + std::strerror(errno),
                      std::string(flag) + " " + named.string());
  ::close(fd);
  ::unlink(probe.c_str());
  return {};
}

}  // namespace

StdoutGuard::StdoutGuard() : previous_(std::cout.rdbuf(&checked_stdout())) {}

StdoutGuard::~StdoutGuard() {
  checked_stdout().drain();
  std::cout.rdbuf(previous_);
}

int flush_stdout(int status) {
  static bool reported = false;
  std::cout.flush();
  int err = checked_stdout().drain() ? 0 : checked_stdout().error();
  if (err == 0 && std::fflush(stdout) != 0) err = errno;  // stdio, if anything wrote there
  if (err == 0 && !std::cout) err = EIO;                  // a stream without a guard
  if (err == 0 || reported) return err == 0 ? status : (status == kOk ? kInvalid : status);
  reported = true;
  report(make_error(ErrorCode::kIo, std::string("cannot write: ") + std::strerror(err), "stdout"));
  return status == kOk ? kInvalid : status;
}

Status preflight_output_file(const fs::path& path, const char* flag) {
  std::error_code ec;
  if (fs::is_directory(path, ec))
    return make_error(ErrorCode::kInvalidInput, "is a directory, not a file",
                      std::string(flag) + " " + path.string());
  const fs::path dir = path.parent_path().empty() ? fs::path(".") : path.parent_path();
  if (!fs::is_directory(dir, ec))
    return make_error(ErrorCode::kIo, "its directory does not exist",
                      std::string(flag) + " " + path.string());
  return probe_dir(dir, flag, path);
}

Status preflight_output_dir(const fs::path& dir, const char* flag) {
  std::error_code ec;
  if (fs::exists(dir, ec) && !fs::is_directory(dir, ec))
    return make_error(ErrorCode::kInvalidInput, "must be a directory, not a file",
                      std::string(flag) + " " + dir.string());
  fs::path probe = dir.empty() ? fs::path(".") : dir;
  while (!fs::exists(probe, ec) && probe.has_parent_path() && probe != probe.parent_path())
    probe = probe.parent_path();
  if (!fs::is_directory(probe, ec)) probe = ".";
  return probe_dir(probe, flag, dir);
}

Status publish_reports(const fs::path& dir,
                       const std::vector<std::pair<std::string, std::string>>& files,
                       const std::vector<fs::path>& inputs) {
  QAPLAN_TRY(write_files_atomic(dir, files, inputs));
  for (const auto& [name, text] : files) std::cout << (dir / name).string() << '\n';
  return {};
}

void add_planner_report_flags(CLI::App& sub, std::string& dataset, std::string& output,
                              std::string& config, const std::string& dataset_help) {
  sub.add_option("--dataset", dataset, dataset_help);
  sub.add_option("--output", output, "directory for report.json and report.md")->required();
  sub.add_option("--config", config, "rules file (default: the one `plan` uses)");
}

std::string chain_set_for(const std::string& dataset_flag, const std::string& kb_flag) {
  if (!dataset_flag.empty() || kb_flag.empty()) return dataset_flag;
  const std::filesystem::path q = std::filesystem::path(kb_flag) / "questions" / "questions.jsonl";
  std::error_code ec;
  return std::filesystem::is_regular_file(q, ec) ? q.string() : std::string();
}

}  // namespace qaplan::cli
