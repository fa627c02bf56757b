#pragma once
// Error messages and fields quote untrusted text (a JSON or TOML key may hold any escaped control
// character: the fuzzers found "\f" and "\u0001" echoed back). Every error is printed as
// one printable line; this is the one escape all loaders and Error::to_string() share.
#include <string>
#include <string_view>

namespace qaplan::internal {

/// Line breaks and tabs become spaces, other control bytes (and DEL) become \u00XX; everything
/// else, UTF-8 included, is kept byte for byte.
inline std::string one_printable_line(std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    const auto b = static_cast<unsigned char>(c);
    if (c == '\n' || c == '\r' || c == '\t') {
      out += ' ';
    } else if (b < 0x20 || b == 0x7F) {
      out += "\\u00";
      out += kHex[b >> 4];
      out += kHex[b & 0xF];
    } else {
      out += c;
    }
  }
  return out;
}

/// True when valid UTF-8 `text` holds a control character: C0 (U+0000–U+001F), DEL or C1
/// (U+0080–U+009F, UTF-8 C2 80–C2 9F). An identifier holding one would reach TSV output, logs and
/// engine requests raw.
inline bool has_control_character(std::string_view text) noexcept {
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto b = static_cast<unsigned char>(text[i]);
    if (b < 0x20 || b == 0x7F) return true;
    if (b == 0xC2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) <= 0x9F)
      return true;
  }
  return false;
}

}  // namespace qaplan::internal
