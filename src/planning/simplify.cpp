#include "planning/simplify.hpp"

#include <opencc/Config.hpp>
#include <opencc/Converter.hpp>

#include <bitset>
#include <exception>
#include <memory>
#include <vector>

#include "common/utf8.hpp"

namespace qaplan::internal {
namespace {

// OpenCC's tw2sp chain without its variant tables: a Taiwan user writes 軟體 / 網路 / 記憶體, and
// only TWPhrasesRev turns them into the 软件 / 网络 / 内存 that config keywords and Simplified
// training text use (t2s alone gives 软体 / 网路); TSPhrases + TSCharacters do the rest. The
// TWVariantsRev tables are left out because they rewrite characters that Simplified text uses
// every day (么 → 幺 turns 怎么 into 怎幺). The dictionaries are OpenCC's installed .ocd2 files.
constexpr const char* kConfigJson = R"({
  "name": "qaplan: Traditional (with Taiwan phrases) to Simplified, no variant rewrites",
  "segmentation": {"type": "mmseg", "dict": {"type": "ocd2", "file": "TSPhrases.ocd2"}},
  "conversion_chain": [
    {"dict": {"type": "ocd2", "file": "TWPhrasesRev.ocd2"}},
    {"dict": {"type": "group", "dicts": [{"type": "ocd2", "file": "TSPhrases.ocd2"},
                                        {"type": "ocd2", "file": "TSCharacters.ocd2"}]}}
  ]
})";

// Phrases OpenCC's own s2t / s2twp write that its Traditional → Simplified tables leave as they
// are (a round trip of our question sets through OpenCC 1.1.6 finds 瞭解: 瞭 is also a Simplified
// character, so TSCharacters keeps it and TSPhrases has no 瞭解). Applied after OpenCC; their
// characters also open the gate.
constexpr std::pair<std::string_view, std::string_view> kRoundTripGaps[] = {
    {"瞭解", "了解"},
};

// Code points up to U+FFFF that tw2sp changes. Supplementary-plane Traditional characters are
// too rare in questions to be worth a larger table; text with one still converts when it also
// holds a BMP Traditional character.
using BmpSet = std::bitset<0x10000>;

struct Simplifier {
  opencc::ConverterPtr converter;
  BmpSet changed;
  std::string error;

  // A plain try in the body, not a function-try-block: a constructor's function-try-block handler
  // cannot touch members (they are already destroyed) and rethrows, which would terminate the
  // noexcept callers instead of leaving `error` set.
  Simplifier() {
    try {
      opencc::Config config;
      converter = config.NewFromString(kConfigJson, "");
      // One conversion of every BMP CJK code point, one per line (a line break never belongs to a
      // phrase), tells which characters the conversion touches. ~20 ms, once per process.
      std::string in;
      std::vector<std::uint32_t> cps;
      auto add_range = [&](std::uint32_t lo, std::uint32_t hi) {
        for (std::uint32_t cp = lo; cp <= hi; ++cp) {
          in.push_back(static_cast<char>(0xE0 | (cp >> 12)));
          in.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
          in.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
          in.push_back('\n');
          cps.push_back(cp);
        }
      };
      add_range(0x3400, 0x4DBF);  // CJK Extension A
      add_range(0x4E00, 0x9FFF);  // CJK Unified Ideographs
      add_range(0xF900, 0xFAFF);  // CJK Compatibility Ideographs
      const std::string converted = converter->Convert(in);
      std::size_t a = 0, b = 0;
      for (std::uint32_t cp : cps) {
        const std::size_t ea = in.find('\n', a), eb = converted.find('\n', b);
        if (eb == std::string::npos) break;
        if (std::string_view(in).substr(a, ea - a) != std::string_view(converted).substr(b, eb - b))
          changed.set(cp);
        a = ea + 1;
        b = eb + 1;
      }
      for (const auto& [trad, simp] : kRoundTripGaps)
        for (std::size_t i = 0; i < trad.size();) {
          const std::int32_t cp = next_code_point(trad, i);
          if (cp > 0 && cp < 0x10000) changed.set(static_cast<std::size_t>(cp));
        }
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

bool has_traditional(std::string_view utf8) noexcept {
  const BmpSet& changed = simplifier().changed;
  for (std::size_t i = 0; i < utf8.size();) {
    if (static_cast<unsigned char>(utf8[i]) < 0xE3) {  // below U+3000: nothing to convert
      ++i;
      continue;
    }
    const std::int32_t cp = next_code_point(utf8, i);
    if (cp >= 0 && cp < 0x10000 && changed.test(static_cast<std::size_t>(cp))) return true;
  }
  return false;
}

Status ensure_simplifier() {
  if (!simplifier().error.empty()) return make_error(ErrorCode::kInternal, simplifier().error);
  return {};
}

Result<std::string> to_simplified(std::string_view utf8) {
  QAPLAN_TRY(ensure_simplifier());
  if (!has_traditional(utf8)) return std::string(utf8);
  try {
    std::string out = simplifier().converter->Convert(std::string(utf8));
    for (const auto& [trad, simp] : kRoundTripGaps)
      for (std::size_t at = out.find(trad); at != std::string::npos; at = out.find(trad, at))
        out.replace(at, trad.size(), simp);
    return out;
  } catch (const std::exception& e) {
    return make_error(ErrorCode::kInternal, std::string("OpenCC conversion failed: ") + e.what());
  }
}

}  // namespace qaplan::internal
