#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "internal/io.hpp"

namespace qaplan::internal {

Result<std::string> read_whole_file(const std::filesystem::path& path, std::string_view what) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    return make_error(ErrorCode::kIo, "cannot read " + std::string(what) + ": is a directory",
                      path.string());
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return make_error(ErrorCode::kIo,
                      "cannot read " + std::string(what) + ": " + std::strerror(errno), path.string());
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) return make_error(ErrorCode::kIo, "cannot read " + std::string(what), path.string());
  return ss.str();
}

}  // namespace qaplan::internal
