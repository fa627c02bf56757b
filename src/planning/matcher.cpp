#include <algorithm>
#include <deque>

#include "planning/matcher.hpp"

namespace qaplan::internal {

void PatternMatcher::add(std::string_view pattern, std::uint32_t list_id) {
  if (pattern.empty()) return;
  std::uint32_t s = 0;
  for (unsigned char c : pattern) {
    auto& kids = trie_[s];
    auto it = std::find_if(kids.begin(), kids.end(), [c](const Edge& e) { return e.byte == c; });
    if (it != kids.end()) {
      s = it->target;
      continue;
    }
    const auto id = static_cast<std::uint32_t>(trie_.size());
    kids.push_back({c, id});
    trie_.emplace_back();
    own_.emplace_back();
    s = id;
  }
  auto& outs = own_[s];
  const Output o{list_id, static_cast<std::uint32_t>(pattern.size())};
  if (std::none_of(outs.begin(), outs.end(), [&](const Output& x) { return x.list == list_id; }))
    outs.push_back(o);
}

std::uint32_t PatternMatcher::child(std::uint32_t state, unsigned char c) const {
  for (const Edge& e : trie_[state])
    if (e.byte == c) return e.target;
  return kNone;
}

void PatternMatcher::build() {
  const std::size_t n = trie_.size();
  nodes_.assign(n, Node{});
  root_.fill(0);
  for (const Edge& e : trie_[0]) root_[e.byte] = e.target;
  // Breadth-first: a node's fail link points to the longest proper suffix that is a trie node.
  std::vector<std::uint32_t> order;
  order.reserve(n);
  std::deque<std::uint32_t> queue;
  for (const Edge& e : trie_[0]) {
    nodes_[e.target].fail = 0;
    queue.push_back(e.target);
  }
  while (!queue.empty()) {
    const std::uint32_t s = queue.front();
    queue.pop_front();
    order.push_back(s);
    for (const Edge& e : trie_[s]) {
      std::uint32_t f = nodes_[s].fail;
      std::uint32_t next;
      for (;;) {
        if (f == 0) {
          next = root_[e.byte];
          break;
        }
        next = child(f, e.byte);
        if (next != kNone) break;
        f = nodes_[f].fail;
      }
      nodes_[e.target].fail = next;
      queue.push_back(e.target);
    }
  }
  // Output chains: a node's own outputs, then those of its fail node (already built, BFS order).
  outputs_.clear();
  out_next_.clear();
  for (std::uint32_t s : order) {
    std::uint32_t tail = nodes_[nodes_[s].fail].out;
    for (auto it = own_[s].rbegin(); it != own_[s].rend(); ++it) {
      outputs_.push_back(*it);
      out_next_.push_back(tail);
      tail = static_cast<std::uint32_t>(outputs_.size() - 1);
    }
    nodes_[s].out = tail;
  }
  // Flatten the trie's edges so step() reads one contiguous array.
  edges_.clear();
  for (std::size_t s = 0; s < n; ++s) {
    nodes_[s].child_begin = static_cast<std::uint32_t>(edges_.size());
    nodes_[s].child_count = static_cast<std::uint32_t>(trie_[s].size());
    edges_.insert(edges_.end(), trie_[s].begin(), trie_[s].end());
  }
}

}  // namespace qaplan::internal
