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
  std::vector<Node> nodes(n);
  root_.fill(0);
  for (const Edge& e : trie_[0]) root_[e.byte] = e.target;
  // Breadth-first: a node's fail link points to the longest proper suffix that is a trie node.
  std::vector<std::uint32_t> order;
  order.reserve(n);
  std::deque<std::uint32_t> queue;
  for (const Edge& e : trie_[0]) {
    nodes[e.target].fail = 0;
    queue.push_back(e.target);
  }
  while (!queue.empty()) {
    const std::uint32_t s = queue.front();
    queue.pop_front();
    order.push_back(s);
    for (const Edge& e : trie_[s]) {
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
    }
  }
  // Output chains: a node's own outputs, then those of its fail node (already built, BFS order).
  outputs_.clear();
  out_next_.clear();
  for (std::uint32_t s : order) {
    std::uint32_t tail = nodes[nodes[s].fail].out;
    for (auto it = own_[s].rbegin(); it != own_[s].rend(); ++it) {
      outputs_.push_back(*it);
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
    const auto count = static_cast<std::uint32_t>(trie_[s].size());
    size += kBytes + (count + 3) / 4 + count;
  }
  flat_.assign(size, 0);
  for (std::uint32_t s : order) {
    std::uint32_t* node = flat_.data() + at[s];
    const auto count = static_cast<std::uint32_t>(trie_[s].size());
    node[kFail] = at[nodes[s].fail];
    node[kOut] = nodes[s].out;
    node[kCount] = count;
    auto* bytes = reinterpret_cast<unsigned char*>(node + kBytes);
    for (std::uint32_t k = 0; k < count; ++k) {
      bytes[k] = trie_[s][k].byte;
      node[kBytes + (count + 3) / 4 + k] = at[trie_[s][k].target];
    }
  }
  for (std::uint32_t& r : root_) r = at[r];
}

}  // namespace qaplan::internal
