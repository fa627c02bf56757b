#pragma once
// Stage — topic switch: a follow-up rule matched a demonstrative that points at a noun of the turn
// itself (这个报销单, 那个VPN), and the turn is a whole question (an interrogative) whose words
// name other sources than the previous turn's: 那个VPN客户端在哪下载 after 差旅报销流程 switches
// topic. Spliced into the history it would be garbled; alone it is complete. A person pronoun
// (他们需要签保密协议吗) points back; 那审批呢 and 病假 have no interrogative: they stay
// follow-ups.
#include "planning/lexicon.hpp"
#include "planning/stages/source.hpp"

namespace qaplan::internal {

/// The cheap precondition, on the turn alone: a demonstrative right before a source keyword, an
/// interrogative, no person pronoun. The planner computes the source decisions only then.
bool points_at_own_noun(const ScannedQuery& q, const LexiconIds& ids);

/// True when the turn's and the previous turn's words-only source decisions (no model) name
/// disjoint, non-empty sets of sources.
bool switches_topic(const SourceDecision& turn, const SourceDecision& previous);

}  // namespace qaplan::internal
