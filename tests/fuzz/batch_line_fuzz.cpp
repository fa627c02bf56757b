// Fuzz target: one `qaplan plan --input` batch line, handled as the CLI handles it (a trailing CR
// dropped, blank lines skipped, parse_prepare_request, prepare, to_json or error_to_json).
//
// Invariants: the output line is one line of valid JSON; an ok line repeats identically (the
// parser and the planner are deterministic); an error names a field (or the line) and is
// kInvalidInput; a request that parses re-serialises to a line that parses to the same request.
#include <algorithm>
#include <memory>
#include <nlohmann/json.hpp>

#include "fuzz_support.hpp"
#include "qaplan/planning/config.hpp"
#include "qaplan/planning/json.hpp"
#include "qaplan/planning/planner.hpp"

namespace {

using namespace qaplan;

Planner* g_planner = nullptr;

void check_output_line(const std::string& out) {
  QAPLAN_FUZZ_CHECK(out.find('\n') == std::string::npos, out);
  const auto j = nlohmann::json::parse(out, nullptr, /*allow_exceptions=*/false);
  QAPLAN_FUZZ_CHECK(j.is_object(), out);
}

std::string request_line(const PrepareRequest& r) {
  nlohmann::json j;
  j["question"] = r.question;
  j["history"] = r.history;
  j["scenario"] = r.scenario.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.scenario);
  j["source"] = r.source ? nlohmann::json(*r.source) : nlohmann::json(nullptr);
  return j.dump();
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  auto cfg = load_config(fuzz::config_dir() / "rules.toml");
  if (!cfg.ok()) std::abort();
  auto planner = Planner::create(std::move(cfg).value());
  if (!planner.ok()) std::abort();
  g_planner = new Planner(std::move(planner).value());
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string line(fuzz::as_view(data, size));
  // The CLI reads with getline: a line never holds '\n'.
  line = line.substr(0, line.find('\n'));
  if (!line.empty() && line.back() == '\r') line.pop_back();
  if (line.find_first_not_of(" \t") == std::string::npos) return 0;

  auto req = parse_prepare_request(line);
  if (!req.ok()) {
    fuzz::check_error(req.error());
    QAPLAN_FUZZ_CHECK(req.error().code == ErrorCode::kInvalidInput, req.error().to_string());
    check_output_line(error_to_json(req.error(), 7));
    return 0;
  }
  // A parsed request survives a round trip through the line format. (Strings that are not valid
  // UTF-8 cannot be written back as JSON; prepare refuses them below.)
  if (fuzz::valid_utf8(req->question) &&
      std::all_of(req->history.begin(), req->history.end(), fuzz::valid_utf8) &&
      fuzz::valid_utf8(req->scenario) && (!req->source || fuzz::valid_utf8(*req->source))) {
    auto again = parse_prepare_request(request_line(*req));
    QAPLAN_FUZZ_CHECK(again.ok(), request_line(*req));
    QAPLAN_FUZZ_CHECK(again->question == req->question && again->history == req->history &&
                          again->scenario == req->scenario && again->source == req->source,
                      request_line(*req));
  }
  auto prep = g_planner->prepare(*req);
  if (!prep.ok()) {
    fuzz::check_error(prep.error());
    QAPLAN_FUZZ_CHECK(prep.error().code == ErrorCode::kInvalidInput, prep.error().to_string());
    check_output_line(error_to_json(prep.error(), 7));
    return 0;
  }
  const std::string out = to_json(*prep, JsonOptions{false, false});
  check_output_line(out);
  auto again = g_planner->prepare(*req);
  QAPLAN_FUZZ_CHECK(again.ok() && to_json(*again, JsonOptions{false, false}) == out, out);
  return 0;
}
