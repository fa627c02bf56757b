#pragma once
// The one UTF-8 decoder and validator: the planner, the tokenizer, the corpus and config loaders
// all refuse the same byte strings (RFC 3629: no overlong forms, no surrogates, nothing above
// U+10FFFF) and name the same offset.
#include <cstdint>
#include <string_view>

namespace qaplan::internal {

/// Decodes the code point at s[i] and advances i. Returns -1 (and advances by one byte) on an
/// ill-formed sequence.
inline std::int32_t next_code_point(std::string_view s, std::size_t& i) noexcept {
  const auto b0 = static_cast<unsigned char>(s[i]);
  if (b0 < 0x80) {
    ++i;
    return b0;
  }
  int len;
  std::int32_t cp;
  std::int32_t min;
  if ((b0 & 0xE0) == 0xC0) { len = 2; cp = b0 & 0x1F; min = 0x80; }
  else if ((b0 & 0xF0) == 0xE0) { len = 3; cp = b0 & 0x0F; min = 0x800; }
  else if ((b0 & 0xF8) == 0xF0) { len = 4; cp = b0 & 0x07; min = 0x10000; }
  else { ++i; return -1; }
  if (i + static_cast<std::size_t>(len) > s.size()) { ++i; return -1; }
  for (int k = 1; k < len; ++k) {
    const auto b = static_cast<unsigned char>(s[i + static_cast<std::size_t>(k)]);
    if ((b & 0xC0) != 0x80) { ++i; return -1; }
    cp = (cp << 6) | (b & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) { ++i; return -1; }
  i += static_cast<std::size_t>(len);
  return cp;
}

/// Byte offset of the first ill-formed sequence, or npos when `s` is well-formed.
inline std::size_t first_invalid_utf8(std::string_view s) noexcept {
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t at = i;
    // ASCII runs are the common case in configs and corpora; skip them without decoding.
    if (static_cast<unsigned char>(s[i]) < 0x80) {
      ++i;
      continue;
    }
    if (next_code_point(s, i) < 0) return at;
  }
  return std::string_view::npos;
}

inline bool is_valid_utf8(std::string_view s) noexcept {
  return first_invalid_utf8(s) == std::string_view::npos;
}

/// Code points of valid UTF-8 (bytes that do not continue a sequence).
inline std::size_t count_code_points(std::string_view s) noexcept {
  std::size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

inline bool is_ascii_alnum(std::int32_t cp) noexcept {
  return (cp >= '0' && cp <= '9') || (cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z');
}

}  // namespace qaplan::internal
