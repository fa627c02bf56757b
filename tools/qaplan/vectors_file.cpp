// The query-vectors file (vectors_file.hpp).
#include "vectors_file.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "qaplan/io.hpp"

namespace qaplan::cli {

Result<std::vector<std::vector<float>>> read_query_vectors(const std::string& path) {
  QAPLAN_ASSIGN_OR_RETURN(std::string text, read_file(path, "vectors file"));
  auto j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_array())
    return make_file_error(ErrorCode::kInvalidInput, "must be a JSON array of number arrays", path,
                           0, "--vectors");
  std::vector<std::vector<float>> out;
  for (std::size_t i = 0; i < j.size(); ++i) {
    const bool numbers = j[i].is_array() && std::all_of(j[i].begin(), j[i].end(), [](const auto& x) {
                           return x.is_number();
                         });
    if (!numbers)
      return make_file_error(ErrorCode::kInvalidInput, "must be an array of numbers", path, 0,
                             "[" + std::to_string(i) + "]");
    std::vector<float> v;
    for (const auto& x : j[i]) v.push_back(x.get<float>());
    out.push_back(std::move(v));
  }
  return out;
}

}  // namespace qaplan::cli
