#include "qaplan/io.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>

#include "common/output_dir.hpp"

namespace qaplan {
namespace fs = std::filesystem;

Result<std::string> read_file(const fs::path& path, std::string_view what) {
  std::error_code ec;
  const std::string prefix = "cannot read " + std::string(what);
  if (fs::is_directory(path, ec))
    return make_file_error(ErrorCode::kIo, prefix + ": is a directory", path.string());
  std::ifstream in(path, std::ios::binary);
  if (!in) return make_file_error(ErrorCode::kIo, prefix + ": " + std::strerror(errno), path.string());
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) return make_file_error(ErrorCode::kIo, prefix, path.string());
  return ss.str();
}

Status write_file_atomic(const fs::path& path, std::string_view content,
                         const std::vector<fs::path>& inputs) {
  std::error_code ec;
  const fs::path target = fs::weakly_canonical(path, ec);
  for (const auto& in : inputs) {
    std::error_code ec2;
    if (!in.empty() && fs::weakly_canonical(in, ec2) == target && !ec && !ec2)
      return make_file_error(ErrorCode::kInvalidInput, "refusing to overwrite an input file",
                             path.string());
  }
  fs::path dir = path.parent_path();
  if (dir.empty()) dir = ".";
  if (!fs::is_directory(dir, ec))
    return make_file_error(ErrorCode::kIo, "output directory does not exist", dir.string());
  std::random_device rd;
  const fs::path tmp =
      dir / (".qaplan-tmp-" + std::to_string(::getpid()) + "-" + std::to_string(rd()));
  {
    std::FILE* f = std::fopen(tmp.c_str(), "wb");
    if (!f)
      return make_file_error(ErrorCode::kIo, std::string("cannot write: ") + std::strerror(errno),
                             tmp.string());
    const bool ok = std::fwrite(content.data(), 1, content.size(), f) == content.size() &&
                    std::fflush(f) == 0 && ::fsync(::fileno(f)) == 0;
    const bool closed = std::fclose(f) == 0;
    if (!ok || !closed) {
      fs::remove(tmp, ec);
      return make_file_error(ErrorCode::kIo, "write failed", path.string());
    }
  }
  fs::rename(tmp, path, ec);
  if (ec) {
    std::error_code ec3;
    fs::remove(tmp, ec3);
    return make_file_error(ErrorCode::kIo, "cannot rename into place: " + ec.message(),
                           path.string());
  }
  return {};
}


namespace internal {

Status ensure_output_dir(const fs::path& dir) {
  std::error_code ec;
  if (fs::exists(dir, ec) && !fs::is_directory(dir, ec))
    return make_file_error(ErrorCode::kInvalidInput, "output must be a directory, not a file",
                           dir.string());
  fs::create_directories(dir, ec);
  if (ec)
    return make_file_error(ErrorCode::kIo, "cannot create output directory: " + ec.message(),
                           dir.string());
  return {};
}

}  // namespace internal

}  // namespace qaplan
