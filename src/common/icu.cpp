#include "common/icu.hpp"

#include <unicode/bytestream.h>
#include <unicode/errorcode.h>
#include <unicode/normalizer2.h>
#include <unicode/uchar.h>
#include <unicode/uscript.h>

#include <climits>

namespace qaplan::internal {
namespace {

const icu::Normalizer2* nfkc_casefold() {
  // ICU returns a process-wide singleton; caching the pointer saves the lookup per call.
  static const icu::Normalizer2* norm = [] {
    UErrorCode err = U_ZERO_ERROR;
    const icu::Normalizer2* n = icu::Normalizer2::getNFKCCasefoldInstance(err);
    return U_SUCCESS(err) ? n : nullptr;
  }();
  return norm;
}

}  // namespace

Status nfkc_casefold_into(std::string_view text, std::string& out) {
  const icu::Normalizer2* norm = nfkc_casefold();
  if (norm == nullptr) return make_error(ErrorCode::kInternal, "ICU NFKC_Casefold unavailable");
  if (text.size() > static_cast<std::size_t>(INT32_MAX))
    return make_error(ErrorCode::kInvalidInput, "text longer than 2 GiB");
  icu::StringByteSink<std::string> sink(&out);
  icu::ErrorCode err;
  norm->normalizeUTF8(0, icu::StringPiece(text.data(), static_cast<int32_t>(text.size())), sink,
                      nullptr, err);
  if (err.isFailure())
    return make_error(ErrorCode::kInternal,
                      std::string("ICU normalization failed: ") + err.errorName());
  return {};
}

bool is_han_slow(std::int32_t cp) noexcept {
  UErrorCode err = U_ZERO_ERROR;
  return uscript_getScript(cp, &err) == USCRIPT_HAN && U_SUCCESS(err);
}

bool is_unicode_space(std::int32_t cp) noexcept { return u_isUWhiteSpace(cp) != 0; }

bool is_word_char_slow(std::int32_t cp) noexcept {
  return u_isalnum(cp) || u_hasBinaryProperty(cp, UCHAR_IDEOGRAPHIC);
}

std::string_view foreign_script_of(std::int32_t cp) noexcept {
  if (cp < 0x80 || is_han(cp) || !u_isalpha(cp)) return {};
  UErrorCode err = U_ZERO_ERROR;
  const UScriptCode sc = uscript_getScript(cp, &err);
  if (U_FAILURE(err) || sc == USCRIPT_LATIN || sc == USCRIPT_HAN || sc == USCRIPT_COMMON ||
      sc == USCRIPT_INHERITED)
    return {};
  const char* name = uscript_getShortName(sc);
  return name ? std::string_view(name) : std::string_view("Zzzz");
}

}  // namespace qaplan::internal
