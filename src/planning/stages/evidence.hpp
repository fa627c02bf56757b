#pragma once
// Evidence for the route stage ([route.evidence]): does a message ask for information, and does
// it carry positive evidence of the dialogue act the model reads in it? The model reads unknown
// product words as small talk (如何开通X, X用不了); a direct answer then loses the user's answer,
// while a needless retrieval costs one search. So the model alone answers directly only with
// positive evidence of its act and no evidence of a request (route.cpp). All checks read the
// message's content (without the social words around it) and its cue hits: linear, no regex.
#include <string>

#include "planning/lexicon.hpp"

namespace qaplan::internal {

/// One piece of evidence: `kind` and the words that gave it; empty kind: none. Strong evidence
/// settles the question; weak evidence can be outweighed by strong evidence of the other side.
struct Evidence {
  std::string kind;
  std::string text;
  bool strong = false;
  explicit operator bool() const noexcept { return !kind.empty(); }
};

/// Evidence that the message's content requests information: strong — a service verb, a problem
/// word, a word naming information ("info_word"), a long digit run ("number"); weak — a source,
/// category or table keyword ("keyword") or a term of the host's domain lexicon ("domain_term";
/// `domain_term` is the first one found, "" when none or no lexicon) — the route's anchored bar
/// already weighs both — a question word about anything but the assistant ("interrogative"), a
/// time word ("time"). The first strong one, else the first weak one.
Evidence request_evidence(const ScannedQuery& q, const Lexicon& lex,
                          std::string_view domain_term = {});

/// Positive evidence of `act` (a direct RouteReason) anywhere in the message: strong — for
/// chit_chat and out_of_scope a cue of their lists (not one inside `domain_term`, the host's KB
/// term the message names: a school's KB speaks of 直播), a request-frame object, or the assistant
/// addressed (not asked for help); for handoff a handoff cue; weak — a social word for a social
/// act (it wraps requests: 谢谢，那年假呢; not one after a negation: 没明白), the speaker about
/// themselves, an emotive word, a form of address at a clause's edge.
Evidence act_evidence(RouteReason act, const ScannedQuery& q, const Lexicon& lex,
                      std::string_view domain_term = {});

/// True when the content addresses the assistant (你, not 你们): a question about the assistant
/// is small talk, not a request for the knowledge base.
bool addresses_assistant(const ScannedQuery& q, const LexiconIds& ids);

/// Evidence that a message asks about something rather than for someone (人工客服几点下班, 人工客服
/// 电话是多少): a question word asking what, when, where or how many (几, 多少, 哪, 何时, 多久,
/// 什么). It vetoes the model's handoff: the knowledge base holds the service's hours and numbers,
/// and a transfer loses them. A problem or an info word does not: a request for a person often
/// gives its reason (麻烦转一下人工，系统老是报错; 让客服给我回个电话).
Evidence asks_about(const ScannedQuery& q, const Lexicon& lex);

}  // namespace qaplan::internal
