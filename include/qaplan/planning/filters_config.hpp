#pragma once
/// [filters] of config/rules.toml: the vocabulary that turns words of a question into the
/// structured filters (date_range, department, tags, path_prefix, is_signed).
/// Time expressions (今天, 上个月, 2024年3月, 最近7天, last quarter …) are a built-in grammar;
/// the config sets how they are anchored (week start, the Spring Festival window) and every
/// deployment-specific word list. See config/rules.toml for each key's meaning and default.
#include <atomic>
#include <memory>
#include <string>
#include <vector>


namespace qaplan {

namespace internal {
struct FiltersIndex;  // the compiled automaton (src/planning/analysis/filters.cpp)
}

/// [[filters.departments]]: a department's metadata value and the words that name it.
struct FilterDepartment {
  std::string name;                  ///< the metadata value ("财务部"); also matched itself
  std::vector<std::string> aliases;  ///< other names (财务, finance department), normalized form
  friend bool operator==(const FilterDepartment&, const FilterDepartment&) = default;
};

/// [[filters.tags]]: a tag and the words that ask for it (tags combine with AND).
struct FilterTag {
  std::string tag;                ///< the metadata value ("合同")
  std::vector<std::string> cues;  ///< 合同, 协议, contract — normalized form
  friend bool operator==(const FilterTag&, const FilterTag&) = default;
};

/// [[filters.paths]]: a path prefix and the words that ask for it.
struct FilterPath {
  std::string prefix;             ///< "/contracts/"
  std::vector<std::string> cues;  ///< 合同库, 合同档案 — normalized form
  friend bool operator==(const FilterPath&, const FilterPath&) = default;
};

/// The compiled form of a FiltersConfig (one Aho-Corasick automaton over the built-in time words
/// and every cue list), built on first use and kept with the config so each question is one
/// scan. A copy starts without it (and compiles on its own first use); a move takes it along.
/// An edit after first use that changes the length of a list or a number is noticed and the
/// vocabulary compiled again; an edit that only rewrites a cue in place is not — edit a config
/// before using it, or edit a copy. Never makes two configs compare unequal. Thread-safe: many
/// threads may extract with one config at once.
class FiltersCompiled {
 public:
  FiltersCompiled() = default;
  FiltersCompiled(const FiltersCompiled&) noexcept {}
  FiltersCompiled(FiltersCompiled&& other) noexcept : index_(other.index_.exchange(nullptr)) {}
  FiltersCompiled& operator=(const FiltersCompiled&) noexcept {
    index_.store(nullptr);
    return *this;
  }
  FiltersCompiled& operator=(FiltersCompiled&& other) noexcept {
    if (this != &other) index_.store(other.index_.exchange(nullptr));
    return *this;
  }
  friend bool operator==(const FiltersCompiled&, const FiltersCompiled&) noexcept { return true; }

 private:
  friend struct internal::FiltersIndex;
  mutable std::atomic<std::shared_ptr<const internal::FiltersIndex>> index_;
};

/// [filters]. Defaults: week_start 1 (Monday), a 30-day Spring Festival window, windows up to
/// 3660 days, no vocabulary (only time filters) — the shipped rules.toml fills the lists.
struct FiltersConfig {
  int week_start = 1;             ///< first day of 本周/上周/this week: 1 = Monday … 7 = Sunday
  int spring_festival_days = 30;  ///< 春节前 = [festival − N days, festival), 春节后 = [festival, + N)
  /// Official Spring Festival dates ("2027-02-06") that override ICU's Chinese calendar for
  /// their year (ICU 72 is a day off for some near-midnight new moons).
  std::vector<std::string> spring_festival_dates;
  /// A range longer than this many days (最近99999天, 过去100年) is no filter.
  int max_window_days = 3660;
  /// A month, day, quarter or half named without its year is the coming one when it begins
  /// within this many days, else the last one (12月 asked in March: last December).
  int year_less_ahead_days = 92;
  /// … or within this many days when the question names a plan (plan_words: 下半年的计划 asked
  /// in March is this year's second half).
  int year_less_plan_ahead_days = 183;
  /// … or within this many days for a public holiday (国庆, 春节期间): asked about well ahead for
  /// its arrangements.
  int year_less_holiday_ahead_days = 150;
  /// Words of plans and schedules (计划, 安排, 排班, 预算): the question looks ahead.
  std::vector<std::string> plan_words;
  std::vector<FilterDepartment> departments;
  std::vector<FilterTag> tags;
  std::vector<FilterPath> paths;
  std::vector<std::string> signed_cues;  ///< is_signed = true: 盖章, 正式版, 签字版, 已签
  std::vector<std::string> draft_cues;   ///< is_signed = false: 草稿, 征求意见稿, 未签
  /// Words meaning the asker's own group (我们组, 我们部门, 本部门): the department filter is
  /// AnalysisContext::session_department, or nothing plus `uncertain` when it is not given.
  std::vector<std::string> session_department_cues;
  /// Words meaning the asker (我的, 我自己的): Filters::user = session_user, or `uncertain`.
  std::vector<std::string> session_user_cues;
  /// A cue or time word inside one of these phrases is ignored (前天 in 提前天数, 近 in 接近).
  std::vector<std::string> ignore_within;
  /// The documents' publication-date field: a range with 发布/印发/公布 (上个月发布的) filters
  /// on it (TimeRange::date "published"), not on the validity range. "" = the documents carry
  /// no publication date: such a range is no filter (with a reason), never a validity filter.
  std::string published_date_field;
  /// The same for 签署/签订 (去年签署的合同: TimeRange::date "signed").
  std::string signed_date_field;
  /// The same for 更新/修订/修改 (最近7天更新的公告: TimeRange::date "updated").
  std::string updated_date_field;
  /// What a department, tag or path read from the question's words does in retrieval: "prefer"
  /// (the default: they are a guess at how documents are filed, so matching documents rank higher
  /// and the others still come back; Filters::preferred) or "require" (hard filters). A
  /// department from the session identity (我们组) is always required.
  std::string word_filters = "prefer";
  /// Not configuration: the compiled matcher (see FiltersCompiled).
  FiltersCompiled compiled;
  friend bool operator==(const FiltersConfig&, const FiltersConfig&) = default;
};

}  // namespace qaplan
