#pragma once
// Stage — topic switch: a follow-up rule matched a demonstrative that points at a noun of the turn
// itself (这个报销单, 那个VPN), and the turn is a whole question (an interrogative) whose words
// name other sources than the previous turn's: 那个VPN客户端在哪下载 after 差旅报销流程 switches
// topic. Spliced into the history it would be garbled; alone it is complete. A person pronoun
// (他们需要签保密协议吗) points back; 那审批呢 and 病假 have no interrogative: they stay
// follow-ups. Also here: when a pronoun's antecedent is in the turn itself (antecedent_in_turn).
// The planner applies switches_topic too where the rules are silent and the model's dependent
// head alone would make a turn naming another source a follow-up.
#include "planning/lexicon.hpp"
#include "planning/stages/source.hpp"

namespace qaplan::internal {

/// The cheap precondition, on the turn alone: a demonstrative right before a source keyword, an
/// interrogative, no person pronoun. The planner computes the source decisions only then.
bool points_at_own_noun(const ScannedQuery& q, const LexiconIds& ids);

/// A pronoun whose antecedent stands before it in the turn: one that sums up an enumeration of
/// its clause (外派人员的房补、探亲机票这些是怎么规定的), or a person pronoun after two or more
/// code points of the clause's own words (客户说他们没收到发票; markers such as 那, 请问, 如果 do
/// not count). A thing pronoun after a verb (没完成它会怎样) still points back. True when the turn
/// has a pronoun and every pronoun is such.
bool antecedent_in_turn(const ScannedQuery& q, const LexiconIds& ids);

/// True when the turn's and the previous turn's words-only source decisions (no model) name
/// disjoint, non-empty sets of sources.
bool switches_topic(const SourceDecision& turn, const SourceDecision& previous);

}  // namespace qaplan::internal
