#pragma once
// The domain lexicon's matcher: a byte trie built in one pass from terms sorted by bytes, scanned
// by walking it from every byte of the question.
//
// Why not PatternMatcher (Aho-Corasick, matcher.hpp): it is built for the rules' few thousand cue
// phrases; loading 50 000 Han terms took 455 ms CPU and 38 MB (perf: its per-node vectors and the
// fail-link search), against a 50 ms start-up budget. Sorted input gives the trie without a
// search per byte, and no fail links are needed because a term is at most kMaxTermBytes long: the
// walk from one start stops after that many bytes, so a scan is linear in the question's length
// (≤ kMaxTermBytes steps per byte, in practice one or two — most bytes start no term).
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
    parent.reserve(total_bytes);
    via.reserve(total_bytes);
    nodes_.clear();
    nodes_.reserve(total_bytes + 1);
    nodes_.push_back(Node{});
    std::array<std::uint32_t, kMaxTermBytes + 1> path{};
    std::string_view prev;
    for (std::uint32_t id = 0; id < n; ++id) {
      const std::string_view t = term(id);
      // Sorted input: the new term shares its first `l` bytes with the previous one, so only
      // the nodes past them are new (l < t.size(): a term is never a prefix of an earlier one).
      std::size_t l = 0;
      while (l < prev.size() && l < t.size() && prev[l] == t[l]) ++l;
      for (std::size_t d = l; d < t.size(); ++d) {
        path[d + 1] = static_cast<std::uint32_t>(nodes_.size());
        nodes_.push_back(Node{});
        parent.push_back(path[d]);
        via.push_back(static_cast<unsigned char>(t[d]));
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
    edges_.resize(parent.size());
    for (std::size_t k = 0; k < parent.size(); ++k) {
      Node& p = nodes_[parent[k]];
      edges_[p.edge_begin + p.edge_count++] = {via[k], static_cast<std::uint32_t>(k + 1)};
    }
    root_.fill(0);
    for (std::uint32_t k = 0; k < nodes_[0].edge_count; ++k)
      root_[edges_[k].byte] = edges_[k].target;
  }

  /// Calls on_hit(term, begin, end) for every occurrence of every term, by begin, shorter first.
  template <class F>
  void scan(std::string_view text, F&& on_hit) const {
    for (std::size_t b = 0; b < text.size(); ++b) {
      std::uint32_t u = root_[static_cast<unsigned char>(text[b])];
      for (std::size_t e = b + 1; u != 0; ++e) {
        if (nodes_[u].term >= 0)
          on_hit(static_cast<std::uint32_t>(nodes_[u].term), static_cast<std::uint32_t>(b),
                 static_cast<std::uint32_t>(e));
        if (e == text.size()) break;
        u = child(u, static_cast<unsigned char>(text[e]));
      }
    }
  }

  std::size_t node_count() const noexcept { return nodes_.size(); }

 private:
  struct Node {
    std::uint32_t edge_begin = 0;
    std::uint32_t edge_count = 0;
    std::int32_t term = -1;
  };
  struct Edge {
    unsigned char byte = 0;
    std::uint32_t target = 0;
  };

  // 0 = no child (the root is nobody's child). Edges are sorted by byte.
  std::uint32_t child(std::uint32_t u, unsigned char c) const {
    const Edge* first = edges_.data() + nodes_[u].edge_begin;
    const Edge* last = first + nodes_[u].edge_count;
    const Edge* it =
        std::lower_bound(first, last, c, [](const Edge& e, unsigned char x) { return e.byte < x; });
    return it != last && it->byte == c ? it->target : 0;
  }

  std::vector<Node> nodes_;
  std::vector<Edge> edges_;
  std::array<std::uint32_t, 256> root_{};
};

}  // namespace qaplan::internal
