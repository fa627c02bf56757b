#pragma once
// Aho-Corasick multi-pattern matcher over UTF-8 bytes. Build once, scan many times: one pass over
// the text, linear in text length plus the number of hits, whatever the patterns — this is how
// user text is matched without regular expressions. UTF-8 is self-synchronising, so a byte-level
// match of a valid UTF-8 pattern inside valid UTF-8 text always starts and ends on code point
// boundaries.
#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace qaplan::internal {

/// The next number of a process-wide count (from 1): each built vocabulary takes one.
std::uint64_t next_vocabulary_serial() noexcept;

class PatternMatcher {
 public:
  /// Registers `pattern` as a member of list `list_id`. Empty patterns are ignored.
  void add(std::string_view pattern, std::uint32_t list_id);
  /// Builds the automaton; call once after all add()s.
  void build();
  /// A number no other automaton built in this process has (set by build(); copies share it):
  /// what a cache of results that depend on the patterns keys on, since an address may be reused.
  std::uint64_t serial() const noexcept { return serial_; }
  /// Calls on_pattern(bytes) once for every distinct pattern added (in no particular order),
  /// read back from the build-time trie, which is kept.
  void for_each_pattern(const std::function<void(std::string_view)>& on_pattern) const;

  /// Calls on_hit(list_id, begin_byte, end_byte) for every occurrence of every pattern.
  template <class F>
  void scan(std::string_view text, F&& on_hit) const {
    std::uint32_t state = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
      state = step(state, static_cast<unsigned char>(text[i]));
      for (std::uint32_t o = flat_[state + kOut]; o != kNone; o = out_next_[o]) {
        const Output& out = outputs_[o];
        on_hit(out.list, static_cast<std::uint32_t>(i + 1 - out.len),
               static_cast<std::uint32_t>(i + 1));
      }
    }
  }

 private:
  std::uint64_t serial_ = 0;
  static constexpr std::uint32_t kNone = 0xFFFFFFFFu;
  struct Node {  // build time
    std::uint32_t fail = 0;
    std::uint32_t out = kNone;  // first output reachable from this node (own or via suffixes)
  };
  struct Output {
    std::uint32_t list;
    std::uint32_t len;
  };
  // Build-time trie in three flat arrays (a node's edges and outputs are singly linked lists),
  // not a vector per node: a rules file's tries have tens of thousands of nodes, and one
  // allocation each was a tenth of the CLI's start-up.
  struct TrieNode {
    std::uint32_t first_edge = kNone, last_edge = kNone, edge_count = 0;
    std::uint32_t own = kNone;  // outputs, newest first
  };
  struct Edge {
    unsigned char byte;
    std::uint32_t target;
    std::uint32_t next = kNone;  // the next sibling, in insertion order
  };
  struct OwnOutput {
    Output out;
    std::uint32_t next;
  };

  // After build() a state is an offset into flat_, where a node is laid out whole:
  //   [fail, out, child count, child bytes packed four to a word…, child states…]
  // so a step reads one or two cache lines, not a node array and an edge array apart (the scan
  // is a chain of dependent loads, cold between questions). The root is offset 0; its children
  // are looked up in root_.
  static constexpr std::uint32_t kFail = 0, kOut = 1, kCount = 2, kBytes = 3;
  static constexpr std::uint32_t kPad = 4;  // words after the last node: find_byte's 16-byte reads

  std::uint32_t step(std::uint32_t state, unsigned char c) const {
    for (;;) {
      if (state == 0) return root_[c];
      const std::uint32_t* n = flat_.data() + state;
      const std::uint32_t count = n[kCount];
      const auto* bytes = reinterpret_cast<const unsigned char*>(n + kBytes);
      if (count == 1) {  // inside a pattern, most nodes: one byte compared, no vector search
        if (bytes[0] == c) return n[kBytes + 1];
      } else if (const std::uint32_t k = find_byte(bytes, count, c); k < count) {
        return n[kBytes + (count + 3) / 4 + k];
      }
      state = n[kFail];
    }
  }
  std::uint32_t child(std::uint32_t state, unsigned char c) const;

  // The index of `c` among a node's `count` child bytes; not found when ≥ count. A node just
  // below a UTF-8 lead byte has up to 64 children: 16 bytes are compared at once (SSE2 is in
  // every x86-64; flat_ is padded so the last node's reads stay inside it). Bytes read past the
  // children may match, but only after every child, so the lowest match decides.
  static std::uint32_t find_byte(const unsigned char* bytes, std::uint32_t count, unsigned char c) {
#if defined(__SSE2__)
    const __m128i needle = _mm_set1_epi8(static_cast<char>(c));
    for (std::uint32_t k = 0; k < count; k += 16) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(bytes + k));
      const auto m = static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, needle)));
      if (m != 0) return k + static_cast<std::uint32_t>(__builtin_ctz(m));
    }
    return count;
#else
    std::uint32_t k = 0;
    while (k < count && bytes[k] != c) ++k;
    return k;
#endif
  }

  // Build-time trie; flattened into flat_ by build().
  std::vector<TrieNode> trie_{1};
  std::vector<Edge> edges_;
  std::vector<OwnOutput> own_;
  std::vector<std::uint32_t> flat_;
  std::array<std::uint32_t, 256> root_{};
  std::vector<Output> outputs_;
  std::vector<std::uint32_t> out_next_;
};

}  // namespace qaplan::internal
