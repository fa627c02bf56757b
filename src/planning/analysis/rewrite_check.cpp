#include "planning/analysis/rewrite_check.hpp"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "common/utf8.hpp"
#include "planning/analysis/segment.hpp"

namespace qaplan::internal {
namespace {

std::vector<std::string_view> words_of(std::string_view text) {
  std::vector<std::string_view> out;
  for (const Token& t : segment_words(text))
    if (t.word) out.push_back(t.text(text));
  return out;
}

std::size_t code_points(std::string_view s) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < s.size();) {
    next_code_point(s, i);
    ++n;
  }
  return n;
}

// The code points of `s` with their byte offsets.
std::vector<std::pair<std::size_t, std::size_t>> spans_of(std::string_view s) {
  std::vector<std::pair<std::size_t, std::size_t>> out;
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t b = i;
    next_code_point(s, i);
    out.emplace_back(b, i);
  }
  return out;
}

bool in_any(std::string_view piece, const RewriteSources& from) {
  if (from.turn.find(piece) != std::string_view::npos) return true;
  for (std::string_view h : from.history)
    if (h.find(piece) != std::string_view::npos) return true;
  return false;
}

// Bytes of the turn inside an occurrence of a skip word or phrase (它的 = 它 + 的, how about).
std::vector<bool> skippable(std::string_view turn, const WordSet& skip) {
  std::vector<bool> covered(turn.size(), false);
  for (const std::string& w : skip.words()) {
    if (w.empty()) continue;
    for (std::size_t at = turn.find(w); at != std::string_view::npos; at = turn.find(w, at + 1))
      std::fill(covered.begin() + static_cast<std::ptrdiff_t>(at),
                covered.begin() + static_cast<std::ptrdiff_t>(at + w.size()), true);
  }
  return covered;
}

std::string drops(std::string_view output, const RewriteSources& from, const WordSet& skip) {
  const std::vector<bool> covered = skippable(from.turn, skip);
  for (const Token& t : segment_words(from.turn)) {
    if (!t.word) continue;
    if (std::all_of(covered.begin() + t.begin, covered.begin() + t.end, [](bool c) { return c; }))
      continue;
    const std::string_view w = t.text(from.turn);
    if (output.find(w) == std::string_view::npos) return "drops:" + std::string(w);
  }
  return "";
}

// Length in query units: a Han character or an ASCII word counts one.
std::size_t units(std::string_view text) {
  std::size_t n = 0;
  for (const Token& t : segment_words(text))
    if (t.word) n += t.ascii ? 1 : code_points(t.text(text));
  return n;
}

// A character repeated at a seam: two equal adjacent code points (or words) of the output that no
// source has side by side.
std::string doubled(std::string_view output, const RewriteSources& from,
                    const std::vector<std::string_view>& out_words) {
  const auto cps = spans_of(output);
  for (std::size_t k = 1; k < cps.size(); ++k) {
    const std::string_view a = output.substr(cps[k - 1].first, cps[k - 1].second - cps[k - 1].first);
    const std::string_view b = output.substr(cps[k].first, cps[k].second - cps[k].first);
    if (a == b && a != " " && !in_any(output.substr(cps[k - 1].first, cps[k].second - cps[k - 1].first), from))
      return "doubled:" + std::string(a);
  }
  for (std::size_t k = 1; k < out_words.size(); ++k) {
    if (out_words[k] != out_words[k - 1]) continue;
    const std::size_t b = static_cast<std::size_t>(out_words[k - 1].data() - output.data());
    const std::size_t e = static_cast<std::size_t>(out_words[k].data() - output.data()) + out_words[k].size();
    if (!in_any(output.substr(b, e - b), from)) return "doubled:" + std::string(out_words[k]);
  }
  return "";
}

// Every proper piece of every source word that is no source word itself, mapped to that word.
std::string splits(const RewriteSources& from, const std::vector<std::string_view>& out_words,
                   const WordSet& skip) {
  std::unordered_set<std::string_view> whole;
  std::vector<std::string_view> long_words;
  auto add = [&](std::string_view text) {
    for (std::string_view w : words_of(text)) {
      whole.insert(w);
      if (code_points(w) >= 2) long_words.push_back(w);
    }
  };
  add(from.turn);
  add(from.anchor);
  for (std::string_view h : from.history) add(h);
  std::unordered_map<std::string_view, std::string_view> piece_of;
  for (std::string_view w : long_words) {
    const auto cps = spans_of(w);
    for (std::size_t i = 0; i < cps.size(); ++i)
      for (std::size_t j = i + 1; j <= cps.size(); ++j) {
        if (i == 0 && j == cps.size()) continue;
        const std::string_view p = w.substr(cps[i].first, cps[j - 1].second - cps[i].first);
        if (!whole.count(p)) piece_of.emplace(p, w);
      }
  }
  for (std::string_view w : out_words) {
    if (whole.count(w) || skip.contains(w)) continue;
    if (const auto it = piece_of.find(w); it != piece_of.end()) return "splits:" + std::string(it->second);
  }
  return "";
}

}  // namespace

std::string garble_reason(std::string_view output, const RewriteSources& from, const WordSet& skip,
                          GarbleRules rules) {
  if (rules.keep_words)
    if (std::string why = drops(output, from, skip); !why.empty()) return why;
  if (units(output) >
      units(from.anchor) + units(from.turn) + static_cast<std::size_t>(std::max(from.max_growth, 0)))
    return "too_long";
  const std::vector<std::string_view> out_words = words_of(output);
  if (std::string why = doubled(output, from, out_words); !why.empty()) return why;
  if (std::string why = splits(from, out_words, skip); !why.empty()) return why;
  if (rules.share_anchor && !from.anchor.empty() && output.find(from.anchor) == std::string_view::npos)
    return "no_anchor";
  return "";
}

std::string fallback_rewrite(const RewriteSources& from) {
  if (from.anchor.empty() || from.turn.find(from.anchor) != std::string_view::npos)
    return std::string(from.turn);
  return std::string(from.anchor) + " " + std::string(from.turn);
}

}  // namespace qaplan::internal
