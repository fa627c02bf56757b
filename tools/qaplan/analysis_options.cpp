// The analysis flags of `plan` and `ask` (analysis_options.hpp).
#include "analysis_options.hpp"

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <iostream>

namespace qaplan::cli {
namespace {

// The CLI, not the library, reads the clock: a host passes `now` explicitly, so a cached
// analysis replays the range it was computed with.
std::string clock_now() {
  const std::time_t t = std::time(nullptr);
  std::tm local{};
  localtime_r(&t, &local);
  char buf[40];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &local);
  const long off = local.tm_gmtoff / 60;
  char zone[32];
  std::snprintf(zone, sizeof zone, "%c%02ld:%02ld", off < 0 ? '-' : '+', std::labs(off) / 60,
                std::labs(off) % 60);
  return std::string(buf) + zone;
}

}  // namespace

// The zone whose calendar day `now` falls on, resolved once per run through ICU (the library's
// check_timezone). An unknown --tz is the user's error (exit 2); an unknown $TZ (a POSIX rule
// such as "CST-8", which ICU does not read) is the machine's, so it is reported on stderr and
// the dates follow now's own offset, as they did before --tz resolved zones.
Status resolve_zone(AnalysisOptions& o) {
  if (!o.tz.empty()) {
    auto z = check_timezone(o.tz);
    if (!z.ok()) return make_error(ErrorCode::kInvalidInput, z.error().message, "--tz");
    o.zone = *z;
    return {};
  }
  const char* env = std::getenv("TZ");
  if (!env || !*env) return {};
  std::string_view name(env);
  if (name.front() == ':') name.remove_prefix(1);  // POSIX ":Asia/Shanghai" names a zone file
  if (auto z = check_timezone(name); z.ok()) {
    o.zone = *z;
  } else {
    std::cerr << "qaplan: $TZ: " << z.error().message << "; dates follow now's offset\n";
  }
  return {};
}

AnalysisContext analysis_context(const AnalysisOptions& o) {
  AnalysisContext c;
  c.now = o.now.empty() ? clock_now() : o.now;
  c.timezone = o.zone;
  if (!o.session_department.empty()) c.session_department = o.session_department;
  if (!o.session_user.empty()) c.session_user = o.session_user;
  return c;
}

void add_analysis_options(CLI::App* sub, AnalysisOptions& o) {
  sub->add_option("--now", o.now,
                  "anchor for relative time (ISO-8601 with offset, e.g. 2026-11-30T10:00:00+08:00; "
                  "default: this machine's clock)");
  sub->add_option("--tz", o.tz,
                  "time zone of the calendar day `now` falls on: an IANA name (Asia/Shanghai) or "
                  "an offset (+08:00, UTC+8); an unknown zone is an error (default: $TZ when ICU "
                  "knows it, else now's offset)");
  sub->add_option("--session-department", o.session_department,
                  "who 我们组 / our team is (default: none: such words set no filter and mark uncertain)");
  sub->add_option("--session-user", o.session_user, "who 我的 / my is (default: none: such words set no filter and mark uncertain)");
}

}  // namespace qaplan::cli
