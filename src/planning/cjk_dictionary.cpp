#include "planning/cjk_dictionary.hpp"

#include <unicode/ucharstrie.h>
#include <unicode/udata.h>
#include <unicode/ures.h>

#include <algorithm>
#include <atomic>
#include <limits>
#include <string>

namespace qaplan::internal {
namespace {

// The dictionary ICU's break iterator uses for Han: the file its brkitr bundle names under
// dictionaries/Hani (cjdict.dict), a UChars trie whose values are word costs.
struct Dictionary {
  UDataMemory* file = nullptr;
  const char16_t* trie = nullptr;
};

std::string dictionary_name() {
  UErrorCode st = U_ZERO_ERROR;
  UResourceBundle* b = ures_open(U_ICUDATA_NAME U_TREE_SEPARATOR_STRING "brkitr", "", &st);
  UResourceBundle* d = ures_getByKey(b, "dictionaries", nullptr, &st);
  int32_t len = 0;
  const UChar* s = ures_getStringByKey(d, "Hani", &len, &st);
  std::string name;
  if (U_SUCCESS(st))
    for (int32_t i = 0; i < len; ++i) name.push_back(static_cast<char>(s[i]));
  ures_close(d);
  ures_close(b);
  return name;
}

Dictionary load() {
  Dictionary out;
  const std::string name = dictionary_name();
  const std::size_t dot = name.rfind('.');
  if (dot == std::string::npos) return out;
  UErrorCode st = U_ZERO_ERROR;
  UDataMemory* file = udata_open(U_ICUDATA_NAME U_TREE_SEPARATOR_STRING "brkitr",
                                 name.substr(dot + 1).c_str(), name.substr(0, dot).c_str(), &st);
  if (U_FAILURE(st)) return out;
  // The dictionary file's header (ICU's dictionarydata.h): int32 indexes, [0] the trie's byte
  // offset, [4] its type; 1 = UChars trie, 8 = it has values.
  const auto* data = static_cast<const std::uint8_t*>(udata_getMemory(file));
  const auto* indexes = reinterpret_cast<const std::int32_t*>(data);
  if ((indexes[4] & 7) != 1 || !(indexes[4] & 8)) {
    udata_close(file);
    return out;
  }
  out.file = file;
  out.trie = reinterpret_cast<const char16_t*>(data + indexes[0]);
  return out;
}

const Dictionary& dictionary() {
  static const Dictionary d = load();
  return d;
}

// As ICU's CJK engine: a word is at most 20 units, and a character the dictionary does not
// start a one-character word with costs the most a word can.
constexpr std::size_t kMaxWord = 20;
constexpr std::uint32_t kUnknownCost = 255;

// A walk down the dictionary's trie, read in place. The layout is ICU's UChars trie
// (unicode/ucharstrie.h documents its node kinds and value encodings); the walk answers as
// icu::UCharsTrie::next() does, inline: ICU's out-of-line next() was a third of a split's cost.
class TrieWalk {
 public:
  // The walk after `u` as a word's first unit (the state a fresh walk from the root reaches).
  UStringTrieResult first(const char16_t* root, char16_t u) {
    pos_ = root;
    remaining_ = -1;
    return next(u);
  }
  UStringTrieResult next(char16_t u) {
    if (pos_ == nullptr) return USTRINGTRIE_NO_MATCH;
    if (remaining_ >= 0) return linear(u, remaining_);
    int node = *pos_++;
    for (;;) {
      if (node < kMinLinearMatch) return branch(node, u);
      if (node < kMinValueLead) return linear(u, node - kMinLinearMatch);
      if (node & kValueIsFinal) return stop();
      // A value for the units so far sits before the node's own units: skip it.
      if (node >= kMinTwoUnitNodeValueLead) pos_ += node < kThreeUnitNodeValueLead ? 1 : 2;
      node &= kNodeTypeMask;
    }
  }
  // The value of a result that has one (the word's cost).
  std::int32_t value() const {
    const char16_t* p = pos_;
    const int lead = *p++;
    if (lead & kValueIsFinal) return read_value(p, lead & 0x7fff);
    if (lead < kMinTwoUnitNodeValueLead) return (lead >> 6) - 1;
    if (lead < kThreeUnitNodeValueLead)
      return (((lead & 0x7fc0) - kMinTwoUnitNodeValueLead) << 10) | p[0];
    return (p[0] << 16) | p[1];
  }
  // For the first units' table: the walk as two words, and back.
  std::uint64_t save(const char16_t* root) const {
    return (static_cast<std::uint64_t>(remaining_ + 2) << 32) |
           static_cast<std::uint64_t>(pos_ - root);
  }
  UStringTrieResult fail() { return stop(); }
  void restore(const char16_t* root, std::uint64_t state) {
    pos_ = root + (state & 0xFFFFFFFFu);
    remaining_ = static_cast<int>(state >> 32) - 2;
  }

 private:
  static constexpr int kMaxBranchLinear = 5, kMinLinearMatch = 0x30, kMinValueLead = 0x40;
  static constexpr int kNodeTypeMask = 0x3f, kValueIsFinal = 0x8000;
  static constexpr int kMinTwoUnitValueLead = 0x4000, kThreeUnitValueLead = 0x7fff;
  static constexpr int kMinTwoUnitNodeValueLead = 0x4040, kThreeUnitNodeValueLead = 0x7fc0;
  static constexpr int kMinTwoUnitDeltaLead = 0xfc00, kThreeUnitDeltaLead = 0xffff;

  static std::int32_t read_value(const char16_t* p, int lead) {
    if (lead < kMinTwoUnitValueLead) return lead;
    if (lead < kThreeUnitValueLead) return ((lead - kMinTwoUnitValueLead) << 16) | p[0];
    return (p[0] << 16) | p[1];
  }
  // Past a value whose lead unit (bit 15 cleared) is `lead`.
  static const char16_t* skip_value(const char16_t* p, int lead) {
    return lead < kMinTwoUnitValueLead ? p : p + (lead < kThreeUnitValueLead ? 1 : 2);
  }
  static UStringTrieResult result_at(int node) {
    if (node < kMinValueLead) return USTRINGTRIE_NO_VALUE;
    return static_cast<UStringTrieResult>(USTRINGTRIE_INTERMEDIATE_VALUE - (node >> 15));
  }
  UStringTrieResult stop() {
    pos_ = nullptr;
    return USTRINGTRIE_NO_MATCH;
  }
  // The next unit of a linear-match node with `left` + 1 units still to match.
  UStringTrieResult linear(char16_t u, int left) {
    if (u != *pos_) return stop();
    ++pos_;
    remaining_ = left - 1;
    return remaining_ < 0 ? result_at(*pos_) : USTRINGTRIE_NO_VALUE;
  }
  // A branch node of `length` - 1 (0: the length is in the next unit) units to select from,
  // laid out as a binary search down to a linear list of the last few.
  UStringTrieResult branch(int length, char16_t u) {
    const char16_t* p = pos_;
    if (length == 0) length = *p++;
    ++length;
    while (length > kMaxBranchLinear) {
      const bool left = u < *p++;
      int delta = *p++;
      if (delta >= kMinTwoUnitDeltaLead) {
        if (delta == kThreeUnitDeltaLead) {
          delta = left ? (p[0] << 16) | p[1] : 0;
          p += 2;
        } else {
          delta = left ? ((delta - kMinTwoUnitDeltaLead) << 16) | p[0] : 0;
          ++p;
        }
      }
      if (left) {
        length >>= 1;
        p += delta;
      } else {
        length -= length >> 1;
      }
    }
    for (; length > 1; --length) {
      if (u == *p++) {
        int node = *p;
        if (node & kValueIsFinal) {
          pos_ = p;  // the final value, for value()
          return USTRINGTRIE_FINAL_VALUE;
        }
        ++p;
        const int delta = read_value(p, node);
        p = skip_value(p, node) + delta;
        pos_ = p;
        return result_at(*p);
      }
      p = skip_value(p + 1, *p & 0x7fff);
    }
    if (u != *p++) return stop();
    pos_ = p;
    return result_at(*p);
  }

  const char16_t* pos_ = nullptr;  // the next unit to read; null once nothing matches
  int remaining_ = -1;             // units left in a linear-match node, minus one
};

// The walk's state after each ideograph as a word's first character. The root is a branch of
// some 20 000 characters that first() searches in about 15 dependent steps, once per position of
// every run; each entry is filled on first use (result + 1 in its own byte, 0 = not yet).
constexpr char16_t kFirstLow = 0x3400, kFirstHigh = 0x9FFF;
std::atomic<std::uint64_t> first_state[kFirstHigh - kFirstLow + 1];
std::atomic<std::uint8_t> first_result[kFirstHigh - kFirstLow + 1];

inline UStringTrieResult first(TrieWalk& walk, const char16_t* root, char16_t u) {
  if (u < kFirstLow || u > kFirstHigh) return walk.first(root, u);
  const std::size_t at = u - kFirstLow;
  if (const std::uint8_t r = first_result[at].load(std::memory_order_acquire); r != 0) {
    if (r - 1 != USTRINGTRIE_NO_MATCH)
      walk.restore(root, first_state[at].load(std::memory_order_relaxed));
    return static_cast<UStringTrieResult>(r - 1);
  }
  const UStringTrieResult r = walk.first(root, u);
  if (r != USTRINGTRIE_NO_MATCH) first_state[at].store(walk.save(root), std::memory_order_relaxed);
  first_result[at].store(static_cast<std::uint8_t>(r + 1), std::memory_order_release);
  return r;
}

// The walk's state after a word's first two characters, for pairs the text brings up: most
// positions of a run read a second character (a branch of tens to hundreds of entries searched
// in several steps) and then stop. A direct-mapped table of whole entries, each one 64-bit
// atomic word — [first, second: 32][result: 2][remaining + 2: 5][offset: 25] — so a reader sees
// an entry whole or not at all; a colliding pair overwrites. Empty is 0 (no key is 0: the first
// character is an ideograph).
constexpr std::size_t kPairSlots = 1 << 14;
constexpr std::uint64_t kOffsetBits = 25;
std::atomic<std::uint64_t> pair_state[kPairSlots];

inline UStringTrieResult second(TrieWalk& walk, const char16_t* root, char16_t c1, char16_t c2) {
  if (c1 < kFirstLow || c1 > kFirstHigh) return walk.next(c2);
  const auto key = static_cast<std::uint32_t>(c1) << 16 | c2;
  std::atomic<std::uint64_t>& slot = pair_state[(key * 0x9E3779B1u) >> (32 - 14)];
  if (const std::uint64_t e = slot.load(std::memory_order_relaxed); e >> 32 == key) {
    const auto r = static_cast<UStringTrieResult>((e >> 30) & 3);
    if (r == USTRINGTRIE_NO_MATCH) return walk.fail();
    walk.restore(root, ((e >> kOffsetBits) & 31) << 32 | (e & ((1u << kOffsetBits) - 1)));
    return r;
  }
  const UStringTrieResult r = walk.next(c2);
  const std::uint64_t state = r == USTRINGTRIE_NO_MATCH ? 0 : walk.save(root);
  const std::uint64_t offset = state & 0xFFFFFFFFu, remaining = state >> 32;
  if (offset < (std::uint64_t{1} << kOffsetBits) && remaining < 32)
    slot.store(std::uint64_t{key} << 32 | std::uint64_t{static_cast<std::uint32_t>(r)} << 30 |
                   remaining << kOffsetBits | offset,
               std::memory_order_relaxed);
  return r;
}

// Calls on_word(length, cost) for the dictionary's words starting at units[i], in ascending
// length (what ICU's engine reads before it adds the unknown-character word).
template <class OnWord>
void dictionary_words(const char16_t* root, const char16_t* units, std::size_t i, std::size_t n,
                      OnWord&& on_word) {
  TrieWalk walk;
  for (std::size_t k = i; k < n; ++k) {
    const UStringTrieResult r = k == i       ? first(walk, root, units[k])
                                : k == i + 1 ? second(walk, root, units[i], units[k])
                                             : walk.next(units[k]);
    const auto length = static_cast<std::uint32_t>(k - i + 1);
    if (USTRINGTRIE_HAS_VALUE(r)) {
      on_word(length, static_cast<std::uint32_t>(walk.value()));
      if (r == USTRINGTRIE_FINAL_VALUE) break;
    } else if (r == USTRINGTRIE_NO_MATCH) {
      break;
    }
    if (length >= kMaxWord) break;
  }
}

}  // namespace

bool cjk_dictionary_available() { return dictionary().trie != nullptr; }

// The cheapest sequence of words covering the run (ties: the first found, as ICU's engine).
// Each word is weighed as the walk finds it: the words at one position are relaxed in ascending
// length, then the unknown-character word, as ICU's engine lists them.
bool split_ideographs(const char16_t* units, std::size_t n, std::vector<std::uint32_t>& breaks) {
  breaks.clear();
  const char16_t* root = dictionary().trie;
  if (root == nullptr) return false;
  thread_local std::vector<std::uint32_t> best, prev;
  constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();
  best.assign(n + 1, kNone);
  prev.resize(n + 1);
  best[0] = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (best[i] == kNone) continue;
    bool single = false;
    auto relax = [&](std::uint32_t length, std::uint32_t cost) {
      if (const std::uint32_t c = best[i] + cost; c < best[i + length]) {
        best[i + length] = c;
        prev[i + length] = static_cast<std::uint32_t>(i);
      }
    };
    dictionary_words(root, units, i, n, [&](std::uint32_t length, std::uint32_t cost) {
      single = single || length == 1;
      relax(length, cost);
    });
    if (!single) relax(1, kUnknownCost);
  }
  for (std::size_t at = n; at > 0; at = prev[at]) breaks.push_back(static_cast<std::uint32_t>(at));
  std::reverse(breaks.begin(), breaks.end());
  return true;
}

std::vector<DictionaryWord> dictionary_words_at(const char16_t* units, std::size_t n) {
  std::vector<DictionaryWord> out;
  if (const char16_t* root = dictionary().trie; root != nullptr && n > 0)
    dictionary_words(root, units, 0, n, [&](std::uint32_t length, std::uint32_t cost) {
      out.push_back({length, cost});
    });
  return out;
}

std::vector<DictionaryWord> dictionary_words_by_icu(const char16_t* units, std::size_t n) {
  std::vector<DictionaryWord> out;
  if (dictionary().trie == nullptr) return out;
  icu::UCharsTrie trie(dictionary().trie);
  for (std::size_t k = 0; k < n; ++k) {
    const UStringTrieResult r = k == 0 ? trie.first(units[k]) : trie.next(units[k]);
    const auto length = static_cast<std::uint32_t>(k + 1);
    if (USTRINGTRIE_HAS_VALUE(r)) {
      out.push_back({length, static_cast<std::uint32_t>(trie.getValue())});
      if (r == USTRINGTRIE_FINAL_VALUE) break;
    } else if (r == USTRINGTRIE_NO_MATCH) {
      break;
    }
    if (length >= kMaxWord) break;
  }
  return out;
}

void for_each_dictionary_word(const std::function<void(std::u16string_view)>& f) {
  if (!cjk_dictionary_available()) return;
  UErrorCode st = U_ZERO_ERROR;
  icu::UCharsTrie::Iterator it(dictionary().trie, 0, st);
  while (U_SUCCESS(st) && it.next(st)) {
    const icu::UnicodeString& w = it.getString();
    f(std::u16string_view(w.getBuffer(), static_cast<std::size_t>(w.length())));
  }
}

}  // namespace qaplan::internal
