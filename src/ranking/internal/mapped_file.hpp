#pragma once
// A read-only memory map of a whole file (POSIX mmap), the way saved indexes are opened: pages
// come from the page cache on demand and are shared between processes that open the same index.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string>

#include "qaplan/status.hpp"

namespace qaplan::internal {

class MappedFile {
 public:
  /// Maps `path` read-only. `populate` pre-faults every page (MAP_POPULATE) — worth it when the
  /// caller is about to read every byte (a checksum). Errors: kIo naming the file.
  static Result<std::shared_ptr<const MappedFile>> open(const std::filesystem::path& path,
                                                        bool populate);
  std::span<const std::uint8_t> bytes() const noexcept { return {data_, size_}; }
  /// Lets the kernel drop the pages before byte `upto` from this process (a streaming reader
  /// that is done with them keeps its resident memory flat); they are re-read if touched again.
  void release(std::size_t upto) const noexcept;
  /// OK while the mapped file is as it was opened: its inode's size and mtime (fstat on the
  /// descriptor kept open) are unchanged. A file written over in place (`cp new old`) or
  /// truncated is refused at the next call — its pages would be the new bytes or SIGBUS; what is
  /// read between two calls is not protected. A file replaced by rename is another inode and
  /// leaves this mapping intact. Errors: kIo naming it.
  Status unchanged() const;
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

 private:
  MappedFile(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
  const std::uint8_t* data_;
  std::size_t size_;
  int fd_ = -1;  // kept open for unchanged()
  std::string path_;
  std::int64_t mtime_ns_ = 0;
};

/// XXH3-64 of `bytes` (libxxhash, header-only).
std::uint64_t checksum64(std::span<const std::uint8_t> bytes) noexcept;

}  // namespace qaplan::internal
