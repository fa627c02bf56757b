#include "planning/model/fold.hpp"

#include <algorithm>
#include <array>
#include <cstring>

#include "planning/matcher.hpp"

namespace qaplan::internal {
namespace {

constexpr FoldEntry kTable[] = {
#include "planning/model/fold_table.inc"
};

const PatternMatcher& matcher() {
  static const PatternMatcher m = [] {
    PatternMatcher pm;
    for (std::size_t i = 0; i < std::size(kTable); ++i)
      pm.add(kTable[i].first, static_cast<std::uint32_t>(i));
    pm.build();
    return pm;
  }();
  return m;
}

// The longest prefix of `s` of at most `max` bytes that ends on a code point boundary.
std::string_view cut(std::string_view s, std::size_t max) {
  if (s.size() <= max) return s;
  std::size_t n = max;
  while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;
  return s.substr(0, n);
}

struct Hit {
  std::uint32_t entry, begin, end;
};

}  // namespace

std::span<const FoldEntry> fold_table() noexcept { return kTable; }

std::string_view fold_for_model(std::string_view text, char (&buf)[kMaxFoldBytes]) noexcept {
  text = cut(text, kMaxFoldBytes);
  // Hits arrive ordered by end; a text of 4 KB holds at most ~1 400 three-byte spellings, and a
  // spelling's hits beyond the array are dropped the same way in training and inference.
  std::array<Hit, 2048> hits;
  std::size_t n = 0;
  matcher().scan(text, [&](std::uint32_t entry, std::uint32_t b, std::uint32_t e) {
    if (n < hits.size()) hits[n++] = {entry, b, e};
  });
  if (n == 0) return text;
  std::sort(hits.begin(), hits.begin() + static_cast<std::ptrdiff_t>(n),
            [](const Hit& a, const Hit& b) {
              return a.begin != b.begin ? a.begin < b.begin : a.end > b.end;
            });
  std::size_t out = 0, pos = 0;
  for (std::size_t k = 0; k < n; ++k) {
    const Hit& h = hits[k];
    if (h.begin < pos) continue;  // inside a spelling already folded
    const std::string_view canon = kTable[h.entry].second;
    std::memcpy(buf + out, text.data() + pos, h.begin - pos);
    out += h.begin - pos;
    std::memcpy(buf + out, canon.data(), canon.size());  // canonical ≤ spelling: fits
    out += canon.size();
    pos = h.end;
  }
  std::memcpy(buf + out, text.data() + pos, text.size() - pos);
  out += text.size() - pos;
  return {buf, out};
}

}  // namespace qaplan::internal
