#pragma once
// A file read whole into private memory that the kernel may back with huge pages. Used for the
// files a process reads at every start and keeps (the router model): a private copy, so a file
// written over later changes nothing and cannot fault the reader (unlike a mapping), and on a
// machine whose page faults are slow (a 2-core VM: ~4 ms to fault in the 0.9 MB model page by
// page) one huge page is one fault (docs/benchmarks.md, start-up).
#include <cstddef>
#include <filesystem>
#include <memory>
#include <string_view>

#include "qaplan/status.hpp"

namespace qaplan::internal {

class FileImage {
 public:
  /// Reads a regular file whole (Input's checks: a file that shrinks or grows while read is kIo
  /// naming it; at most max_input_bytes()).
  static Result<FileImage> read(const std::filesystem::path& path, std::string_view what);
  /// The same storage holding a copy of `bytes` (models built in memory, tests).
  static FileImage copy_of(std::string_view bytes);

  std::string_view bytes() const noexcept { return {data_.get(), size_}; }

 private:
  struct Free {
    void operator()(char* p) const noexcept;
  };
  static FileImage allocate(std::size_t size);

  std::unique_ptr<char, Free> data_;
  std::size_t size_ = 0;
};

}  // namespace qaplan::internal
