// Consumer smoke test: load a rules file, create a Planner, prepare one golden question.
// Usage: qaplan_consumer RULES.toml   — exit 0 when the plan's reason is the golden one.
//        qaplan_consumer --default    — the same through Planner::create_default(), which must
//                                       find the installed rules on its own; prints where.
#include <qaplan/qaplan.hpp>

#include <iostream>
#include <string>
#include <utility>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: qaplan_consumer RULES.toml | --default\n";
    return 2;
  }
  const bool by_default = std::string(argv[1]) == "--default";
  if (by_default) {
    auto where = qaplan::locate_config();
    if (!where.ok()) {
      std::cerr << "qaplan_consumer: " << where.error().to_string() << '\n';
      return 1;
    }
    std::cout << "qaplan_consumer: default config " << where->path.string() << " ("
              << where->describe() << ")\n";
  }
  auto config = by_default ? qaplan::Config::load_default() : qaplan::load_config(argv[1]);
  if (!config.ok()) {
    std::cerr << "qaplan_consumer: " << config.error().to_string() << '\n';
    return 1;
  }
  auto planner = by_default ? qaplan::Planner::create_default()
                            : qaplan::Planner::create(std::move(config).value());
  if (!planner.ok()) {
    std::cerr << "qaplan_consumer: " << planner.error().to_string() << '\n';
    return 1;
  }
  qaplan::PrepareRequest request;
  request.question = "报销费用超过5000需要谁审批";
  auto prep = planner->prepare(request);
  if (!prep.ok()) {
    std::cerr << "qaplan_consumer: " << prep.error().to_string() << '\n';
    return 1;
  }
  const std::string want = "faq_first_short_query_guard_pricing_guard";
  const std::string got = prep->plan ? prep->plan->reason() : std::string("<no plan>");
  if (got != want) {
    std::cerr << "qaplan_consumer: reason " << got << ", expected " << want << '\n';
    return 1;
  }
  std::cout << "qaplan_consumer: qaplan " << QAPLAN_VERSION_STRING << " ok, reason " << got
            << ", doc_top_k " << prep->plan->knobs().doc_top_k << '\n';
  return 0;
}
