#pragma once
// Traditional → Simplified Chinese (OpenCC's tw2sp phrase and character tables; simplify.cpp says
// why its variant tables are left out), so
// 報銷費用超過5000需要誰審批 and 軟體 reach the lexicon, the classifier and the source keywords as
// 报销费用超过5000需要谁审批 and 软件. Only text that contains a character the conversion changes
// pays for it; everything else is returned untouched without calling OpenCC.
// Thread-safe: the converter is created once per process and only read afterwards.
#include <string>
#include <string_view>

#include "qaplan/status.hpp"

namespace qaplan::internal {

/// True when `utf8` (valid UTF-8) holds a code point the conversion changes (a Traditional
/// character). One table lookup per code point.
bool has_traditional(std::string_view utf8) noexcept;

/// The Simplified form of `utf8` when has_traditional(), else `utf8` itself. Errors: kInternal
/// when OpenCC or its tw2sp data cannot be loaded.
QAPLAN_API Result<std::string> to_simplified(std::string_view utf8);

/// Loads OpenCC (first call only); Planner::create calls it so a missing OpenCC is a startup
/// error, not a per-question one. Errors: kInternal.
Status ensure_simplifier();

}  // namespace qaplan::internal
