// qaplan CLI entry point: wires subcommands, maps errors to exit codes (DESIGN.md §4).
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <exception>
#include <iostream>
#include <map>

#include "cli.hpp"
#include "qaplan/version.hpp"

int main(int argc, char** argv) {
  using namespace qaplan::cli;
  try {
    CLI::App app{"qaplan — query preparation and in-process ranking for RAG"};
    app.set_version_flag("--version", QAPLAN_VERSION_STRING);
    app.require_subcommand(1);
    GlobalOptions g;
    app.add_option("--log-level", g.log_level, "trace|debug|info|warn|error|off (logs go to stderr)")
        ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error", "critical", "off"}));
    std::map<CLI::App*, Runner> runners;
    auto add = [&](Runner (*reg)(CLI::App&, GlobalOptions&)) {
      const auto before = app.get_subcommands({});
      Runner r = reg(app, g);
      const auto after = app.get_subcommands({});
      runners[after.back()] = std::move(r);
      (void)before;
    };
    add(register_plan);
    add(register_config);
    add(register_bench);
    add(register_search);
    add(register_tokenize);
    try {
      app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
      const int rc = app.exit(e);  // prints help/version/usage error
      return rc == 0 ? kOk : kInvalid;
    }
    auto logger = spdlog::stderr_color_mt("qaplan");
    spdlog::set_default_logger(logger);
    spdlog::set_level(spdlog::level::from_str(g.log_level));
    for (auto* sub : app.get_subcommands())
      if (auto it = runners.find(sub); it != runners.end()) return it->second();
    return kInvalid;
  } catch (const std::exception& e) {
    std::cerr << "qaplan: internal error: " << e.what() << '\n';
    return kInternal;
  } catch (...) {
    std::cerr << "qaplan: internal error\n";
    return kInternal;
  }
}
