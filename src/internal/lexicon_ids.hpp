#pragma once
// Lexicon list ids, visible to the stage sources only.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "qaplan/lexicon.hpp"

namespace qaplan {

struct Lexicon::Ids {
  std::uint32_t ignore_within = 0;
  std::uint32_t greeting = 0;
  std::uint32_t politeness = 0;
  std::uint32_t handoff = 0;
  std::uint32_t handoff_standalone = 0;
  std::uint32_t out_of_scope = 0;
  std::map<std::string, std::uint32_t, std::less<>> scenario_out_of_scope;
  std::vector<std::uint32_t> source;               // parallel to Config::sources
  std::vector<std::uint32_t> intent_contains;      // parallel to IntentConfig::rules
  std::vector<std::uint32_t> intent_unless;        // parallel to IntentConfig::rules
  std::vector<std::uint32_t> category;             // parallel to CategoryConfig::rules
  std::uint32_t table = 0;
  std::uint32_t count = 0;
};

namespace internal {

/// True when every letter, digit or Han character of the text is covered by a hit of `lists`
/// (punctuation, spaces, symbols and emoji may remain), and at least one hit of `required`
/// exists. Used for "the message is only a greeting" and "the message is only 人工".
bool consists_only_of(const QueryAnalysis& q, std::initializer_list<std::uint32_t> lists,
                      std::uint32_t required);

/// The question without trailing punctuation/symbols/spaces (for ends_with checks).
std::string_view core_text(std::string_view text) noexcept;

}  // namespace internal
}  // namespace qaplan
