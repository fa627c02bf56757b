#pragma once
// A read-only memory map of a whole file (POSIX mmap), the way saved indexes are opened: pages
// come from the page cache on demand and are shared between processes that open the same index.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>

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
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

 private:
  MappedFile(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
  const std::uint8_t* data_;
  std::size_t size_;
};

/// XXH3-64 of `bytes` (libxxhash, header-only).
std::uint64_t checksum64(std::span<const std::uint8_t> bytes) noexcept;

}  // namespace qaplan::internal
