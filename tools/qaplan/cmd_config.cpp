#include <iostream>

#include "cli.hpp"

namespace qaplan::cli {
Runner register_config(CLI::App& app, GlobalOptions&) {
  auto* sub = app.add_subcommand("config", "(not built yet)");
  sub->allow_extras();
  return [] { return kInvalid; };
}
}  // namespace qaplan::cli
