#pragma once
// SHA-256 (FIPS 180-4) for the fingerprints of models, lexicons, frozen data and vector packs.
// Nettle computes it (the adapter for <nettle/sha2.h>): Debian builds it with run-time dispatch to
// the CPU's SHA instructions, and every CLI start hashes the 0.9 MB router model — 0.6 ms there
// against ~9 ms for the portable code this file used to hold. Tested against the FIPS vectors.
#include <nettle/sha2.h>

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace qaplan::internal {

/// Incremental SHA-256; copyable (a copy continues from the same state).
class Sha256 {
 public:
  Sha256();
  void update(std::string_view data);
  /// The digest of everything passed to update(); the hasher starts over afterwards.
  std::array<std::uint8_t, 32> finish();
  /// Lower-case hex digest of everything passed to update().
  std::string hex_digest();

 private:
  sha256_ctx ctx_;
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
