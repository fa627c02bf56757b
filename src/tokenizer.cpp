#include "qaplan/tokenizer.hpp"

#include <unicode/bytestream.h>
#include <unicode/normalizer2.h>
#include <unicode/uchar.h>
#include <unicode/uscript.h>
#include <unicode/utf8.h>

#include <cstdint>
#include <exception>
#include <string>

namespace qaplan {
namespace {

// Strict UTF-8 check (RFC 3629): ICU's normaliser would silently replace bad sequences with
// U+FFFD, which would make two different byte strings tokenize the same, so bad input is refused
// before it reaches ICU. Returns the offset of the first bad byte, or npos.
std::size_t first_invalid_utf8(std::string_view s) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const std::size_t n = s.size();
  std::size_t i = 0;
  while (i < n) {
    const unsigned char c = p[i];
    if (c < 0x80) {
      ++i;
      continue;
    }
    std::size_t len;
    unsigned char lo = 0x80, hi = 0xBF;  // allowed range of the second byte
    if (c >= 0xC2 && c <= 0xDF) {
      len = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
      len = 3;
      if (c == 0xE0) lo = 0xA0;  // overlong
      if (c == 0xED) hi = 0x9F;  // surrogates
    } else if (c >= 0xF0 && c <= 0xF4) {
      len = 4;
      if (c == 0xF0) lo = 0x90;  // overlong
      if (c == 0xF4) hi = 0x8F;  // above U+10FFFF
    } else {
      return i;
    }
    if (i + len > n) return i;
    if (p[i + 1] < lo || p[i + 1] > hi) return i;
    for (std::size_t k = 2; k < len; ++k)
      if ((p[i + k] & 0xC0) != 0x80) return i;
    i += len;
  }
  return std::string_view::npos;
}

enum class Cls { kSep, kAscii, kHan, kLetter, kMark };

inline bool is_ascii_alnum(UChar32 c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }

Cls classify(UChar32 c) {
  if (c < 0x80) return is_ascii_alnum(c) ? Cls::kAscii : Cls::kSep;
  UErrorCode st = U_ZERO_ERROR;
  const bool alphabetic = u_hasBinaryProperty(c, UCHAR_ALPHABETIC);
  if (alphabetic && uscript_getScript(c, &st) == USCRIPT_HAN && U_SUCCESS(st)) return Cls::kHan;
  if (u_isalpha(c)) return Cls::kLetter;
  const int32_t gc = u_charType(c);
  if (gc == U_NON_SPACING_MARK || gc == U_COMBINING_SPACING_MARK || gc == U_ENCLOSING_MARK)
    return Cls::kMark;
  return Cls::kSep;
}

struct CodePoint {
  std::size_t begin;
  std::size_t end;
  UChar32 c;
};

// Splits already-normalised, valid UTF-8 text into tokens.
void split(std::string_view s, std::vector<std::string>& out) {
  const auto* p = reinterpret_cast<const uint8_t*>(s.data());
  const auto n = static_cast<int32_t>(s.size());
  int32_t i = 0;
  auto next = [&](int32_t at, UChar32& c) {
    int32_t j = at;
    U8_NEXT(p, j, n, c);
    return j;
  };
  while (i < n) {
    UChar32 c;
    int32_t j = next(i, c);
    const Cls cls = classify(c);
    if (cls == Cls::kAscii) {
      // [a-z0-9]+ ([._-][a-z0-9]+)*
      const int32_t start = i;
      int32_t end = j;
      for (;;) {
        while (end < n && is_ascii_alnum(p[end])) ++end;
        if (end + 1 < n && (p[end] == '.' || p[end] == '_' || p[end] == '-') &&
            is_ascii_alnum(p[end + 1])) {
          end += 2;
          continue;
        }
        break;
      }
      out.emplace_back(s.substr(static_cast<std::size_t>(start), static_cast<std::size_t>(end - start)));
      i = end;
    } else if (cls == Cls::kHan) {
      // Collect the run's code point boundaries, then emit bigrams.
      int32_t b0 = i, e0 = j;  // previous character
      i = j;
      bool single = true;
      while (i < n) {
        UChar32 d;
        const int32_t k = next(i, d);
        if (classify(d) != Cls::kHan) break;
        out.emplace_back(s.substr(static_cast<std::size_t>(b0), static_cast<std::size_t>(k - b0)));
        single = false;
        b0 = i;
        e0 = k;
        i = k;
      }
      if (single)
        out.emplace_back(s.substr(static_cast<std::size_t>(b0), static_cast<std::size_t>(e0 - b0)));
    } else if (cls == Cls::kLetter) {
      const int32_t start = i;
      i = j;
      while (i < n) {
        UChar32 d;
        const int32_t k = next(i, d);
        const Cls dc = classify(d);
        if (dc != Cls::kLetter && dc != Cls::kMark) break;
        i = k;
      }
      out.emplace_back(s.substr(static_cast<std::size_t>(start), static_cast<std::size_t>(i - start)));
    } else {
      i = j;  // separator or stray mark
    }
  }
}

}  // namespace

Result<Tokenizer> Tokenizer::create() {
  UErrorCode st = U_ZERO_ERROR;
  const icu::Normalizer2* norm = icu::Normalizer2::getNFKCCasefoldInstance(st);
  if (U_FAILURE(st) || norm == nullptr)
    return make_error(ErrorCode::kInternal,
                      std::string("ICU NFKC_Casefold normalizer unavailable: ") + u_errorName(st));
  return Tokenizer(norm);
}

Result<std::vector<std::string>> Tokenizer::tokenize(std::string_view utf8) const {
  std::vector<std::string> out;
  if (Status s = tokenize_into(utf8, out); !s) return s.error();
  return out;
}

Status Tokenizer::tokenize_into(std::string_view utf8, std::vector<std::string>& out) const {
  if (const std::size_t bad = first_invalid_utf8(utf8); bad != std::string_view::npos)
    return make_error(ErrorCode::kInvalidInput,
                      "invalid UTF-8 at byte " + std::to_string(bad));
  if (utf8.size() > static_cast<std::size_t>(INT32_MAX))
    return make_error(ErrorCode::kInvalidInput, "text longer than 2 GiB");
  const auto* norm = static_cast<const icu::Normalizer2*>(normalizer_);
  if (norm == nullptr) return make_error(ErrorCode::kInternal, "tokenizer not created");
  try {
    std::string normalized;
    normalized.reserve(utf8.size() + utf8.size() / 4);
    icu::StringByteSink<std::string> sink(&normalized);
    UErrorCode st = U_ZERO_ERROR;
    norm->normalizeUTF8(0, icu::StringPiece(utf8.data(), static_cast<int32_t>(utf8.size())), sink,
                        nullptr, st);
    if (U_FAILURE(st))
      return make_error(ErrorCode::kInternal, std::string("ICU normalization failed: ") + u_errorName(st));
    const std::size_t before = out.size();
    try {
      split(normalized, out);
    } catch (...) {
      out.resize(before);
      throw;
    }
  } catch (const std::exception& e) {
    return make_error(ErrorCode::kInternal, std::string("tokenizer: ") + e.what());
  }
  return {};
}

}  // namespace qaplan
