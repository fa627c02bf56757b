#pragma once
// Shared by the libFuzzer targets (docs/reliability.md): invariant checks that abort with a
// one-line reason (libFuzzer then saves the input as crash-*), and small input-splitting helpers.
// Every target checks properties of the result, not only that nothing crashed.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "common/utf8.hpp"
#include "qaplan/status.hpp"

namespace qaplan::fuzz {

[[noreturn]] inline void invariant_failed(const char* what, const std::string& detail,
                                          const char* file, int line) {
  std::fprintf(stderr, "INVARIANT FAILED at %s:%d: %s\n  %s\n", file, line, what, detail.c_str());
  std::abort();
}

#define QAPLAN_FUZZ_CHECK(cond, detail)                                                   \
  do {                                                                                    \
    if (!(cond)) ::qaplan::fuzz::invariant_failed(#cond, (detail), __FILE__, __LINE__); \
  } while (0)

/// The shipped config files (the source tree is where the fuzzers are built and run).
inline std::filesystem::path config_dir() {
  return std::filesystem::path(QAPLAN_SOURCE_DIR) / "config";
}

/// Every error is one line (the CLI prints it as one line on stderr) without control bytes, not
/// empty, and valid UTF-8 (it must not echo raw input bytes).
inline void check_error(const Error& e) {
  const std::string s = e.to_string();
  for (char c : s)  // no line break, NUL or other control byte reaches the terminal
    QAPLAN_FUZZ_CHECK(static_cast<unsigned char>(c) >= 0x20 || c == '\t', s);
  QAPLAN_FUZZ_CHECK(!e.message.empty(), s);
  QAPLAN_FUZZ_CHECK(internal::first_invalid_utf8(s) == std::string::npos, s);
}

inline bool valid_utf8(std::string_view s) {
  return internal::first_invalid_utf8(s) == std::string_view::npos;
}

/// Splits `s` at every `sep`.
inline std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= s.size(); ++i) {
    if (i == s.size() || s[i] == sep) {
      out.push_back(s.substr(start, i - start));
      start = i + 1;
    }
  }
  return out;
}

inline std::string_view as_view(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

}  // namespace qaplan::fuzz
