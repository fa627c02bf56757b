#pragma once
// A reply to what the user's previous turn stated (我不打篮球了 + 为什么; 我喜欢看悬疑片 + 我也是;
// 听说GTA6明年发售 + 真的吗): the turn asks about, or agrees with, the statement itself, so the
// rewrite is built from the statement, not from a topic slotted into the turn
// (docs/rewrite.md#replies-to-a-statement).
#include <optional>
#include <string>
#include <string_view>

#include "planning/analysis/phrases.hpp"

namespace qaplan::internal {

struct StatementReply {
  std::string text;
  const char* reason;
};

/// The rewrite of `turn` (markers and a closing 呢 already stripped) as a reply to `said`, the
/// newest turn of the history; `statement` when that turn is no question (a question that only
/// frames a report, 你知道吗，…, counts as one); nullopt when `turn` is no such reply.
/// - 为什么 / 为啥 after a statement in the first person (`[rewrite] speaker_words`): why of what
///   the speaker said, without the speaker (为什么不打篮球了; reason `statement_why:speaker`);
/// - a word of `also_markers` (我也是) after such a statement: the statement said of the user too
///   (我也喜欢看悬疑片; reason `also`);
/// - a word of `confirm_markers` (是吗, 真的吗): the statement without a hearsay frame of
///   `report_frames` (听说, 你知道吗) asked as a yes-or-no question (GTA6明年发售吗; reason `confirm`).
std::optional<StatementReply> reply_to_statement(std::string_view said, bool statement,
                                                 std::string_view turn, const PhraseReader& reader);

/// `text` without the speaker it opens with (我 of 我不打篮球了, glued or not: 我不|想去, 我还没|看),
/// or nullopt when it opens otherwise (我国 is a noun; 我们部门… only owns the subject).
std::optional<std::string_view> after_speaker(std::string_view text, const PhraseReader& reader);

/// What a statement in the first person is about (我最近在玩艾尔登法环 → 艾尔登法环, 我打算周末去漫展
/// → 漫展): the last noun phrase of the speaker's clause, with what 的 links to it (漫长的季节) and
/// without a verb after the progressive 在; `with_verb`, a one-character verb right before an
/// object of one word (学|吉他: the activity a bare predicate asks about; 它 / 这个 stand for the
/// thing alone, a name or a phrase is asked about on its own). Nullopt when `said` does not open with a speaker
/// or is an opinion (我觉得…). `implied`: the speaker may be left out (最近在看三体, 养了一只橘猫;
/// `[rewrite] speaker_openers`) — for a history with no question, where every turn is the user's
/// own or small talk, not an answer stating how things are done.
std::optional<std::string> spoken_object(std::string_view said, const PhraseReader& reader,
                                         bool with_verb, bool implied = false);

/// `phrase` from after its first count (一只猫 → 猫, 邻居家有两只狗 → 狗): what a pronoun stands for is
/// the thing the count introduced, not how many or who has it.
std::string_view without_count(std::string_view phrase);

}  // namespace qaplan::internal
