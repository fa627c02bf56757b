#include "common/sha256.hpp"

namespace qaplan::internal {

Sha256::Sha256() { sha256_init(&ctx_); }

void Sha256::update(std::string_view data) {
  sha256_update(&ctx_, data.size(), reinterpret_cast<const std::uint8_t*>(data.data()));
}

std::array<std::uint8_t, 32> Sha256::finish() {
  std::array<std::uint8_t, 32> out{};
  sha256_digest(&ctx_, out.size(), out.data());  // also resets the context
  return out;
}

std::string Sha256::hex_digest() {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string s;
  for (std::uint8_t b : finish()) {
    s += kHex[b >> 4];
    s += kHex[b & 15];
  }
  return s;
}

std::string sha256_hex(std::string_view data) {
  Sha256 h;
  h.update(data);
  return h.hex_digest();
}

}  // namespace qaplan::internal
