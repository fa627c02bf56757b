#include "common/file_image.hpp"

#include <sys/mman.h>

#include <cstdlib>
#include <cstring>
#include <new>
#include <string>

#include "common/input.hpp"

namespace qaplan::internal {
namespace {

constexpr std::size_t kHugePage = std::size_t{2} << 20;
// Below this a huge page would mostly hold nothing; ordinary pages are few enough.
constexpr std::size_t kHugeFrom = std::size_t{256} << 10;

}  // namespace

void FileImage::Free::operator()(char* p) const noexcept { std::free(p); }

FileImage FileImage::allocate(std::size_t size) {
  FileImage image;
  image.size_ = size;
  // +1: a read that fills the buffer exactly proves nothing about the end of the file.
  const std::size_t want = size + 1;
  char* p = nullptr;
  if (want >= kHugeFrom) {
    const std::size_t capacity = (want + kHugePage - 1) / kHugePage * kHugePage;
    p = static_cast<char*>(std::aligned_alloc(kHugePage, capacity));
    // Advice only: without transparent huge pages the memory is ordinary and still correct.
    if (p != nullptr) ::madvise(p, capacity, MADV_HUGEPAGE);
  } else {
    p = static_cast<char*>(std::malloc(want));
  }
  if (p == nullptr) throw std::bad_alloc();
  image.data_.reset(p);
  return image;
}

FileImage FileImage::copy_of(std::string_view bytes) {
  FileImage image = allocate(bytes.size());
  if (!bytes.empty()) std::memcpy(image.data_.get(), bytes.data(), bytes.size());
  return image;
}

Result<FileImage> FileImage::read(const std::filesystem::path& path, std::string_view what) {
  QAPLAN_ASSIGN_OR_RETURN(Input in, Input::open_file(path, what));
  const long long size = in.size();
  if (size < 0 || static_cast<unsigned long long>(size) > max_input_bytes())
    return make_file_error(ErrorCode::kIo,
                           "cannot read " + std::string(what) + ": larger than " +
                               std::to_string(max_input_bytes()) + " bytes (QAPLAN_MAX_INPUT_BYTES)",
                           path.string());
  FileImage image = allocate(static_cast<std::size_t>(size));
  std::size_t have = 0;
  // One byte more than the size: reading it means the file grew while it was read.
  for (const std::size_t want = image.size_ + 1; have < want;) {
    QAPLAN_ASSIGN_OR_RETURN(const std::size_t got, in.read_into(image.data_.get() + have, want - have));
    if (got == 0) break;  // read_into() refuses an end before the size it had
    have += got;
  }
  if (have != image.size_)
    return make_file_error(ErrorCode::kIo,
                           "cannot read " + std::string(what) + ": the file grew while it was read",
                           path.string());
  return image;
}

}  // namespace qaplan::internal
