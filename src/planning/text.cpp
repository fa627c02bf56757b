#include "planning/text.hpp"

#include "common/icu.hpp"
#include "common/utf8.hpp"
#include "planning/simplify.hpp"

namespace qaplan::internal {
namespace {

// Control characters (NUL, ESC, DEL, C1 …) count as whitespace: they carry no meaning in a
// question and must not reach later stages or host logs.
bool is_space(std::int32_t cp) noexcept {
  if (cp < 0x80) return cp <= 0x20 || cp == 0x7F;
  if (cp <= 0x9F) return true;    // C1 controls (U+0085 NEL is also White_Space)
  if (cp > 0x3000) return false;  // U+3000 (ideographic space) is the highest White_Space
  return is_unicode_space(cp);
}

}  // namespace

// A run of letters or digits outside Han counts once, like an ASCII word: a question in Cyrillic,
// Hangul or Arabic has units too (it was 0 and so "unclear"), and café is one unit, not two.
int count_query_units(std::string_view s) noexcept {
  int units = 0;
  bool in_run = false;
  std::size_t i = 0;
  const auto* b = reinterpret_cast<const unsigned char*>(s.data());
  while (i < s.size()) {
    // ASCII, and the CJK Unified Ideographs U+4E00…U+9FFF (E4 B8 80 … E9 BF BF), read without
    // decoding: most of every question, and the analysis counts several texts.
    if (b[i] < 0x80) {
      if (is_ascii_alnum(b[i])) {
        units += !in_run;
        in_run = true;
      } else {
        in_run = false;
      }
      ++i;
      continue;
    }
    if (b[i] >= 0xE4 && b[i] <= 0xE9 && i + 2 < s.size() && (b[i + 1] & 0xC0) == 0x80 &&
        (b[i + 2] & 0xC0) == 0x80 && (b[i] != 0xE4 || b[i + 1] >= 0xB8)) {
      ++units;
      in_run = false;
      i += 3;
      continue;
    }
    const std::int32_t cp = next_code_point(s, i);
    const bool han = cp >= 0 && is_han(cp);
    if (!han && (is_ascii_alnum(cp) || (cp >= 0x80 && is_word_char(cp)))) {
      if (!in_run) ++units;
      in_run = true;
      continue;
    }
    in_run = false;
    if (han) ++units;
  }
  return units;
}

Result<NormalizedQuery> normalize_question(std::string_view raw, const InputConfig& limits,
                                           std::string_view what, bool space_breaks_clause) {
  const std::string field(what);
  // Validate and count code points before anything touches the text: the limit is on the raw
  // input so NFKC expansion (e.g. ㍿ → 株式会社) cannot push a question over or under it.
  std::size_t i = 0;
  long code_points = 0;
  while (i < raw.size()) {
    const std::size_t at = i;
    if (next_code_point(raw, i) < 0)
      return make_error(ErrorCode::kInvalidInput, "invalid UTF-8 at byte " + std::to_string(at),
                        field);
    ++code_points;
  }
  if (code_points > limits.max_question_chars)
    return make_error(ErrorCode::kInvalidInput,
                      "too long: " + std::to_string(code_points) + " characters, limit " +
                          std::to_string(limits.max_question_chars) +
                          " ([input] max_question_chars)",
                      field);

  std::string normalized;
  normalized.reserve(raw.size() + 8);
  if (Status st = nfkc_casefold_into(raw, normalized); !st.ok()) {
    Error e = std::move(st).error();
    e.field = field;
    return e;
  }

  // Trim, collapse whitespace runs to one space, drop a run between two Han characters — in
  // place: the output never runs ahead of the input.
  NormalizedQuery q;
  std::size_t out = 0;
  bool pending_space = false;
  bool prev_han = false;
  i = 0;
  while (i < normalized.size()) {
    const std::size_t b = i;
    const std::int32_t cp = next_code_point(normalized, i);
    if (is_space(cp)) {
      pending_space = out > 0;
      continue;
    }
    const bool han = is_han(cp);
    if (pending_space && !(prev_han && han)) normalized[out++] = ' ';
    else if (pending_space && space_breaks_clause) normalized[out++] = ',';
    pending_space = false;
    for (std::size_t k = b; k < i; ++k) normalized[out++] = normalized[k];  // out <= b
    prev_han = han;
  }
  normalized.resize(out);
  q.text = std::move(normalized);
  if (q.text.empty()) return make_error(ErrorCode::kInvalidInput, "empty or whitespace-only", field);
  if (has_traditional(q.text)) {
    auto simplified = to_simplified(q.text);
    if (!simplified.ok()) return std::move(simplified).error();
    q.text = std::move(simplified).value();
  }
  q.query_units = count_query_units(q.text);
  return q;
}

}  // namespace qaplan::internal
