#include "planning/analysis/english_slot.hpp"

#include <algorithm>
#include <initializer_list>

#include "planning/analysis/phrases.hpp"

namespace qaplan::internal {
namespace {

bool among(std::string_view w, std::initializer_list<std::string_view> set) {
  return std::find(set.begin(), set.end(), w) != set.end();
}

bool auxiliary(std::string_view w) {
  return among(w, {"do", "does", "did", "is", "are", "was", "were", "can", "could", "will", "would",
                   "should", "may", "must", "has", "have"});
}

bool speaker(std::string_view w) { return among(w, {"i", "we", "you"}); }

bool no_subject(std::string_view w) {
  return speaker(w) || among(w, {"they", "he", "she", "it", "there", "this", "that", "these", "those"});
}

bool determiner(std::string_view w) {
  return among(w, {"the", "a", "an", "my", "your", "our", "his", "her", "their", "its", "this", "that"});
}

// Prepositions by kind: one stands for another of its kind (over for under, after for before).
int preposition_kind(std::string_view w) {
  if (among(w, {"over", "under", "above", "below", "beyond", "within"})) return 1;
  if (among(w, {"before", "after", "until", "by", "during"})) return 2;
  if (among(w, {"in", "on", "at", "from"})) return 3;
  if (among(w, {"with", "without"})) return 4;
  if (among(w, {"for", "to", "about"})) return 5;
  return 0;
}

struct Words {
  std::string_view text;
  std::vector<Token> w;  // word tokens only
  std::string_view at(std::size_t i) const { return w[i].text(text); }
  std::pair<std::size_t, std::size_t> range(std::size_t from, std::size_t to) const {
    return {w[from].begin, w[to].end};
  }
};

// n words from `from` (fewer when the question ends), ending at the first plural when the
// fragment's head is one (do interns get + new grads: the subject is interns alone).
std::optional<std::pair<std::size_t, std::size_t>> phrase_at(const Words& q, std::size_t from,
                                                             std::size_t n, bool plural) {
  if (from >= q.w.size() || n == 0) return std::nullopt;
  std::size_t to = std::min(from + n, q.w.size()) - 1;
  if (plural)
    for (std::size_t k = from; k < std::min(from + 3, q.w.size()); ++k)
      if (english_plural(q.at(k))) {
        to = k;
        break;
      }
  return q.range(from, to);
}

bool wh_word(std::string_view w) {
  return among(w, {"what", "when", "where", "who", "which", "how", "why"});
}

// A wh-question's object: after do + subject + verb (how long do we keep | candidate resumes),
// after who + verb (who reviews | sales contracts) or after to + verb (the deadline to submit |
// self-reviews) — up to the next preposition or the end. A bare noun fragment (exit interview
// notes, NDAs) stands for it, the verb staying.
std::optional<std::pair<std::size_t, std::size_t>> wh_object(const Words& q,
                                                             const std::vector<std::string_view>& fw) {
  if (!wh_word(q.at(0)) || preposition_kind(fw.front()) != 0) return std::nullopt;
  // A one-word name (Mac after … set up the VPN on Windows) parallels a name, not the object.
  const std::string_view w0 = fw.front();
  if (fw.size() == 1 && !english_plural(w0)) return std::nullopt;
  std::size_t from = 0;
  for (std::size_t i = 1; i + 2 < q.w.size() && from == 0; ++i) {
    if (among(q.at(i), {"do", "does", "did"}) && no_subject(q.at(i + 1))) from = i + 3;
    else if (q.at(i) == "to" && !determiner(q.at(i + 1))) from = i + 2;
  }
  if (from == 0 && q.at(0) == "who" && !auxiliary(q.at(1)) && q.w.size() > 2) from = 2;
  // wh + be: the subject, up to its participle (when is | the salary | paid).
  const bool be = from == 0 && among(q.at(1), {"is", "are", "was", "were"}) && q.w.size() > 2;
  if (be) from = 2;
  // The verb's particle and a preposition after it (signs off on | …, set up | the VPN).
  while (from + 1 < q.w.size() &&
         (among(q.at(from), {"up", "off", "out", "down", "back"}) || preposition_kind(q.at(from)) != 0))
    ++from;
  if (from == 0 || from >= q.w.size()) return std::nullopt;
  // The question's determiner stays unless the fragment brings its own (the annual bonus).
  if (determiner(q.at(from)) && !determiner(fw.front()) && from + 1 < q.w.size()) ++from;
  std::size_t to = from;
  auto participle = [&](std::string_view w) {
    return w.ends_with("ed") || among(w, {"paid", "made", "done", "sent", "held", "due", "given"});
  };
  while (to + 1 < q.w.size() && preposition_kind(q.at(to + 1)) == 0 && q.at(to + 1) != "of" &&
         !(be && participle(q.at(to + 1))))
    ++to;
  return q.range(from, to);
}

}  // namespace

std::optional<std::pair<std::size_t, std::size_t>> english_slot(std::string_view prev,
                                                                const std::vector<std::string_view>& fw) {
  Words q{prev, {}};
  for (const Token& t : words_of(prev))
    if (t.word) q.w.push_back(t);
  if (fw.empty() || q.w.size() < 3) return std::nullopt;
  // A preposition's phrase: as many words after the question's preposition as after the fragment's.
  if (const int kind = preposition_kind(fw.front()); kind != 0 && fw.size() > 1) {
    for (std::size_t i = 0; i + 1 < q.w.size(); ++i) {
      if (preposition_kind(q.at(i)) != kind) continue;
      // for / to / about: the whole phrase, up to the next preposition (for team lunches).
      std::size_t to = std::min(i + fw.size() - 1, q.w.size() - 1);
      if (kind == 5)
        for (to = i + 1; to + 1 < q.w.size() && preposition_kind(q.at(to + 1)) == 0;) ++to;
      return q.range(i, to);
    }
    // A beneficiary or goal the question had none of (how many days do we get + for
    // grandparents): it goes at the end, replacing nothing.
    if (kind == 5) return std::pair{q.w.back().end, q.w.back().end};
  }
  // The phrase after the fragment's own determiner (my monitor → my keyboard); after a wh-word's
  // be-form all of it, up to a preposition (how much is | the home office stipend → the phone
  // allowance) — not a yes/no question's, whose predicate follows (is the gym | open).
  if (determiner(fw.front()) && fw.size() > 1)
    for (std::size_t i = 0; i + 1 < q.w.size(); ++i)
      if (q.at(i) == fw.front()) {
        if (i < 2 || !among(q.at(i - 1), {"is", "are", "was", "were"}) || auxiliary(q.at(0)))
          return phrase_at(q, i, fw.size(), false);
        std::size_t to = i;
        while (to + 1 < q.w.size() && preposition_kind(q.at(to + 1)) == 0) ++to;
        return q.range(i, to);
      }
  // How many / how much | the thing counted | aux …: the thing counted (training credits →
  // conference days).
  // A one-word name (japan after … in china) or a determiner's phrase (my kids) is none.
  if (q.at(0) == "how" && among(q.at(1), {"many", "much"}) && !auxiliary(q.at(2)) &&
      preposition_kind(fw.front()) == 0 && !determiner(fw.front()) &&
      (fw.size() > 1 || english_plural(fw.front()))) {
    std::size_t to = 2;
    while (to + 1 < q.w.size() && !auxiliary(q.at(to + 1)) && preposition_kind(q.at(to + 1)) == 0)
      ++to;
    if (to + 1 < q.w.size() && auxiliary(q.at(to + 1))) return q.range(2, to);
  }
  if (const auto object = wh_object(q, fw)) return object;
  if (!auxiliary(q.at(0))) return std::nullopt;
  // A fragment with a determiner of its own (my kids) takes the object with the question's
  // determiner (can i bring | a guest | to …).
  if (determiner(fw.front())) {
    if (!speaker(q.at(1)) || q.w.size() <= 4 || !determiner(q.at(3))) return std::nullopt;
    std::size_t to = 3;
    while (to + 1 < q.w.size() && preposition_kind(q.at(to + 1)) == 0) ++to;
    return q.range(3, to);
  }
  const bool plural = english_plural(fw.back());
  // A yes/no question's subject (is the gym open, do contractors need) …
  if (!no_subject(q.at(1)))
    return phrase_at(q, determiner(q.at(1)) ? 2 : 1, fw.size(), plural);
  // … or, the speaker asking, the main verb's object (can i expense taxis on business trips).
  if (speaker(q.at(1)) && q.w.size() > 3)
    return phrase_at(q, determiner(q.at(3)) ? 4 : 3, fw.size(), plural);
  return std::nullopt;
}

std::optional<std::string_view> english_activity(std::string_view prev) {
  Words q{prev, {}};
  for (const Token& t : words_of(prev))
    if (t.word) q.w.push_back(t);
  // how do I | VP, how can we | VP, how to | VP
  std::size_t from = 0;
  if (q.w.size() >= 4 && q.at(0) == "how" && among(q.at(1), {"do", "can", "should", "would"}) &&
      among(q.at(2), {"i", "we", "you"}))
    from = 3;
  else if (q.w.size() >= 3 && q.at(0) == "how" && q.at(1) == "to")
    from = 2;
  if (from == 0) return std::nullopt;
  return prev.substr(q.w[from].begin, q.w.back().end - q.w[from].begin);
}

std::optional<std::string_view> english_thing(std::string_view prev, bool plural) {
  Words q{prev, {}};
  for (const Token& t : words_of(prev))
    if (t.word) q.w.push_back(t);
  if (q.w.size() < 3) return std::nullopt;
  std::size_t from = 0;
  bool verb_object = false, after_be = false;
  const auto be = [](std::string_view w) { return among(w, {"is", "are", "was", "were"}); };
  if (q.at(0) == "how" && among(q.at(1), {"many", "much"})) {
    from = be(q.at(2)) ? 3 : 2;  // how many | days of annual leave | do i get; how much is | …
  } else if (wh_word(q.at(0)) && be(q.at(1))) {
    from = 2;  // where are | the printers on the 3rd floor
    after_be = true;

  } else {
    const std::size_t aux = wh_word(q.at(0)) ? 1 : 0;
    if (aux + 2 >= q.w.size() || !auxiliary(q.at(aux))) return std::nullopt;
    if (!no_subject(q.at(aux + 1))) {
      // A plural subject for they / them (do interns | get …), up to its plural noun.
      if (!plural) return std::nullopt;
      for (std::size_t k = aux + 1; k < std::min(aux + 4, q.w.size() - 1); ++k)
        if (english_plural(q.at(k))) {
          const auto [b, e] = q.range(aux + 1, k);
          return prev.substr(b, e - b);
        }
      return std::nullopt;
    }
    // [wh] aux speaker verb | object: how do i reset | my vpn password, can i expense | taxi rides.
    if (aux + 3 >= q.w.size() || !speaker(q.at(aux + 1))) return std::nullopt;
    from = aux + 3;
    verb_object = true;
    while (from + 1 < q.w.size() && among(q.at(from), {"up", "off", "out", "down", "back"})) ++from;
    // A preposition right after the verb governs its object (connect to | the vpn, apply for |
    // annual leave).
    if (from + 1 < q.w.size() && preposition_kind(q.at(from)) != 0) ++from;
  }
  if (from >= q.w.size() || no_subject(q.at(from)) || wh_word(q.at(from))) return std::nullopt;
  // Up to the clause's verb (how many days … | do i get), after a be-form a participle (is the
  // salary | paid; not unused of days of unused leave) or, after a verb, a preposition other
  // than of (taxis | on business trips).
  std::size_t to = from;
  bool has_plural = english_plural(q.at(from));
  while (to + 1 < q.w.size() && !auxiliary(q.at(to + 1)) &&
         !(after_be && q.at(to + 1).ends_with("ed")) &&
         !(verb_object && preposition_kind(q.at(to + 1)) != 0)) {
    ++to;
    has_plural = has_plural || english_plural(q.at(to));
  }
  if (preposition_kind(q.at(from)) != 0 || (to == from && determiner(q.at(from))) ||
      (plural && !has_plural))
    return std::nullopt;
  const auto [b, e] = q.range(from, to);
  return prev.substr(b, e - b);
}

bool asks_who_does(std::string_view prev) {
  std::vector<std::string_view> w;
  for (const Token& t : words_of(prev))
    if (t.word) w.push_back(t.text(prev));
  return w.size() >= 2 && w[0] == "who" && !auxiliary(w[1]);
}

bool asks_in_english(std::string_view frag) {
  for (const Token& t : words_of(frag))
    if (t.word) {
      const std::string_view w = t.text(frag);
      return auxiliary(w) || wh_word(w) || among(w, {"any", "anything"});
    }
  return false;
}

bool english_plural(std::string_view w) { return w.size() > 3 && w.ends_with("s") && !w.ends_with("ss"); }

}  // namespace qaplan::internal
