// Immutable index generations (qaplan/io.hpp publish_generation; docs/reliability.md).
#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>

#include "qaplan/io.hpp"

#include "common/output_dir.hpp"
#include "common/temp_files.hpp"

namespace qaplan {
namespace fs = std::filesystem;
namespace {

constexpr const char* kCurrent = "CURRENT";
constexpr const char* kLock = ".lock";
constexpr const char* kCurrentLink = "current";  // a report set's live generation (a symlink)

// "gen-17" → 17; -1 for any other name.
long long generation_number(std::string_view name) {
  if (!name.starts_with("gen-") || name.size() == 4 || name.size() > 4 + 15) return -1;
  long long n = 0;
  for (char c : name.substr(4)) {
    if (c < '0' || c > '9') return -1;
    n = n * 10 + (c - '0');
  }
  return n;
}

// The exclusive writer lock on DIR/.lock, held while the object lives.
class WriterLock {
 public:
  static Result<WriterLock> take(const fs::path& dir) {
    const fs::path path = dir / kLock;
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0)
      return make_file_error(ErrorCode::kIo, std::string("cannot open the writer lock: ") +
                                                 std::strerror(errno),
                             path.string());
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      char buf[32] = {};
      const ssize_t n = ::pread(fd, buf, sizeof buf - 1, 0);
      ::close(fd);
      std::string holder(buf, n > 0 ? static_cast<std::size_t>(n) : 0);
      while (!holder.empty() && (holder.back() == '\n' || holder.back() == ' ')) holder.pop_back();
      return make_file_error(ErrorCode::kIo,
                             "another build is writing this directory (pid " +
                                 (holder.empty() ? std::string("unknown") : holder) + ")",
                             dir.string());
    }
    const std::string pid = std::to_string(::getpid()) + "\n";
    if (::ftruncate(fd, 0) != 0 || ::pwrite(fd, pid.data(), pid.size(), 0) < 0) {
      // The pid is only a courtesy to the loser's message; the lock itself is held.
    }
    return WriterLock(fd);
  }
  WriterLock(WriterLock&& o) noexcept : fd_(o.fd_) { o.fd_ = -1; }
  WriterLock(const WriterLock&) = delete;
  ~WriterLock() {
    if (fd_ >= 0) ::close(fd_);  // closing releases the flock
  }

 private:
  explicit WriterLock(int fd) : fd_(fd) {}
  int fd_;
};

Status sync_dir(const fs::path& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return {};
  const bool ok = ::fsync(fd) == 0;
  ::close(fd);
  if (!ok)
    return make_file_error(ErrorCode::kIo, std::string("fsync failed: ") + std::strerror(errno),
                           dir.string());
  return {};
}

// Only generations, CURRENT, current and .lock are written or removed by a publish: an input
// among them (or the directory itself as an input) would be lost.
Status refuse_inputs_inside(const fs::path& dir, const std::vector<fs::path>& inputs) {
  std::error_code ec;
  const fs::path d = fs::weakly_canonical(dir, ec);
  for (const fs::path& in : inputs) {
    std::error_code e2;
    const fs::path c = fs::weakly_canonical(in, e2);
    if (e2 || ec) continue;
    const auto [di, ci] = std::mismatch(d.begin(), d.end(), c.begin(), c.end());
    if (di != d.end()) continue;  // not under dir
    const std::string first = ci == c.end() ? "" : ci->string();
    if (first.empty() || first == kCurrent || first == kCurrentLink || first == kLock ||
        generation_number(first) >= 0 || first.starts_with(".gen-"))
      return make_file_error(ErrorCode::kInvalidInput, "refusing to overwrite an input file",
                             in.string());
  }
  return {};
}

// Removes generations older than `keep_from` and staging of earlier builds (we hold the lock:
// no live build is writing). Best effort: what cannot be removed now goes with the next build.
// The pid a temp or staging name carries (.qaplan-tmp-PID-…, .gen-N.partial-PID); 0 if none.
long long owner_pid(std::string_view name) {
  std::size_t at = std::string_view::npos;
  if (name.starts_with(".qaplan-tmp-")) at = 12;
  else if (const std::size_t p = name.find(".partial-"); name.starts_with(".gen-") && p != std::string_view::npos)
    at = p + 9;
  if (at == std::string_view::npos) return 0;
  long long pid = 0;
  for (; at < name.size() && name[at] >= '0' && name[at] <= '9' && pid < (1LL << 40); ++at)
    pid = pid * 10 + (name[at] - '0');
  return pid;
}

// Staging or a temp file of a process that is gone (or of this one): a live writer's — a
// `tokenize --output` into the same directory, say — is not ours to remove.
bool writer_gone(std::string_view name) {
  const long long pid = owner_pid(name);
  if (pid <= 0 || pid == ::getpid()) return true;
  return ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH;
}

void collect(const fs::path& dir, long long keep_from) {
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    const long long n = generation_number(name);
    const bool old_gen = n >= 0 && n < keep_from;
    const bool staging =
        (name.starts_with(".gen-") || name.starts_with(".qaplan-tmp-")) && writer_gone(name);
    if (old_gen || staging) fs::remove_all(e.path(), ec);
  }
}

// The next generation, DIR/gen-N (N one more than any there), written whole: staged under a
// name no reader looks at, fsynced, then renamed into place. The caller holds the writer lock.
struct Staged {
  std::string name;
  long long number = 0;
};
Result<Staged> stage_generation(const fs::path& dir,
                                const std::vector<std::pair<std::string, std::string>>& files) {
  std::error_code ec;
  long long last = -1;
  for (const auto& e : fs::directory_iterator(dir, ec))
    last = std::max(last, generation_number(e.path().filename().string()));
  const std::string name = "gen-" + std::to_string(last + 1);
  const fs::path staging = dir / ("." + name + ".partial-" + std::to_string(::getpid()));
  fs::remove_all(staging, ec);
  fs::create_directory(staging, ec);
  if (ec)
    return make_file_error(ErrorCode::kIo, "cannot create staging directory: " + ec.message(),
                           staging.string());
  // A signal now removes the staged files, then the directory (common/temp_files.hpp).
  std::vector<internal::TempGuard> guards;
  guards.reserve(files.size() + 1);
  guards.emplace_back(staging);
  auto fail = [&](Status st) -> Error {
    std::error_code ignore;
    fs::remove_all(staging, ignore);
    return std::move(st).error();
  };
  for (const auto& [file, content] : files) {
    if (Status st = write_file_atomic(staging / file, content); !st.ok()) return fail(std::move(st));
    guards.emplace_back(staging / file);
  }
  if (Status st = sync_dir(staging); !st.ok()) return fail(std::move(st));
  fs::rename(staging, dir / name, ec);
  if (ec)
    return fail(make_file_error(ErrorCode::kIo, "cannot move into place: " + ec.message(),
                                (dir / name).string()));
  QAPLAN_TRY(sync_dir(dir));
  return Staged{name, last + 1};
}

// Points the symlink dir/link at `target` with one rename (a new link beside it, renamed over).
Status swap_link(const fs::path& dir, const std::string& link, const fs::path& target) {
  const fs::path tmp = dir / (".qaplan-tmp-" + link + "-" + std::to_string(::getpid()));
  std::error_code ec;
  fs::remove(tmp, ec);
  fs::create_symlink(target, tmp, ec);
  if (!ec) fs::rename(tmp, dir / link, ec);
  if (ec) {
    std::error_code ignore;
    fs::remove(tmp, ignore);
    return make_file_error(ErrorCode::kIo, "cannot publish: " + ec.message(), (dir / link).string());
  }
  return {};
}

// True when dir/name is a symlink reading exactly `target`.
bool links_to(const fs::path& path, const fs::path& target) {
  std::error_code ec;
  return fs::is_symlink(fs::symlink_status(path, ec)) && fs::read_symlink(path, ec) == target && !ec;
}

}  // namespace

Result<fs::path> current_generation(const fs::path& dir) {
  std::error_code ec;
  const fs::path current = dir / kCurrent;
  if (!fs::exists(current, ec)) return dir;
  QAPLAN_ASSIGN_OR_RETURN(std::string text, read_file(current, "generation pointer"));
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  if (generation_number(text) < 0)
    return make_file_error(ErrorCode::kInvalidInput,
                           "malformed generation pointer (expected one line \"gen-N\")",
                           current.string());
  const fs::path gen = dir / text;
  if (!fs::is_directory(gen, ec))
    return make_file_error(ErrorCode::kIo, "names " + text + ", which is missing",
                           current.string());
  return gen;
}

Status publish_generation(const fs::path& dir,
                          const std::vector<std::pair<std::string, std::string>>& files,
                          const std::vector<fs::path>& inputs) {
  QAPLAN_TRY(internal::ensure_output_dir(dir));
  QAPLAN_TRY(refuse_inputs_inside(dir, inputs));
  QAPLAN_ASSIGN_OR_RETURN(WriterLock lock, WriterLock::take(dir));
  QAPLAN_ASSIGN_OR_RETURN(const Staged gen, stage_generation(dir, files));
  const std::string& name = gen.name;
  const long long last = gen.number - 1;
  QAPLAN_TRY(sync_dir(dir));
  // The switch: one atomic rename of the pointer.
  QAPLAN_TRY(write_file_atomic(dir / kCurrent, name + "\n"));
  QAPLAN_TRY(sync_dir(dir));
  // The previous generation stays for a reader that read CURRENT just before the switch.
  collect(dir, last);
  return {};
}

Status write_files_atomic(const fs::path& dir,
                          const std::vector<std::pair<std::string, std::string>>& files,
                          const std::vector<fs::path>& inputs) {
  QAPLAN_TRY(internal::ensure_output_dir(dir));
  // An input read through one of the names (calibrate --config out/rules.toml --output out)
  // resolves into the live generation, which this publish keeps; only the directory itself as an
  // input is refused.
  for (const fs::path& in : inputs)
    if (std::error_code e1, e2;
        fs::weakly_canonical(in, e1) == fs::weakly_canonical(dir, e2) && !e1 && !e2)
      return make_file_error(ErrorCode::kInvalidInput, "refusing to write into an input file",
                             dir.string());
  // But an input that is itself DIR/<name> — a plain file, not our link — would be replaced by
  // the link (kb build --faq KB/faq.jsonl --output KB): refused.
  for (const auto& [name, content] : files) {
    std::error_code ec;
    if (fs::is_symlink(fs::symlink_status(dir / name, ec)) || !fs::exists(dir / name, ec)) continue;
    const fs::path at = fs::weakly_canonical(dir / name, ec);
    for (const fs::path& in : inputs)
      if (std::error_code e2; !ec && fs::weakly_canonical(in, e2) == at && !e2)
        return make_file_error(ErrorCode::kInvalidInput, "refusing to overwrite an input file",
                               in.string());
  }
  QAPLAN_ASSIGN_OR_RETURN(WriterLock lock, WriterLock::take(dir));
  QAPLAN_ASSIGN_OR_RETURN(const Staged gen, stage_generation(dir, files));
  // The switch: DIR/current → gen-N in one rename. DIR/<name> are links through current, made
  // once: after the first publish every later one is that single rename.
  QAPLAN_TRY(swap_link(dir, kCurrentLink, gen.name));
  for (const auto& [name, content] : files) {
    const fs::path target = fs::path(kCurrentLink) / name;
    if (!links_to(dir / name, target)) QAPLAN_TRY(swap_link(dir, name, target));
  }
  QAPLAN_TRY(sync_dir(dir));
  // A link of an earlier set whose file this one does not have would dangle.
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    const fs::path link = e.path();
    const fs::path name = link.filename();
    if (!fs::is_symlink(e.symlink_status(ec)) || name == kCurrentLink) continue;
    const fs::path target = fs::read_symlink(link, ec);
    if (!ec && target.begin() != target.end() && *target.begin() == kCurrentLink &&
        !fs::exists(dir / gen.name / name, ec))
      fs::remove(link, ec);
  }
  collect(dir, gen.number - 1);
  return {};
}

}  // namespace qaplan
