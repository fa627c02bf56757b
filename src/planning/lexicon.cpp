#include "planning/lexicon.hpp"

#include <algorithm>

#include "common/icu.hpp"
#include "common/utf8.hpp"
#include "planning/matcher.hpp"
#include "planning/text.hpp"

namespace qaplan::internal {

struct Lexicon::Impl {
  Config config;
  LexiconIds ids;
  PatternMatcher matcher;
  // The question words alone (list 0) and the ignore_within phrases (list 1): the rewriter asks
  // where question words are in each text it reads, and the full automaton is large and cold.
  PatternMatcher question_words;
};

Result<Lexicon> Lexicon::create(Config config) {
  if (Status st = config.validate(); !st.ok()) return st.error();
  auto impl = std::make_shared<Impl>();
  LexiconIds& ids = impl->ids;
  auto& m = impl->matcher;
  std::uint32_t next = 0;
  auto add_list = [&](const std::vector<std::string>& words) {
    const std::uint32_t id = next++;
    for (const auto& w : words) m.add(w, id);
    return id;
  };
  const Config& c = config;
  ids.ignore_within = add_list(c.matching.ignore_within);
  ids.greeting = add_list(c.route.greeting);
  ids.thanks = add_list(c.route.thanks);
  ids.goodbye = add_list(c.route.goodbye);
  ids.acknowledgement = add_list(c.route.acknowledgement);
  ids.politeness = add_list(c.route.politeness);
  ids.handoff = add_list(c.route.handoff);
  ids.out_of_scope = add_list(c.route.out_of_scope);
  ids.chit_chat = add_list(c.route.chit_chat);
  ids.context_words = add_list(c.route.context_words);
  ids.connective = add_list(c.route.connectives);
  ids.vocative = add_list(c.route.vocatives);
  ids.request_verb = add_list(c.route.request_verbs);
  ids.request_object = add_list(c.route.request_objects);
  const auto& ev = c.route.evidence;
  ids.ev_interrogative = add_list(ev.interrogatives);
  ids.ev_service = add_list(ev.service_verbs);
  ids.ev_problem = add_list(ev.problem_words);
  ids.ev_info = add_list(ev.info_words);
  ids.ev_time = add_list(ev.time_words);
  ids.ev_assistant = add_list(ev.assistant);
  ids.ev_institution = add_list(ev.institution);
  ids.ev_self = add_list(ev.self_reference);
  ids.ev_self_possessive = add_list(ev.self_possessive);
  ids.ev_emotive = add_list(ev.emotive);
  for (const auto& [name, sc] : c.scenarios) ids.scenario_out_of_scope[name] = add_list(sc.out_of_scope);
  for (const auto& s : c.sources) ids.source.push_back(add_list(s.keywords));
  ids.topic_switch = add_list(c.intent.topic_switch);
  for (const auto& r : c.intent.rules) {
    IntentGate g;
    g.contains = add_list(r.contains_any);
    g.unless = add_list(r.unless_contains_any);
    g.max_units = r.max_units.value_or(0);
    g.min_units = r.min_units.value_or(0);
    g.has_min_units = r.min_units.has_value();
    g.flags = static_cast<std::uint8_t>(
              (r.requires_history ? IntentGate::kHistory : 0) |
              (r.contains_any.empty() ? 0 : IntentGate::kContains) |
              (r.unless_contains_any.empty() ? 0 : IntentGate::kUnless) |
              (r.starts_with_any.empty() ? 0 : IntentGate::kStarts) |
              (r.ends_with_any.empty() ? 0 : IntentGate::kEnds) |
              (r.without_anchor ? IntentGate::kNoAnchor : 0) |
              (r.without_question ? IntentGate::kNoQuestion : 0) |
              (r.max_units ? IntentGate::kMaxUnits : 0));
    ids.intent.push_back(g);
  }
  for (const auto& r : c.category.rules) ids.category.push_back(add_list(r.keywords));
  ids.table = add_list(c.category.table_keywords);
  ids.person_pronoun = add_list(c.rewrite.person_pronouns);
  ids.thing_pronoun = add_list(c.rewrite.thing_pronouns);
  ids.ellipsis_marker = add_list(c.rewrite.ellipsis_markers);
  ids.condition_marker = add_list(c.rewrite.condition_markers);
  ids.comparison_marker = add_list(c.rewrite.comparison_markers);
  ids.elaboration_marker = add_list(c.rewrite.elaboration_markers);
  ids.sequence_marker = add_list(c.rewrite.sequence_markers);
  ids.question_word = add_list(c.rewrite.question_words);
  ids.count = next;
  m.build();
  for (const auto& w : c.rewrite.question_words) impl->question_words.add(w, 0);
  for (const auto& w : c.matching.ignore_within) impl->question_words.add(w, 1);
  impl->question_words.build();
  impl->config = std::move(config);
  return Lexicon(std::move(impl));
}

namespace {

// True when the code point that ends just before byte `end` is a word character.
bool word_at_end(std::string_view t, std::size_t end) {
  if (end == 0) return false;
  std::size_t k = end - 1;
  while (k > 0 && (static_cast<unsigned char>(t[k]) & 0xC0) == 0x80) --k;
  const std::int32_t cp = next_code_point(t, k);
  return cp >= 0 && is_word_char(cp);
}

bool ascii_alnum_at(std::string_view t, std::size_t i) {
  return i < t.size() && is_ascii_alnum(static_cast<unsigned char>(t[i]));
}

// English inflections a cue may carry without a new list entry: leave/leaves, connect/connected/
// connecting, reimburse/reimbursement, thank/thanks.
constexpr std::string_view kSuffixes[] = {"s", "es", "ed", "d", "ing", "ment", "ments", "er", "ers"};

}  // namespace

// A cue that starts (ends) with an ASCII letter or digit must start (end) a word: `hi` is not a
// greeting inside `this`, `vpn` is a keyword in `vpn连不上` but `it` is nothing inside `edit`.
// At the end, an English inflection may follow a cue of three letters or more.
bool at_word_boundaries(std::string_view t, std::uint32_t b, std::uint32_t e) {
  if (ascii_alnum_at(t, b) && b > 0 && ascii_alnum_at(t, b - 1)) return false;
  if (!ascii_alnum_at(t, e - 1) || !ascii_alnum_at(t, e)) return true;
  if (e - b < 3) return false;
  for (std::string_view suffix : kSuffixes)
    if (t.substr(e, suffix.size()) == suffix && !ascii_alnum_at(t, e + suffix.size())) return true;
  return false;
}

namespace {

// The cues of `t` on their word boundaries, none inside an ignore_within phrase (这个 in 这个月),
// appended to `out`: scan() and cue_hits() read them alike.
void collect_hits(const PatternMatcher& matcher, std::uint32_t ignore, std::string_view t,
                  std::vector<CueHit>& out) {
  thread_local std::vector<CueHit> masks;
  masks.clear();
  matcher.scan(t, [&](std::uint32_t list, std::uint32_t b, std::uint32_t e) {
    if (!at_word_boundaries(t, b, e)) return;
    if (list == ignore) masks.push_back({list, b, e});
    else out.push_back({list, b, e});
  });
  if (masks.empty()) return;
  std::erase_if(out, [&](const CueHit& h) {
    return std::any_of(masks.begin(), masks.end(),
                       [&](const CueHit& k) { return k.begin <= h.begin && h.end <= k.end; });
  });
}

}  // namespace

// Social words at the edges (greeting, thanks, goodbye, acknowledgement, fillers) are not part
// of the question.
void trim_social_edges(ScannedQuery& a, const LexiconIds& ids) {
  const auto [b, e] = trim_edges(
      a, {ids.greeting, ids.thanks, ids.goodbye, ids.acknowledgement, ids.politeness});
  a.content_begin = b;
  a.content_end = e;
}

std::size_t discourse_opener_end(std::string_view text, const Lexicon& lex) {
  for (const std::string& o : lex.config().rewrite.discourse_openers) {
    if (!text.starts_with(o) || !text.substr(o.size()).starts_with(",")) continue;
    std::size_t b = o.size() + 1;
    while (b < text.size() && text[b] == ' ') ++b;
    return b < text.size() ? b : 0;
  }
  return 0;
}

std::pair<std::uint32_t, std::uint32_t> trim_edges(const ScannedQuery& a,
                                                   std::initializer_list<std::uint32_t> lists,
                                                   std::initializer_list<std::uint32_t> lead_only) {
  const std::string& t = a.query.text;
  auto strippable = [&](std::uint32_t list) {
    return std::find(lists.begin(), lists.end(), list) != lists.end();
  };
  auto word_at = [&](std::size_t i) {
    std::size_t j = i;
    const std::int32_t cp = next_code_point(t, j);
    return cp >= 0 && is_word_char(cp);
  };
  auto one_code_point = [&](const CueHit& h) {
    std::size_t j = h.begin;
    next_code_point(t, j);
    return j == h.end;
  };
  auto skip_non_words = [&](std::size_t i) {
    while (i < t.size() && !word_at(i)) next_code_point(t, i);
    return i;
  };
  std::size_t b = skip_non_words(0);
  for (bool moved = true; moved && b < t.size();) {
    moved = false;
    const CueHit* best = nullptr;
    for (const CueHit& h : a.hits)
      if (h.begin == b && strippable(h.list) && (!best || h.end > best->end)) best = &h;
    if (!best) break;
    const bool separated = best->end >= t.size() || !word_at(best->end) ||
                           std::any_of(a.hits.begin(), a.hits.end(), [&](const CueHit& h) {
                             return h.begin == best->end && strippable(h.list);
                           });
    if (one_code_point(*best) && !separated) break;
    b = skip_non_words(best->end);
    moved = true;
  }
  // The end of the last word character.
  auto last_word_end = [&](std::size_t end) {
    while (end > b) {
      std::size_t k = end - 1;
      while (k > b && (static_cast<unsigned char>(t[k]) & 0xC0) == 0x80) --k;
      if (word_at(k)) return end;
      end = k;
    }
    return end;
  };
  // A cue right after a negation is the verb it negates (没收到, 还是不明白), not a reply.
  auto negated = [&](std::size_t begin) {
    return ends_with_negation(std::string_view(t).substr(b, begin - b));
  };
  // `chain`: whether a one-character cue next to another counts as separated from the text.
  auto trimmed_end = [&](bool chain) {
    std::size_t e = last_word_end(t.size());
    for (bool moved = true; moved && e > b;) {
      moved = false;
      const CueHit* best = nullptr;
      for (const CueHit& h : a.hits)
        if (h.end == e && h.begin >= b && strippable(h.list) && (!best || h.begin < best->begin))
          best = &h;
      if (!best) break;
      const bool separated = best->begin == b || !word_at_end(t, best->begin) ||
                             std::any_of(a.hits.begin(), a.hits.end(), [&](const CueHit& h) {
                               return h.end == best->begin && strippable(h.list) &&
                                      (chain || !one_code_point(h));
                             });
      const bool leads = std::find(lead_only.begin(), lead_only.end(), best->list) != lead_only.end();
      if ((one_code_point(*best) || leads) && !separated) break;
      if (!separated && negated(best->begin)) break;
      e = last_word_end(best->begin);
      moved = true;
    }
    return e;
  };
  // Particles that chain (了呢, 的吗) close a question (那工资算错了呢) and stay in it; only a
  // message that is nothing but such cues (好啊, 嗯呢) is all social. What is left of one after
  // the words are trimmed is a few one-character cues, so only a short rest is read again.
  constexpr std::size_t kParticleRun = 4 * 3;  // four Han characters
  std::size_t e = trimmed_end(false);
  if (e > b && e - b <= kParticleRun)
    if (const std::size_t all = trimmed_end(true); all <= b) e = all;
  return {static_cast<std::uint32_t>(b), static_cast<std::uint32_t>(std::max(b, e))};
}

bool has_work_anchor(const ScannedQuery& q, const LexiconIds& ids) {
  if (q.has_in_content(ids.table)) return true;
  for (std::uint32_t id : ids.source)
    if (q.has_in_content(id)) return true;
  for (std::uint32_t id : ids.category)
    if (q.has_in_content(id)) return true;
  return false;
}

const Config& Lexicon::config() const noexcept { return impl_->config; }
const LexiconIds& Lexicon::ids() const noexcept { return impl_->ids; }

void Lexicon::cue_hits(std::string_view t, std::vector<CueHit>& out) const {
  out.clear();
  collect_hits(impl_->matcher, impl_->ids.ignore_within, t, out);
}

ScannedQuery Lexicon::scan(NormalizedQuery query) const {
  ScannedQuery a;
  a.query = std::move(query);
  a.hits.reserve(16);  // a question has a handful of cues: one allocation instead of regrowth
  const std::string& t = a.query.text;
  collect_hits(impl_->matcher, impl_->ids.ignore_within, t, a.hits);
  a.present.assign((impl_->ids.count + 63) / 64, 0);
  for (const CueHit& h : a.hits) a.present[h.list / 64] |= std::uint64_t{1} << (h.list % 64);
  trim_social_edges(a, impl_->ids);
  a.content_present.assign(a.present.size(), 0);
  for (const CueHit& h : a.hits)
    if (h.begin >= a.content_begin && h.end <= a.content_end)
      a.content_present[h.list / 64] |= std::uint64_t{1} << (h.list % 64);
  // normalize_question() counted the whole text: recount only when the content is less (social
  // words trimmed) or no count came with it (the rewriter's scans).
  if (a.query.query_units == 0 || a.content_begin != 0 || a.content_end != t.size())
    a.query.query_units = count_query_units(a.content());
  return a;
}

void Lexicon::question_word_hits(std::string_view t, std::vector<CueHit>& out) const {
  out.clear();
  std::vector<CueHit> masks;
  impl_->question_words.scan(t, [&](std::uint32_t list, std::uint32_t b, std::uint32_t e) {
    if (!at_word_boundaries(t, b, e)) return;
    (list == 1 ? masks : out).push_back({impl_->ids.question_word, b, e});
  });
  // As scan() reads them: none inside an ignore_within phrase.
  if (!masks.empty())
    std::erase_if(out, [&](const CueHit& h) {
      return std::any_of(masks.begin(), masks.end(),
                         [&](const CueHit& k) { return k.begin <= h.begin && h.end <= k.end; });
    });
}

std::vector<bool> cue_coverage(const ScannedQuery& q, std::initializer_list<std::uint32_t> lists) {
  return cue_coverage(q, lists, {});
}

std::vector<bool> cue_coverage(const ScannedQuery& q, std::initializer_list<std::uint32_t> lists,
                               const std::vector<std::uint32_t>& more) {
  std::vector<bool> covered(q.query.text.size(), false);
  for (const CueHit& h : q.hits)
    if (std::find(lists.begin(), lists.end(), h.list) != lists.end() ||
        std::find(more.begin(), more.end(), h.list) != more.end())
      for (std::uint32_t i = h.begin; i < h.end; ++i) covered[i] = true;
  return covered;
}

bool covered_only(const ScannedQuery& q, const std::vector<bool>& coverage, std::size_t b,
                  std::size_t e) {
  const std::string& t = q.query.text;
  std::size_t i = b;
  while (i < e) {
    const std::size_t at = i;
    const std::int32_t cp = next_code_point(t, i);
    // Anything word-like left over is substance: the text says more than the cue words.
    if ((cp < 0 || is_word_char(cp)) && !coverage[at]) return false;
  }
  return true;
}

bool consists_only_of(const ScannedQuery& q, std::initializer_list<std::uint32_t> lists,
                      std::uint32_t required) {
  return q.has(required) && covered_only(q, cue_coverage(q, lists), 0, q.query.text.size());
}

std::string_view core_text(std::string_view text) noexcept {
  // Strip trailing code points that are not letters, digits or ideographs (?, 。, !, ~, emoji).
  std::size_t end = text.size();
  while (end > 0) {
    std::size_t b = end - 1;
    while (b > 0 && (static_cast<unsigned char>(text[b]) & 0xC0) == 0x80) --b;
    std::size_t i = b;
    const std::int32_t cp = next_code_point(text, i);
    if (cp >= 0 && is_word_char(cp)) break;
    end = b;
  }
  return text.substr(0, end);
}

bool ends_with_negation(std::string_view before) noexcept {
  return before.ends_with("没") || before.ends_with("不") || before.ends_with("未");
}

std::string first_hit_text(const ScannedQuery& q, std::uint32_t list) {
  for (const CueHit& h : q.hits)
    if (h.list == list) return q.query.text.substr(h.begin, h.end - h.begin);
  return {};
}

}  // namespace qaplan::internal
