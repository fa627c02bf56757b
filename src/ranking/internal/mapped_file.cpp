#include "ranking/internal/mapped_file.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#define XXH_INLINE_ALL  // header-only: nothing to link, for us or for consumers
#include <xxhash.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>

namespace qaplan::internal {

namespace {
// An empty file cannot be mapped; it is handed out as a zero-length span over this byte.
const std::uint8_t kEmpty = 0;
std::int64_t stamp_ns(const timespec& t) {
  return static_cast<std::int64_t>(t.tv_sec) * 1'000'000'000 + t.tv_nsec;
}

}  // namespace

Result<std::shared_ptr<const MappedFile>> MappedFile::open(const std::filesystem::path& path,
                                                           bool populate) {
  // O_NONBLOCK: a FIFO in the index's place would block open() until a writer came; it is
  // refused below as not a regular file. Reads of a regular file ignore the flag.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0)
    return make_file_error(ErrorCode::kIo, std::string("cannot read: ") + std::strerror(errno),
                           path.string());
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return make_file_error(ErrorCode::kIo,
                           S_ISDIR(st.st_mode) ? "cannot read: is a directory"
                                               : "cannot read: not a regular file",
                           path.string());
  }
  const auto size = static_cast<std::size_t>(st.st_size);
  if (size == 0) {
    // Size 0 may be a special file (/proc/self/mem fails every read, /proc/cpuinfo has text):
    // only a file that reads as empty is empty (docs/reliability.md#bad-input-catalogue).
    char probe = 0;
    const ssize_t got = ::read(fd, &probe, 1);
    const int err = errno;
    ::close(fd);
    if (got != 0)
      return make_file_error(ErrorCode::kIo,
                             got < 0 ? std::string("cannot read: ") + std::strerror(err)
                                     : std::string("cannot read: not a regular file (size 0)"),
                             path.string());
    return std::shared_ptr<const MappedFile>(new MappedFile(&kEmpty, 0));
  }
  void* p = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE | (populate ? MAP_POPULATE : 0), fd, 0);
  const int err = errno;
  if (p == MAP_FAILED) {
    ::close(fd);
    return make_file_error(ErrorCode::kIo, std::string("cannot map: ") + std::strerror(err),
                           path.string());
  }
  std::shared_ptr<MappedFile> m(new MappedFile(static_cast<const std::uint8_t*>(p), size));
  m->fd_ = fd;
  m->path_ = path.string();
  m->mtime_ns_ = stamp_ns(st.st_mtim);
  return std::shared_ptr<const MappedFile>(std::move(m));
}

Status MappedFile::unchanged() const {
  if (fd_ < 0) return {};
  struct stat st {};
  if (::fstat(fd_, &st) != 0)
    return make_file_error(ErrorCode::kIo, std::string("cannot check: ") + std::strerror(errno), path_);
  // Not ctime: unlinking the file (a replacement by rename) changes it, and that is harmless.
  if (static_cast<std::size_t>(st.st_size) != size_ || stamp_ns(st.st_mtim) != mtime_ns_)
    return make_file_error(ErrorCode::kIo,
                           "changed on disk since it was opened (written over or truncated; "
                           "publish a new generation instead, or open with load = \"memory\")",
                           path_);
  return {};
}

MappedFile::~MappedFile() {
  if (size_ != 0) ::munmap(const_cast<std::uint8_t*>(data_), size_);
  if (fd_ >= 0) ::close(fd_);
}

void MappedFile::release(std::size_t upto) const noexcept {
  const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  const std::size_t len = std::min(upto, size_) / page * page;
  if (size_ != 0 && len != 0) ::madvise(const_cast<std::uint8_t*>(data_), len, MADV_DONTNEED);
}

std::uint64_t checksum64(std::span<const std::uint8_t> bytes) noexcept {
  return XXH3_64bits(bytes.data(), bytes.size());
}

}  // namespace qaplan::internal
