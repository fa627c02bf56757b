#include "planning/model/fold.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <vector>

#include "common/popcount.hpp"
#include "common/utf8.hpp"

namespace qaplan::internal {
namespace {

constexpr FoldEntry kTable[] = {
#include "planning/model/fold_table.inc"
};
static_assert(std::size(kTable) < 65536, "Index::order holds 16-bit table indexes");

// Max-match the way OpenCC converts: at each code point, the longest spelling that starts there.
// A BMP bitset of first code points rejects most positions with one load; for the rest, the
// number of set bits below a code point is its place among the first code points (a binary
// search there was the fold's hottest branch: many common characters start some spelling). The
// spellings are grouped by first code point, longest first, and compared bytewise (~17 KB in all).
struct Index {
  std::array<std::uint64_t, 0x10000 / 64> first_bmp{};  // bit cp: some spelling starts with cp
  std::array<std::uint16_t, 0x10000 / 64> rank_before{};  // set bits in the words before
  std::vector<std::uint32_t> firsts;   // distinct first code points, ascending
  std::vector<std::uint32_t> begin;    // firsts[k]'s entries: order[begin[k], begin[k + 1])
  std::vector<std::uint16_t> order;    // table indexes by (first code point, length desc)

  Index() {
    std::vector<std::pair<std::uint32_t, std::uint16_t>> keyed;
    for (std::size_t i = 0; i < std::size(kTable); ++i) {
      std::size_t at = 0;
      const std::int32_t cp = next_code_point(kTable[i].first, at);
      keyed.emplace_back(static_cast<std::uint32_t>(cp), static_cast<std::uint16_t>(i));
    }
    std::sort(keyed.begin(), keyed.end(), [](const auto& a, const auto& b) {
      if (a.first != b.first) return a.first < b.first;
      const std::size_t la = kTable[a.second].first.size(), lb = kTable[b.second].first.size();
      return la != lb ? la > lb : a.second < b.second;
    });
    for (const auto& [cp, i] : keyed) {
      if (firsts.empty() || firsts.back() != cp) {
        firsts.push_back(cp);
        begin.push_back(static_cast<std::uint32_t>(order.size()));
        if (cp < 0x10000) first_bmp[cp / 64] |= std::uint64_t{1} << (cp % 64);
      }
      order.push_back(i);
    }
    begin.push_back(static_cast<std::uint32_t>(order.size()));
    std::uint32_t seen = 0;
    for (std::size_t w = 0; w < first_bmp.size(); ++w) {
      rank_before[w] = static_cast<std::uint16_t>(seen);
      seen += static_cast<std::uint32_t>(popcount64(first_bmp[w]));
    }
  }

  // The place of `cp` in `firsts`, or npos when no spelling starts with it.
  std::size_t slot(std::uint32_t cp) const {
    if (cp < 0x10000) {
      const std::uint64_t word = first_bmp[cp / 64], bit = std::uint64_t{1} << (cp % 64);
      if ((word & bit) == 0) return std::string_view::npos;
      return rank_before[cp / 64] + static_cast<std::size_t>(popcount64(word & (bit - 1)));
    }
    const auto it = std::lower_bound(firsts.begin(), firsts.end(), cp);
    if (it == firsts.end() || *it != cp) return std::string_view::npos;
    return static_cast<std::size_t>(it - firsts.begin());
  }

  // The longest spelling at the start of `rest` (whose first code point is `cp`), or nullptr.
  const FoldEntry* match(std::uint32_t cp, std::string_view rest) const {
    const std::size_t k = slot(cp);
    if (k == std::string_view::npos) return nullptr;
    for (std::uint32_t j = begin[k]; j < begin[k + 1]; ++j)
      if (rest.starts_with(kTable[order[j]].first)) return &kTable[order[j]];
    return nullptr;
  }
};

const Index& index() {
  static const Index idx;  // thread-safe initialisation; built by RouterModel::parse
  return idx;
}

// The longest prefix of `s` of at most `max` bytes that ends on a code point boundary.
std::string_view cut(std::string_view s, std::size_t max) {
  if (s.size() <= max) return s;
  std::size_t n = max;
  while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;
  return s.substr(0, n);
}

}  // namespace

std::span<const FoldEntry> fold_table() noexcept { return kTable; }

std::string_view fold_for_model(std::string_view text, char (&buf)[kMaxFoldBytes]) noexcept {
  text = cut(text, kMaxFoldBytes);
  const Index& idx = index();
  std::size_t out = 0;      // bytes written to buf
  std::size_t copied = 0;   // text[0, copied) is in buf (or needs no copy while nothing changed)
  bool changed = false;
  for (std::size_t i = 0; i < text.size();) {
    const auto lead = static_cast<unsigned char>(text[i]);
    std::size_t next = i + 1;
    const std::int32_t cp = lead < 0x80 ? lead : next_code_point(text, next = i);
    if (cp < 0) {  // an invalid byte is left as it is (the features skip it)
      ++i;
      continue;
    }
    const FoldEntry* e = idx.match(static_cast<std::uint32_t>(cp), text.substr(i));
    if (e == nullptr) {
      i = next;
      continue;
    }
    // Canonicals are never longer than their spellings, so buf (as large as the cut text) fits.
    std::memcpy(buf + out, text.data() + copied, i - copied);
    out += i - copied;
    std::memcpy(buf + out, e->second.data(), e->second.size());
    out += e->second.size();
    i += e->first.size();
    copied = i;
    changed = true;
  }
  if (!changed) return text;
  std::memcpy(buf + out, text.data() + copied, text.size() - copied);
  out += text.size() - copied;
  return {buf, out};
}

}  // namespace qaplan::internal
