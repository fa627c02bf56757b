#pragma once
// One spelling table per enum: to_string and parse_* read the same rows, so TOML, JSON and the
// CLI can never disagree on a name.
//   constexpr EnumTable<Split, 2> kSplits{{{{Split::kDev, "dev"}, {Split::kTest, "test"}}}};
#include <array>
#include <string>
#include <string_view>
#include <utility>

#include "qaplan/status.hpp"

namespace qaplan::internal {

template <class E, std::size_t N>
struct EnumTable {
  std::array<std::pair<E, std::string_view>, N> rows;

  constexpr std::string_view name(E e) const noexcept {
    for (const auto& [v, n] : rows)
      if (v == e) return n;
    return "?";
  }

  /// `code` (default kInvalidInput) "unknown <what> 'x' (a, b, c)" naming `field` for any
  /// other spelling.
  Result<E> parse(std::string_view text, std::string_view what,
                  ErrorCode code = ErrorCode::kInvalidInput, std::string field = {}) const {
    for (const auto& [v, n] : rows)
      if (n == text) return v;
    return make_error(code,
                      "unknown " + std::string(what) + " '" + std::string(text) + "' (" +
                          choices() + ")",
                      std::move(field));
  }

  /// "a, b, c" in table order.
  std::string choices(std::string_view sep = ", ") const {
    std::string all;
    for (const auto& row : rows) {
      if (!all.empty()) all += sep;
      all += row.second;
    }
    return all;
  }
};

}  // namespace qaplan::internal
