#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>

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

std::string chain_set_for(const std::string& dataset_flag, const std::string& kb_flag) {
  if (!dataset_flag.empty() || kb_flag.empty()) return dataset_flag;
  const std::filesystem::path q = std::filesystem::path(kb_flag) / "questions" / "questions.jsonl";
  std::error_code ec;
  return std::filesystem::is_regular_file(q, ec) ? q.string() : std::string();
}

}  // namespace qaplan::cli
