#pragma once
// Traditional → Simplified Chinese (OpenCC's tw2sp phrase and character tables; simplify.cpp says
// why its variant tables are left out), so
// 報銷費用超過5000需要誰審批 and 軟體 reach the lexicon, the classifier and the source keywords as
// 报销费用超过5000需要谁审批 and 软件. Only text that contains a character the conversion changes
// pays for it; everything else is returned untouched without calling OpenCC. Which characters
// are Traditional is a table computed from OpenCC at build time (tw2s.hpp); the converter itself
// is set up on the first text that needs it.
// Thread-safe: the converter is created once per process and only read afterwards.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "qaplan/status.hpp"

namespace qaplan::internal {

/// True when `utf8` (valid UTF-8) holds a code point the conversion changes (a Traditional
/// character). One table lookup per code point.
bool has_traditional(std::string_view utf8) noexcept;

/// True unless the conversion is known to return `utf8` (valid UTF-8) as it is: it holds a
/// character that changes on its own, a phrase of tw2s::hidden_phrases() (解析度, 瞭解), or a
/// code point beyond the BMP. Exact where has_traditional() is only a gate (it marks 解 for
/// 瞭解's sake), so a cue such as 了解 is known to be Simplified without setting OpenCC up.
/// Linear in the text (a few binary searches per character); not on the planning path.
bool conversion_may_change(std::string_view utf8);

/// The Simplified form of `utf8` when has_traditional(), else `utf8` itself. Errors: kInternal
/// when OpenCC or its tw2sp data cannot be loaded.
QAPLAN_API Result<std::string> to_simplified(std::string_view utf8);

/// Sets up the OpenCC converter (first call only). Errors: kInternal when OpenCC or its data
/// is missing; to_simplified() then fails on the first Traditional text.
Status ensure_simplifier();

/// The compiled set of BMP code points the conversion changes (1024 × 64 bits), for the test
/// that checks it against OpenCC's tables at run time.
std::span<const std::uint64_t> traditional_table() noexcept;
/// The compiled code points that change on their own, and the compiled hidden phrases (sorted).
std::span<const std::uint64_t> changed_alone_table() noexcept;
std::span<const std::string_view> hidden_phrase_table() noexcept;

}  // namespace qaplan::internal
