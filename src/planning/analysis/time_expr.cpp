#include "planning/analysis/time_expr.hpp"

#include <algorithm>
#include <array>

#include "common/utf8.hpp"

namespace qaplan::internal {
namespace {

using K = TimeWord::Kind;
using Form = TimeMention::Form;
using Part = TimeMention::Part;
using Year = TimeMention::Year;
using Edge = TimeMention::Edge;
using namespace time_text;

// Up to `max` ASCII digits at i; the value and the end, or nullopt.
std::optional<std::pair<int, std::size_t>> digits(std::string_view t, std::size_t i,
                                                  std::size_t max) {
  std::size_t j = i;
  int v = 0;
  while (j < t.size() && is_digit(t[j])) {
    if (j - i == max) return std::nullopt;
    v = v * 10 + (t[j] - '0');
    ++j;
  }
  if (j == i) return std::nullopt;
  return std::pair{v, j};
}

// A count: digits, Chinese numerals (三, 十五, 两, 一百二十), an English number word, or 半.
struct Count {
  int value = 0;
  bool half = false;
  std::size_t end = 0;
};

constexpr std::array<std::pair<std::string_view, int>, 14> kHanDigits = {{
    {"零", 0}, {"〇", 0}, {"一", 1}, {"二", 2}, {"两", 2}, {"三", 3}, {"四", 4}, {"五", 5},
    {"六", 6}, {"七", 7}, {"八", 8}, {"九", 9}, {"十", 10}, {"百", 100}}};
constexpr std::array<std::string_view, 12> kEnglishNumbers = {
    "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
    "twelve"};

std::optional<Count> read_count(std::string_view t, std::size_t i) {
  if (auto d = digits(t, i, 4)) return Count{d->first, false, d->second};
  if (at(t, i, "半")) return Count{0, true, i + 3};
  // Chinese numerals: digits set the current figure, 十/百 multiply it (十五 = 15, 二十 = 20).
  int total = 0, cur = 0;
  std::size_t j = i;
  bool any = false;
  for (;;) {
    bool matched = false;
    for (const auto& [w, v] : kHanDigits) {
      if (!at(t, j, w)) continue;
      if (v >= 10) {
        total += (cur == 0 ? 1 : cur) * v;
        cur = 0;
      } else {
        cur = v;
      }
      j += w.size();
      matched = any = true;
      break;
    }
    if (!matched || total > 9999) break;
  }
  if (any) return Count{total + cur, false, j};
  for (std::size_t k = 0; k < kEnglishNumbers.size(); ++k) {
    const auto w = kEnglishNumbers[k];
    if (at(t, i, w) && !alnum_at(t, i + w.size()))
      return Count{static_cast<int>(k) + 1, false, i + w.size()};
  }
  return std::nullopt;
}

struct UnitWord {
  std::string_view text;
  TimeUnit unit;
};
constexpr UnitWord kHanUnits[] = {
    {"个星期", TimeUnit::kWeek}, {"个礼拜", TimeUnit::kWeek}, {"个季度", TimeUnit::kQuarter},
    {"个月", TimeUnit::kMonth},  {"星期", TimeUnit::kWeek},   {"礼拜", TimeUnit::kWeek},
    {"季度", TimeUnit::kQuarter}, {"天", TimeUnit::kDay},      {"日", TimeUnit::kDay},
    {"周", TimeUnit::kWeek},     {"月", TimeUnit::kMonth},    {"年", TimeUnit::kYear}};
constexpr UnitWord kEnglishUnits[] = {
    {"days", TimeUnit::kDay},         {"day", TimeUnit::kDay},       {"weeks", TimeUnit::kWeek},
    {"week", TimeUnit::kWeek},        {"months", TimeUnit::kMonth},  {"month", TimeUnit::kMonth},
    {"quarters", TimeUnit::kQuarter}, {"quarter", TimeUnit::kQuarter}, {"years", TimeUnit::kYear},
    {"year", TimeUnit::kYear}};

std::optional<std::pair<TimeUnit, std::size_t>> read_unit(std::string_view t, std::size_t i) {
  for (const auto& w : kHanUnits)
    if (at(t, i, w.text)) return std::pair{w.unit, i + w.text.size()};
  for (const auto& w : kEnglishUnits)
    if (at(t, i, w.text) && !alnum_at(t, i + w.text.size()))
      return std::pair{w.unit, i + w.text.size()};
  return std::nullopt;
}

std::size_t skip_space(std::string_view t, std::size_t i) {
  return i < t.size() && t[i] == ' ' ? i + 1 : i;
}

// A candidate before composition: a year, a part of a year, or a complete expression.
struct Tok {
  enum class Kind : std::uint8_t { kYear, kWeakYear, kPart, kWhole } kind;
  bool english = false;
  // Whether a part stands without a year: an English month only after "in" ("may" is a verb),
  // 前三个月 never (alone it may mean "the three months before").
  enum class Lone : std::uint8_t { kOk, kAfterIn, kNever } lone = Lone::kOk;
  TimeMention m;
};

// The day of the week named right after a week word (上周|五, 下个星期|一, 这周|末): ISO 1–7, 8 for
// its weekend, 0 for none; `end` moves past it. Not a count or another word (上周三次, 下周一起,
// 这周一共): closed classes of the language.
int weekday_after(std::string_view t, std::uint32_t& end) {
  static constexpr std::string_view kDays[] = {"一", "二", "三", "四", "五", "六", "日", "天", "末"};
  static constexpr std::string_view kNotADay = "起共直样般定些次个遍回趟位名家份十百千万号";
  const std::string_view rest = t.substr(end);
  for (int d = 0; d < 9; ++d) {
    if (!rest.starts_with(kDays[d])) continue;
    const std::string_view after = rest.substr(kDays[d].size(), 3);
    if (after.size() == 3 && kNotADay.find(after) != std::string_view::npos) return 0;
    end += static_cast<std::uint32_t>(kDays[d].size());
    return d < 6 ? d + 1 : d < 8 ? 7 : 8;
  }
  return 0;
}

Tok whole(std::uint32_t b, std::uint32_t e, TimeMention m) {
  m.begin = b;
  m.end = e;
  return Tok{Tok::Kind::kWhole, false, Tok::Lone::kOk, m};
}

Tok part(std::uint32_t b, std::uint32_t e, Part p, int a, int bb = 0) {
  TimeMention m;
  m.begin = b;
  m.end = e;
  m.part = p;
  m.a = a;
  m.b = bb;
  return Tok{Tok::Kind::kPart, false, Tok::Lone::kOk, m};
}

Tok year(std::uint32_t b, std::uint32_t e, Year kind, int y, Tok::Kind k = Tok::Kind::kYear) {
  TimeMention m;
  m.begin = b;
  m.end = e;
  m.year_kind = kind;
  m.year = y;
  return Tok{k, false, Tok::Lone::kOk, m};
}

std::uint32_t u32(std::size_t v) { return static_cast<std::uint32_t>(v); }

// 最近 / 近 / 过去 / past / last + count + unit, from the prefix's end.
std::optional<Tok> rolling(std::string_view t, const TimeWordHit& h, std::string_view word) {
  const bool english = is_english(word);
  std::size_t i = skip_space(t, h.end);
  if (!english && at(t, i, "的")) i += 3;
  auto c = read_count(t, i);
  if (c) {
    i = skip_space(t, c->end);
  } else if (word != "past") {  // "past week" is one week; "last week" is a calendar word
    return std::nullopt;
  }
  auto unit = read_unit(t, i);
  if (!unit) return std::nullopt;
  TimeMention m;
  m.form = Form::kRolling;
  m.unit = unit->first;
  m.count = c ? c->value : 1;
  if (c && c->half) {  // 近半年 = six months; other halves (半个月) are not read
    if (unit->first != TimeUnit::kYear) return std::nullopt;
    m.unit = TimeUnit::kMonth;
    m.count = 6;
  }
  if (m.count <= 0) return std::nullopt;
  return whole(h.begin, u32(unit->second), m);
}

// A day after a month: 5日, 5号, 五日.
std::optional<std::pair<int, std::size_t>> day_after(std::string_view t, std::size_t i) {
  auto c = read_count(t, i);
  if (!c || c->half || c->value < 1 || c->value > 31) return std::nullopt;
  if (at(t, c->end, "日") || at(t, c->end, "号")) return std::pair{c->value, c->end + 3};
  return std::nullopt;
}

// A month part (3月, 三月份, 3月5日) ending at `e` with month `m`.
Tok month_part(std::string_view t, std::size_t b, std::size_t e, int m) {
  if (at(t, e, "份")) e += 3;
  if (auto d = day_after(t, e)) return part(u32(b), u32(d->second), Part::kDay, m, d->first);
  return part(u32(b), u32(e), Part::kMonth, m);
}

// Numbers written with digits, at the start of a digit run (not after a letter or digit).
// Returns the token (if any) and where scanning resumes.
std::pair<std::optional<Tok>, std::size_t> numeric(std::string_view t, std::size_t i) {
  std::size_t j = i;
  while (j < t.size() && is_digit(t[j])) ++j;
  const std::size_t len = j - i;
  if (len > 4) return {std::nullopt, j};  // an amount or an ID
  int v = 0;
  for (std::size_t k = i; k < j; ++k) v = v * 10 + (t[k] - '0');
  const std::size_t sp = skip_space(t, j);
  if (len == 4) {
    if (at(t, sp, "年")) {
      std::size_t e = sp + 3;
      if (at(t, e, "度")) e += 3;
      return {year(u32(i), u32(e), Year::kAbsolute, v), e};
    }
    if (j < t.size() && (t[j] == '-' || t[j] == '/' || t[j] == '.')) {
      const char sep = t[j];
      auto m = digits(t, j + 1, 2);
      if (m && m->first >= 1 && m->first <= 12) {
        std::optional<std::pair<int, std::size_t>> d;
        if (m->second < t.size() && t[m->second] == sep) d = digits(t, m->second + 1, 2);
        const std::size_t e = d ? d->second : m->second;
        // 2024-03-05-7 or 2024.3.5.1 is something else (a version, a phone number).
        const bool more = digit_at(t, e) ||
                          (e + 1 < t.size() && (t[e] == sep) && digit_at(t, e + 1));
        if (!more && d && v >= 1) {
          TimeMention x;
          x.year_kind = Year::kAbsolute;
          x.year = v;
          x.part = Part::kDay;
          x.a = m->first;
          x.b = d->first;
          return {whole(u32(i), u32(e), x), e};
        }
        if (!more && !d && sep != '.' && v >= 1) {
          TimeMention x;
          x.year_kind = Year::kAbsolute;
          x.year = v;
          x.part = Part::kMonth;
          x.a = m->first;
          return {whole(u32(i), u32(e), x), e};
        }
      }
      return {std::nullopt, j};
    }
    if (v >= 1000) return {year(u32(i), u32(j), Year::kAbsolute, v, Tok::Kind::kWeakYear), j};
    return {std::nullopt, j};
  }
  if (len <= 2) {
    if (at(t, sp, "月") && v >= 1 && v <= 12) {
      Tok x = month_part(t, i, sp + 3, v);
      return {x, x.m.end};
    }
    // 1-3月, 1至3月: a run of months.
    std::size_t k = j;
    if (k < t.size() && (t[k] == '-' || t[k] == '~')) ++k;
    else if (at(t, k, "至") || at(t, k, "到")) k += 3;
    if (k != j) {
      if (auto m2 = digits(t, k, 2); m2 && at(t, m2->second, "月") && v >= 1 &&
                                      m2->first >= v && m2->first <= 12) {
        std::size_t e = m2->second + 3;
        if (at(t, e, "份")) e += 3;
        return {part(u32(i), u32(e), Part::kMonths, v, m2->first), e};
      }
    }
    if (at(t, sp, "季度") && v >= 1 && v <= 4) {
      const std::size_t b = ends_at(t, i, "第") ? i - 3 : i;
      return {part(u32(b), u32(sp + 6), Part::kQuarter, v), sp + 6};
    }
  }
  return {std::nullopt, j};
}

// 前N季度 / 前N个月 at i (on 前): months 1 .. 3N or 1 .. N of a year.
std::optional<Tok> leading_months(std::string_view t, std::size_t i) {
  auto c = read_count(t, i + 3);
  if (!c || c->half || c->value < 1) return std::nullopt;
  for (auto [w, months] : {std::pair<std::string_view, int>{"个季度", 3}, {"季度", 3},
                           {"个月", 1}, {"月", 1}}) {
    if (!at(t, c->end, w)) continue;
    const int last = c->value * months;
    if (last > 12) return std::nullopt;
    Tok x = part(u32(i), u32(c->end + w.size()), Part::kMonths, 1, last);
    x.lone = Tok::Lone::kNever;
    return x;
  }
  return std::nullopt;
}

// Text between two tokens that still joins a year and its part.
bool joins_year_part(std::string_view gap) {
  return gap.empty() || gap == "的" || gap == " " || gap == "第" || gap == "的第";
}
// English order: q3 2024, march 2024, first half of last year.
bool joins_part_year(std::string_view gap) {
  return gap == " " || gap == ", " || gap == " of " || gap == " in ";
}
// Between the two ends of a range (2024年1月至3月): the second end takes the first's year.
bool is_range_joiner(std::string_view gap) {
  return gap == "至" || gap == "到" || gap == "-" || gap == "~" || gap == " to " ||
         gap == "—" || gap == "～";
}
// Between two items of a list or a comparison (去年上半年和下半年): a bare part takes the year
// of the item before it, as the range joiners do, but stays its own period.
bool is_list_joiner(std::string_view gap) {
  return gap == "和" || gap == "与" || gap == "及" || gap == "以及" || gap == "、" ||
         gap == "跟" || gap == "," || gap == "或" || gap == "还是" || gap == " and " ||
         gap == " or " || gap == " vs " || gap == "vs" || gap == "对比" || gap == "相比";
}
bool after_in(std::string_view t, std::size_t b) {
  for (std::string_view w : {"in ", "since ", "during ", "year "})
    if (ends_at(t, b, w) && (b == w.size() || !alnum_at(t, b - w.size() - 1))) return true;
  return false;
}

// 从9月1号开学到现在: 从 (or 自) before the expression and 到现在 / 至今 after a few words of an
// event in the same clause run it to today. At most four code points between, none a digit or
// punctuation (another date or clause is not crossed).
bool runs_to_now(std::string_view t, TimeMention& m) {
  if (!ends_at(t, m.begin, "从") && !ends_at(t, m.begin, "自")) return false;
  std::size_t i = m.end;
  for (int n = 0; n <= 4 && i < t.size(); ++n) {
    for (std::string_view w : {"到现在", "到目前", "至今", "以来"})
      if (n > 0 && at(t, i, w)) {
        m.end = u32(i + w.size());
        m.edge = Edge::kToToday;
        return true;
      }
    std::size_t j = i;
    const std::int32_t cp = next_code_point(t, j);
    if (cp < 0x3400) return false;  // ASCII, digits, punctuation: not an event's words
    i = j;
  }
  return false;
}

// 每年6到9月, 每月5号, 每周一: a time that recurs is no period to filter by.
// A holiday in a question about every year's (元旦是不是每年只放一天, 法定节假日加班工资怎么算，春节和
// 国庆一样吗) is an example of a rule, not a period.
bool recurs(std::string_view t, const TimeMention& m) {
  std::string_view before = t.substr(0, m.begin);
  if (before.ends_with("的")) before.remove_suffix(std::string_view("的").size());
  for (std::string_view w : {"每年", "每个月", "每月", "每季度", "每个季度", "每周", "每星期", "每天",
                             "每日", "每逢", "every "})
    if (before.ends_with(w)) return true;
  if ((m.part == Part::kHoliday || m.part == Part::kFestival) && m.year_kind == Year::kCurrent)
    for (std::string_view w : {"每年", "每逢", "历年", "一般", "通常", "法定节假日", "法定假日", "由来",
                               "习俗", "来历"})
      if (t.find(w) != std::string_view::npos) return true;
  return false;
}

// `m` after `prev`: a range's far end (至, 到), or a list's next item sharing a year with it.
void join_previous(std::string_view t, TimeMention& prev, TimeMention& m) {
  const std::string_view between = t.substr(prev.end, m.begin - prev.end);
  m.joins_previous = is_range_joiner(between);
  const bool own_year = m.year_kind != Year::kCurrent;
  // 中秋国庆, 元旦春节: two holidays side by side are a list.
  const bool listed = is_list_joiner(between) ||
                      (between.empty() && m.part == Part::kHoliday && prev.part == Part::kHoliday);
  // 2024年1月至3月, 去年上半年和下半年: the second item takes the first one's year.
  if ((m.joins_previous || listed) && m.form == Form::kCalendar &&
      m.year_kind == Year::kCurrent && prev.form == Form::kCalendar &&
      prev.year_kind != Year::kCurrent) {
    m.year_kind = prev.year_kind;
    m.year = prev.year;
  }
  // 去年和今年7月: a bare year listed before a year's part compares that part of both.
  if (!m.joins_previous && listed && own_year && m.form == Form::kCalendar &&
      m.part != Part::kYear && m.part != Part::kFestival &&
      m.part != Part::kHoliday &&
      prev.form == Form::kCalendar && prev.part == Part::kYear && prev.edge == Edge::kNone &&
      prev.year_kind != Year::kCurrent) {
    prev.part = m.part;
    prev.a = m.a;
    prev.b = m.b;
  }
}

// Drops the recurring mentions of out[first..] with the far ends joined to them.
void drop_recurring(std::string_view t, std::vector<TimeMention>& out, std::size_t first) {
  std::size_t kept = first;
  for (std::size_t k = first; k < out.size();) {
    std::size_t e = k + 1;
    while (e < out.size() && out[e].joins_previous) ++e;
    if (!recurs(t, out[k]))
      for (std::size_t x = k; x < e; ++x) out[kept++] = out[x];
    k = e;
  }
  out.resize(kept);
}

// Words at an expression's edges that make it open-ended or run it to today; the expression's
// span grows to include them (the reason then quotes "2024年之前", not "2024年").
void set_edge(std::string_view t, TimeMention& m) {
  const std::size_t e = m.end, b = m.begin;
  auto after = [&](std::string_view w, Edge edge) {
    if (!at(t, e, w)) return false;
    m.end = u32(e + w.size());
    m.edge = edge;
    return true;
  };
  auto before = [&](std::string_view w, Edge edge) {
    if (!ends_at(t, b, w)) return false;
    m.begin = u32(b - w.size());
    m.edge = edge;
    return true;
  };
  for (std::string_view w : {"以来", "至今", "开始", "到现在", "到目前", "至现在", " onwards", " onward"})
    if (after(w, Edge::kToToday)) return;
  if (runs_to_now(t, m)) return;
  if (!at(t, e, "起草") && after("起", Edge::kToToday)) return;
  if (before("since ", Edge::kToToday)) return;
  for (std::string_view w : {"之前", "以前", "之后", "以后"})
    if (after(w, Edge::kOpen)) return;
  if (!at(t, e, "前台") && !at(t, e, "前端") && !at(t, e, "前缀") && after("前", Edge::kOpen))
    return;
  if (!at(t, e, "后续") && !at(t, e, "后台") && !at(t, e, "后勤") && !at(t, e, "后端") &&
      after("后", Edge::kOpen))
    return;
  for (std::string_view w : {"截止到", "截至", "截止", "直到", "早于", "晚于", "before ", "after ",
                             "until ", "till ", "prior to "})
    if (before(w, Edge::kOpen)) return;
}

// Verbs that say which date a range is about. Nearest first: right after the expression
// (上个月发布的), else right before it (发布于2024年, signed in 2024).
struct DateVerb {
  std::string_view text;
  DateKind kind;
};
constexpr DateVerb kDateVerbs[] = {
    {"发布", DateKind::kPublished}, {"印发", DateKind::kPublished}, {"公布", DateKind::kPublished},
    {"颁布", DateKind::kPublished}, {"发文", DateKind::kPublished}, {"出台", DateKind::kPublished},
    {"下发", DateKind::kPublished}, {"published", DateKind::kPublished},
    {"issued", DateKind::kPublished}, {"released", DateKind::kPublished},
    {"签署", DateKind::kSigned},    {"签订", DateKind::kSigned},    {"签约", DateKind::kSigned},
    {"签字", DateKind::kSigned},    {"签的", DateKind::kSigned},    {"签了", DateKind::kSigned},
    {"signed", DateKind::kSigned},  {"更新", DateKind::kUpdated},   {"修订", DateKind::kUpdated},
    {"修改", DateKind::kUpdated},   {"改版", DateKind::kUpdated},   {"变更", DateKind::kUpdated},
    {"updated", DateKind::kUpdated}, {"revised", DateKind::kUpdated},
    {"modified", DateKind::kUpdated}, {"生效", DateKind::kEffective},
    {"施行", DateKind::kEffective}, {"实施", DateKind::kEffective}, {"起效", DateKind::kEffective},
    {"有效", DateKind::kEffective}, {"in force", DateKind::kEffective},
    {"effective", DateKind::kEffective},
};
// Words that may stand between the expression and a verb after it (上个月新发布的, 去年已签署的).
constexpr std::string_view kFillersAfter[] = {"的", "内", "里", "新", "刚刚", "刚", "才", "正式",
                                             "最新", "所", "已经", "已", "被", "重新", " "};
// … and between a verb and the expression after it (发布于2024年, 签署时间在去年, signed in 2024).
constexpr std::string_view kJoinersBefore[] = {"时间为", "时间在", "时间是", "日期为", "日期在",
                                              "日期是", "于", "在", " in ", " during ", " on ",
                                              " "};

void set_date_kind(std::string_view t, TimeMention& m) {
  std::size_t e = m.end;
  for (int n = 0; n < 3; ++n) {  // a few fillers at most: the verb must be next to the time
    bool skipped = false;
    for (std::string_view f : kFillersAfter)
      if (at(t, e, f)) {
        e += f.size();
        skipped = true;
        break;
      }
    if (!skipped) break;
  }
  for (const DateVerb& v : kDateVerbs)
    if (at(t, e, v.text) && (!is_english(v.text) || !alnum_at(t, e + v.text.size()))) {
      m.date = v.kind;
      m.date_word = v.text;
      return;
    }
  std::size_t b = m.begin;
  for (std::string_view j : kJoinersBefore)
    if (ends_at(t, b, j)) {
      b -= j.size();
      break;
    }
  for (const DateVerb& v : kDateVerbs)
    if (ends_at(t, b, v.text) &&
        (!is_english(v.text) || b == v.text.size() || !alnum_at(t, b - v.text.size() - 1))) {
      m.date = v.kind;
      m.date_word = v.text;
      return;
    }
}

}  // namespace

std::string_view to_string(DateKind k) noexcept {
  switch (k) {
    case DateKind::kEffective: return "effective";
    case DateKind::kPublished: return "published";
    case DateKind::kSigned: return "signed";
    case DateKind::kUpdated: return "updated";
  }
  return "effective";
}

std::size_t count_end(std::string_view text, std::size_t i) {
  const auto c = read_count(text, i);
  return c ? c->end : i;
}

void find_time_mentions(std::string_view t, std::span<const TimeWordHit> words,
                        std::vector<TimeMention>& out) {
  // Pass 1: candidates in text order. A token's span swallows the words inside it (近三月 is
  // 近 + 三月 read as a count and a unit, not the month March).
  std::vector<Tok> toks;
  std::size_t wi = 0;
  for (std::size_t i = 0; i < t.size();) {
    while (wi < words.size() && words[wi].begin < i) ++wi;
    if (wi < words.size() && words[wi].begin == i) {
      const TimeWordHit& h = words[wi];
      const TimeWord& w = time_words()[h.word];
      std::optional<Tok> tok;
      switch (w.kind) {
        case K::kRelative: {
          TimeMention m;
          m.form = Form::kRelative;
          m.unit = static_cast<TimeUnit>(w.a);
          m.offset = w.b;
          std::uint32_t end = h.end;
          if (m.unit == TimeUnit::kWeek) m.a = weekday_after(t, end);  // 上周五, 下周末
          tok = whole(h.begin, end, m);
          break;
        }
        case K::kYear: tok = year(h.begin, h.end, Year::kRelative, w.a); break;
        case K::kHalf: tok = part(h.begin, h.end, Part::kHalf, w.a); break;
        case K::kQuarter: tok = part(h.begin, h.end, Part::kQuarter, w.a); break;
        case K::kMonth: tok = month_part(t, h.begin, h.end, w.a); break;
        case K::kEnMonth:
          tok = part(h.begin, h.end, Part::kMonth, w.a);
          tok->lone = Tok::Lone::kAfterIn;
          break;
        case K::kFestival: tok = part(h.begin, h.end, Part::kFestival, w.a); break;
        case K::kHoliday: tok = part(h.begin, h.end, Part::kHoliday, w.a); break;
        case K::kRollPrefix: tok = rolling(t, h, w.text); break;
      }
      if (tok) {
        tok->english = is_english(w.text);
        i = tok->m.end;
        toks.push_back(*tok);
      } else {
        i = h.end;
      }
      continue;
    }
    if (at(t, i, "前")) {  // 前三季度, 前两个月: the first quarters / months of a year
      if (auto tok = leading_months(t, i)) {
        toks.push_back(*tok);
        i = tok->m.end;
        continue;
      }
    }
    if (is_digit(t[i])) {
      if (i > 0 && is_alnum(t[i - 1])) {  // part of an ID or a word (v2024, sku123)
        while (i < t.size() && is_digit(t[i])) ++i;
        continue;
      }
      auto [tok, next] = numeric(t, i);
      if (tok) toks.push_back(*tok);
      i = next;
      continue;
    }
    ++i;
  }

  // Pass 2: a year joins the part next to it; lone parts take this year.
  const std::size_t first = out.size();
  auto gap = [&](const Tok& a, const Tok& b) {
    return t.substr(a.m.end, b.m.begin - a.m.end);
  };
  for (std::size_t k = 0; k < toks.size(); ++k) {
    const Tok& x = toks[k];
    const Tok* next = k + 1 < toks.size() ? &toks[k + 1] : nullptr;
    const bool is_year = x.kind == Tok::Kind::kYear || x.kind == Tok::Kind::kWeakYear;
    TimeMention m;
    if (is_year && next && next->kind == Tok::Kind::kPart && joins_year_part(gap(x, *next))) {
      m = next->m;
      m.year_kind = x.m.year_kind;
      m.year = x.m.year;
      m.begin = x.m.begin;
      ++k;
    } else if (x.kind == Tok::Kind::kPart && next &&
               (next->kind == Tok::Kind::kYear || next->kind == Tok::Kind::kWeakYear) &&
               (x.english || next->english || next->kind == Tok::Kind::kWeakYear) &&
               joins_part_year(gap(x, *next))) {
      m = x.m;
      m.year_kind = next->m.year_kind;
      m.year = next->m.year;
      m.end = next->m.end;
      ++k;
    } else if (x.kind == Tok::Kind::kWeakYear) {
      if (!after_in(t, x.m.begin)) continue;  // a bare number such as 2000 (元) is no year
      m = x.m;
    } else if (x.kind == Tok::Kind::kPart && x.lone != Tok::Lone::kOk) {
      if (x.lone == Tok::Lone::kNever || !after_in(t, x.m.begin)) continue;
      m = x.m;
    } else {
      m = x.m;
    }
    if (out.size() > first) join_previous(t, out.back(), m);
    out.push_back(m);
  }
  for (std::size_t k = first; k < out.size(); ++k) {
    // The verb right after the expression first (从1月发布到现在: 发布), then the edge.
    set_date_kind(t, out[k]);
    set_edge(t, out[k]);
    if (out[k].date_word.empty()) set_date_kind(t, out[k]);
  }
  drop_recurring(t, out, first);
}

}  // namespace qaplan::internal
