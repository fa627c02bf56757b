// Build step: writes the set of BMP code points qaplan's Traditional → Simplified conversion
// changes (src/planning/tw2s.hpp) as a C++ header, so a process knows it without running OpenCC.
//   qaplan_gen_tw2s_table OUT.hpp
// Exit 1 with one line when OpenCC or its data is missing (the build then stops there).
#include <cstdio>
#include <exception>
#include <fstream>
#include <iostream>

#include "planning/tw2s.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: qaplan_gen_tw2s_table OUT.hpp\n";
    return 2;
  }
  qaplan::internal::tw2s::BmpBits bits{};
  try {
    bits = qaplan::internal::tw2s::changed_code_points(*qaplan::internal::tw2s::make_converter());
  } catch (const std::exception& e) {
    std::cerr << "qaplan_gen_tw2s_table: OpenCC data unavailable: " << e.what() << "\n";
    return 1;
  }
  std::ofstream out(argv[1], std::ios::binary | std::ios::trunc);
  out << "// Generated at build time by qaplan_gen_tw2s_table from OpenCC's tables (src/planning/"
         "tw2s.hpp): do not edit.\n#pragma once\n#include <array>\n#include <cstdint>\n\n"
         "namespace qaplan::internal::tw2s {\n"
         "inline constexpr std::array<std::uint64_t, 1024> kChangedBmp = {\n";
  char word[32];
  for (std::size_t i = 0; i < bits.size(); ++i) {
    std::snprintf(word, sizeof word, "0x%016llxull,", static_cast<unsigned long long>(bits[i]));
    out << word << ((i % 4 == 3) ? "\n" : " ");
  }
  out << "};\n}  // namespace qaplan::internal::tw2s\n";
  out.close();
  if (!out) {
    std::cerr << "qaplan_gen_tw2s_table: cannot write " << argv[1] << "\n";
    return 1;
  }
  return 0;
}
