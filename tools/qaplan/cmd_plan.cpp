#include <iostream>

#include "cli.hpp"

namespace qaplan::cli {
Runner register_plan(CLI::App& app, GlobalOptions&) {
  auto* sub = app.add_subcommand("plan", "(not built yet)");
  sub->allow_extras();
  return [] { return kInvalid; };
}
}  // namespace qaplan::cli
