#include <algorithm>
#include <atomic>
#include <deque>
#include <string>

#include "planning/matcher.hpp"

namespace qaplan::internal {

void PatternMatcher::add(std::string_view pattern, std::uint32_t list_id) {
  if (pattern.empty()) return;
  std::uint32_t s = 0;
  for (unsigned char c : pattern) {
    const std::uint32_t next = child(s, c);
    if (next != kNone) {
      s = next;
      continue;
    }
    const auto id = static_cast<std::uint32_t>(trie_.size());
    const auto e = static_cast<std::uint32_t>(edges_.size());
    edges_.push_back({c, id});
    TrieNode& parent = trie_[s];
    (parent.last_edge == kNone ? parent.first_edge : edges_[parent.last_edge].next) = e;
    parent.last_edge = e;
    ++parent.edge_count;
    trie_.emplace_back();
    s = id;
  }
  for (std::uint32_t o = trie_[s].own; o != kNone; o = own_[o].next)
    if (own_[o].out.list == list_id) return;
  own_.push_back({Output{list_id, static_cast<std::uint32_t>(pattern.size())}, trie_[s].own});
  trie_[s].own = static_cast<std::uint32_t>(own_.size() - 1);
}

std::uint32_t PatternMatcher::child(std::uint32_t state, unsigned char c) const {
  for (std::uint32_t e = trie_[state].first_edge; e != kNone; e = edges_[e].next)
    if (edges_[e].byte == c) return edges_[e].target;
  return kNone;
}

void PatternMatcher::for_each_pattern(
    const std::function<void(std::string_view)>& on_pattern) const {
  // Depth first over the trie: the path to a node that ends a pattern is the pattern.
  std::string path;
  std::vector<std::uint32_t> edge_at{trie_[0].first_edge};  // the next edge to take per depth
  while (!edge_at.empty()) {
    const std::uint32_t e = edge_at.back();
    if (e == kNone) {
      edge_at.pop_back();
      if (!path.empty()) path.pop_back();
      continue;
    }
    edge_at.back() = edges_[e].next;
    path.push_back(static_cast<char>(edges_[e].byte));
    const std::uint32_t node = edges_[e].target;
    if (trie_[node].own != kNone) on_pattern(path);
    edge_at.push_back(trie_[node].first_edge);
  }
}

std::uint64_t next_vocabulary_serial() noexcept {
  static std::atomic<std::uint64_t> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}

void PatternMatcher::build() {
  serial_ = next_vocabulary_serial();
  const std::size_t n = trie_.size();
  std::vector<Node> nodes(n);
  root_.fill(0);
  auto edges = [this](std::uint32_t node, auto&& fn) {
    for (std::uint32_t e = trie_[node].first_edge; e != kNone; e = edges_[e].next) fn(edges_[e]);
  };
  edges(0, [&](const Edge& e) { root_[e.byte] = e.target; });
  // Breadth-first: a node's fail link points to the longest proper suffix that is a trie node.
  std::vector<std::uint32_t> order;
  order.reserve(n);
  std::deque<std::uint32_t> queue;
  edges(0, [&](const Edge& e) {
    nodes[e.target].fail = 0;
    queue.push_back(e.target);
  });
  while (!queue.empty()) {
    const std::uint32_t s = queue.front();
    queue.pop_front();
    order.push_back(s);
    edges(s, [&](const Edge& e) {
      std::uint32_t f = nodes[s].fail;
      std::uint32_t next;
      for (;;) {
        if (f == 0) {
          next = root_[e.byte];
          break;
        }
        next = child(f, e.byte);
        if (next != kNone) break;
        f = nodes[f].fail;
      }
      nodes[e.target].fail = next;
      queue.push_back(e.target);
    });
  }
  // Output chains: a node's own outputs, then those of its fail node (already built, BFS order).
  outputs_.clear();
  out_next_.clear();
  for (std::uint32_t s : order) {
    std::uint32_t tail = nodes[nodes[s].fail].out;
    for (std::uint32_t o = trie_[s].own; o != kNone; o = own_[o].next) {  // newest first
      outputs_.push_back(own_[o].out);
      out_next_.push_back(tail);
      tail = static_cast<std::uint32_t>(outputs_.size() - 1);
    }
    nodes[s].out = tail;
  }
  // Lay the nodes out whole (matcher.hpp), the root first and the rest breadth-first, so the
  // shallow nodes most steps visit sit together.
  order.insert(order.begin(), 0);
  std::vector<std::uint32_t> at(n, 0);
  std::uint32_t size = 0;
  for (std::uint32_t s : order) {
    at[s] = size;
    const std::uint32_t count = trie_[s].edge_count;
    size += kBytes + (count + 3) / 4 + count;
  }
  flat_.assign(size + kPad, 0);
  for (std::uint32_t s : order) {
    std::uint32_t* node = flat_.data() + at[s];
    const std::uint32_t count = trie_[s].edge_count;
    node[kFail] = at[nodes[s].fail];
    node[kOut] = nodes[s].out;
    node[kCount] = count;
    auto* bytes = reinterpret_cast<unsigned char*>(node + kBytes);
    std::uint32_t k = 0;
    edges(s, [&](const Edge& e) {
      bytes[k] = e.byte;
      node[kBytes + (count + 3) / 4 + k++] = at[e.target];
    });
  }
  for (std::uint32_t& r : root_) r = at[r];
}

}  // namespace qaplan::internal
