#pragma once
// The form a configured cue must have to ever match: questions are normalized (text.hpp: NFKC
// casefold, whitespace rules, Traditional → Simplified) before any list is matched, so a cue
// written otherwise ("VPN", "ＶＰＮ", "請假") could never match. Shared by the rules reader (which
// names the entry's line and column) and Config::validate() (a Config built in code).
#include <string>
#include <vector>

namespace qaplan::internal {

/// "" or why `cue` cannot match: empty, not UTF-8, or not in normalized form (the message
/// names the form to write).
std::string check_cue_form(const std::string& cue);

/// check_cue_form over a list: "" or "entry N ('…') …" for the first bad entry.
std::string check_cue_list(const std::vector<std::string>& cues);

}  // namespace qaplan::internal
