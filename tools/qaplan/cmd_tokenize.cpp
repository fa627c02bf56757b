// qaplan tokenize — placeholder registered so the CLI builds; replaced by the ranking work (issue 3).
#include <iostream>

#include "cli.hpp"

namespace qaplan::cli {
Runner register_tokenize(CLI::App& app, GlobalOptions&) {
  auto* sub = app.add_subcommand("tokenize", "(not built yet)");
  sub->allow_extras();
  return [] {
    std::cerr << "qaplan: 'tokenize' is not available in this build\n";
    return kInvalid;
  };
}
}  // namespace qaplan::cli
