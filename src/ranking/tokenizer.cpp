#include "qaplan/ranking/tokenizer.hpp"

#include <unicode/uchar.h>
#include <unicode/uscript.h>
#include <unicode/utf8.h>

#include <cstdint>
#include <exception>
#include <string>

#include "common/icu.hpp"
#include "common/utf8.hpp"

namespace qaplan {
namespace {

enum class Cls { kSep, kAscii, kHan, kLetter, kMark };

inline bool is_folded_ascii_alnum(UChar32 c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }

Cls classify(UChar32 c) {
  if (c < 0x80) return is_folded_ascii_alnum(c) ? Cls::kAscii : Cls::kSep;
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
        while (end < n && is_folded_ascii_alnum(p[end])) ++end;
        if (end + 1 < n && (p[end] == '.' || p[end] == '_' || p[end] == '-') &&
            is_folded_ascii_alnum(p[end + 1])) {
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

bool is_ascii(std::string_view s) {
  unsigned char any = 0;
  for (char c : s) any |= static_cast<unsigned char>(c);
  return any < 0x80;
}

}  // namespace

Result<Tokenizer> Tokenizer::create() {
  // Fails early (not on the first document) when ICU's normalization data is unavailable.
  std::string probe;
  if (Status st = internal::nfkc_casefold_into("A", probe); !st.ok()) return std::move(st).error();
  return Tokenizer();
}

Result<std::vector<std::string>> Tokenizer::tokenize(std::string_view utf8) const {
  std::vector<std::string> out;
  if (Status s = tokenize_into(utf8, out); !s) return s.error();
  return out;
}

Status Tokenizer::tokenize_into(std::string_view utf8, std::vector<std::string>& out) const {
  // ICU's normaliser would silently replace bad sequences with U+FFFD, which would make two
  // different byte strings tokenize the same, so bad input is refused before it reaches ICU.
  if (const std::size_t bad = internal::first_invalid_utf8(utf8); bad != std::string_view::npos)
    return make_error(ErrorCode::kInvalidInput, "invalid UTF-8 at byte " + std::to_string(bad));
  try {
    std::string normalized;
    normalized.reserve(utf8.size() + utf8.size() / 4);
    if (is_ascii(utf8)) {
      // NFKC_Casefold maps ASCII to ASCII and changes only A–Z (tested against ICU for every
      // ASCII byte); skipping ICU for such text makes indexing English-like corpora ~3x faster.
      normalized.resize(utf8.size());
      for (std::size_t i = 0; i < utf8.size(); ++i) {
        const char c = utf8[i];
        normalized[i] = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
      }
    } else {
      QAPLAN_TRY(internal::nfkc_casefold_into(utf8, normalized));
    }
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
