// qaplan bench — placeholder registered so the CLI builds; replaced by the ranking work (issue 3).
#include <iostream>

#include "cli.hpp"

namespace qaplan::cli {
Runner register_bench(CLI::App& app, GlobalOptions&) {
  auto* sub = app.add_subcommand("bench", "(not built yet)");
  sub->allow_extras();
  return [] {
    std::cerr << "qaplan: 'bench' is not available in this build\n";
    return kInvalid;
  };
}
}  // namespace qaplan::cli
