#pragma once
// The time filters of a question (docs/guide.md#time-filters): the time mentions time_expr.hpp
// finds, anchored at the request's `now` in its zone (time_anchor.cpp), grouped into periods — a
// range's two ends are one, a comparison's items are one each — one TimeRange per period, on the
// document date its verb names. Called by extract_filters (filters.hpp).
#include <span>
#include <string>
#include <string_view>
#include <utility>

#include "common/dates.hpp"
#include "planning/analysis/time_expr.hpp"
#include "qaplan/planning/analysis.hpp"
#include "qaplan/planning/filters_config.hpp"

namespace qaplan::internal {

/// Appends to `f` the time ranges of `mentions` (found in `text`), with a reason per decision:
/// `time`, `time_ranges` and, without a usable now or zone, `uncertain`.
void time_filters(std::string_view text, std::span<const TimeMention> mentions,
                  const FiltersConfig& config,
                  std::span<const std::pair<int, dates::Day>> festival_overrides,
                  const AnalysisContext& context, Filters& f);

/// `v` quoted when it is one short printable line, else its length: a request's value in a reason.
std::string echo(const std::string& v);

}  // namespace qaplan::internal
