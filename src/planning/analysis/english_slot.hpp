#pragma once
// Which phrase of an English question a "what about" fragment stands in for, read from the
// question's shape when the two share no word: a preposition's phrase for a phrase with a
// preposition of its kind (under $5,000 → over $5k), a phrase after the same determiner (my monitor
// → my keyboard), a yes/no question's subject (do contractors → interns) or, when the subject is
// the speaker, the main verb's object (can I expense taxis → ride-sharing).
#include <cstddef>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace qaplan::internal {

/// [begin, end) in `prev` of the phrase the fragment (its words `fw`, lower case) replaces (empty:
/// the fragment is added there, as for + a beneficiary the question had none of); nullopt when
/// the question's shape names none.
std::optional<std::pair<std::size_t, std::size_t>> english_slot(std::string_view prev,
                                                                const std::vector<std::string_view>& fw);

/// The activity an English how-question asks about (How do I apply for a company credit card? →
/// apply for a company credit card; how to …), else nullopt.
std::optional<std::string_view> english_activity(std::string_view prev);

/// What an English question is about, for it / they / them in the next turn: how many | days of
/// annual leave, where are | the printers on the 3rd floor, can i expense | taxi rides (up to a
/// preposition after a verb). For they / them (`plural`) the phrase holds a plural noun, and a
/// yes/no question's plural subject counts (do interns get …). nullopt when its shape names none.
std::optional<std::string_view> english_thing(std::string_view prev, bool plural);

/// An English question asking who does something (who approves expenses over $500): its person
/// is the answer, no phrase of it.
bool asks_who_does(std::string_view prev);

/// A plural English noun by its ending (interns, NDAs; not bus, class).
bool english_plural(std::string_view w);

/// True when an English fragment opens with an auxiliary or a question word (is there a fee,
/// does it expire, anything else): it asks on its own, no noun phrase to put in a question's place.
bool asks_in_english(std::string_view frag);

}  // namespace qaplan::internal
