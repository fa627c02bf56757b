#pragma once
// Minimal UTF-8 helpers shared by the text stage and the matcher.
#include <cstdint>
#include <string_view>

namespace qaplan::internal {

/// Decodes the code point at s[i] and advances i. Returns -1 (and advances by one byte) on an
/// ill-formed sequence: overlong forms, surrogates and values above U+10FFFF are rejected.
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

inline bool is_ascii_alnum(std::int32_t cp) noexcept {
  return (cp >= '0' && cp <= '9') || (cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z');
}

}  // namespace qaplan::internal
