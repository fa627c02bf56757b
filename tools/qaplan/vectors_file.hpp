#pragma once
// --vectors FILE of `plan --engine` and `ask`: the host's embeddings of the query texts.
#include <string>
#include <vector>

#include "qaplan/status.hpp"

namespace qaplan::cli {

/// [[…], …]: one array of numbers per query text, the main query first. Errors: kIo naming the
/// file; kInvalidInput naming the file and the element ("[2]").
Result<std::vector<std::vector<float>>> read_query_vectors(const std::string& path);

}  // namespace qaplan::cli
