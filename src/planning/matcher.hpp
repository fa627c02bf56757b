#pragma once
// Aho-Corasick multi-pattern matcher over UTF-8 bytes. Build once, scan many times: one pass over
// the text, linear in text length plus the number of hits, whatever the patterns — this is how
// user text is matched without regular expressions. UTF-8 is self-synchronising, so a byte-level
// match of a valid UTF-8 pattern inside valid UTF-8 text always starts and ends on code point
// boundaries.
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace qaplan::internal {

class PatternMatcher {
 public:
  /// Registers `pattern` as a member of list `list_id`. Empty patterns are ignored.
  void add(std::string_view pattern, std::uint32_t list_id);
  /// Builds the automaton; call once after all add()s.
  void build();

  /// Calls on_hit(list_id, begin_byte, end_byte) for every occurrence of every pattern.
  template <class F>
  void scan(std::string_view text, F&& on_hit) const {
    std::uint32_t state = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
      state = step(state, static_cast<unsigned char>(text[i]));
      for (std::uint32_t o = nodes_[state].out; o != kNone; o = out_next_[o]) {
        const Output& out = outputs_[o];
        on_hit(out.list, static_cast<std::uint32_t>(i + 1 - out.len),
               static_cast<std::uint32_t>(i + 1));
      }
    }
  }

 private:
  static constexpr std::uint32_t kNone = 0xFFFFFFFFu;
  struct Node {
    std::uint32_t child_begin = 0;  // into edges_ after build()
    std::uint32_t child_count = 0;
    std::uint32_t fail = 0;
    std::uint32_t out = kNone;  // first output reachable from this node (own or via suffixes)
  };
  struct Edge {
    unsigned char byte;
    std::uint32_t target;
  };
  struct Output {
    std::uint32_t list;
    std::uint32_t len;
  };

  std::uint32_t step(std::uint32_t state, unsigned char c) const {
    for (;;) {
      if (state == 0) return root_[c];
      const Node& n = nodes_[state];
      const Edge* e = edges_.data() + n.child_begin;
      for (std::uint32_t k = 0; k < n.child_count; ++k)
        if (e[k].byte == c) return e[k].target;
      state = n.fail;
    }
  }
  std::uint32_t child(std::uint32_t state, unsigned char c) const;

  // Build-time trie: per node, (byte, target) pairs; flattened into edges_ by build().
  std::vector<std::vector<Edge>> trie_{1};
  std::vector<std::vector<Output>> own_{1};
  std::vector<Node> nodes_;
  std::vector<Edge> edges_;
  std::array<std::uint32_t, 256> root_{};
  std::vector<Output> outputs_;
  std::vector<std::uint32_t> out_next_;
};

}  // namespace qaplan::internal
