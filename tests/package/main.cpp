// Consumer smoke test: load a rules file, create a Planner, prepare one golden question.
// Usage: qaplan_consumer RULES.toml   — exit 0 when the plan's reason is the golden one.
#include <qaplan/qaplan.hpp>

#include <iostream>
#include <string>
#include <utility>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: qaplan_consumer RULES.toml\n";
    return 2;
  }
  auto config = qaplan::load_config(argv[1]);
  if (!config.ok()) {
    std::cerr << "qaplan_consumer: " << config.error().to_string() << '\n';
    return 1;
  }
  auto planner = qaplan::Planner::create(std::move(config).value());
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
