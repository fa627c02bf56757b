#pragma once
// Feature extraction of the router classifier, shared by inference (router_model.cpp) and
// training (src/eval/train_model.cpp), so the two can never disagree. Spec `router-features-2`;
// any change to what is emitted or how it is hashed needs a new id (the model file records it and
// RouterModel::parse refuses a model whose spec this code does not implement).
//
// Input is a normalize_question() text (NFKC casefold, whitespace collapsed, Simplified), folded
// first (model/fold.hpp: spellings OpenCC's round trip confuses, 文件 / 文档, read as one; text
// beyond 4 KB is cut) — spec 2; spec 1 read the text unfolded. It is read as code points and cut
// into units:
//   Han runs     maximal runs of ideographs (plus kana and hangul, which behave the same way);
//   ASCII words  maximal runs of [a-z0-9] (and Latin letters U+00C0–U+024F), with an apostrophe
//                inside a word kept ("won't");
//   symbols      every other non-space code point: punctuation and emoji (variation selectors,
//                ZWJ and skin-tone modifiers are dropped: 👍🏽 is 👍).
// Features of the text (the "text features", used by every head):
//   H1/H2/H3  character uni-, bi- and trigrams of each Han run, the run framed by markers: ^ / $
//             when the run starts / ends the message (only symbols before / after it), < / >
//             otherwise, so "^那" (a message opening with 那) differs from "<那" (after a word);
//   W         each ASCII word; digit-only words become <numN> (N = length, 5 = five or more) and
//             also keep their literal when ≤ 3 long ("88", "886");
//   S         the light stem of each ASCII word when it differs (suffixes ments/ment/ings/ing/ies
//             →y/ied→y/es/ed/ly/s stripped when ≥ 3 letters remain, then a final e when > 3
//             letters remain: reimburse, reimbursed, reimbursement → reimburs; connecting →
//             connect);
//   B         bigrams of consecutive stems with message markers (^ vpn, vpn connect, connect $);
//             a Han character between two words breaks the chain;
//   P         each symbol code point (? ! 。 😂 …);
//   shape     query-unit length bucket, only-punctuation, only-emoji, has-digit, has-question-mark,
//             script (han, latin, mixed, none).
// Features relating the text to `previous` (the "pair features", only when `previous` is not
// empty, used by the dependent head alone): unit-length buckets of both and of their ratio,
// how many / what share of the text's Han bigrams, Han characters and ASCII words also occur in
// `previous`, whether `previous` asks a question, and the text's first Han character crossed with
// "shares a bigram with previous". No word lists: what matters is learned from data.
//
// Every feature is a byte string "<tag>\x1f<parts>" hashed with 64-bit FNV-1a, mixed with the
// MurmurHash3 finalizer, and the top `hash_bits` bits are the feature id. A feature emitted twice
// counts twice; the model scales the summed weights by 1/sqrt(text feature count).
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "qaplan/export.hpp"

namespace qaplan::internal {

inline constexpr std::string_view kRouterFeatureSpec = "router-features-2";
/// Feature ids a buffer holds; the text features of a message longer than ~650 Han characters
/// are cut here (the same way in training and inference).
inline constexpr std::size_t kMaxRouterFeatures = 2048;
inline constexpr unsigned kMinHashBits = 12;
inline constexpr unsigned kMaxHashBits = 26;

/// Feature ids of one message: ids[0, text_count) are text features, ids[text_count, size) pair
/// features. Fixed capacity: extraction never allocates.
struct FeatureBuffer {
  std::array<std::uint32_t, kMaxRouterFeatures> ids;
  std::uint32_t text_count = 0;
  std::uint32_t size = 0;
};

/// Fills `out` with the features of `text` (and of its relation to `previous` when that is not
/// empty). `hash_bits` must be in [kMinHashBits, kMaxHashBits]; ids are < 2^hash_bits. Invalid
/// UTF-8 bytes are skipped. Thread-safe, allocation-free.
QAPLAN_API void extract_router_features(std::string_view text, std::string_view previous,
                                        unsigned hash_bits, FeatureBuffer& out) noexcept;

/// The same features as readable strings ("H2 ^那", "W vpn", "len 3-4", "D overlap2 1"), in
/// emission order, text features first. For tests, debugging and the fastText comparison; slow.
QAPLAN_API std::vector<std::string> describe_router_features(std::string_view text,
                                                             std::string_view previous);

}  // namespace qaplan::internal
