#pragma once
// The compiled form of a Config's word lists: one Aho-Corasick automaton over every cue phrase
// (route, scenarios, sources, intent rules, categories, table), built once. `scan()` reads a
// normalized question in one linear pass and records which lists matched where; the stage
// functions (route, intent, category, source) then only read that record.
// Immutable and thread-safe after create(); cheap to copy (shared state).
#include <cstdint>
#include <initializer_list>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "qaplan/planning/config.hpp"
#include "qaplan/planning/types.hpp"

namespace qaplan::internal {

/// One cue occurrence: list `list` (a lexicon list id) matched bytes [begin, end).
struct CueHit {
  std::uint32_t list = 0;
  std::uint32_t begin = 0;
  std::uint32_t end = 0;
};

/// A normalized question plus every cue hit in it (hits inside a [matching] ignore_within
/// phrase already removed).
struct ScannedQuery {
  NormalizedQuery query;
  std::vector<CueHit> hits;
  std::vector<std::uint64_t> present;  ///< bitset over list ids
  /// The question without the social words around it (你好，请问 … 谢谢): bytes
  /// [content_begin, content_end) of query.text. query.query_units counts this span only, so a
  /// greeting does not make a short question long.
  std::uint32_t content_begin = 0;
  std::uint32_t content_end = 0;

  std::vector<std::uint64_t> content_present;  ///< bitset over lists with a hit in the content

  std::string_view content() const noexcept {
    return std::string_view(query.text).substr(content_begin, content_end - content_begin);
  }
  bool has_in_content(std::uint32_t list) const noexcept {
    const std::size_t w = list / 64;
    return w < content_present.size() && ((content_present[w] >> (list % 64)) & 1u) != 0;
  }

  bool has(std::uint32_t list) const noexcept {
    const std::size_t w = list / 64;
    return w < present.size() && ((present[w] >> (list % 64)) & 1u) != 0;
  }
};

/// List ids, resolved once so stages never look names up per question.
/// What the intent stage tests of an [[intent.rules]] entry, packed: the entries themselves are
/// some 170 bytes each, read field by field for every question (two or three cold lines apiece
/// after a retrieval), these 20 bytes.
struct IntentGate {
  enum : std::uint8_t {
    kHistory = 1,       // requires_history
    kContains = 2,      // contains_any is not empty
    kUnless = 4,        // unless_contains_any is not empty
    kStarts = 8,        // starts_with_any is not empty
    kEnds = 16,         // ends_with_any is not empty
    kNoAnchor = 32,     // without_anchor
    kNoQuestion = 64,   // without_question
    kMaxUnits = 128,    // max_units is set
  };
  std::uint32_t contains = 0, unless = 0;  // the lists' ids
  std::int32_t max_units = 0, min_units = 0;
  std::uint8_t flags = 0;
  bool has_min_units = false;
  bool has(std::uint8_t f) const noexcept { return (flags & f) != 0; }
};

struct LexiconIds {
  std::uint32_t ignore_within = 0;
  std::uint32_t greeting = 0;
  std::uint32_t thanks = 0;
  std::uint32_t goodbye = 0;
  std::uint32_t acknowledgement = 0;
  std::uint32_t politeness = 0;
  std::uint32_t handoff = 0;
  std::uint32_t out_of_scope = 0;
  std::uint32_t chit_chat = 0;
  std::uint32_t context_words = 0;
  std::uint32_t connective = 0;
  std::uint32_t vocative = 0;
  std::uint32_t request_verb = 0;
  std::uint32_t request_object = 0;
  std::uint32_t ev_interrogative = 0;  // [route.evidence] lists
  std::uint32_t ev_service = 0;
  std::uint32_t ev_problem = 0;
  std::uint32_t ev_info = 0;
  std::uint32_t ev_time = 0;
  std::uint32_t ev_assistant = 0;
  std::uint32_t ev_institution = 0;
  std::uint32_t ev_self = 0;
  std::uint32_t ev_self_possessive = 0;
  std::uint32_t ev_emotive = 0;
  std::map<std::string, std::uint32_t, std::less<>> scenario_out_of_scope;
  std::vector<std::uint32_t> source;           // parallel to Config::sources
  std::uint32_t topic_switch = 0;
  std::vector<IntentGate> intent;               // parallel to IntentConfig::rules
  std::vector<std::uint32_t> category;         // parallel to CategoryConfig::rules
  std::uint32_t table = 0;
  std::uint32_t person_pronoun = 0;  // [rewrite] lists
  std::uint32_t thing_pronoun = 0;
  std::uint32_t ellipsis_marker = 0;
  std::uint32_t condition_marker = 0;
  std::uint32_t comparison_marker = 0;
  std::uint32_t elaboration_marker = 0;
  std::uint32_t sequence_marker = 0;
  std::uint32_t question_word = 0;
  std::uint32_t count = 0;
};

class Lexicon {
 public:
  /// Validates `config` and compiles its lists. Errors: kInvalidConfig.
  static Result<Lexicon> create(Config config);

  /// Scans a normalized question. Linear in its length plus the number of hits.
  ScannedQuery scan(NormalizedQuery query) const;
  /// The hits scan() would find in `text`, and nothing else it reads (no social edges, no
  /// counts): for a caller that only looks at which cues a text holds. `out` is cleared first.
  void cue_hits(std::string_view text, std::vector<CueHit>& out) const;
  /// The question_word hits scan() would find in `text` (word boundaries, ignore_within), from a
  /// small automaton of those lists alone; `out` is cleared first.
  void question_word_hits(std::string_view text, std::vector<CueHit>& out) const;

  const Config& config() const noexcept;
  const LexiconIds& ids() const noexcept;

 private:
  struct Impl;
  explicit Lexicon(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}
  std::shared_ptr<const Impl> impl_;
};

/// Which bytes of q's text lie inside a hit of one of `lists` (one pass over the hits).
std::vector<bool> cue_coverage(const ScannedQuery& q, std::initializer_list<std::uint32_t> lists);
/// The same over `lists` and the lists of `more` (e.g. every source's keyword list).
std::vector<bool> cue_coverage(const ScannedQuery& q, std::initializer_list<std::uint32_t> lists,
                               const std::vector<std::uint32_t>& more);
/// True when every word character of text[b, e) is covered by `coverage`.
bool covered_only(const ScannedQuery& q, const std::vector<bool>& coverage, std::size_t b,
                  std::size_t e);

/// True when every letter, digit or Han character of the text is covered by a hit of `lists`
/// (punctuation, spaces, symbols and emoji may remain), and at least one hit of `required`
/// exists. Used for "the message is only a greeting" and "the message is only 人工".
bool consists_only_of(const ScannedQuery& q, std::initializer_list<std::uint32_t> lists,
                      std::uint32_t required);

/// The question without trailing punctuation/symbols/spaces (for ends_with checks).
std::string_view core_text(std::string_view text) noexcept;

/// True when `before` (the text up to a cue) ends with 没, 不 or 未: the cue is the verb they
/// negate (没收到, 不明白), not a reply.
bool ends_with_negation(std::string_view before) noexcept;

/// True when the question (its content, not the social words around it) carries a work cue: a
/// source, category or table keyword — a subject of its own.
bool has_work_anchor(const ScannedQuery& q, const LexiconIds& ids);

/// Sets content_begin/content_end of a freshly scanned query (see ScannedQuery): the text without
/// greetings, thanks, goodbyes, acknowledgements and politeness at its edges.
void trim_social_edges(ScannedQuery& q, const LexiconIds& ids);

/// Bytes [begin, end) of `q`'s text without the hits of `lists` at its edges and the non-word
/// characters beside them. A one-character cue (好, 嗯) only counts when punctuation or another
/// such cue separates it from the rest, so 好用吗 keeps its 好. The rewriter trims the social
/// acts only (politeness frames the question it rewrites). A hit of `lead_only` at the end counts
/// only when set apart the same way (张敏周末在吗 asks; 你好，在吗 greets; 多久能收到 asks, 好的，
/// 收到 acknowledges).
std::pair<std::uint32_t, std::uint32_t> trim_edges(const ScannedQuery& q,
                                                   std::initializer_list<std::uint32_t> lists,
                                                   std::initializer_list<std::uint32_t> lead_only = {});

/// Bytes of `text` a leading discourse opener and its comma take, spaces after them included
/// (对了，他们… → the bytes of 对了，), 0 when none opens it or nothing follows (`[rewrite]
/// discourse_openers`). The rewrite and the follow-up rules both read the turn after them.
std::size_t discourse_opener_end(std::string_view text, const Lexicon& lex);

/// False when a cue hit [b, e) would cut an ASCII word (see lexicon.cpp).
bool at_word_boundaries(std::string_view text, std::uint32_t b, std::uint32_t e);

/// The text of the first hit of `list` ("" when none).
std::string first_hit_text(const ScannedQuery& q, std::uint32_t list);

}  // namespace qaplan::internal
