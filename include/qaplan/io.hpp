#pragma once
/// File helpers shared by every loader and by hosts that write reports: whole-file reads with
/// one-line errors, and atomic writes that never leave a half-written file or overwrite an
/// input. Thread-safe (no shared state).
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "qaplan/export.hpp"
#include "qaplan/status.hpp"

namespace qaplan {

/// A named text input (a file's content and the name used in error messages / reports).
struct NamedText {
  std::string name;  ///< e.g. the file name; appears in error contexts and the report
  std::string text;  ///< raw bytes (hashes are computed over exactly these bytes)
};

/// The file's bytes. Errors: kIo "cannot read <what>: <reason>" with file = the path.
QAPLAN_API Result<std::string> read_file(const std::filesystem::path& path,
                                         std::string_view what = "file");

/// Lines of a stream read in chunks: "-" is standard input, anything else a named regular file or
/// FIFO (a directory is refused: it would read as empty). A read error is an error naming the
/// input and errno, never the end of the lines. Lines come without "\n" and a trailing "\r".
class QAPLAN_API LineInput {
 public:
  static Result<LineInput> open(const std::string& path_or_dash, std::string_view what = "input");
  LineInput(LineInput&&) noexcept;
  LineInput& operator=(LineInput&&) noexcept;
  ~LineInput();
  /// The next line: true, or false at the end. Errors: kIo.
  Result<bool> next(std::string& line);
  /// The path, or <stdin>.
  const std::string& name() const noexcept;

 private:
  struct Impl;
  explicit LineInput(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

/// Writes `content` to `path` through a temp file in the same directory, fsync, then rename, so
/// a crash or an error never leaves a half-written file. Refuses (kInvalidInput) when `path` is
/// one of `inputs` (compared after weakly_canonical). Errors: kIo naming the path.
QAPLAN_API Status write_file_atomic(const std::filesystem::path& path, std::string_view content,
                                   const std::vector<std::filesystem::path>& inputs = {});

/// Installs handlers for SIGINT, SIGTERM and SIGHUP that remove the temp files and staging
/// directories qaplan is writing at that moment (write_file_atomic, write_files_atomic,
/// publish_generation), then die of the signal as before. For programs that own their signals
/// (the qaplan CLI calls it); a library host that has its own handlers need not. What a SIGKILL
/// leaves is removed by the next publish into the same directory.
QAPLAN_API void remove_temp_files_on_signals();

/// Publishes a set of files (e.g. report.json + report.md) into `dir` (created if absent) so that
/// either all of them are replaced or none, even across a crash: they are written whole into a
/// new generation DIR/gen-N, the symlink DIR/current is switched to it by one rename, and each
/// DIR/<name> is a link to current/<name> (made on the first publish). Takes DIR/.lock like
/// publish_generation; keeps the previous generation, removes older ones and links to names the
/// set lacks. Refuses (kInvalidInput) when `dir` is a file or one of `inputs`. Errors: kIo
/// naming the path (a second writer: the holder's pid).
QAPLAN_API Status write_files_atomic(
    const std::filesystem::path& dir,
    const std::vector<std::pair<std::string, std::string>>& name_and_content,
    const std::vector<std::filesystem::path>& inputs = {});

/// Publishes a set of files as a new immutable generation of `dir` (docs/reliability.md), the way
/// Lucene publishes a commit: the files are written into DIR/gen-N/ (N one more than any
/// generation there), and DIR/CURRENT — one line, "gen-N" — is replaced atomically to make it
/// live. No published file is ever written again: a reader that opened generation N keeps it
/// whole, and a crash at any point leaves the old or the new generation complete. Writers take
/// an exclusive lock on DIR/.lock; a second writer fails at once (kIo) naming the holder's pid.
/// Generations older than the previous one, and staging left by a killed build, are removed
/// after the switch (an open mapping of a removed file stays valid: Linux keeps the inode).
/// Refuses (kInvalidInput) when `dir` is a file or holds one of `inputs`. Errors: kIo.
QAPLAN_API Status publish_generation(
    const std::filesystem::path& dir,
    const std::vector<std::pair<std::string, std::string>>& name_and_content,
    const std::vector<std::filesystem::path>& inputs = {});

/// The directory the live generation's files are in: DIR/gen-N as DIR/CURRENT names it, or DIR
/// itself when it has no CURRENT (a directory written before generations). Errors: kIo /
/// kInvalidInput naming DIR/CURRENT (unreadable, malformed, or naming a missing generation).
QAPLAN_API Result<std::filesystem::path> current_generation(const std::filesystem::path& dir);

}  // namespace qaplan
