#pragma once
// Whole-file reads shared by every loader (config, dataset, corpus, CLI inputs).
#include <filesystem>
#include <string>
#include <string_view>

#include "qaplan/status.hpp"

namespace qaplan::internal {

/// The file's bytes, or kIo naming the path and `what` ("config file", "dataset file", …).
Result<std::string> read_whole_file(const std::filesystem::path& path, std::string_view what);

}  // namespace qaplan::internal
