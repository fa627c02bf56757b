#pragma once
// Error messages and fields quote untrusted text (a JSON or TOML key may hold any escaped control
// character: issue 11's fuzzers found "\f" and "\u0001" echoed back). Every error is printed as
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

}  // namespace qaplan::internal
