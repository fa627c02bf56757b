#include "planning/analysis/segment.hpp"

#include <array>
#include <utility>

#include <unicode/brkiter.h>
#include <unicode/unistr.h>

#include <memory>

#include "common/icu.hpp"
#include "common/utf8.hpp"

namespace qaplan::internal {
namespace {

// Creating a word iterator loads ICU's dictionaries (slow); each thread clones one prototype.
icu::BreakIterator* thread_iterator() {
  static const std::unique_ptr<icu::BreakIterator> prototype = [] {
    UErrorCode st = U_ZERO_ERROR;
    std::unique_ptr<icu::BreakIterator> b(
        icu::BreakIterator::createWordInstance(icu::Locale::getChinese(), st));
    return U_SUCCESS(st) ? std::move(b) : nullptr;
  }();
  thread_local std::unique_ptr<icu::BreakIterator> mine(prototype ? prototype->clone() : nullptr);
  return mine.get();
}

}  // namespace

namespace {

std::vector<Token> segment_uncached(std::string_view text) {
  std::vector<Token> out;
  icu::BreakIterator* bi = thread_iterator();
  const icu::UnicodeString u =
      icu::UnicodeString::fromUTF8(icu::StringPiece(text.data(), static_cast<int32_t>(text.size())));
  // UTF-16 offsets → UTF-8 byte offsets, walked in step with the text.
  std::vector<std::uint32_t> byte_at(static_cast<std::size_t>(u.length()) + 1, 0);
  {
    std::size_t i = 0;
    int32_t k = 0;
    while (i < text.size() && k < u.length()) {
      byte_at[static_cast<std::size_t>(k)] = static_cast<std::uint32_t>(i);
      const std::int32_t cp = next_code_point(text, i);
      k += cp >= 0x10000 ? 2 : 1;
    }
    byte_at[static_cast<std::size_t>(u.length())] = static_cast<std::uint32_t>(text.size());
  }
  auto make = [&](std::uint32_t b, std::uint32_t e) {
    Token t;
    t.begin = b;
    t.end = e;
    std::size_t i = b;
    int chars = 0;
    bool han = true, ascii = true;
    while (i < e) {
      const std::int32_t cp = next_code_point(text, i);
      ++chars;
      t.word = t.word || (cp >= 0 && is_word_char(cp));
      han = han && cp >= 0 && is_han(cp);
      ascii = ascii && cp >= 0 && is_ascii_alnum(cp);
    }
    t.single_han = han && chars == 1;
    t.ascii = ascii && chars > 0;
    return t;
  };
  if (bi == nullptr) {  // no ICU data: one token per code point
    for (std::size_t i = 0; i < text.size();) {
      const std::size_t b = i;
      next_code_point(text, i);
      out.push_back(make(static_cast<std::uint32_t>(b), static_cast<std::uint32_t>(i)));
    }
    return out;
  }
  bi->setText(u);
  int32_t p = bi->first();
  for (int32_t q = bi->next(); q != icu::BreakIterator::DONE; p = q, q = bi->next())
    out.push_back(make(byte_at[static_cast<std::size_t>(p)], byte_at[static_cast<std::size_t>(q)]));
  return out;
}

}  // namespace

// One analysis segments the same few texts several times (the previous question for its spans,
// its topic and the garble check; the turn and its fragment): the last few results per thread
// are kept, so ICU's dictionary break runs once per text.
std::vector<Token> segment_words(std::string_view text) {
  constexpr std::size_t kKept = 8;
  thread_local std::array<std::pair<std::string, std::vector<Token>>, kKept> kept;
  thread_local std::size_t next = 0;
  for (const auto& [t, tokens] : kept)
    if (t == text && !(t.empty() && tokens.empty())) return tokens;
  std::vector<Token> out = segment_uncached(text);
  auto& slot = kept[next++ % kKept];
  slot.first.assign(text);
  slot.second = out;
  return out;
}

}  // namespace qaplan::internal
