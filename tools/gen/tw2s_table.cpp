// Build step: writes what qaplan's Traditional → Simplified conversion changes (src/planning/
// tw2s.hpp) as a C++ header — the BMP code points it changes (with and without the round-trip
// gaps) and the phrases it may change although none of their characters changes alone — so a
// process knows it without running OpenCC.
//   qaplan_gen_tw2s_table OUT.hpp
// Exit 1 with one line when OpenCC or its data is missing (the build then stops there).
#include <cstdio>
#include <exception>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "planning/tw2s.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: qaplan_gen_tw2s_table OUT.hpp\n";
    return 2;
  }
  namespace tw2s = qaplan::internal::tw2s;
  tw2s::BmpBits bits{}, alone{};
  std::vector<std::string> hidden;
  try {
    const auto converter = tw2s::make_converter();
    bits = tw2s::changed_code_points(*converter);
    alone = tw2s::changed_alone_code_points(*converter);
    hidden = tw2s::hidden_phrases(*converter, alone);
  } catch (const std::exception& e) {
    std::cerr << "qaplan_gen_tw2s_table: OpenCC data unavailable: " << e.what() << "\n";
    return 1;
  }
  std::ofstream out(argv[1], std::ios::binary | std::ios::trunc);
  out << "// Generated at build time by qaplan_gen_tw2s_table from OpenCC's tables (src/planning/"
         "tw2s.hpp): do not edit.\n#pragma once\n#include <array>\n#include <cstdint>\n"
         "#include <string_view>\n\nnamespace qaplan::internal::tw2s {\n";
  auto table = [&](const char* name, const tw2s::BmpBits& b) {
    out << "inline constexpr std::array<std::uint64_t, 1024> " << name << " = {\n";
    char word[32];
    for (std::size_t i = 0; i < b.size(); ++i) {
      std::snprintf(word, sizeof word, "0x%016llxull,", static_cast<unsigned long long>(b[i]));
      out << word << ((i % 4 == 3) ? "\n" : " ");
    }
    out << "};\n";
  };
  table("kChangedBmp", bits);
  table("kChangedAloneBmp", alone);
  // Sorted; UTF-8 bytes written as escapes, so the header is ASCII.
  out << "inline constexpr std::string_view kHiddenPhrases[] = {\n";
  char esc[8];
  for (const std::string& p : hidden) {
    out << "\"";
    for (unsigned char ch : p) {
      std::snprintf(esc, sizeof esc, "\\x%02x", ch);
      out << esc;
    }
    out << "\",\n";
  }
  out << "};\n}  // namespace qaplan::internal::tw2s\n";
  out.close();
  if (!out) {
    std::cerr << "qaplan_gen_tw2s_table: cannot write " << argv[1] << "\n";
    return 1;
  }
  return 0;
}
