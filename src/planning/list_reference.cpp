#include "planning/list_reference.hpp"

#include <algorithm>
#include <iterator>

#include "common/utf8.hpp"
#include "planning/segment.hpp"

// The words below are closed classes of the language (numerals, classifiers, conjunctions, the
// verbs that introduce a list), not of a domain; they live here rather than in rules.toml because
// the grammar of a list does not change with the host's knowledge base.
namespace qaplan::internal {
namespace {

constexpr std::string_view kClassifiers[] = {
    "个", "种", "条", "项", "款", "家", "点", "步", "类", "位", "张", "份", "件", "套", "所", "门", "样"};

// What may follow a pointer that names an item, by its first character: a particle, a modal, a
// question word, a copula or an adverb (第二个|怎么办理, 后者|要多久, 第一个|在哪办). A noun
// after it (第二个|工作日, 第一个|人) is what the ordinal counts, not an item of a list.
constexpr std::string_view kFollowers[] = {
    "的", "是", "有", "在", "要", "能", "会", "可", "需", "该", "得", "怎", "什", "咋", "哪",
    "多", "几", "为", "呢", "吗", "吧", "啊", "呀", "和", "跟", "比", "还", "也", "都", "就",
    "好", "贵", "快", "慢", "难", "便", "具", "详", "如", "到", "去", "用", "选", "更"};

// Numerals of an ordinal: 第一 … 第十, 第1 … 第9.
int numeral(std::string_view s, std::size_t& len) {
  static constexpr std::string_view kHan[] = {"一", "二", "三", "四", "五", "六", "七", "八", "九", "十"};
  for (std::size_t k = 0; k < std::size(kHan); ++k)
    if (s.starts_with(kHan[k])) {
      len = kHan[k].size();
      return static_cast<int>(k) + 1;
    }
  if (!s.empty() && s[0] >= '1' && s[0] <= '9' && (s.size() == 1 || s[1] < '0' || s[1] > '9')) {
    len = 1;
    return s[0] - '0';
  }
  return 0;
}

std::size_t classifier_at(std::string_view s) {
  for (std::string_view c : kClassifiers)
    if (s.starts_with(c)) return c.size();
  return 0;
}

// Nothing after the pointer, punctuation, or a follower.
bool ends_reference(std::string_view rest) {
  if (rest.empty()) return true;
  std::size_t i = 0;
  const std::int32_t cp = next_code_point(rest, i);
  if (cp < 0x80) return !((cp >= '0' && cp <= '9') || (cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z'));
  const std::string_view first = rest.substr(0, i);
  return std::find(std::begin(kFollowers), std::end(kFollowers), first) != std::end(kFollowers) ||
         first == "？" || first == "，" || first == "。" || first == "！";
}

// The pointer starting at byte `at`, if one does.
std::optional<ListPointer> pointer_at(std::string_view turn, std::size_t at) {
  const std::string_view s = turn.substr(at);
  ListPointer p{at, at, 0};
  if (s.starts_with("前者") || s.starts_with("后者")) {
    p.item = s.starts_with("前者") ? 1 : 2;
    p.end = at + std::string_view("前者").size();
    p.pair = true;
  } else if (s.starts_with("最后一")) {
    const std::size_t c = classifier_at(s.substr(std::string_view("最后一").size()));
    if (c == 0) return std::nullopt;
    p.item = kLastItem;
    p.end = at + std::string_view("最后一").size() + c;
  } else if (s.starts_with("第")) {
    std::size_t len = 0;
    const int n = numeral(s.substr(std::string_view("第").size()), len);
    const std::size_t from = std::string_view("第").size() + len;
    const std::size_t c = n > 0 ? classifier_at(s.substr(from)) : 0;
    if (c == 0) return std::nullopt;
    p.item = n;
    p.end = at + from + c;
  } else {
    return std::nullopt;
  }
  // 前者 / 后者 are pronouns (后者|利率: the latter's rate); an ordinal with a noun after it counts
  // that noun.
  if (!p.pair && !ends_reference(turn.substr(p.end))) return std::nullopt;
  return p;
}

// Words that separate the items of a list: the enumeration comma and the conjunctions. A comma
// separates clauses (按发布时间排序，由近到远), not the items of a list.
bool separates(std::string_view w) {
  for (std::string_view s : {"、", "/", "和", "及", "以及", "或", "或者", "还是", "与"})
    if (w == s) return true;
  return false;
}

// Words that lead into a list rather than belong to its first item (可以|选择|年假, 需要|办理|工作证,
// 包括|入职培训): modals and the verbs of having, choosing and comprising.
bool leads_in(std::string_view w) {
  for (std::string_view s : {"可以", "能", "需要", "要", "得", "有", "是", "选择", "选", "支持", "包括",
                             "包含", "提供", "分为", "分成", "办理", "准备", "携带", "带", "提交",
                             "用", "使用", "通过", "参加", "完成", "签", "开通", "申请", "共有", "一般"})
    if (w == s) return true;
  return false;
}

// What closes an item but is no part of it (A、B等; C之类).
bool trails(std::string_view w) {
  for (std::string_view s : {"等", "等等", "之类", "什么的", "吧", "呢", "啊", "都", "也"})
    if (w == s) return true;
  return false;
}

// Items of a list are alike: the first keeps the words at its end, the last those at its start,
// up to two characters longer than the longest other item (推荐|银行转账 → 银行转账; 调休|都|可以
// after 年假 → 调休): what leads into the list or follows it is no item. Characters, not words:
// ICU cuts a word it does not know (公积|金贷款).
void keep_alike(std::vector<std::vector<Token>>& items, std::string_view part) {
  auto chars = [&](const Token& w) { return count_code_points(w.text(part)); };
  auto longest = [&](std::size_t lo, std::size_t hi) {
    std::size_t n = 0;
    for (std::size_t k = lo; k < hi; ++k) {
      std::size_t c = 0;
      for (const Token& w : items[k]) c += chars(w);
      n = std::max(n, c);
    }
    return n + 2;
  };
  const std::size_t first_max = longest(1, items.size()), last_max = longest(0, items.size() - 1);
  std::vector<Token>& first = items.front();
  std::size_t kept = 0, start = first.size();
  while (start > 0 && (start == first.size() || kept + chars(first[start - 1]) <= first_max))
    kept += chars(first[--start]);  // at least one word, however long
  first.erase(first.begin(), first.begin() + static_cast<std::ptrdiff_t>(start));
  std::vector<Token>& last = items.back();
  std::size_t stop = 0;
  for (kept = 0; stop < last.size() && (stop == 0 || kept + chars(last[stop]) <= last_max); ++stop)
    kept += chars(last[stop]);
  last.resize(stop);
  while (last.size() > 1 && trails(last.back().text(part))) last.pop_back();
}

// The items of one sentence: views of `text`, each its words without what leads in or trails.
std::vector<std::string_view> items_of_sentence(std::string_view text, std::size_t from, std::size_t to) {
  const std::string_view part = text.substr(from, to - from);
  std::vector<std::vector<Token>> items(1);
  for (const Token& w : segment_words(part)) {
    if (separates(w.text(part))) {
      if (!items.back().empty()) items.emplace_back();
    } else if (w.word) {
      items.back().push_back(w);
    }
  }
  if (!items.empty() && items.back().empty()) items.pop_back();
  if (items.size() < 2) return {};
  for (auto& it : items) {
    while (!it.empty() && trails(it.back().text(part))) it.pop_back();
    std::size_t lead = 0;
    while (lead + 1 < it.size() && (leads_in(it[lead].text(part)) || trails(it[lead].text(part)))) ++lead;
    it.erase(it.begin(), it.begin() + static_cast<std::ptrdiff_t>(lead));
  }
  keep_alike(items, part);
  std::vector<std::string_view> out;
  for (const auto& it : items) {
    if (it.empty()) return {};
    const std::string_view item = part.substr(it.front().begin, it.back().end - it.front().begin);
    // A clause is no item (可以在系统里提交申请或者找部门助理代办): a list names things.
    if (count_code_points(item) > 12) return {};
    out.push_back(item);
  }
  return out;
}

}  // namespace

std::optional<ListPointer> list_pointer(std::string_view turn) {
  // Every turn with history is asked (the follow-up stage): the pointers' first characters are
  // found by byte search, and only where one starts is a pointer read.
  std::optional<ListPointer> best;
  for (std::string_view start : {"第", "前者", "后者", "最后一"})
    for (std::size_t at = turn.find(start); at != std::string_view::npos; at = turn.find(start, at + 1))
      if (auto p = pointer_at(turn, at); p && (!best || p->begin < best->begin)) {
        best = p;
        break;
      }
  return best;
}

std::vector<std::string_view> list_items(std::string_view text) {
  std::size_t begin = 0;
  for (std::size_t i = 0; i <= text.size();) {
    std::size_t next = i;
    const bool end = i == text.size();
    const std::int32_t cp = end ? 0 : next_code_point(text, next);
    // A list stays within one clause: sentence ends and commas close it.
    if (end || cp == 0x3002 || cp == 0xFF01 || cp == 0xFF1F || cp == 0xFF1B || cp == 0xFF0C || cp == '!' ||
        cp == '?' || cp == ';' || cp == ',' || cp == '\n') {
      // After a colon the list begins (有两种方式：线上提交和线下提交).
      std::size_t from = begin;
      for (std::string_view colon : {"：", ":"})
        if (const auto c = text.substr(begin, i - begin).rfind(colon); c != std::string_view::npos)
          from = std::max(from, begin + c + colon.size());
      if (auto items = items_of_sentence(text, from, i); !items.empty()) return items;
      begin = next;
    }
    if (end) break;
    i = next;
  }
  return {};
}

std::optional<std::string_view> pick_item(const std::vector<std::string_view>& items, const ListPointer& p) {
  if (p.pair && items.size() != 2) return std::nullopt;
  if (p.item == kLastItem) return items.empty() ? std::nullopt : std::optional(items.back());
  if (p.item < 1 || static_cast<std::size_t>(p.item) > items.size()) return std::nullopt;
  return items[static_cast<std::size_t>(p.item) - 1];
}

}  // namespace qaplan::internal
