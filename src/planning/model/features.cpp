#include "planning/model/features.hpp"

#include <algorithm>
#include <cmath>

#include "common/icu.hpp"
#include "common/utf8.hpp"
#include "planning/model/fold.hpp"

namespace qaplan::internal {
namespace {

// ---- character classes ------------------------------------------------------------------------

enum class Cls : std::uint8_t { kSpace, kHan, kWord, kApostrophe, kEmoji, kPunct, kDrop };

bool is_emoji(std::int32_t cp) noexcept {
  return (cp >= 0x1F000 && cp <= 0x1FAFF) || (cp >= 0x2600 && cp <= 0x27BF) ||
         (cp >= 0x2B00 && cp <= 0x2BFF) || (cp >= 0x2300 && cp <= 0x23FF);
}

Cls classify(std::int32_t cp) noexcept {
  if (cp < 0x80) {
    if (cp <= 0x20 || cp == 0x7F) return Cls::kSpace;
    if ((cp >= 'a' && cp <= 'z') || (cp >= '0' && cp <= '9') || (cp >= 'A' && cp <= 'Z'))
      return Cls::kWord;
    if (cp == '\'') return Cls::kApostrophe;
    return Cls::kPunct;
  }
  if (cp < 0) return Cls::kDrop;  // an invalid byte
  if (cp <= 0x9F) return Cls::kSpace;
  // Modifiers that only decorate the previous symbol: variation selectors, ZWJ, keycap,
  // skin tones, tag characters.
  if ((cp >= 0xFE00 && cp <= 0xFE0F) || cp == 0x200D || cp == 0x20E3 ||
      (cp >= 0x1F3FB && cp <= 0x1F3FF) || (cp >= 0xE0000 && cp <= 0xE007F) ||
      (cp >= 0x200B && cp <= 0x200F))
    return Cls::kDrop;
  if (cp == 0x2019) return Cls::kApostrophe;
  if (cp >= 0xC0 && cp <= 0x24F && cp != 0xD7 && cp != 0xF7) return Cls::kWord;
  if ((cp >= 0x3040 && cp <= 0x30FF && cp != 0x30FB) || (cp >= 0x31F0 && cp <= 0x31FF) ||
      (cp >= 0xAC00 && cp <= 0xD7AF) || (cp >= 0x1100 && cp <= 0x11FF) ||
      (cp >= 0x3130 && cp <= 0x318F))
    return Cls::kHan;  // kana and hangul: written without spaces, n-grams like Han
  if (is_han(cp)) return Cls::kHan;
  if (is_emoji(cp)) return Cls::kEmoji;
  if (cp == 0x3000 || (cp >= 0x2000 && cp <= 0x200A) || cp == 0x2028 || cp == 0x2029 ||
      cp == 0x202F || cp == 0x205F)
    return Cls::kSpace;
  return Cls::kPunct;
}

struct Cp {
  std::int32_t cp = 0;
  Cls cls = Cls::kDrop;
  std::size_t begin = 0, end = 0;  // byte range in the text
};

// Reads the code point at s[i] and classifies it; an apostrophe counts as a word character only
// between two word characters.
Cp read_cp(std::string_view s, std::size_t& i) noexcept {
  Cp c;
  c.begin = i;
  c.cp = next_code_point(s, i);
  c.end = i;
  c.cls = classify(c.cp);
  return c;
}

bool word_at(std::string_view s, std::size_t i) noexcept {
  if (i >= s.size()) return false;
  return classify(next_code_point(s, i)) == Cls::kWord;
}

// ---- light English stem -----------------------------------------------------------------------

struct Stem {
  std::string_view base;
  bool add_y = false;
};

bool has_digit(std::string_view w) noexcept {
  return std::any_of(w.begin(), w.end(), [](char c) { return c >= '0' && c <= '9'; });
}

Stem stem_of(std::string_view w) noexcept {
  Stem st{w, false};
  if (w.size() <= 3 || has_digit(w)) return st;
  struct Suffix {
    std::string_view text;
    bool to_y;
  };
  static constexpr Suffix kSuffixes[] = {
      {"ments", false}, {"ment", false}, {"ings", false}, {"ing", false}, {"ies", true},
      {"ied", true},    {"es", false},   {"ed", false},   {"ly", false},  {"s", false}};
  for (const Suffix& sf : kSuffixes) {
    if (w.size() < sf.text.size() + 3 || !w.ends_with(sf.text)) continue;
    const std::string_view base = w.substr(0, w.size() - sf.text.size());
    // "class", "bonus", "analysis" keep their s; "processes" → "process" via "es".
    if (sf.text == "s" && (base.back() == 's' || base.back() == 'u' || base.back() == 'i'))
      continue;
    st.base = base;
    st.add_y = sf.to_y;
    break;
  }
  if (!st.add_y && st.base.size() > 3 && st.base.back() == 'e') st.base.remove_suffix(1);
  return st;
}

bool same_stem(const Stem& a, std::string_view w) noexcept { return !a.add_y && a.base == w; }

// ---- buckets ----------------------------------------------------------------------------------

const char* units_bucket(std::uint32_t n) noexcept {
  static constexpr const char* kNames[] = {"0",   "1",     "2",     "3-4", "5-6",
                                           "7-9", "10-14", "15-24", "25+"};
  if (n <= 2) return kNames[n];
  if (n <= 4) return kNames[3];
  if (n <= 6) return kNames[4];
  if (n <= 9) return kNames[5];
  if (n <= 14) return kNames[6];
  if (n <= 24) return kNames[7];
  return kNames[8];
}

const char* cur_len_bucket(std::uint32_t n) noexcept {
  if (n <= 1) return "1";
  if (n == 2) return "2";
  if (n <= 4) return "3-4";
  if (n <= 8) return "5-8";
  if (n <= 14) return "9-14";
  return "15+";
}

const char* prev_len_bucket(std::uint32_t n) noexcept {
  if (n <= 4) return "1-4";
  if (n <= 9) return "5-9";
  if (n <= 19) return "10-19";
  if (n <= 39) return "20-39";
  return "40+";
}

const char* ratio_bucket(std::uint32_t cur, std::uint32_t prev) noexcept {
  // cur / prev compared in integers: no floating point in feature extraction.
  const std::uint64_t c = cur, p = prev == 0 ? 1 : prev;
  if (4 * c < p) return "<1/4";
  if (2 * c < p) return "<1/2";
  if (c < p) return "<1";
  if (c < 2 * p) return "<2";
  return ">=2";
}

const char* share_bucket(std::uint32_t hit, std::uint32_t total) noexcept {
  if (hit == 0) return "0";
  if (3 * hit < total) return "<1/3";
  if (3 * hit < 2 * total) return "<2/3";
  return ">=2/3";
}

const char* count_bucket(std::uint32_t n, std::uint32_t cap) noexcept {
  static constexpr const char* kNames[] = {"0", "1", "2", "3+"};
  return kNames[std::min(n, cap)];
}

// ---- hashing ----------------------------------------------------------------------------------

constexpr std::uint64_t kFnvOffset = 14695981039346656037ULL;
constexpr std::uint64_t kFnvPrime = 1099511628211ULL;
constexpr char kTagSep = '\x1f';

std::uint64_t fnv(std::uint64_t h, std::string_view s) noexcept {
  for (char c : s) {
    h ^= static_cast<unsigned char>(c);
    h *= kFnvPrime;
  }
  return h;
}

std::uint64_t fmix64(std::uint64_t k) noexcept {
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccdULL;
  k ^= k >> 33;
  k *= 0xc4ceb9fe1a85ec53ULL;
  k ^= k >> 33;
  return k;
}

// A feature is built from parts; the sink hashes (or spells) them. Parts are separated by one
// space; the tag by \x1f.
struct HashSink {
  FeatureBuffer& out;
  unsigned shift;
  std::uint64_t h = 0;
  bool first = true;

  void begin(std::string_view tag) noexcept {
    h = fnv(kFnvOffset, tag);
    h = fnv(h, std::string_view(&kTagSep, 1));
    first = true;
  }
  void part(std::string_view s) noexcept {
    if (!first) h = fnv(h, " ");
    first = false;
    h = fnv(h, s);
  }
  // Appends to the current part (no separator).
  void more(std::string_view s) noexcept { h = fnv(h, s); }
  void end() noexcept {
    if (out.size < kMaxRouterFeatures)
      out.ids[out.size++] = static_cast<std::uint32_t>(fmix64(h) >> shift);
  }
};

struct DescribeSink {
  std::vector<std::string>& out;
  std::string cur;
  bool first = true;

  // Built with += of single characters: GCC 12's -Wrestrict misfires on assign/append of a
  // string_view here.
  void begin(std::string_view tag) {
    cur.clear();
    for (char c : tag) cur += c;
    first = true;
  }
  void part(std::string_view s) {
    cur += ' ';
    first = false;
    for (char c : s) cur += c;
  }
  void more(std::string_view s) {
    for (char c : s) cur += c;
  }
  void end() {
    if (out.size() < kMaxRouterFeatures) out.push_back(cur);
  }
};

// The previous turn's Han bigrams, Han characters and ASCII stems as 64-bit hashes, sorted, for
// exact membership tests without allocating.
struct PrevSet {
  static constexpr std::size_t kCap = 1024;
  std::array<std::uint64_t, kCap> keys;
  std::size_t n = 0;
  void add(std::uint64_t k) noexcept {
    if (n < kCap) keys[n++] = k;
  }
  void seal() noexcept { std::sort(keys.begin(), keys.begin() + static_cast<std::ptrdiff_t>(n)); }
  bool has(std::uint64_t k) const noexcept {
    return std::binary_search(keys.begin(), keys.begin() + static_cast<std::ptrdiff_t>(n), k);
  }
};

std::uint64_t key_of(char kind, std::string_view a, std::string_view b = {}) noexcept {
  std::uint64_t h = fnv(kFnvOffset, std::string_view(&kind, 1));
  return fnv(fnv(h, a), b);
}

std::uint64_t stem_key(const Stem& st) noexcept {
  return key_of('w', st.base, st.add_y ? "y" : "");
}

// What the pair features need to know about a text.
struct PairStats {
  std::uint32_t units = 0;
  std::uint32_t han = 0, han_hit = 0;
  std::uint32_t bigrams = 0, bigram_hit = 0;
  std::uint32_t words = 0, word_hit = 0;
  std::string_view first_han;  // UTF-8 of the first Han character
  bool question_mark = false;
};

// Scans the previous turn into `set` (and counts its units).
PairStats scan_previous(std::string_view s, PrevSet& set) noexcept {
  PairStats st;
  std::size_t i = 0;
  std::string_view last_han;
  std::size_t word_begin = std::string_view::npos;
  auto close_word = [&](std::size_t end) {
    if (word_begin == std::string_view::npos) return;
    set.add(stem_key(stem_of(s.substr(word_begin, end - word_begin))));
    ++st.units;
    word_begin = std::string_view::npos;
  };
  while (i < s.size()) {
    const Cp c = read_cp(s, i);
    const bool word =
        c.cls == Cls::kWord ||
        (c.cls == Cls::kApostrophe && word_begin != std::string_view::npos && word_at(s, c.end));
    if (word) {
      if (word_begin == std::string_view::npos) word_begin = c.begin;
      last_han = {};
      continue;
    }
    close_word(c.begin);
    if (c.cls == Cls::kDrop) continue;
    if (c.cls == Cls::kHan) {
      const std::string_view ch = s.substr(c.begin, c.end - c.begin);
      set.add(key_of('u', ch));
      if (!last_han.empty()) set.add(key_of('b', last_han, ch));
      last_han = ch;
      ++st.units;
      continue;
    }
    last_han = {};
    if (c.cp == '?') st.question_mark = true;
  }
  close_word(s.size());
  set.seal();
  return st;
}

// Where the last unit (Han character or word character) of `s` ends, so a Han run knows whether
// it closes the message.
std::size_t last_unit_end_of(std::string_view s) {
  std::size_t end = 0;
  for (std::size_t i = 0; i < s.size();) {
    const Cp c = read_cp(s, i);
    if (c.cls == Cls::kHan || c.cls == Cls::kWord) end = c.end;
  }
  return end;
}

// The extractor, written once for both sinks: one pass over the text keeping the current Han run
// and ASCII word chain, then the message's shape and, with a previous turn, the pair features.
template <class Sink>
class Extractor {
 public:
  Extractor(std::string_view s, std::string_view previous, Sink& sink)
      : s_(s), sink_(sink), pair_(!previous.empty()), last_unit_end_(last_unit_end_of(s)) {
    if (pair_) prev_stats_ = scan_previous(previous, prev_set_);
  }

  void run() {
    text_features();
    shape_features();
    if (pair_) pair_features();
  }

 private:
  // One feature of a tag and its parts.
  template <class... Parts>
  void emit(const char* tag, Parts... parts) {
    sink_.begin(tag);
    (sink_.part(std::string_view(parts)), ...);
    sink_.end();
  }

  void text_features() {
    for (std::size_t i = 0; i < s_.size();) {
      const Cp c = read_cp(s_, i);
      const bool is_word =
          c.cls == Cls::kWord || (c.cls == Cls::kApostrophe && word_begin_ != std::string_view::npos &&
                                  word_at(s_, c.end));
      if (is_word) {
        close_run(c.begin);
        if (word_begin_ == std::string_view::npos) word_begin_ = c.begin;
        continue;
      }
      close_word(c.begin);
      other_char(c);
    }
    close_word(s_.size());
    close_run(s_.size());
    close_chain(s_.size());
  }

  // A code point outside an ASCII word.
  void other_char(const Cp& c) {
    switch (c.cls) {
      case Cls::kHan:
        close_chain(c.begin);
        han_char(s_.substr(c.begin, c.end - c.begin));
        break;
      case Cls::kEmoji:
      case Cls::kPunct:
      case Cls::kApostrophe:
        close_run(c.begin);
        if (c.cls == Cls::kEmoji)
          ++emoji_;
        else
          ++punct_;
        if (c.cp == '?') qmark_ = true;
        emit("P", s_.substr(c.begin, c.end - c.begin));
        break;
      case Cls::kSpace:
        close_run(c.begin);
        break;
      case Cls::kDrop:
      case Cls::kWord:
        break;
    }
  }

  // A Han character: its unigram, the bigram with the previous character (or the run's opening
  // marker) and, once two precede (or the marker and one), the trigram.
  void han_char(std::string_view ch) {
    if (run_open_ == nullptr) {
      run_open_ = unit_seen_ ? "<" : "^";
      h1_ = {};
      h2_ = {};
    }
    emit("H1", ch);
    emit("H2", h2_.empty() ? std::string_view(run_open_) : h2_, ch);
    if (!h2_.empty()) emit("H3", h1_.empty() ? std::string_view(run_open_) : h1_, h2_, ch);
    if (pair_) count_han_overlap(ch);
    h1_ = h2_;
    h2_ = ch;
    ++units_;
    has_han_ = true;
    unit_seen_ = true;
  }

  // How much of the turn's Han text the previous turn shares.
  void count_han_overlap(std::string_view ch) {
    ++cur_.han;
    if (prev_set_.has(key_of('u', ch))) ++cur_.han_hit;
    if (!h2_.empty()) {
      ++cur_.bigrams;
      if (prev_set_.has(key_of('b', h2_, ch))) ++cur_.bigram_hit;
    }
    if (cur_.first_han.empty()) cur_.first_han = ch;
  }

  // The end of a Han run: it closes the message ($) or not (>).
  void close_run(std::size_t at) {
    if (run_open_ == nullptr) return;
    const std::string_view close = at >= last_unit_end_ ? "$" : ">";
    emit("H2", h2_, close);
    emit("H3", h1_.empty() ? std::string_view(run_open_) : h1_, h2_, close);
    run_open_ = nullptr;
  }

  // ASCII word chain: consecutive words not separated by a Han character. Its bigrams open with
  // ^ (the chain opens the message) or < and close with $ (it ends the message) or >.
  void bigram(std::string_view a, bool a_y, std::string_view b, bool b_y) {
    sink_.begin("B");
    sink_.part(a);
    if (a_y) sink_.more("y");
    sink_.part(b);
    if (b_y) sink_.more("y");
    sink_.end();
  }

  void close_chain(std::size_t at) {
    if (!chain_) return;
    bigram(prev_stem_.base, prev_stem_.add_y, at >= last_unit_end_ ? "$" : ">", false);
    chain_ = false;
  }

  void close_word(std::size_t end) {
    if (word_begin_ == std::string_view::npos) return;
    word(s_.substr(word_begin_, end - word_begin_));
    word_begin_ = std::string_view::npos;
  }

  // An ASCII word: a number as its size class (and itself when short), else the word and its
  // stem; then its place in the chain.
  void word(std::string_view w) {
    const bool digits = std::all_of(w.begin(), w.end(), [](char c) { return c >= '0' && c <= '9'; });
    const Stem st = digits ? number(w) : letters(w);
    if (chain_)
      bigram(prev_stem_.base, prev_stem_.add_y, st.base, st.add_y);
    else
      bigram(unit_seen_ ? "<" : "^", false, st.base, st.add_y);
    prev_stem_ = st;
    chain_ = true;
    ++units_;
    unit_seen_ = true;
  }

  Stem number(std::string_view w) {
    static constexpr const char* kNum[] = {"<num1>", "<num2>", "<num3>", "<num4>", "<num5>"};
    const Stem st{kNum[std::min<std::size_t>(w.size(), 5) - 1], false};
    emit("W", st.base);
    if (w.size() <= 3) emit("W", w);
    digit_ = true;
    return st;
  }

  Stem letters(std::string_view w) {
    const Stem st = stem_of(w);
    emit("W", w);
    if (!same_stem(st, w)) {
      sink_.begin("S");
      sink_.part(st.base);
      if (st.add_y) sink_.more("y");
      sink_.end();
    }
    if (has_digit(w)) digit_ = true;
    has_latin_ = true;
    if (pair_) {
      ++cur_.words;
      if (prev_set_.has(stem_key(st))) ++cur_.word_hit;
    }
    return st;
  }

  // The message's shape: length, punctuation or emoji only, digits, question mark, script.
  void shape_features() {
    emit("len", units_bucket(units_));
    if (units_ == 0 && emoji_ == 0 && punct_ > 0) emit("only-punct");
    if (units_ == 0 && emoji_ > 0) emit("only-emoji");
    if (digit_) emit("digit");
    if (qmark_) emit("qmark");
    emit("script", has_han_ ? (has_latin_ ? "mixed" : "han") : (has_latin_ ? "latin" : "none"));
  }

  // The turn against the previous one: lengths, their ratio, shared bigrams, characters, words.
  void pair_features() {
    const std::uint32_t cur_units = units_ == 0 ? 1 : units_;
    const std::uint32_t prev_units = prev_stats_.units == 0 ? 1 : prev_stats_.units;
    emit("D len", cur_len_bucket(cur_units), prev_len_bucket(prev_units));
    emit("D ratio", ratio_bucket(cur_units, prev_units));
    if (cur_.bigrams > 0) {
      emit("D bi", count_bucket(cur_.bigram_hit, 3));
      emit("D bishare", share_bucket(cur_.bigram_hit, cur_.bigrams));
    }
    if (cur_.han > 0) {
      emit("D unishare", share_bucket(cur_.han_hit, cur_.han));
      emit("D first", cur_.first_han, cur_.bigram_hit > 0 ? "1" : "0");
    }
    if (cur_.words > 0) emit("D word", count_bucket(cur_.word_hit, 2));
    if (prev_stats_.question_mark) emit("D prevq");
  }

  const std::string_view s_;
  Sink& sink_;
  const bool pair_;
  const std::size_t last_unit_end_;
  PrevSet prev_set_;
  PairStats prev_stats_;
  PairStats cur_;
  std::uint32_t units_ = 0, emoji_ = 0, punct_ = 0;
  bool digit_ = false, qmark_ = false, has_han_ = false, has_latin_ = false;
  bool unit_seen_ = false;  // a unit occurred before the current position
  // Han run state: the last two characters (UTF-8 slices) and the run's opening marker.
  std::string_view h1_, h2_;  // h2 = last, h1 = one before
  const char* run_open_ = nullptr;
  Stem prev_stem_;
  bool chain_ = false;
  std::size_t word_begin_ = std::string_view::npos;
};

template <class Sink>
void extract(std::string_view s, std::string_view previous, Sink& sink) {
  Extractor<Sink>(s, previous, sink).run();
}

}  // namespace

void extract_router_features(std::string_view text, std::string_view previous, unsigned hash_bits,
                             FeatureBuffer& out) noexcept {
  out.size = 0;
  out.text_count = 0;
  if (hash_bits < kMinHashBits || hash_bits > kMaxHashBits) return;
  HashSink sink{out, 64U - hash_bits};
  // The text features are emitted first; remember where they stop.
  struct Split {
    HashSink& inner;
    FeatureBuffer& buf;
    bool text_done = false;
    void begin(std::string_view tag) noexcept {
      if (!text_done && tag.size() >= 2 && tag[0] == 'D' && tag[1] == ' ') {
        buf.text_count = buf.size;
        text_done = true;
      }
      inner.begin(tag);
    }
    void part(std::string_view s) noexcept { inner.part(s); }
    void more(std::string_view s) noexcept { inner.more(s); }
    void end() noexcept { inner.end(); }
  } split{sink, out};
  char text_buf[kMaxFoldBytes], previous_buf[kMaxFoldBytes];
  extract(fold_for_model(text, text_buf), fold_for_model(previous, previous_buf), split);
  if (!split.text_done) out.text_count = out.size;
}

std::vector<std::string> describe_router_features(std::string_view text,
                                                  std::string_view previous) {
  std::vector<std::string> out;
  DescribeSink sink{out, std::string(), true};
  char text_buf[kMaxFoldBytes], previous_buf[kMaxFoldBytes];
  extract(fold_for_model(text, text_buf), fold_for_model(previous, previous_buf), sink);
  return out;
}

}  // namespace qaplan::internal
