#include "qaplan/io.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>

#include "common/input.hpp"
#include "common/output_dir.hpp"
#include "common/temp_files.hpp"

namespace qaplan {
namespace fs = std::filesystem;

// Every whole-file input goes through common/input.hpp: a regular file, read(2), capped.
Result<std::string> read_file(const fs::path& path, std::string_view what) {
  QAPLAN_ASSIGN_OR_RETURN(internal::Input in, internal::Input::open_file(path, what));
  return in.read_all();
}

struct LineInput::Impl {
  internal::Input in;
  internal::LineReader lines{in};
  explicit Impl(internal::Input i) : in(std::move(i)) {}
};

Result<LineInput> LineInput::open(const std::string& path_or_dash, std::string_view what) {
  QAPLAN_ASSIGN_OR_RETURN(internal::Input in, internal::Input::open_stream(path_or_dash, what));
  return LineInput(std::make_unique<Impl>(std::move(in)));
}
LineInput::LineInput(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
LineInput::LineInput(LineInput&&) noexcept = default;
LineInput& LineInput::operator=(LineInput&&) noexcept = default;
LineInput::~LineInput() = default;
Result<bool> LineInput::next(std::string& line) { return impl_->lines.next(line); }
const std::string& LineInput::name() const noexcept { return impl_->in.name(); }

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
  const internal::TempGuard guard(tmp);  // removed if a signal ends the process now
  {
    std::FILE* f = std::fopen(tmp.c_str(), "wb");
    if (!f)
      return make_file_error(ErrorCode::kIo, std::string("cannot write: ") + std::strerror(errno),
                             path.string());
    int err = 0;
    const bool ok = std::fwrite(content.data(), 1, content.size(), f) == content.size() &&
                    std::fflush(f) == 0 && ::fsync(::fileno(f)) == 0;
    if (!ok) err = errno;
    const bool closed = std::fclose(f) == 0;
    if (closed && err == 0 && !ok) err = EIO;
    if (!closed && err == 0) err = errno;
    if (!ok || !closed) {
      fs::remove(tmp, ec);
      return make_file_error(ErrorCode::kIo, std::string("write failed: ") + std::strerror(err),
                             path.string());
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
