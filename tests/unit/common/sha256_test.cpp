#include <gtest/gtest.h>

#include <string>

#include "common/sha256.hpp"

using qaplan::internal::Sha256;
using qaplan::internal::sha256_hex;

// FIPS 180-4 / NIST example vectors.
TEST(Sha256, KnownVectors) {
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(sha256_hex(std::string(1000000, 'a')),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Sha256, IncrementalEqualsOneShot) {
  const std::string s = "报销费用超过5000需要谁审批 — split at odd boundaries";
  for (std::size_t cut = 0; cut <= s.size(); cut += 7) {
    Sha256 h;
    h.update(std::string_view(s).substr(0, cut));
    h.update(std::string_view(s).substr(cut));
    EXPECT_EQ(h.hex_digest(), sha256_hex(s));
  }
}
