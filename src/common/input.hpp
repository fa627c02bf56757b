#pragma once
// The one way qaplan reads its inputs (rules, models, lexicons, datasets, corpora, vectors, batch
// streams): read(2) on a descriptor, so a read error is an error with the file's name and errno,
// never taken for the end of the file; a named file must be a regular file (a FIFO or device is
// refused without blocking in open()), and a whole-file read is capped. Inputs qaplan reads once
// are not mapped: a file truncated under a reader is an I/O error, not a SIGBUS.
#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>

#include "qaplan/status.hpp"

namespace qaplan::internal {

/// The cap on one whole-file read: $QAPLAN_MAX_INPUT_BYTES (bytes) when set to a positive
/// integer, else 4 GiB. A larger file is refused (kIo) rather than read into memory.
std::size_t max_input_bytes() noexcept;

class Input {
 public:
  /// A named file read whole or in chunks: a regular file (kIo otherwise, naming the path).
  static Result<Input> open_file(const std::filesystem::path& path, std::string_view what);
  /// A stream read line by line: "-" is standard input; a named file may also be a FIFO. A
  /// directory is refused (it would read as empty).
  static Result<Input> open_stream(const std::string& path_or_dash, std::string_view what);

  Input(Input&& o) noexcept;
  Input& operator=(Input&& o) = delete;
  Input(const Input&) = delete;
  ~Input();

  /// Everything from the current position (at most max_input_bytes()). A regular file that ends
  /// before the size it had when opened was truncated while read: kIo.
  Result<std::string> read_all();
  /// Appends up to `n` bytes to `out`; 0 = end of input. Errors: kIo with errno.
  Result<std::size_t> read_some(std::string& out, std::size_t n);
  /// Reads up to `n` bytes into `dst`; 0 = end of input. The same checks as read_some().
  Result<std::size_t> read_into(char* dst, std::size_t n);
  /// How much read_all() asks for next: the rest of a regular file, else a chunk.
  std::size_t next_read_size() const noexcept;
  /// A regular file's size when opened; -1 for a stream.
  long long size() const noexcept { return size_; }
  /// The name errors use: the path, or <stdin>.
  const std::string& name() const noexcept { return name_; }

 private:
  Input(int fd, bool owned, std::string name, std::string what, long long size)
      : fd_(fd), owned_(owned), name_(std::move(name)), what_(std::move(what)), size_(size) {}
  Error fail(const std::string& message) const;
  int fd_;
  bool owned_;
  std::string name_, what_;
  long long size_;  // a regular file's size when opened; -1 for a stream
  long long read_ = 0;
};

/// Lines of an Input (without "\n" and a trailing "\r"), read in chunks.
class LineReader {
 public:
  explicit LineReader(Input& in) : in_(in) {}
  /// The next line into `line`: true, or false at the end of input. Errors: kIo.
  Result<bool> next(std::string& line);

 private:
  Input& in_;
  std::string buf_;
  std::size_t pos_ = 0;
  bool eof_ = false;
};

}  // namespace qaplan::internal
