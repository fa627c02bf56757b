// qaplan config check [PATH]: strict validation of a rules file; exit 0 valid, 2 invalid.
#include <iostream>

#include "cli.hpp"
#include "qaplan/engines/engines.hpp"
#include "config_lookup.hpp"
#include "qaplan/planning/planner.hpp"

namespace qaplan::cli {

Runner register_config(CLI::App& app, GlobalOptions&) {
  auto* sub = app.add_subcommand("config", "Inspect and validate rule configuration");
  sub->require_subcommand(1);
  auto* check = sub->add_subcommand("check", "Validate a rules.toml (default: the one qaplan would use)");
  auto path = std::make_shared<std::string>();
  check->add_option("path", *path, "rules file to check (default: the one every command uses: --config, $QAPLAN_CONFIG, the checkout's config/rules.toml, ~/.config/qaplan, then the installed one; -v names it)");
  return [path] {
    auto where = find_config(*path);
    if (!where.ok()) return report(where.error());
    auto cfg = load_config(*where);
    if (!cfg.ok()) return report(cfg.error());
    // The ranking room reads [ranking.*] of the same file; its options validate as at run time.
    auto ranking = load_ranking_config(*where);
    if (!ranking.ok()) return report(ranking.error());
    // And the engines room its [engines] table (field mapping, versions).
    auto engines_cfg = engines::load_engines_config(*where);
    if (!engines_cfg.ok()) return report(engines_cfg.error());
    // Compiling the lexicon is part of "valid": it is what Planner::create would do.
    auto planner = Planner::create(std::move(cfg).value());
    if (!planner.ok()) return report(planner.error());
    const Config& c = planner->config();
    std::cout << where->string() << ": ok (" << c.sources.size() << " sources, "
              << c.scenarios.size() << " scenarios, " << c.intent.rules.size() << " intent rules, "
              << c.retrieval_strategy.patches.size() << " plan patches)\n"
              << "domain lexicon: " << planner->domain_description() << "\n";
    return static_cast<int>(kOk);
  };
}

}  // namespace qaplan::cli
