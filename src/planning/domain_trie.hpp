#pragma once
// The domain lexicon's matcher: a byte trie built in one pass from terms sorted by bytes, scanned
// by walking it from every character of the question.
//
// Why not PatternMatcher (Aho-Corasick, matcher.hpp): it is built for the rules' few thousand cue
// phrases; loading 50 000 Han terms took 455 ms CPU and 38 MB (perf: its per-node vectors and the
// fail-link search), against a 50 ms start-up budget. Sorted input gives the trie without a
// search per byte, and no fail links are needed because a term is at most kMaxTermBytes long: the
// walk from one start stops after that many bytes, so a scan is linear in the question's length
// (≤ kMaxTermBytes steps per byte, in practice one or two — most characters start no term).
//
// A three-byte UTF-8 character (every BMP Han one) is one step, not three: a hash table maps
// (node, character) to the node after it. Per question the trie is cold in cache (the router
// model's weights pass through it between questions), and three dependent loads per character
// through the node array were most of a scan's time (perf, planner_bench --per-question).
// Other bytes (ASCII, two- and four-byte characters) walk the byte edges. Text and terms are cut
// into the same units — a valid three-byte sequence, else one byte — so the two walks agree.
#include <algorithm>
#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

namespace qaplan::internal {

class DomainTrie {
 public:
  /// Longest term the loader accepts (8 Han characters are 24 bytes; ASCII terms ≤ 24 letters).
  static constexpr std::size_t kMaxTermBytes = 64;

  /// `term(i)` for i < n must be strictly increasing in byte order, non-empty, ≤ kMaxTermBytes;
  /// `total_bytes` is the sum of their sizes.
  template <class TermAt>
  void build(std::uint32_t n, TermAt&& term, std::size_t total_bytes) {
    // Node k + 1 is the k-th node created; its parent and the byte leading to it are kept until
    // the edges are laid out. At most one node per term byte: reserve once, no regrowth.
    std::vector<std::uint32_t> parent;
    std::vector<unsigned char> via;
    std::vector<CharStep> steps;  // three-byte characters: (node, character) → node
    parent.reserve(total_bytes);
    via.reserve(total_bytes);
    nodes_.clear();
    nodes_.reserve(total_bytes + 1);
    first_chars_.fill(0);
    nodes_.push_back(Node{});
    std::array<std::uint32_t, kMaxTermBytes + 1> path{};
    std::string_view prev;
    for (std::uint32_t id = 0; id < n; ++id) {
      const std::string_view t = term(id);
      const auto* u = reinterpret_cast<const unsigned char*>(t.data());
      // Sorted input: the new term shares its first `l` bytes with the previous one, so only
      // the nodes past them are new (l < t.size(): a term is never a prefix of an earlier one).
      std::size_t l = 0;
      while (l < prev.size() && l < t.size() && prev[l] == t[l]) ++l;
      for (std::size_t d = l; d < t.size(); ++d) {
        path[d + 1] = static_cast<std::uint32_t>(nodes_.size());
        nodes_.push_back(Node{});
        parent.push_back(path[d]);
        via.push_back(u[d]);
      }
      // A character step whose target is new was not recorded by an earlier term.
      for (std::size_t d = 0; d < t.size();) {
        const std::size_t w = unit(u, d, t.size());
        if (w == 3 && d + 3 > l) steps.push_back({path[d], key3(u + d), path[d + 3]});
        if (w == 3 && d == 0) first_chars_[key3(u) / 64] |= std::uint64_t{1} << (key3(u) % 64);
        d += w;
      }
      nodes_[path[t.size()]].term = static_cast<std::int32_t>(id);
      prev = t;
    }
    // A node's children were created in increasing byte order, interleaved with other nodes':
    // count, then place each node's edges contiguously.
    for (const std::uint32_t p : parent) ++nodes_[p].edge_count;
    std::uint32_t at = 0;
    for (Node& node : nodes_) {
      node.edge_begin = at;
      at += node.edge_count;
      node.edge_count = 0;
    }
    edge_bytes_.resize(parent.size());
    edge_targets_.resize(parent.size());
    for (std::size_t k = 0; k < parent.size(); ++k) {
      Node& p = nodes_[parent[k]];
      edge_bytes_[p.edge_begin + p.edge_count] = via[k];
      edge_targets_[p.edge_begin + p.edge_count++] = static_cast<std::uint32_t>(k + 1);
    }
    root_.fill(0);
    for (std::uint32_t k = 0; k < nodes_[0].edge_count; ++k)
      root_[edge_bytes_[k]] = edge_targets_[k];
    build_steps(steps);
  }

  /// Calls on_hit(term, begin, end) for every occurrence of every term, by begin, shorter first.
  template <class F>
  void scan(std::string_view text, F&& on_hit) const {
    const auto* t = reinterpret_cast<const unsigned char*>(text.data());
    const std::size_t size = text.size();
    for (std::size_t b = 0; b < size;) {
      const std::size_t w = unit(t, b, size);
      std::uint32_t u = w == 3 ? (starts(key3(t + b)) ? step(0, key3(t + b)) : 0) : root_[t[b]];
      for (std::size_t e = b + w; u != 0;) {
        if (nodes_[u].term >= 0)
          on_hit(static_cast<std::uint32_t>(nodes_[u].term), static_cast<std::uint32_t>(b),
                 static_cast<std::uint32_t>(e));
        if (e == size) break;
        if (unit(t, e, size) == 3) {
          u = step(u, key3(t + e));
          e += 3;
        } else {
          u = child(u, t[e]);
          e += 1;
        }
      }
      b += w;  // a term never starts inside a three-byte character
    }
  }

  std::size_t node_count() const noexcept { return nodes_.size(); }

  /// Bytes held by the matcher (nodes, edges, character steps, first characters).
  std::size_t memory_bytes() const noexcept {
    return nodes_.capacity() * sizeof(Node) + edge_bytes_.capacity() +
           edge_targets_.capacity() * sizeof(std::uint32_t) + steps_.capacity() * sizeof(CharStep) +
           sizeof(first_chars_);
  }

 private:
  struct Node {
    std::uint32_t edge_begin = 0;
    std::uint32_t edge_count = 0;
    std::int32_t term = -1;
  };
  struct CharStep {
    std::uint32_t from = 0;
    std::uint32_t key = 0;
    std::uint32_t to = 0;  // 0 = empty slot (the root is nobody's target)
  };

  // 3 at a valid three-byte UTF-8 sequence, else 1.
  static std::size_t unit(const unsigned char* t, std::size_t i, std::size_t size) noexcept {
    return t[i] >= 0xE0 && t[i] <= 0xEF && i + 2 < size && (t[i + 1] & 0xC0) == 0x80 &&
                   (t[i + 2] & 0xC0) == 0x80
               ? 3
               : 1;
  }
  // The 16 payload bits of a three-byte character.
  static std::uint32_t key3(const unsigned char* c) noexcept {
    return (static_cast<std::uint32_t>(c[0] & 0x0F) << 12) |
           (static_cast<std::uint32_t>(c[1] & 0x3F) << 6) | (c[2] & 0x3Fu);
  }
  static std::size_t slot(std::uint32_t from, std::uint32_t key) noexcept {
    return (from * 0x9E3779B1u) ^ (key * 0x85EBCA77u);
  }

  void build_steps(const std::vector<CharStep>& steps) {
    std::size_t size = 16;
    while (size < 2 * steps.size()) size *= 2;  // load ≤ 1/2: short probes
    steps_.assign(size, CharStep{});
    const std::size_t mask = size - 1;
    for (const CharStep& s : steps) {
      std::size_t i = slot(s.from, s.key) & mask;
      while (steps_[i].to != 0) i = (i + 1) & mask;
      steps_[i] = s;
    }
  }

  // Whether some term starts with three-byte character `key`: a bit per BMP character (8 KB,
  // stays in cache) answers "no" for about a third of a question's characters without a probe.
  bool starts(std::uint32_t key) const noexcept {
    return (first_chars_[key / 64] >> (key % 64)) & 1u;
  }

  // The node after character `key` from `from`; 0 = none.
  std::uint32_t step(std::uint32_t from, std::uint32_t key) const noexcept {
    const std::size_t mask = steps_.size() - 1;
    for (std::size_t i = slot(from, key) & mask;; i = (i + 1) & mask) {
      const CharStep& s = steps_[i];
      if (s.to == 0) return 0;
      if (s.from == from && s.key == key) return s.to;
    }
  }

  // 0 = no child (the root is nobody's child). Edges are sorted by byte; the search has no
  // branch on the comparisons.
  std::uint32_t child(std::uint32_t u, unsigned char c) const {
    const Node& node = nodes_[u];
    std::uint32_t n = node.edge_count;
    if (n == 0) return 0;
    const unsigned char* base = edge_bytes_.data() + node.edge_begin;
    while (n > 1) {
      const std::uint32_t half = n / 2;
      base = base[half - 1] < c ? base + half : base;
      n -= half;
    }
    const std::size_t at = static_cast<std::size_t>(base - edge_bytes_.data());
    return *base == c ? edge_targets_[at] : 0;
  }

  std::vector<Node> nodes_;
  std::vector<unsigned char> edge_bytes_;  // parallel arrays: the search reads bytes only
  std::vector<std::uint32_t> edge_targets_;
  std::vector<CharStep> steps_ = std::vector<CharStep>(16);
  std::array<std::uint64_t, 65536 / 64> first_chars_{};
  std::array<std::uint32_t, 256> root_{};
};

}  // namespace qaplan::internal
