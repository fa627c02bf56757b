// A host's condense-question step as qaplan's rewrite hook, in C++ (docs/rewrite.md).
//
// StubLlm stands in for the LLM a host would call with request.prompt: it answers with a JSON
// array holding one standalone question. qaplan validates it and uses it instead of the built-in
// rewrite; a refused answer or a failed call leaves the built-in rewrite, and rewrite.reasons
// says why. Build: tests/CMakeLists.txt adds it as example_condense_hook (ctest runs it).
//
//   example_condense_hook path/to/rules.toml
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "qaplan/qaplan.hpp"

namespace {

class StubLlm : public qaplan::QueryRewriter {
 public:
  std::string_view name() const override { return "llm"; }
  qaplan::Result<std::string> generate(const qaplan::RewriteRequest& request) const override {
    static const std::map<std::string, std::string, std::less<>> canned = {
        {"需要提前几天", "年假申请需要提前几天"}, {"那病假呢", "病假怎么申请"}};
    if (request.kind != "condense") return std::string("[]");
    const auto it = canned.find(request.question);
    if (it == canned.end()) return qaplan::make_error(qaplan::ErrorCode::kIo, "model server unavailable");
    return "[\"" + it->second + "\"]";
  }
};

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: example_condense_hook RULES.toml\n");
    return 2;
  }
  auto config = qaplan::load_config(argv[1]);
  if (!config.ok()) {
    std::fprintf(stderr, "%s\n", config.error().to_string().c_str());
    return 2;
  }
  config->rewrite.hook = "llm";
  config->rewrite.hook_kinds = {"condense"};
  qaplan::PlannerOptions options;
  options.rewriters["llm"] = std::make_shared<StubLlm>();
  auto planner = qaplan::Planner::create(std::move(config).value(), std::move(options));
  if (!planner.ok()) {
    std::fprintf(stderr, "%s\n", planner.error().to_string().c_str());
    return 2;
  }
  const std::vector<std::pair<std::string, std::string>> dialogs = {
      {"需要提前几天", "年假怎么申请"}, {"那病假呢", "年假怎么申请"}, {"那婚假呢", "年假怎么申请"}};
  for (const auto& [question, previous] : dialogs) {
    auto prep = planner->prepare(qaplan::PrepareRequest{question, {previous}, "", std::nullopt});
    if (!prep.ok()) return 1;
    qaplan::AnalysisContext ctx;
    ctx.now = "2026-03-15T10:00:00+08:00";
    auto a = planner->analyze(*prep, ctx);
    if (!a.ok()) return 1;
    std::printf("%s → %s: %s (%s; %s)\n", previous.c_str(), question.c_str(), a->rewrite.query.c_str(),
                a->rewrite.by.c_str(), a->rewrite.reasons.back().c_str());
  }
  return 0;
}
