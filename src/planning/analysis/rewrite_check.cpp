#include "planning/analysis/rewrite_check.hpp"

#include <algorithm>
#include <array>
#include <bitset>

#include "common/utf8.hpp"
#include "planning/analysis/also_verdict.hpp"
#include "planning/analysis/antecedent.hpp"
#include "planning/analysis/coordination.hpp"
#include "planning/analysis/phrases.hpp"
#include "planning/list_reference.hpp"
#include "planning/segment.hpp"
#include "planning/text.hpp"

namespace qaplan::internal {
namespace {

// Byte order (std::string_view's, unsigned bytes), compared inline: words are a few bytes long,
// and memcmp's call per comparison was most of the check's sorting and searching.
bool bytes_less(std::string_view a, std::string_view b) {
  const std::size_t n = std::min(a.size(), b.size());
  for (std::size_t i = 0; i < n; ++i)
    if (a[i] != b[i]) return static_cast<unsigned char>(a[i]) < static_cast<unsigned char>(b[i]);
  return a.size() < b.size();
}

// The words as the rewriter reads them (phrases.hpp): ICU's, with IDs, 《titles》 and a number with
// its unit (7月) whole.
void word_texts_into(std::string_view text, std::vector<std::string_view>& out) {
  thread_local std::vector<Token> words;  // reused: the check reads several texts
  words_of_into(text, words);
  out.reserve(out.size() + words.size());
  for (const Token& t : words)
    if (t.word) out.push_back(t.text(text));
}

// A verb ICU read with the 了 closing the turn (不|喝了, 读|完了|没) is two words: an object may go
// between them (不喝可乐了, 读完红楼梦了没).
void split_closing_le(std::vector<std::string_view>& words) {
  constexpr std::string_view le = "了";
  std::size_t k = words.size();
  if (k >= 2 && count_code_points(words.back()) == 1) --k;  // a final particle (没, 吗)
  if (k == 0) return;
  const std::string_view w = words[k - 1];
  if (w.size() <= le.size() || !w.ends_with(le) || count_code_points(w) != 2) return;
  words[k - 1] = w.substr(0, w.size() - le.size());
  words.insert(words.begin() + static_cast<std::ptrdiff_t>(k), w.substr(w.size() - le.size()));
}

// The first run of 2–4 Han characters that the text repeats right after it, or "". Linear: the
// text is decoded once into its code points' starts, three lengths compared at each character.
std::string_view doubled_run(std::string_view text) {
  thread_local std::vector<std::size_t> at;  // each code point's first byte, and the end
  at.clear();
  for (std::size_t i = 0; i < text.size(); next_code_point(text, i)) at.push_back(i);
  at.push_back(text.size());
  const std::size_t n = at.size() - 1;  // code points
  for (std::size_t c = 0; c < n; ++c)
    for (std::size_t len = 2; len <= 4 && c + 2 * len <= n; ++len) {
      const std::string_view a = text.substr(at[c], at[c + len] - at[c]);
      if (static_cast<unsigned char>(a[0]) >= 0xE0 &&
          same_bytes(a, text.substr(at[c + len], at[c + 2 * len] - at[c + len])))
        return a;
    }
  return {};
}

// Length in query units (a Han character or a word of letters counts one): text.hpp's measure.
std::size_t units(std::string_view text) { return static_cast<std::size_t>(count_query_units(text)); }

// A word made of words of `skip` (它的 = 它 + 的, 那里 = 那 + 里). Only short words are split
// (a longer one is content): at most 16 code points, so the table below stays tiny.
bool made_of(std::string_view w, const WordSet& skip) {
  if (skip.contains(w)) return true;
  std::array<std::size_t, 17> at{};  // code point boundaries
  std::size_t n = 0;
  for (std::size_t i = 0; i < w.size() && n < at.size();) {
    at[n++] = i;
    next_code_point(w, i);
  }
  if (n == at.size()) return false;
  at[n++] = w.size();
  std::bitset<17> reached;
  reached[0] = true;
  for (std::size_t i = 0; i + 1 < n; ++i)
    if (reached[i])
      for (std::size_t j = i + 1; j < n; ++j)
        if (skip.contains(w.substr(at[i], at[j] - at[i]))) reached[j] = true;
  return reached[n - 1];
}

// The first / last `k` code points of `s`, or "" when it has fewer.
std::string_view first_points(std::string_view s, std::size_t k) {
  std::size_t i = 0;
  for (; k > 0 && i < s.size(); --k) next_code_point(s, i);
  return k == 0 ? s.substr(0, i) : std::string_view();
}
std::string_view last_points(std::string_view s, std::size_t k) {
  std::size_t i = s.size();
  for (; k > 0 && i > 0; --k)
    do --i; while (i > 0 && (static_cast<unsigned char>(s[i]) & 0xC0) == 0x80);
  return k == 0 ? s.substr(i) : std::string_view();
}

std::int32_t first_point(std::string_view s) {
  std::size_t i = 0;
  return s.empty() ? -1 : next_code_point(s, i);
}

// A word ICU cut across a listed word, one or two characters of which lie in the word beside it
// (万|一是 of 万一 + 是, 要|是以 of 要是 + 以): the listed word's piece goes with it, and so may the
// rest when it is made of listed words — a piece of a marker is no content of the turn. Listed
// words that cross are at most four characters long (the markers are); only one that a listed
// word opens (from the left) or closes (into the right) is looked up.
bool across_listed(std::string_view prev, std::string_view w, std::string_view next,
                   const WordSet& skip) {
  auto rest_listed = [&](std::string_view rest) { return rest.empty() || made_of(rest, skip); };
  const bool after = !prev.empty() && prev.data() + prev.size() == w.data();
  const bool before = !next.empty() && w.data() + w.size() == next.data();
  for (std::size_t k = 1; k <= 2; ++k) {
    const std::string_view left = after ? last_points(prev, k) : std::string_view();
    if (!left.empty() && skip.opens_longer(first_point(left)))
      for (std::size_t m = 1, end = 0; m + k <= 4 && end < w.size(); ++m) {
        next_code_point(w, end);
        if (skip.contains(std::string_view(left.data(), left.size() + end)) &&
            rest_listed(w.substr(end)))
          return true;
      }
    const std::string_view right = before ? first_points(next, k) : std::string_view();
    if (!right.empty() && skip.closes_longer(first_point(last_points(right, 1))))
      for (std::size_t m = 1; m + k <= 4; ++m) {
        const std::string_view tail = last_points(w, m);
        if (tail.empty() || tail.size() == w.size()) break;
        if (skip.contains(std::string_view(tail.data(), tail.size() + right.size())) &&
            rest_listed(w.substr(0, w.size() - tail.size())))
          return true;
      }
  }
  return false;
}

// Whether word `w` of `output` lies inside a phrase the rewriter says itself (kWhatToDo …).
bool said_by_rewriter(std::string_view output, std::string_view w) {
  const auto b = static_cast<std::size_t>(w.data() - output.data());
  for (std::string_view own : kRewriterPhrases)
    for (std::size_t at = output.find(own); at != std::string_view::npos && at <= b;
         at = output.find(own, at + 1))
      if (b + w.size() <= at + own.size()) return true;
  return false;
}

bool contains(const std::vector<std::string_view>& sorted, std::string_view w) {
  return std::binary_search(sorted.begin(), sorted.end(), w, bytes_less);
}

}  // namespace

GarbleCheck::GarbleCheck(const RewriteSources& from, const WordSet& skip) : from_(from), skip_(skip) {
  std::vector<std::string_view> turn;
  word_texts_into(from.turn, turn);
  split_closing_le(turn);
  budget_ = units(from.turn) + units(from.anchor) + static_cast<std::size_t>(std::max(from.max_growth, 0));
  // Words of the turn a rewrite may drop: the [rewrite] lists, words made of them, and words
  // inside one of their phrases (what about).
  std::vector<bool> in_phrase(from.turn.size(), false);
  // The phrases are the lists' entries with a space: a turn without one holds none of them.
  if (from.turn.find(' ') != std::string_view::npos) {
    for (const std::string& p : skip.phrases())
      for (std::size_t at = from.turn.find(p); at != std::string_view::npos;
           at = from.turn.find(p, at + 1))
        std::fill(in_phrase.begin() + static_cast<std::ptrdiff_t>(at),
                  in_phrase.begin() + static_cast<std::ptrdiff_t>(at + p.size()), true);
  }
  // A phrase that points back (那部片子, 这本) is a reference like a pronoun: its antecedent replaces it.
  for (const auto& pointed : {pointed_noun(from.turn, skip), standing_pointer(from.turn, skip)})
    if (pointed)
      std::fill(in_phrase.begin() + static_cast<std::ptrdiff_t>(pointed->first),
                in_phrase.begin() + static_cast<std::ptrdiff_t>(pointed->second), true);
  // So is a pointer into a list (第二个, 后者): the item replaces it; and a verdict after 也
  // (员工也不行吗): the last question's predicate replaces it.
  if (const auto p = list_pointer(from.turn))
    std::fill(in_phrase.begin() + static_cast<std::ptrdiff_t>(p->begin),
              in_phrase.begin() + static_cast<std::ptrdiff_t>(p->end), true);
  // So is a count of the pair (两个有啥不一样): the pair replaces it.
  if (const auto b = both_pronoun_at(from.turn))
    std::fill(in_phrase.begin() + static_cast<std::ptrdiff_t>(b->begin),
              in_phrase.begin() + static_cast<std::ptrdiff_t>(b->end), true);
  if (const auto v = also_verdict(from.turn))
    std::fill(in_phrase.begin() + static_cast<std::ptrdiff_t>(v->first),
              in_phrase.begin() + static_cast<std::ptrdiff_t>(v->second), true);
  // A listed word ICU cut in two (接|下来 of 接下来) may go as a whole. ICU leaves a lone
  // character when it cuts a word it does not hold whole (three bytes or fewer): only such
  // adjacent pairs are looked up, each once.
  bool listed_with_prev = false;
  for (std::size_t i = 0; i < turn.size(); ++i) {
    const std::string_view w = turn[i];
    bool listed_with_next = false;
    if (i + 1 < turn.size()) {
      const std::string_view b = turn[i + 1];
      listed_with_next = w.data() + w.size() == b.data() && (w.size() <= 3 || b.size() <= 3) &&
                         skip.contains(std::string_view(w.data(), w.size() + b.size()));
    }
    const auto at = static_cast<std::size_t>(w.data() - from.turn.data());
    const std::string_view prev = i > 0 ? turn[i - 1] : std::string_view();
    const std::string_view next = i + 1 < turn.size() ? turn[i + 1] : std::string_view();
    if (!listed_with_prev && !listed_with_next && !in_phrase[at] && !made_of(w, skip) &&
        !across_listed(prev, w, next, skip))
      keep_.push_back(w);
    listed_with_prev = listed_with_next;
  }
  whole_ = turn;
  for (std::string_view w : whole_)
    if (count_code_points(w) >= 2) long_.push_back(w);
  turn_long_ = long_.size();
  std::sort(whole_.begin(), whole_.end(), bytes_less);
}

// The history's words, read the first time an output word is not one of the turn's (a rewrite
// that only puts the turn's words together never needs them).
void GarbleCheck::read_history() const {
  if (history_read_) return;
  history_read_ = true;
  const std::size_t before = whole_.size();
  // The anchor is a slice of a history turn: its words are the history's (a slice that cuts a
  // word leaves a piece, which is what the split rule is for).
  for (std::string_view h : from_.history) word_texts_into(h, whole_);
  if (from_.history.empty()) word_texts_into(from_.anchor, whole_);
  for (std::size_t i = before; i < whole_.size(); ++i)
    if (count_code_points(whole_[i]) >= 2) long_.push_back(whole_[i]);
  std::sort(whole_.begin(), whole_.end(), bytes_less);
}

bool GarbleCheck::in_sources(std::string_view piece) const {
  if (from_.turn.find(piece) != std::string_view::npos) return true;
  return std::any_of(from_.history.begin(), from_.history.end(),
                     [&](std::string_view h) { return h.find(piece) != std::string_view::npos; });
}

// A whole word of the history, or the anchor, meets a whole word of the turn at `at`, the one
// ending in the character the other begins with (印花税|税率 for 这个税率): no splice doubled it.
bool GarbleCheck::words_meet(std::string_view output, std::size_t at) const {
  read_history();
  const std::string_view left = output.substr(0, at), right = output.substr(at);
  const auto turn_end = long_.begin() + static_cast<std::ptrdiff_t>(turn_long_);
  const bool history_word = std::any_of(turn_end, long_.end(), [&](std::string_view w) { return left.ends_with(w); }) ||
                            (count_code_points(from_.anchor) >= 2 && left.ends_with(from_.anchor));
  return history_word &&
         std::any_of(long_.begin(), turn_end, [&](std::string_view w) { return right.starts_with(w); });
}

std::string GarbleCheck::reason(std::string_view output, GarbleRules rules) const {
  if (rules.keep_words)
    for (std::string_view w : keep_)
      if (output.find(w) == std::string_view::npos) return "drops:" + std::string(w);
  // The rewriter's own phrases (之后的流程是什么) are no history pasted in.
  std::size_t own = 0;
  for (std::string_view p : kRewriterPhrases)
    if (output.ends_with(p)) own = units(p);
  if (units(output) > budget_ + own) return "too_long";
  std::vector<std::string_view> words;
  word_texts_into(output, words);
  // A character or word repeated at a seam where no source repeats it.
  std::size_t prev_b = 0, prev_e = 0;
  for (std::size_t i = 0; i < output.size();) {
    const std::size_t b = i;
    next_code_point(output, i);
    if (prev_e == b && b > 0 &&
        same_bytes(output.substr(prev_b, b - prev_b), output.substr(b, i - b)) &&
        output[b] != ' ' && !in_sources(output.substr(prev_b, i - prev_b)) && !words_meet(output, b))
      return "doubled:" + std::string(output.substr(b, i - b));
    prev_b = b;
    prev_e = i;
  }
  // A run of two to four characters repeated at once (账号账号: ICU may cut both 账|号, so no word
  // repeats).
  if (const std::string_view run = doubled_run(output);
      !run.empty() && !in_sources(output.substr(static_cast<std::size_t>(run.data() - output.data()),
                                                2 * run.size())))
    return "doubled:" + std::string(run);
  // A word, or a run of two or three words (on the on the), said twice in a row.
  for (std::size_t n = 1; n <= 3; ++n)
    for (std::size_t k = n; k + n <= words.size(); ++k) {
      if (!std::equal(words.begin() + static_cast<std::ptrdiff_t>(k - n),
                      words.begin() + static_cast<std::ptrdiff_t>(k),
                      words.begin() + static_cast<std::ptrdiff_t>(k), same_bytes))
        continue;
      const auto b = static_cast<std::size_t>(words[k - n].data() - output.data());
      const auto e = static_cast<std::size_t>(words[k + n - 1].data() - output.data()) + words[k + n - 1].size();
      if (!in_sources(output.substr(b, e - b))) return "doubled:" + std::string(words[k]);
    }
  // A word of the output that is a piece of a longer source word and no source word itself.
  for (std::string_view w : words) {
    if (contains(whole_, w) || skip_.contains(w) || said_by_rewriter(output, w)) continue;
    read_history();
    if (contains(whole_, w)) continue;
    for (std::string_view s : long_)
      if (s.size() > w.size() && s.find(w) != std::string_view::npos) return "splits:" + std::string(s);
  }
  if (rules.share_anchor && !from_.anchor.empty() && output.find(from_.anchor) == std::string_view::npos)
    return "no_anchor";
  return "";
}

WordSet rewrite_words(const RewriteConfig& c) {
  std::vector<std::string> words;
  for (const auto* list : {&c.function_words, &c.person_pronouns, &c.thing_pronouns,
                           &c.ellipsis_markers, &c.condition_markers, &c.comparison_markers,
                           &c.elaboration_markers, &c.sequence_markers, &c.question_words,
                           &c.report_frames})
    words.insert(words.end(), list->begin(), list->end());
  for (std::string_view both : both_pronouns()) words.emplace_back(both);
  return WordSet(std::move(words));
}

std::string GarbleCheck::fallback() const { return fallback_rewrite(from_); }

std::string garble_reason(std::string_view output, const RewriteSources& from, const WordSet& skip,
                          GarbleRules rules) {
  return GarbleCheck(from, skip).reason(output, rules);
}

std::string fallback_rewrite(const RewriteSources& from) {
  if (from.anchor.empty() || from.turn.find(from.anchor) != std::string_view::npos)
    return std::string(from.turn);
  return std::string(from.anchor) + " " + std::string(from.turn);
}

}  // namespace qaplan::internal
