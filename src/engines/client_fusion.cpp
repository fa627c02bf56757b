// Client-side fusion: what an engine cannot fuse, qaplan fuses with the same code and order as
// the in-process executor (retrieval/executor.cpp run_leg): per leg one hit per parent, cut to top k,
// fuse_rrf in leg order, cut to top k; documents with prefer_table put table rows first.
#include <algorithm>
#include <map>

#include "qaplan/engines/engines.hpp"
#include "qaplan/ranking/fusion.hpp"

namespace qaplan::engines {

Result<ClientFusion> fuse_client(const EngineRequests& r, const std::vector<LegHits>& hits) {
  if (hits.size() != r.legs.size())
    return make_error(ErrorCode::kInvalidInput,
                      "one hit list per leg: " + std::to_string(r.legs.size()) + " legs, " +
                          std::to_string(hits.size()) + " lists",
                      "hits");
  ClientFusion out;
  for (const char* col : {"faq", "doc"}) {
    // Parent ids → dense numbers. fuse_rrf breaks equal scores by the lower number, so the
    // numbering is the tie order: by the hosts' `order` keys when given (the in-process executor
    // breaks ties by knowledge-base order), else by first appearance in leg order.
    struct Seen {
      std::int64_t key;
      std::size_t first;
      bool table;
    };
    std::map<std::string, Seen> seen;
    int top_k = 0;
    std::size_t appearance = 0;
    for (std::size_t i = 0; i < r.legs.size(); ++i) {
      if (r.legs[i].collection != col) continue;
      top_k = r.legs[i].top_k;
      const LegHits& h = hits[i];
      const std::string field = "hits[" + std::to_string(i) + "]";
      if (!h.table.empty() && h.table.size() != h.parents.size())
        return make_error(ErrorCode::kInvalidInput, "table flags and hits differ in number",
                          field + ".table");
      if (!h.order.empty() && h.order.size() != h.parents.size())
        return make_error(ErrorCode::kInvalidInput, "order keys and hits differ in number",
                          field + ".order");
      for (std::size_t j = 0; j < h.parents.size(); ++j) {
        const std::int64_t key = h.order.empty() ? 0 : h.order[j];
        auto [it, fresh] = seen.emplace(h.parents[j], Seen{key, appearance++, false});
        if (!fresh && !h.order.empty() && key != it->second.key)
          return make_error(ErrorCode::kInvalidInput,
                            "parent '" + h.parents[j] + "' has two order keys", field + ".order");
        if (!h.table.empty() && h.table[j]) it->second.table = true;
      }
    }
    std::vector<const std::pair<const std::string, Seen>*> by_tie;
    for (const auto& e : seen) by_tie.push_back(&e);
    std::sort(by_tie.begin(), by_tie.end(), [](const auto* a, const auto* b) {
      return a->second.key != b->second.key ? a->second.key < b->second.key
                                            : a->second.first < b->second.first;
    });
    std::map<std::string, std::uint32_t> id_of;
    std::vector<std::string> parent;
    std::vector<char> table;
    for (const auto* e : by_tie) {
      id_of.emplace(e->first, static_cast<std::uint32_t>(parent.size()));
      parent.push_back(e->first);
      table.push_back(e->second.table ? 1 : 0);
    }
    std::vector<RankedList> lists;
    for (std::size_t i = 0; i < r.legs.size(); ++i) {
      if (r.legs[i].collection != col) continue;
      RankedList list;
      std::vector<char> in_list(parent.size(), 0);
      for (const std::string& p : hits[i].parents) {
        const std::uint32_t id = id_of.at(p);
        if (in_list[id]) continue;  // the parent's best hit counts, once
        in_list[id] = 1;
        list.push_back({id, 0.0});
        if (list.size() >= static_cast<std::size_t>(std::max(0, top_k))) break;
      }
      lists.push_back(std::move(list));
    }
    if (lists.empty()) continue;
    RrfOptions opts;
    opts.k = r.rrf_k;
    QAPLAN_ASSIGN_OR_RETURN(std::vector<FusedHit> fused, fuse_rrf(lists, opts));
    if (fused.size() > static_cast<std::size_t>(top_k)) fused.resize(static_cast<std::size_t>(top_k));
    std::vector<FusedItem>& dst = col[0] == 'f' ? out.faq : out.doc;
    for (const FusedHit& f : fused)
      dst.push_back({parent[f.doc], f.score, f.ranks, table[f.doc] != 0});
    if (col[0] == 'd' && r.prefer_table)
      std::stable_partition(dst.begin(), dst.end(), [](const FusedItem& x) { return x.table; });
  }
  return out;
}

}  // namespace qaplan::engines
