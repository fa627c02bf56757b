#pragma once
/// The compiled form of a Config's word lists: one Aho-Corasick automaton over every cue phrase
/// (route, scenarios, sources, intent rules, categories, table), built once. `analyze()` scans a
/// normalized question in one linear pass and records which lists matched where; the stage
/// functions (route, intent, category, source) then only read that record.
/// Immutable and thread-safe after create(); cheap to copy (shared state).
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "qaplan/config.hpp"
#include "qaplan/export.hpp"
#include "qaplan/status.hpp"
#include "qaplan/text.hpp"

namespace qaplan {

/// One cue occurrence: list `list` (a Lexicon-internal id) matched bytes [begin, end).
struct CueHit {
  std::uint32_t list = 0;
  std::uint32_t begin = 0;
  std::uint32_t end = 0;
};

/// A normalized question plus every cue hit in it (hits inside a [matching] ignore_within
/// phrase already removed).
struct QueryAnalysis {
  NormalizedQuery query;
  std::vector<CueHit> hits;
  std::vector<std::uint64_t> present;  ///< bitset over list ids

  bool has(std::uint32_t list) const noexcept {
    const std::size_t w = list / 64;
    return w < present.size() && ((present[w] >> (list % 64)) & 1u) != 0;
  }
};

class QAPLAN_API Lexicon {
 public:
  /// Validates `config` and compiles its lists. Errors: kInvalidConfig.
  static Result<Lexicon> create(Config config);

  /// Scans a normalized question. Linear in its length plus the number of hits.
  QueryAnalysis analyze(NormalizedQuery query) const;

  const Config& config() const noexcept;

  /// Internal list ids, resolved once so stages never look names up per question.
  struct Ids;
  const Ids& ids() const noexcept;

 private:
  struct Impl;
  explicit Lexicon(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}
  std::shared_ptr<const Impl> impl_;
};

}  // namespace qaplan
