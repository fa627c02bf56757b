// qaplan CLI entry point: wires subcommands, maps errors to exit codes (docs/guide.md).
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <iostream>
#include <map>

#include "cli.hpp"
#include "qaplan/io.hpp"
#include "config_lookup.hpp"
#include "qaplan/version.hpp"

int main(int argc, char** argv) {
  using namespace qaplan::cli;
  // Ctrl-C or a kill during a build or a report leaves no temp or staging file behind.
  qaplan::remove_temp_files_on_signals();
  // Every command's stdout goes through one checked buffer (flush_stdout reports its errno).
  const StdoutGuard stdout_guard;
  // CLI11 answers --version as soon as it meets the flag, before it reads the rest: an argument
  // beside it would pass unread.
  for (int i = 1; i < argc && argc > 2; ++i)
    if (std::strcmp(argv[i], "--version") == 0) {
      std::cerr << "qaplan: --version takes no other arguments (see qaplan --help)\n";
      return kInvalid;
    }
  try {
    // The name, not argv[0]: `--help` reads "qaplan plan" wherever the binary lies, so the
    // README's command reference can hold it verbatim (tests/cli/help_readme_cli_test.cpp).
    CLI::App app{"qaplan — query preparation and in-process ranking for RAG", "qaplan"};
    // The text is built only when asked: it looks up the config and the fingerprint registry.
    app.set_version_flag("--version", [] {
      std::string v = version_text();
      if (!v.empty() && v.back() == '\n') v.pop_back();  // CLI11 adds the newline
      return v;
    }, "print the version, config schema, config file, model and dataset fingerprints");
    bool verbose_flag = false;
    app.add_flag("-v,--verbose", verbose_flag, "say on stderr which rules file is used");
    app.require_subcommand(1);
    GlobalOptions g;
    app.add_option("--log-level", g.log_level, "trace|debug|info|warn|error|off (logs go to stderr)")
        ->capture_default_str()
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
    add(register_rewrite);
    add(register_config);
    add(register_bench);
    add(register_search);
    add(register_index);
    add(register_tokenize);
    add(register_model);
    add(register_eval_policy);
    add(register_eval_chain);
    add(register_eval_rewrite);
    add(register_eval_route);
    add(register_calibrate);
    add(register_recommend);
    add(register_domain);
    add(register_kb);
    add(register_ask);
    try {
      app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
      return flush_stdout(app.exit(e) == 0 ? kOk : kInvalid);
    } catch (const CLI::CallForAllHelp& e) {
      return flush_stdout(app.exit(e) == 0 ? kOk : kInvalid);
    } catch (const CLI::CallForVersion& e) {
      return flush_stdout(app.exit(e) == 0 ? kOk : kInvalid);
    } catch (const CLI::ParseError& e) {
      // Usage errors are one line, like every other error (CLI11 would print two).
      std::string msg = e.what();
      // Point at the help of the command being parsed ("qaplan index build --help").
      std::string hint = "qaplan";
      const CLI::App* at = &app;
      for (int i = 1; i < argc && argv[i][0] != '-'; ++i) {
        const CLI::App* next = nullptr;
        for (const auto* sub : at->get_subcommands({}))
          if (sub->get_name() == argv[i]) next = sub;
        if (!next) break;
        hint += " " + next->get_name();
        at = next;
      }
      if (argc > 1 && argv[1][0] != '-' && app.get_subcommands({}).size() > 0) {
        bool known = false;
        for (const auto* sub : app.get_subcommands({})) known |= sub->get_name() == argv[1];
        if (!known) {
          std::string names;
          for (const auto* sub : app.get_subcommands({}))
            names += (names.empty() ? "" : ", ") + sub->get_name();
          msg = std::string("unknown subcommand '") + argv[1] + "' (" + names + ")";
        }
      }
      for (char& ch : msg)
        if (ch == '\n') ch = ' ';
      std::cerr << "qaplan: " << msg << " (see " << hint << " --help)\n";
      return kInvalid;
    }
    set_verbose(verbose_flag);
    auto logger = spdlog::stderr_color_mt("qaplan");
    spdlog::set_default_logger(logger);
    spdlog::set_level(spdlog::level::from_str(g.log_level));
    for (auto* sub : app.get_subcommands())
      if (auto it = runners.find(sub); it != runners.end()) {
        return flush_stdout(it->second());
      }
    return kInvalid;
  } catch (const std::exception& e) {
    std::cerr << "qaplan: internal error: " << e.what() << '\n';
    return kInternal;
  } catch (...) {
    std::cerr << "qaplan: internal error\n";
    return kInternal;
  }
}
