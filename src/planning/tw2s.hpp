#pragma once
// The one place qaplan's OpenCC conversion is defined (Traditional, with Taiwan phrases, to
// Simplified) and the set of BMP code points it changes: the library converts with it
// (simplify.cpp) and the build computes the set with it once (tools/gen/tw2s_table.cpp), so a
// process start no longer converts the whole CJK block to find out (it took ~40 ms).
#include <opencc/Config.hpp>
#include <opencc/Conversion.hpp>
#include <opencc/ConversionChain.hpp>
#include <opencc/Converter.hpp>
#include <opencc/DictEntry.hpp>
#include <opencc/DictGroup.hpp>
#include <opencc/Lexicon.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/utf8.hpp"

namespace qaplan::internal::tw2s {

// OpenCC's tw2sp chain without its variant tables: a Taiwan user writes 軟體 / 網路 / 記憶體, and
// only TWPhrasesRev turns them into the 软件 / 网络 / 内存 that config keywords and Simplified
// training text use (t2s alone gives 软体 / 网路); TSPhrases + TSCharacters do the rest. The
// TWVariantsRev tables are left out because they rewrite characters that Simplified text uses
// every day (么 → 幺 turns 怎么 into 怎幺). The dictionaries are OpenCC's installed .ocd2 files.
inline constexpr const char* kConfigJson = R"({
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
inline constexpr std::pair<std::string_view, std::string_view> kRoundTripGaps[] = {
    {"瞭解", "了解"},
};

// One bit per code point up to U+FFFF. Supplementary-plane Traditional characters are too rare
// in questions to be worth a larger table; text with one still converts when it also holds a
// BMP Traditional character.
using BmpBits = std::array<std::uint64_t, 0x10000 / 64>;

// Throws what OpenCC throws when its data is missing.
inline opencc::ConverterPtr make_converter() {
  opencc::Config config;
  return config.NewFromString(kConfigJson, "");
}

// The code points the conversion changes on their own: one conversion of every BMP CJK code
// point, one per line (a line break never belongs to a phrase).
inline BmpBits changed_alone_code_points(const opencc::Converter& converter) {
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
  const std::string converted = converter.Convert(in);
  BmpBits bits{};
  auto set = [&](std::uint32_t cp) { bits[cp / 64] |= std::uint64_t{1} << (cp % 64); };
  std::size_t a = 0, b = 0;
  for (std::uint32_t cp : cps) {
    const std::size_t ea = in.find('\n', a), eb = converted.find('\n', b);
    if (eb == std::string::npos) break;
    if (std::string_view(in).substr(a, ea - a) != std::string_view(converted).substr(b, eb - b))
      set(cp);
    a = ea + 1;
    b = eb + 1;
  }
  return bits;
}

inline bool has_bit(const BmpBits& bits, std::int32_t cp) {
  return cp >= 0 && cp < 0x10000 && (bits[static_cast<std::size_t>(cp) / 64] >> (cp % 64) & 1) != 0;
}

// The gate has_traditional() reads: what changes on its own, plus the round-trip gaps' characters.
inline BmpBits changed_code_points(const opencc::Converter& converter) {
  BmpBits bits = changed_alone_code_points(converter);
  for (const auto& [trad, simp] : kRoundTripGaps)
    for (std::size_t i = 0; i < trad.size();) {
      const std::int32_t cp = next_code_point(trad, i);
      if (cp > 0 && cp < 0x10000) bits[static_cast<std::uint32_t>(cp) / 64] |= std::uint64_t{1} << (cp % 64);
    }
  return bits;
}

// The phrases the conversion may change although none of their characters changes on its own
// (a Taiwan phrase such as 解析度 → 分辨率, and the round-trip gaps): every key of the conversion's
// dictionaries with a value other than itself whose characters are all unchanged alone (or
// outside the BMP table), sorted. Text holding none of them and no character that changes alone
// is returned by the conversion as it is — what lets a rules file's cues be checked without
// setting OpenCC up.
inline std::vector<std::string> hidden_phrases(const opencc::Converter& converter,
                                               const BmpBits& alone) {
  std::vector<std::string> out;
  auto consider = [&](const opencc::DictPtr& dict) {
    const opencc::LexiconPtr lex = dict->GetLexicon();
    for (std::size_t e = 0; e < lex->Length(); ++e) {
      const opencc::DictEntry* entry = lex->At(e);
      const std::string key = entry->Key();
      const auto values = entry->Values();
      if (std::all_of(values.begin(), values.end(), [&](const std::string& v) { return v == key; }))
        continue;
      bool changes_alone = false;
      std::size_t chars = 0;
      for (std::size_t i = 0; i < key.size(); ++chars)
        changes_alone = has_bit(alone, next_code_point(key, i)) || changes_alone;
      if (!changes_alone && chars > 1) out.push_back(key);
    }
  };
  for (const opencc::ConversionPtr& conversion : converter.GetConversionChain()->GetConversions()) {
    const opencc::DictPtr dict = conversion->GetDict();
    if (const auto group = std::dynamic_pointer_cast<opencc::DictGroup>(dict))
      for (const opencc::DictPtr& d : group->GetDicts()) consider(d);
    else
      consider(dict);
  }
  for (const auto& [trad, simp] : kRoundTripGaps) out.emplace_back(trad);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace qaplan::internal::tw2s
