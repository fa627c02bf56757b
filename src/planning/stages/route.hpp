#pragma once
// Stage — route: answer directly (a dialogue act the knowledge base does not serve, or a source
// the scenario does not allow) or retrieve. Decisions are about the WHOLE message:
//  1. social acts: the message is only [route] cue words of social acts and politeness fillers →
//     handoff > thanks > goodbye > greeting > acknowledgement (好的，谢谢你哈 is thanks; 👍 too);
//  2. unclear: no letter, digit or Han character at all (emoji, punctuation);
//  3. out_of_scope / chit_chat: the message is only that list's cues plus fillers (给我唱首歌);
//  4. the scenario's own out_of_scope phrases (a topic the deployment excludes) anywhere;
//  5. unclear: a fragment of at most [route] unclear_max_units units that no list covers;
//  6. the model's dialogue act decides what the lists leave open, when its probability reaches
//     [route.model]'s bar for that act — and [route.model] anchored for a message that carries a
//     work cue (a source, category or table keyword; handoff excepted): a real question is not
//     refused lightly. An act without a bar (unclear in the shipped config) is never the model's;
//     and with history, a turn the follow-up rules recognise is never the model's to refuse;
//  7. source_boundary: the explicit source filter, or the suggested source, is outside the
//     scenario's allowed_sources;
//  8. otherwise retrieval.
// A cue inside a longer message (公司年会唱歌比赛怎么报名, IT部门的客服电话是多少) decides nothing.
#include <optional>
#include <string>

#include "planning/lexicon.hpp"
#include "planning/model/model_view.hpp"

namespace qaplan::internal {

/// `scenario` must come from the lexicon's config; `source_filter`, when set, must name a
/// configured source (Planner checks both). `suggested` is the source the question suggests.
/// `continues_conversation`: the follow-up rules recognise the turn as continuing the history
/// (classify_intent → FOLLOW_UP); then the model's act head may not answer it directly — it
/// reads the turn alone, where 后续谁来处置 / 还需要做什么 look like small talk.
RouteDecision decide_route(const ScannedQuery& q, const ScenarioConfig& scenario,
                           const std::optional<std::string>& source_filter,
                           const std::optional<std::string>& suggested, const ModelVerdict& model,
                           const Lexicon& lex, bool continues_conversation = false,
                           std::string_view domain_term = {});

/// Rule 7 again for a follow-up whose source was carried from the history after the route was
/// decided (stages/source.hpp, carry_history_source): without an explicit source filter, a
/// carried source outside the scenario turns `route` into the source boundary. True when it did.
bool carried_source_boundary(RouteDecision& route, const std::optional<std::string>& carried,
                             const std::optional<std::string>& source_filter,
                             const ScenarioConfig& scenario, const Config& c);

}  // namespace qaplan::internal
