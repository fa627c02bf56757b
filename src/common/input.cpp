#include "common/input.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace qaplan::internal {
namespace {

constexpr std::size_t kChunk = std::size_t{1} << 20;
constexpr std::size_t kProbe = 4096;  // the read that finds the end of a file of known size
constexpr long kProcSuperMagic = 0x9fa0;  // linux/magic.h PROC_SUPER_MAGIC

// A /proc file that reads as nothing: /proc/self/mem opened by the shell before exec reads as
// end of file at once, which is no empty input but a file with nothing to read.
bool empty_proc_file(int fd) {
  struct statfs fs {};
  return ::fstatfs(fd, &fs) == 0 && static_cast<long>(fs.f_type) == kProcSuperMagic;
}

// Opens without blocking (a FIFO with no writer would block open() forever), then checks what it
// is; the descriptor is made blocking again for reading.
Result<int> open_checked(const std::filesystem::path& path, const std::string& what,
                         bool allow_fifo, struct stat& st) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0)
    return make_file_error(ErrorCode::kIo, "cannot read " + what + ": " + std::strerror(errno),
                           path.string());
  const char* refused = nullptr;
  if (::fstat(fd, &st) != 0) refused = "cannot stat";
  else if (S_ISDIR(st.st_mode)) refused = "is a directory";
  else if (!S_ISREG(st.st_mode) && !(allow_fifo && S_ISFIFO(st.st_mode)))
    refused = "not a regular file";
  if (refused == nullptr && ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0)
    refused = "cannot read";
  if (refused != nullptr) {
    ::close(fd);
    return make_file_error(ErrorCode::kIo, "cannot read " + what + ": " + refused, path.string());
  }
  return fd;
}

}  // namespace

std::size_t max_input_bytes() noexcept {
  static const std::size_t cap = [] {
    constexpr std::size_t kDefault = std::size_t{4} << 30;
    const char* env = std::getenv("QAPLAN_MAX_INPUT_BYTES");
    if (env == nullptr || *env == '\0') return kDefault;
    char* end = nullptr;
    const unsigned long long v = std::strtoull(env, &end, 10);
    return (end && *end == '\0' && v > 0) ? static_cast<std::size_t>(v) : kDefault;
  }();
  return cap;
}

Result<Input> Input::open_file(const std::filesystem::path& path, std::string_view what) {
  struct stat st {};
  QAPLAN_ASSIGN_OR_RETURN(const int fd, open_checked(path, std::string(what), false, st));
  return Input(fd, true, path.string(), std::string(what), static_cast<long long>(st.st_size));
}

Result<Input> Input::open_stream(const std::string& path_or_dash, std::string_view what) {
  if (path_or_dash == "-") {
    struct stat st {};
    if (::fstat(STDIN_FILENO, &st) != 0)
      return make_file_error(ErrorCode::kIo, "cannot read " + std::string(what) + ": " +
                                                 std::strerror(errno),
                             "<stdin>");
    if (S_ISDIR(st.st_mode))
      return make_file_error(ErrorCode::kIo, "cannot read " + std::string(what) + ": is a directory",
                             "<stdin>");
    return Input(STDIN_FILENO, false, "<stdin>", std::string(what), -1);
  }
  struct stat st {};
  QAPLAN_ASSIGN_OR_RETURN(const int fd, open_checked(path_or_dash, std::string(what), true, st));
  return Input(fd, true, path_or_dash, std::string(what), -1);
}

Input::Input(Input&& o) noexcept
    : fd_(o.fd_), owned_(o.owned_), name_(std::move(o.name_)), what_(std::move(o.what_)),
      size_(o.size_), read_(o.read_) {
  o.fd_ = -1;
  o.owned_ = false;
}

Input::~Input() {
  if (owned_ && fd_ >= 0) ::close(fd_);
}

Error Input::fail(const std::string& message) const {
  return make_file_error(ErrorCode::kIo, "cannot read " + what_ + ": " + message, name_);
}

Result<std::size_t> Input::read_some(std::string& out, std::size_t n) {
  const std::size_t at = out.size();
  out.resize(at + n);
  auto got = read_into(out.data() + at, n);
  out.resize(at + (got.ok() ? *got : 0));
  return got;
}

Result<std::size_t> Input::read_into(char* dst, std::size_t n) {
  for (;;) {
    const ssize_t got = ::read(fd_, dst, n);
    if (got >= 0) {
      read_ += got;
      // A regular file that ends short of the size it had when opened was cut under us.
      if (got == 0 && size_ >= 0 && read_ < size_)
        return fail("the file shrank while it was read (" + std::to_string(read_) + " of " +
                    std::to_string(size_) + " bytes)");
      if (got == 0 && read_ == 0 && empty_proc_file(fd_))
        return fail("a /proc file that reads as nothing (not a regular file)");
      return static_cast<std::size_t>(got);
    }
    if (errno == EINTR) continue;
    return fail(std::strerror(errno));
  }
}

// A regular file is read in one call of its size (+1, which finds a file that grew) and then a
// small one that finds the end: read_some() zero-fills what it asks for, and asking a 64 KB rules
// file for a 1 MB chunk twice cost the CLI's start-up 2 MB of page faults per file.
std::size_t Input::next_read_size() const noexcept {
  if (size_ < 0) return kChunk;
  if (read_ < size_) return std::min<std::size_t>(static_cast<std::size_t>(size_ - read_) + 1, kChunk);
  return kProbe;
}

Result<std::string> Input::read_all() {
  // A file larger than the cap (a sparse 100 GB file, say) is refused before anything is
  // reserved for it.
  if (size_ > 0 && static_cast<unsigned long long>(size_) > max_input_bytes())
    return fail("larger than " + std::to_string(max_input_bytes()) +
                " bytes (QAPLAN_MAX_INPUT_BYTES)");
  std::string out;
  if (size_ > 0) out.reserve(static_cast<std::size_t>(size_) + kProbe);
  for (;;) {
    QAPLAN_ASSIGN_OR_RETURN(const std::size_t got, read_some(out, next_read_size()));
    if (got == 0) return out;
    if (out.size() > max_input_bytes())
      return fail("larger than " + std::to_string(max_input_bytes()) +
                  " bytes (QAPLAN_MAX_INPUT_BYTES)");
  }
}

Result<bool> LineReader::next(std::string& line) {
  for (;;) {
    const std::size_t nl = buf_.find('\n', pos_);
    if (nl != std::string::npos || eof_) {
      if (nl == std::string::npos && pos_ >= buf_.size()) return false;
      const std::size_t end = nl == std::string::npos ? buf_.size() : nl;
      line.assign(buf_, pos_, end - pos_);
      pos_ = nl == std::string::npos ? buf_.size() : nl + 1;
      if (!line.empty() && line.back() == '\r') line.pop_back();
      return true;
    }
    if (buf_.size() - pos_ > max_input_bytes())
      return make_file_error(ErrorCode::kIo, "a line longer than " +
                                                 std::to_string(max_input_bytes()) + " bytes",
                             in_.name());
    buf_.erase(0, pos_);
    pos_ = 0;
    QAPLAN_ASSIGN_OR_RETURN(const std::size_t got, in_.read_some(buf_, kChunk));
    eof_ = got == 0;
  }
}

}  // namespace qaplan::internal
