// Candidate terms of one text (domain_terms.hpp).
#include "eval/domain_terms.hpp"

#include <climits>

#include "common/icu.hpp"
#include "common/utf8.hpp"
#include "planning/segment.hpp"
#include "planning/model/fold.hpp"
#include "planning/text.hpp"

namespace qaplan::internal {

Result<std::string> normalize_for_terms(std::string_view raw, std::string_view what) {
  if (const std::size_t bad = first_invalid_utf8(raw); bad != std::string_view::npos)
    return make_error(ErrorCode::kInvalidInput, "invalid UTF-8 at byte " + std::to_string(bad),
                      std::string(what));
  // A document is longer than any question; every other rule is the question's.
  InputConfig unlimited;
  unlimited.max_question_chars = INT_MAX;
  auto q = normalize_question(raw, unlimited, what);
  // Valid UTF-8 without a length limit fails only when nothing but whitespace and control
  // characters is left: a blank field, which has no terms.
  if (!q.ok() && q.error().code == ErrorCode::kInvalidInput) return std::string();
  if (!q.ok()) return std::move(q).error();
  return fold_long(q->text);
}

// Terms are stored folded, like the text the router model reads (model/fold.hpp): a Traditional
// question converts to one spelling of each confusable group (線上 → 在线), and the planner scans
// the folded question, so its Simplified and Traditional forms name the same terms. A document
// is folded in pieces below the fold's input bound, cut at code point boundaries.
std::string fold_long(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  char buf[kMaxFoldBytes];
  for (std::size_t i = 0; i < text.size();) {
    std::size_t n = std::min(text.size() - i, kMaxFoldBytes - 64);
    while (i + n < text.size() && (static_cast<unsigned char>(text[i + n]) & 0xC0) == 0x80) --n;
    out += fold_for_model(text.substr(i, n), buf);
    i += n;
  }
  return out;
}

namespace {

int count_chars(std::string_view s) {
  int n = 0;
  for (const char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

bool has_letter(std::string_view s) {
  for (const char c : s)
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) return true;
  return false;
}

// An all-Han token: segment_words marks single Han characters; longer ones are checked here.
bool all_han(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size())
    if (const std::int32_t cp = next_code_point(s, i); cp < 0 || !is_han(cp)) return false;
  return !s.empty();
}

}  // namespace

void candidates(std::string_view text, std::vector<Candidate>& out) {
  const std::vector<Token> tokens = segment_words(text);
  const Token* prev_han = nullptr;  // the Han token just before this one, if adjacent
  for (const Token& t : tokens) {
    const std::string_view w = t.text(text);
    const int chars = count_chars(w);
    const bool han = t.word && (t.single_han || all_han(w));
    if (han) {
      if (chars <= kMaxTermChars) out.push_back({w, CandidateKind::kHanWord, 0, chars});
      if (prev_han != nullptr && prev_han->end == t.begin) {
        const std::string_view first = prev_han->text(text);
        const int pair_chars = count_chars(first) + chars;
        if (pair_chars <= kMaxTermChars)
          out.push_back({text.substr(prev_han->begin, t.end - prev_han->begin),
                         CandidateKind::kPair, static_cast<std::uint32_t>(first.size()),
                         pair_chars});
      }
      prev_han = &t;
      continue;
    }
    prev_han = nullptr;
    if (t.ascii && chars >= 2 && chars <= kMaxAsciiChars && has_letter(w))
      out.push_back({w, CandidateKind::kAsciiWord, 0, chars});
  }
}

}  // namespace qaplan::internal
