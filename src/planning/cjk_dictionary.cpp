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

// The trie's state after each ideograph as a word's first character. The root is a branch of
// some 20 000 characters that first() searches in about 15 dependent steps, once per position of
// every run; each entry is filled on first use (result + 1 in its own byte, 0 = not yet).
constexpr char16_t kFirstLow = 0x3400, kFirstHigh = 0x9FFF;
std::atomic<std::uint64_t> first_state[kFirstHigh - kFirstLow + 1];
std::atomic<std::uint8_t> first_result[kFirstHigh - kFirstLow + 1];

UStringTrieResult first(icu::UCharsTrie& trie, char16_t u) {
  if (u < kFirstLow || u > kFirstHigh) return trie.reset(), trie.first(u);
  const std::size_t at = u - kFirstLow;
  if (const std::uint8_t r = first_result[at].load(std::memory_order_acquire); r != 0) {
    if (r - 1 != USTRINGTRIE_NO_MATCH) trie.resetToState64(first_state[at].load(std::memory_order_relaxed));
    return static_cast<UStringTrieResult>(r - 1);
  }
  trie.reset();
  const UStringTrieResult r = trie.first(u);
  if (r != USTRINGTRIE_NO_MATCH) first_state[at].store(trie.getState64(), std::memory_order_relaxed);
  first_result[at].store(static_cast<std::uint8_t>(r + 1), std::memory_order_release);
  return r;
}

struct Match {
  std::uint32_t length, cost;
};

// The dictionary's words starting at units[i] (ascending length), plus the unknown-character
// word when no one-character word is among them.
void words_at(icu::UCharsTrie& trie, const char16_t* units, std::size_t i, std::size_t n,
              std::vector<Match>& out) {
  out.clear();
  for (std::size_t k = i; k < n; ++k) {
    const UStringTrieResult r = k == i ? first(trie, units[k]) : trie.next(units[k]);
    const auto length = static_cast<std::uint32_t>(k - i + 1);
    if (USTRINGTRIE_HAS_VALUE(r)) {
      out.push_back({length, static_cast<std::uint32_t>(trie.getValue())});
      if (r == USTRINGTRIE_FINAL_VALUE) break;
    } else if (r == USTRINGTRIE_NO_MATCH) {
      break;
    }
    if (length >= kMaxWord) break;
  }
  if (out.empty() || out.front().length != 1) out.push_back({1, kUnknownCost});
}

}  // namespace

bool cjk_dictionary_available() { return dictionary().trie != nullptr; }

void for_each_dictionary_word(const std::function<void(std::u16string_view)>& f) {
  if (!cjk_dictionary_available()) return;
  UErrorCode st = U_ZERO_ERROR;
  icu::UCharsTrie::Iterator it(dictionary().trie, 0, st);
  while (U_SUCCESS(st) && it.next(st)) {
    const icu::UnicodeString& w = it.getString();
    f(std::u16string_view(w.getBuffer(), static_cast<std::size_t>(w.length())));
  }
}

// The cheapest sequence of words covering the run (ties: the first found, as ICU's engine).
bool split_ideographs(const char16_t* units, std::size_t n, std::vector<std::uint32_t>& breaks) {
  breaks.clear();
  if (!cjk_dictionary_available()) return false;
  thread_local std::vector<std::uint32_t> best, prev;
  thread_local std::vector<Match> words;
  constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();
  best.assign(n + 1, kNone);
  prev.assign(n + 1, 0);
  best[0] = 0;
  icu::UCharsTrie trie(dictionary().trie);
  for (std::size_t i = 0; i < n; ++i) {
    if (best[i] == kNone) continue;
    words_at(trie, units, i, n, words);
    for (const Match& m : words)
      if (const std::uint32_t c = best[i] + m.cost; c < best[i + m.length]) {
        best[i + m.length] = c;
        prev[i + m.length] = static_cast<std::uint32_t>(i);
      }
  }
  for (std::size_t at = n; at > 0; at = prev[at]) breaks.push_back(static_cast<std::uint32_t>(at));
  std::reverse(breaks.begin(), breaks.end());
  return true;
}

}  // namespace qaplan::internal
