#pragma once
// The garble check (docs/rewrite.md): whether a rewrite or a variant of a follow-up is a query a
// retriever can trust. It reads the output against what it was made from — the current turn, the
// history window and the topic anchor — by whole words (ICU's dictionary word break, the
// rewriter's own segmentation), and names the first rule the output breaks:
//  - drops:<w>    a content word of the turn is missing (function words, pronouns, markers and
//                 question words may go: 它 is replaced, 那…呢 stripped);
//  - splits:<w>   a word of the output is a piece of a word of the turn or history that is no
//                 word of its own there (二一线城市 holds 二 of 二线);
//  - doubled:<x>  a character or word repeated at a seam where no source repeats it (年假假期);
//  - too_long     longer than anchor + turn + [rewrite] max_growth query units (a clause of the
//                 history pasted in; a closing phrase the rewriter says itself, 之后的流程是什么,
//                 is not counted);
//  - no_anchor    a variant that does not share the topic anchor.
// One word break per text; a word of the output that is no source word is looked for in the
// source words (short texts: questions are capped by [input]).
#include <string>
#include <string_view>
#include <vector>

#include "planning/analysis/constraints.hpp"
#include "qaplan/planning/config.hpp"

namespace qaplan::internal {

struct RewriteSources {
  std::string_view turn;                  ///< the current turn, social words around it trimmed
  std::vector<std::string_view> history;  ///< the window the rewrite may draw from
  std::string_view anchor;                ///< the topic anchor ("" = none)
  int max_growth = 12;                    ///< query units allowed beyond anchor + turn
};

/// Which rules apply: a follow-up's rewrite and variants keep the turn's words and its variants
/// share the anchor; a standalone question's paraphrases may drop words (部分, 制度) and are held
/// to the other rules and to its constraints (numbers, IDs, entities: constraints.hpp).
struct GarbleRules {
  bool keep_words = true;
  bool share_anchor = false;
};

/// The check prepared once for one set of sources (each source segmented once); `reason()` then
/// segments only the output (and the history once, when an output word needs it). Holds views
/// into `from` and `skip`: both must outlive it. Not for concurrent use (one per analysis).
class GarbleCheck {
 public:
  GarbleCheck(const RewriteSources& from, const WordSet& skip);
  /// "" when `output` breaks no rule, else the first broken rule ("drops:年假", "too_long", …).
  std::string reason(std::string_view output, GarbleRules rules = {}) const;
  /// The safe form a rejected rewrite falls back to (below).
  std::string fallback() const;

 private:
  bool in_sources(std::string_view piece) const;
  bool words_meet(std::string_view output, std::size_t at) const;
  void read_history() const;

  RewriteSources from_;
  const WordSet& skip_;
  std::size_t budget_ = 0;               // query units: anchor + turn + max_growth
  std::vector<std::string_view> keep_;   // content words of the turn
  mutable std::vector<std::string_view> whole_;  // words of the sources, sorted
  mutable std::vector<std::string_view> long_;   // those of two code points or more
  std::size_t turn_long_ = 0;                     // long_[0, turn_long_) are the turn's
  mutable bool history_read_ = false;
};

/// The words a rewrite may drop or replace: the [rewrite] lists (function words, pronouns,
/// markers, question words, report frames) and the words for both of a pair (两者).
WordSet rewrite_words(const RewriteConfig& config);

/// GarbleCheck(from, skip).reason(output, rules). `skip`: words a rewrite may drop (the [rewrite]
/// lists).
std::string garble_reason(std::string_view output, const RewriteSources& from, const WordSet& skip,
                          GarbleRules rules = {});

/// The safe form a rejected rewrite falls back to: the anchor, a space, the turn (年假 需要提前几天);
/// the turn alone when there is no anchor or the turn holds it.
std::string fallback_rewrite(const RewriteSources& from);

}  // namespace qaplan::internal
