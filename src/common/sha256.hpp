#pragma once
// SHA-256 (FIPS 180-4) for fingerprints of frozen data and vector packs. Self-contained so the
// library needs no crypto dependency; tested against the FIPS vectors.
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace qaplan::internal {

class Sha256 {
 public:
  Sha256();
  void update(std::string_view data);
  std::array<std::uint8_t, 32> finish();
  /// Lower-case hex digest of everything passed to update().
  std::string hex_digest();

 private:
  void block(const std::uint8_t* p);
  std::array<std::uint32_t, 8> h_;
  std::array<std::uint8_t, 64> buf_{};
  std::size_t buf_len_ = 0;
  std::uint64_t total_ = 0;
};

/// Lower-case hex SHA-256 of `data`.
std::string sha256_hex(std::string_view data);

/// True when `s` has the form sha256_hex() produces: 64 lower-case hex digits.
inline bool is_sha256_hex(std::string_view s) {
  if (s.size() != 64) return false;
  for (const char c : s)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

}  // namespace qaplan::internal
