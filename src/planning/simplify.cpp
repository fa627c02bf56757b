#include "planning/simplify.hpp"

#include <algorithm>
#include <exception>
#include <iterator>
#include <memory>
#include <vector>

#include "common/utf8.hpp"
#include "planning/tw2s.hpp"
#include "tw2s_table.hpp"  // generated at build time: kChangedBmp, kChangedAloneBmp, kHiddenPhrases

namespace qaplan::internal {
namespace {

// The converter, set up on the first text that needs it (has_traditional() needs no OpenCC:
// the table of changed code points is compiled in).
struct Simplifier {
  opencc::ConverterPtr converter;
  std::string error;

  // A plain try in the body, not a function-try-block: a constructor's function-try-block handler
  // cannot touch members (they are already destroyed) and rethrows, which would terminate the
  // noexcept callers instead of leaving `error` set.
  Simplifier() {
    try {
      converter = tw2s::make_converter();
    } catch (const std::exception& e) {
      converter.reset();
      error = std::string("OpenCC data unavailable: ") + e.what();
    }
  }
};

const Simplifier& simplifier() {
  static const Simplifier s;  // thread-safe initialisation (C++11 magic statics)
  return s;
}

}  // namespace

std::span<const std::uint64_t> traditional_table() noexcept { return tw2s::kChangedBmp; }
std::span<const std::uint64_t> changed_alone_table() noexcept { return tw2s::kChangedAloneBmp; }
std::span<const std::string_view> hidden_phrase_table() noexcept { return tw2s::kHiddenPhrases; }

namespace {

// The hidden phrases' first code points and byte lengths: a text position is searched only when
// a phrase can start there, and only for the lengths phrases have (a handful).
struct HiddenIndex {
  tw2s::BmpBits starts{};
  std::vector<std::size_t> lengths;
  HiddenIndex() {
    for (std::string_view p : tw2s::kHiddenPhrases) {
      std::size_t i = 0;
      const std::int32_t cp = next_code_point(p, i);
      if (cp >= 0 && cp < 0x10000) starts[static_cast<std::size_t>(cp) / 64] |= std::uint64_t{1} << (cp % 64);
      lengths.push_back(p.size());
    }
    std::sort(lengths.begin(), lengths.end());
    lengths.erase(std::unique(lengths.begin(), lengths.end()), lengths.end());
  }
};

const HiddenIndex& hidden_index() {
  static const HiddenIndex index;
  return index;
}

bool hidden_phrase_at(std::string_view text, std::int32_t first) {
  const HiddenIndex& x = hidden_index();
  if (!tw2s::has_bit(x.starts, first)) return false;
  for (const std::size_t len : x.lengths) {
    if (len > text.size()) break;
    if (std::binary_search(std::begin(tw2s::kHiddenPhrases), std::end(tw2s::kHiddenPhrases),
                           text.substr(0, len)))
      return true;
  }
  return false;
}

}  // namespace

bool conversion_may_change(std::string_view utf8) {
  for (std::size_t i = 0; i < utf8.size();) {
    const std::size_t at = i;
    const std::int32_t cp = next_code_point(utf8, i);
    if (cp < 0 || cp >= 0x10000) return true;  // beyond the tables (or not UTF-8): may change
    if (tw2s::has_bit(tw2s::kChangedAloneBmp, cp)) return true;
    if (hidden_phrase_at(utf8.substr(at), cp)) return true;
  }
  return false;
}

bool has_traditional(std::string_view utf8) noexcept {
  for (std::size_t i = 0; i < utf8.size();) {
    if (static_cast<unsigned char>(utf8[i]) < 0xE3) {  // below U+3000: nothing to convert
      ++i;
      continue;
    }
    const std::int32_t cp = next_code_point(utf8, i);
    if (cp >= 0 && cp < 0x10000 && (tw2s::kChangedBmp[cp / 64] >> (cp % 64) & 1) != 0) return true;
  }
  return false;
}

Status ensure_simplifier() {
  if (!simplifier().error.empty()) return make_error(ErrorCode::kInternal, simplifier().error);
  return {};
}

Result<std::string> to_simplified(std::string_view utf8) {
  if (!has_traditional(utf8)) return std::string(utf8);
  QAPLAN_TRY(ensure_simplifier());
  try {
    std::string out = simplifier().converter->Convert(std::string(utf8));
    for (const auto& [trad, simp] : tw2s::kRoundTripGaps)
      for (std::size_t at = out.find(trad); at != std::string::npos; at = out.find(trad, at))
        out.replace(at, trad.size(), simp);
    return out;
  } catch (const std::exception& e) {
    return make_error(ErrorCode::kInternal, std::string("OpenCC conversion failed: ") + e.what());
  }
}

}  // namespace qaplan::internal
