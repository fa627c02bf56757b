#pragma once
// The output directory of a multi-file write (write_files_atomic, publish_generation): created
// when absent, refused when it is a file.
#include <filesystem>

#include "qaplan/status.hpp"

namespace qaplan::internal {

/// Errors: kInvalidInput when `dir` is a file; kIo when it cannot be created. Both name `dir`.
Status ensure_output_dir(const std::filesystem::path& dir);

}  // namespace qaplan::internal
