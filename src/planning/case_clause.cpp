#include "planning/case_clause.hpp"

#include <algorithm>

namespace qaplan::internal {
namespace {

// Characters that make 话 the first of a word after 的 (的话费: the phone bill's) — unless they
// open a word of their own there (的话|费用, 的话|术后, 的话|题目) — and verbs of saying after a
// person before 的 (他说的话: what he said; 不说的话 is a case).
constexpr std::string_view kWordAfter[] = {"费", "题", "术", "筒", "语", "剧", "梅", "匣", "柄"};
constexpr std::string_view kOwnWordAfter[] = {"费用", "术后", "题目", "语音"};
constexpr std::string_view kSaid[] = {"说", "讲", "听", "问", "回"};
constexpr std::string_view kSpeakers[] = {"他", "她", "你", "我", "们", "人"};

}  // namespace

std::size_t case_de_hua(std::string_view text) {
  constexpr std::string_view kDeHua = "的话";
  for (std::size_t at = text.find(kDeHua); at != std::string_view::npos;
       at = text.find(kDeHua, at + kDeHua.size())) {
    if (at == 0) continue;
    const std::string_view after = text.substr(at + kDeHua.size());
    const std::string_view before = text.substr(0, at);
    auto opens = [&](std::string_view c) { return after.starts_with(c); };
    const bool word = std::any_of(std::begin(kWordAfter), std::end(kWordAfter), opens) &&
                      std::none_of(std::begin(kOwnWordAfter), std::end(kOwnWordAfter), opens);
    bool said = false;
    for (std::string_view v : kSaid)
      if (before.ends_with(v)) {
        const std::string_view who = before.substr(0, before.size() - v.size());
        said = std::any_of(std::begin(kSpeakers), std::end(kSpeakers),
                           [&](std::string_view p) { return who.ends_with(p); });
      }
    if (!word && !said) return at;
  }
  return std::string_view::npos;
}

}  // namespace qaplan::internal
