#include "qaplan/ranking/fusion.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "common/ordering.hpp"

namespace qaplan {

Status RrfOptions::validate() const {
  if (!std::isfinite(k) || k <= 0.0) {
    return make_error(ErrorCode::kInvalidConfig, "k must be finite and > 0, got " +
                                                    std::to_string(k),
                      "rrf.k");
  }
  for (std::size_t i = 0; i < weights.size(); ++i) {
    if (!std::isfinite(weights[i]) || weights[i] < 0.0) {
      return make_error(ErrorCode::kInvalidConfig,
                        "weight must be finite and >= 0, got " + std::to_string(weights[i]),
                        "rrf.weights[" + std::to_string(i) + "]");
    }
  }
  return {};
}

Result<std::vector<FusedHit>> fuse_rrf(const std::vector<RankedList>& lists,
                                       const RrfOptions& opts) {
  if (Status st = opts.validate(); !st.ok()) return st.error();
  if (!opts.weights.empty() && opts.weights.size() != lists.size()) {
    return make_error(ErrorCode::kInvalidInput,
                      "got " + std::to_string(opts.weights.size()) + " weights for " +
                          std::to_string(lists.size()) + " lists",
                      "rrf.weights");
  }
  const std::size_t n = lists.size();
  std::vector<FusedHit> hits;
  // doc → index in `hits`; hits are created in first-seen order, the final sort fixes the order.
  std::unordered_map<std::uint32_t, std::size_t> slot;
  for (std::size_t i = 0; i < n; ++i) {
    const RankedList& list = lists[i];
    if (list.size() > UINT32_MAX) {
      return make_error(ErrorCode::kInvalidInput, "list too long", "rrf list " + std::to_string(i));
    }
    for (std::size_t pos = 0; pos < list.size(); ++pos) {
      const ScoredDoc& sd = list[pos];
      auto [it, inserted] = slot.try_emplace(sd.doc, hits.size());
      if (inserted) {
        FusedHit h;
        h.doc = sd.doc;
        h.ranks.assign(n, std::nullopt);
        h.list_scores.assign(n, std::nullopt);
        hits.push_back(std::move(h));
      }
      FusedHit& h = hits[it->second];
      if (h.ranks[i].has_value()) {
        return make_error(ErrorCode::kInvalidInput,
                          "doc " + std::to_string(sd.doc) + " occurs twice in list " +
                              std::to_string(i) + " (dedupe before fusing)",
                          "rrf list " + std::to_string(i));
      }
      h.ranks[i] = static_cast<std::uint32_t>(pos + 1);
      h.list_scores[i] = sd.score;
    }
  }
  // Each document's terms are summed smallest first: the sum depends only on which terms there
  // are, never on the order of the lists, so two documents with the same ranks in other lists
  // tie exactly and the tie goes to the lower doc as documented (summed in list order, three or
  // more lists could part them by a rounding).
  std::vector<double> terms;
  for (FusedHit& h : hits) {
    terms.clear();
    for (std::size_t i = 0; i < n; ++i) {
      if (!h.ranks[i]) continue;
      const double w = opts.weights.empty() ? 1.0 : opts.weights[i];
      terms.push_back(w * (1.0 / (opts.k + static_cast<double>(*h.ranks[i]))));
    }
    std::sort(terms.begin(), terms.end());
    double s = 0.0;
    for (double t : terms) s += t;
    h.score = s;
  }
  std::sort(hits.begin(), hits.end(), internal::ranks_before<FusedHit>);
  return hits;
}

Result<RankedList> dedupe_by_parent(const RankedList& list,
                                    const std::vector<std::uint32_t>& parent_of) {
  RankedList out;
  out.reserve(list.size());
  std::unordered_set<std::uint32_t> seen;
  for (const ScoredDoc& sd : list) {
    if (sd.doc >= parent_of.size()) {
      return make_error(ErrorCode::kInvalidInput,
                        "doc " + std::to_string(sd.doc) + " has no parent (parent_of has " +
                            std::to_string(parent_of.size()) + " entries)",
                        "dedupe_by_parent");
    }
    if (seen.insert(parent_of[sd.doc]).second) out.push_back(sd);
  }
  return out;
}

}  // namespace qaplan
