#pragma once
// The analysis flags `plan` and `ask` share: when "now" is, in which zone, and who "we" / "my" are.
#include <CLI/CLI.hpp>
#include <string>

#include "qaplan/planning/analysis.hpp"
#include "qaplan/status.hpp"

namespace qaplan::cli {

struct AnalysisOptions {
  std::string now;   ///< ISO-8601 with offset; default: this machine's clock
  std::string tz;    ///< --tz: an IANA zone or an offset; default: $TZ, else now's offset
  std::string zone;  ///< the zone in force (resolve_zone()): canonical, "" = now's offset
  std::string session_department;
  std::string session_user;
};

/// --now, --tz, --session-department, --session-user.
void add_analysis_options(CLI::App* sub, AnalysisOptions& o);

/// Resolves --tz (or $TZ) through ICU into `zone`. Errors: kInvalidInput naming --tz.
Status resolve_zone(AnalysisOptions& o);

/// The library's AnalysisContext (the clock read here when --now is not given).
AnalysisContext analysis_context(const AnalysisOptions& o);

}  // namespace qaplan::cli
