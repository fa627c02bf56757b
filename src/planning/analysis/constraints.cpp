#include "planning/analysis/constraints.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <functional>
#include <nlohmann/json.hpp>
#include <unordered_set>

#include "common/icu.hpp"
#include "common/utf8.hpp"
#include "planning/segment.hpp"

namespace qaplan::internal {
namespace {

bool alnum(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }
bool digit(char c) { return c >= '0' && c <= '9'; }
bool inner_separator(char c) { return c == '-' || c == '_' || c == '.' || c == '/' || c == ':' || c == '#'; }

// Units after a number (10am, 16gb, 3rd): a measurement or an ordinal, not an ID.
bool unit_suffix(std::string_view letters) {
  static constexpr std::array<std::string_view, 34> kUnits = {
      "st", "nd", "rd", "th", "am", "pm", "k", "w", "m", "km", "kg", "g", "gb", "mb", "tb", "kb",
      "h", "hr", "hrs", "min", "mins", "s", "ms", "d", "x", "yuan", "rmb", "usd", "cm", "mm",
      "days", "years", "weeks", "hours"};
  return std::find(kUnits.begin(), kUnits.end(), letters) != kUnits.end();
}

// Words after a digit run that make it an amount or a count (100000元), not an order number.
bool amount_follows(std::string_view rest) {
  for (std::string_view u : {"元", "块", "万", "亿", "人", "个", "次", "天", "年", "%", "美元", "米", "公里"})
    if (rest.starts_with(u)) return true;
  return false;
}

// 2024-03-05, 2024/3/5, 3/5, 10:30: calendar or clock, not an ID.
bool date_or_time(std::string_view t) {
  int groups = 0, digits_in_group = 0, first_len = 0;
  char sep = 0;
  for (char c : t) {
    if (digit(c)) {
      ++digits_in_group;
      continue;
    }
    if (sep && c != sep) return false;
    sep = c;
    if (groups == 0) first_len = digits_in_group;
    ++groups;
    digits_in_group = 0;
  }
  ++groups;
  if (sep == ':') return groups <= 3;
  if (sep == '-' || sep == '/' || sep == '.') return groups <= 3 && (first_len == 4 || first_len <= 2);
  return false;
}

// The first index at or after `i` from which eight bytes are not all non-ASCII (or fewer than
// eight remain): no ASCII letter or digit lies before it. Most of a Chinese question is
// skipped eight bytes at a step, where a byte at a time cost a test per byte.
std::size_t past_non_ascii(std::string_view t, std::size_t i) {
  constexpr std::uint64_t kHigh = 0x8080808080808080ULL;
  for (std::uint64_t w; i + 8 <= t.size(); i += 8) {
    std::memcpy(&w, t.data() + i, 8);
    if ((w & kHigh) != kHigh) break;
  }
  return i;
}

std::string strip_zeros(std::string_view d) {
  std::size_t i = 0;
  while (i + 1 < d.size() && d[i] == '0') ++i;
  return std::string(d.substr(i));
}

// Digit runs that stand alone: a run touching an ASCII letter is part of a token (0x80070005,
// p4, win11) that is checked whole, as an ID or an entity.
std::vector<std::string> digit_runs(std::string_view text) {
  std::vector<std::string> out;
  auto letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); };
  for (std::size_t i = 0; i < text.size();) {
    if (static_cast<unsigned char>(text[i]) >= 0x80) {
      i = past_non_ascii(text, i + 1);
      continue;
    }
    if (!digit(text[i])) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < text.size() && digit(text[j])) ++j;
    const bool glued = (i > 0 && letter(text[i - 1])) || (j < text.size() && letter(text[j]));
    if (!glued) {
      std::string n = strip_zeros(text.substr(i, j - i));
      if (std::find(out.begin(), out.end(), n) == out.end()) out.push_back(std::move(n));
    }
    i = j;
  }
  return out;
}

void add_unique(std::vector<std::string>& v, std::string s) {
  if (!s.empty() && std::find(v.begin(), v.end(), s) == v.end()) v.push_back(std::move(s));
}

bool has_han(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    const std::int32_t cp = next_code_point(text, i);
    if (cp > 0x7F && is_han(cp)) return true;
  }
  return false;
}

// Text between paired quotes: 《员工手册》, “星河网盘”, 「…」.
void quoted(std::string_view text, std::vector<std::string>& out) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 5> kPairs = {{
      {"《", "》"}, {"“", "”"}, {"「", "」"}, {"『", "』"}, {"\"", "\""}}};
  for (const auto& [open, close] : kPairs) {
    std::size_t at = 0;
    while ((at = text.find(open, at)) != std::string_view::npos) {
      const std::size_t b = at + open.size();
      const std::size_t e = text.find(close, b);
      if (e == std::string_view::npos) break;
      if (e > b && e - b <= 96) add_unique(out, std::string(text.substr(b, e - b)));
      at = e + close.size();
    }
  }
}

bool contains(std::string_view hay, std::string_view needle) {
  return hay.find(needle) != std::string_view::npos;
}

// A word's slot hash, read eight bytes at a time and inline: the entries are mostly one to four
// Han characters (3-12 bytes), and std::hash's out-of-line murmur was 3 % of a follow-up's
// rewrite. Four bytes or more end on two overlapping four-byte reads; fewer on three bytes.
[[gnu::always_inline]] inline std::uint32_t word_hash(std::string_view w) {
  constexpr std::uint64_t kMul = 0xff51afd7ed558ccdULL;
  const char* p = w.data();
  std::size_t n = w.size();
  std::uint64_t h = (n + 1) * 0x9E3779B97F4A7C15ULL;
  for (; n >= 8; p += 8, n -= 8) {
    std::uint64_t x;
    std::memcpy(&x, p, 8);
    h = (h ^ x) * kMul;
    h ^= h >> 32;
  }
  if (n >= 4) {
    std::uint32_t a, b;
    std::memcpy(&a, p, 4);
    std::memcpy(&b, p + n - 4, 4);
    h = (h ^ ((static_cast<std::uint64_t>(a) << 32) | b)) * kMul;
  } else if (n > 0) {
    const auto byte = [&](std::size_t i) {
      return static_cast<std::uint64_t>(static_cast<unsigned char>(p[i]));
    };
    h = (h ^ (byte(0) | byte(n / 2) << 8 | byte(n - 1) << 16)) * kMul;
  }
  h ^= h >> 29;
  return static_cast<std::uint32_t>(h ^ (h >> 32));
}

// Calls on_run(first, last) for each run of two or more lone Han characters none of which is a
// function word, until it returns false.
template <class OnRun>
void name_runs(std::string_view text, const std::vector<Token>& tokens, const WordSet& fw,
               OnRun&& on_run) {
  std::size_t i = 0;
  while (i < tokens.size()) {
    std::size_t j = i;
    while (j < tokens.size() && tokens[j].single_han && !fw.contains(tokens[j].text(text))) ++j;
    if (j - i >= 2 && !on_run(i, j - 1)) return;
    i = j == i ? i + 1 : j;
  }
}

bool has_name_run(std::string_view text, const std::vector<Token>& tokens, const WordSet& fw) {
  bool any = false;
  name_runs(text, tokens, fw, [&](std::size_t, std::size_t) { return !(any = true); });
  return any;
}

void add_name_runs(std::string_view text, const std::vector<Token>& tokens, const WordSet& fw,
                   std::vector<std::string>& entities) {
  name_runs(text, tokens, fw, [&](std::size_t first, std::size_t last) {
    const std::uint32_t b = tokens[first].begin;
    add_unique(entities, std::string(text.substr(b, tokens[last].end - b)));
    return true;
  });
}

}  // namespace

std::vector<AsciiToken> ascii_tokens(std::string_view text) {
  std::vector<AsciiToken> out;
  for (std::size_t i = 0; i < text.size();) {
    if (static_cast<unsigned char>(text[i]) >= 0x80) {
      i = past_non_ascii(text, i + 1);
      continue;
    }
    if (!alnum(text[i])) {
      ++i;
      continue;
    }
    AsciiToken t;
    t.begin = static_cast<std::uint32_t>(i);
    std::size_t j = i;
    while (j < text.size()) {
      const char c = text[j];
      if (alnum(c)) {
        (digit(c) ? t.digits : t.letters) = true;
        ++j;
      } else if (inner_separator(c) && j + 1 < text.size() && alnum(text[j + 1])) {
        ++j;
      } else {
        break;
      }
    }
    t.end = static_cast<std::uint32_t>(j);
    out.push_back(t);
    i = j;
  }
  return out;
}

std::vector<std::string> id_shapes(std::string_view text) {
  std::vector<std::string> out;
  for (const AsciiToken& t : ascii_tokens(text)) {
    const std::string_view s = text.substr(t.begin, t.end - t.begin);
    if (!t.digits) continue;
    if (t.letters) {
      // Versions: v8.16, v2.
      if (s.size() >= 3 && (s[0] == 'v' || s[0] == 'V') && digit(s[1]) &&
          s.find('.') != std::string_view::npos) {
        add_unique(out, std::string(s));
        continue;
      }
      if (s.size() <= 2) continue;  // p4, q3, m1: grades and quarters
      // 16gb, 10am, 3rd: a number with a unit.
      std::size_t k = 0;
      while (k < s.size() && digit(s[k])) ++k;
      if (k > 0 && unit_suffix(s.substr(k))) continue;
      // One letter and one digit after it (p10, q12 are rare IDs but common grades): skip.
      if (s.size() == 3 && !digit(s[0]) && digit(s[1]) && digit(s[2])) continue;
      add_unique(out, std::string(s));
      continue;
    }
    // Digits with separators: versions 2.3.1 are IDs, dates and clock times are not.
    const bool separated = std::any_of(s.begin(), s.end(), [](char c) { return !digit(c); });
    if (separated) {
      if (std::count(s.begin(), s.end(), '.') >= 2 && s.find_first_not_of("0123456789.") == std::string_view::npos) {
        add_unique(out, std::string(s));
        continue;
      }
      if (date_or_time(s)) continue;
      const auto n = std::count_if(s.begin(), s.end(), digit);
      if (n >= 6) add_unique(out, std::string(s));
      continue;
    }
    if (s.size() >= 6 && !amount_follows(text.substr(t.end))) add_unique(out, std::string(s));
  }
  return out;
}

WordSet::WordSet(std::vector<std::string> words) : words_(std::move(words)) {
  std::sort(words_.begin(), words_.end());
  words_.erase(std::unique(words_.begin(), words_.end()), words_.end());
  for (const std::string& w : words_) {
    if (w.find(' ') != std::string::npos) phrases_.push_back(w);
    std::size_t i = 0;
    const std::int32_t first = next_code_point(w, i);
    if (i >= w.size()) continue;
    std::int32_t last = first;
    while (i < w.size()) last = next_code_point(w, i);
    openers_.push_back(first);
    closers_.push_back(last);
  }
  for (auto* v : {&openers_, &closers_}) {
    std::sort(v->begin(), v->end());
    v->erase(std::unique(v->begin(), v->end()), v->end());
  }
  std::size_t n = 8;
  while (n < 2 * words_.size()) n *= 2;
  slots_.assign(n, Slot{});
  for (std::size_t i = 0; i < words_.size(); ++i) {
    const std::uint32_t h = word_hash(words_[i]);
    std::size_t k = h & (n - 1);
    while (slots_[k].index != 0) k = (k + 1) & (n - 1);
    slots_[k] = {h, static_cast<std::uint32_t>(i + 1)};
  }
}

bool WordSet::contains(std::string_view word) const {
  if (slots_.empty()) return false;
  const std::uint32_t h = word_hash(word);
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t k = h & mask; slots_[k].index != 0; k = (k + 1) & mask)
    if (slots_[k].hash == h && words_[slots_[k].index - 1] == word) return true;
  return false;
}

Constraints extract_constraints(std::string_view text, const WordSet& fw) {
  return extract_constraints(text, fw, id_shapes(text));
}

Constraints extract_constraints(std::string_view text, const WordSet& fw,
                                std::vector<std::string> ids) {
  Constraints c;
  c.numbers = digit_runs(text);
  c.ids = std::move(ids);
  quoted(text, c.entities);
  // ASCII words inside Chinese text are names (vpn, mac, oa, sap); in English text every word is
  // ASCII and case is folded, so only IDs and quotes count there.
  if (has_han(text)) {
    for (const AsciiToken& t : ascii_tokens(text)) {
      const std::string_view s = text.substr(t.begin, t.end - t.begin);
      if (!t.letters || s.size() < 2 || fw.contains(s)) continue;
      if (std::find(c.ids.begin(), c.ids.end(), s) != c.ids.end()) continue;
      add_unique(c.entities, std::string(s));
    }
    // Names ICU's dictionary does not know come out one Han character per token (姚笛 → 姚 笛):
    // a run of two or more such characters, none a function word, is a name. A term of the
    // vocabulary only joins lone characters, so it cannot make a run: the terms are joined only
    // when ICU's own words have one (most questions have none, and skip the term scans).
    WordBreak words = segment_words_unjoined(text);
    if (!words.joined && has_name_run(text, words.tokens, fw)) join_terms_of(text, words);
    if (words.joined) add_name_runs(text, words.tokens, fw, c.entities);
  }
  return c;
}

Result<std::vector<std::string>> parse_hook_output(std::string_view raw) {
  constexpr std::size_t kMaxBytes = 65536;
  if (raw.size() > kMaxBytes)
    return make_error(ErrorCode::kInvalidInput, "output larger than 65536 bytes", "hook");
  const auto j = nlohmann::json::parse(raw, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return make_error(ErrorCode::kInvalidInput, "invalid JSON", "hook");
  if (!j.is_array()) return make_error(ErrorCode::kInvalidInput, "not a JSON array", "hook");
  if (j.empty()) return make_error(ErrorCode::kInvalidInput, "empty array", "hook");
  std::vector<std::string> out;
  for (std::size_t i = 0; i < j.size(); ++i) {
    if (!j[i].is_string())
      return make_error(ErrorCode::kInvalidInput, "element " + std::to_string(i) + " is not a string",
                        "hook");
    out.push_back(j[i].get<std::string>());
  }
  return out;
}

namespace {
// A number or ID in `v` that the question does not have.
std::string additions(const Constraints& q, std::string_view v) {
  for (const std::string& n : digit_runs(v))
    if (std::find(q.numbers.begin(), q.numbers.end(), n) == q.numbers.end()) return "adds the number " + n;
  for (const std::string& id : id_shapes(v))
    if (std::find(q.ids.begin(), q.ids.end(), id) == q.ids.end()) return "adds the ID " + id;
  return "";
}
}  // namespace

std::string check_variant(const Constraints& q, std::string_view v, bool allow_additions) {
  const std::vector<std::string> numbers = digit_runs(v);
  for (const std::string& n : q.numbers)
    if (std::find(numbers.begin(), numbers.end(), n) == numbers.end()) return "drops the number " + n;
  for (const std::string& id : q.ids)
    if (!contains(v, id)) return "drops the ID " + id;
  for (const std::string& e : q.entities)
    if (!contains(v, e)) return "drops the entity " + e;
  return allow_additions ? "" : additions(q, v);
}

std::string check_decomposition(const Constraints& q, const std::vector<std::string>& pieces) {
  // Each piece may keep only part of the question but may not invent a number or an ID;
  // together they keep everything.
  std::string all;
  for (const std::string& p : pieces) {
    if (std::string why = additions(q, p); !why.empty()) return why;
    all += p;
    all += '\n';
  }
  return check_variant(q, all, true);
}

}  // namespace qaplan::internal
