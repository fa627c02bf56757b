// The fixed time words and where in a text they may stand (time_expr.hpp): the table the matcher
// is built from, and the guards that keep a word's first character with the word before it.
#include <string_view>

#include "planning/analysis/time_expr.hpp"

namespace qaplan::internal {
namespace {

using K = TimeWord::Kind;
using namespace time_text;

constexpr std::int8_t u(TimeUnit x) { return static_cast<std::int8_t>(x); }
constexpr std::int8_t kD = u(TimeUnit::kDay), kW = u(TimeUnit::kWeek), kM = u(TimeUnit::kMonth),
                      kQ = u(TimeUnit::kQuarter);  // years appear only as K::kYear anchors

// The fixed words. Overlaps resolve leftmost-longest (上上个月 over 上个月, 十二月 over 二月).
constexpr TimeWord kWords[] = {
    // days
    {"今天", K::kRelative, kD, 0}, {"今日", K::kRelative, kD, 0}, {"today", K::kRelative, kD, 0},
    {"昨天", K::kRelative, kD, -1}, {"昨日", K::kRelative, kD, -1},
    {"yesterday", K::kRelative, kD, -1}, {"前天", K::kRelative, kD, -2},
    {"明天", K::kRelative, kD, 1}, {"明日", K::kRelative, kD, 1}, {"tomorrow", K::kRelative, kD, 1},
    // weeks
    {"本周", K::kRelative, kW, 0}, {"这周", K::kRelative, kW, 0}, {"这一周", K::kRelative, kW, 0},
    {"这个周", K::kRelative, kW, 0}, {"这个星期", K::kRelative, kW, 0},
    {"这星期", K::kRelative, kW, 0}, {"本星期", K::kRelative, kW, 0},
    {"这个礼拜", K::kRelative, kW, 0}, {"这礼拜", K::kRelative, kW, 0},
    {"this week", K::kRelative, kW, 0}, {"上周", K::kRelative, kW, -1},
    {"上一周", K::kRelative, kW, -1}, {"上个周", K::kRelative, kW, -1},
    {"上个星期", K::kRelative, kW, -1}, {"上星期", K::kRelative, kW, -1},
    {"上个礼拜", K::kRelative, kW, -1}, {"上礼拜", K::kRelative, kW, -1},
    {"last week", K::kRelative, kW, -1}, {"上上周", K::kRelative, kW, -2},
    {"上上个星期", K::kRelative, kW, -2}, {"下周", K::kRelative, kW, 1},
    {"下一周", K::kRelative, kW, 1}, {"下个周", K::kRelative, kW, 1},
    {"下个星期", K::kRelative, kW, 1}, {"下星期", K::kRelative, kW, 1},
    {"下个礼拜", K::kRelative, kW, 1}, {"下礼拜", K::kRelative, kW, 1},
    {"next week", K::kRelative, kW, 1},
    // months
    {"本月", K::kRelative, kM, 0}, {"本月份", K::kRelative, kM, 0}, {"这个月", K::kRelative, kM, 0},
    {"这月", K::kRelative, kM, 0},
    {"this month", K::kRelative, kM, 0}, {"上个月", K::kRelative, kM, -1},
    {"上月", K::kRelative, kM, -1}, {"上一个月", K::kRelative, kM, -1},
    {"上个月份", K::kRelative, kM, -1}, {"上月份", K::kRelative, kM, -1},
    {"last month", K::kRelative, kM, -1}, {"上上个月", K::kRelative, kM, -2},
    {"上上月", K::kRelative, kM, -2}, {"下个月", K::kRelative, kM, 1},
    {"下月", K::kRelative, kM, 1}, {"下一个月", K::kRelative, kM, 1},
    {"下个月份", K::kRelative, kM, 1}, {"next month", K::kRelative, kM, 1},
    // quarters
    {"本季度", K::kRelative, kQ, 0}, {"本季", K::kRelative, kQ, 0},
    {"这个季度", K::kRelative, kQ, 0}, {"这季度", K::kRelative, kQ, 0},
    {"this quarter", K::kRelative, kQ, 0}, {"上季度", K::kRelative, kQ, -1},
    {"上季", K::kRelative, kQ, -1}, {"上个季度", K::kRelative, kQ, -1},
    {"上一季度", K::kRelative, kQ, -1}, {"上一个季度", K::kRelative, kQ, -1},
    {"last quarter", K::kRelative, kQ, -1}, {"下季度", K::kRelative, kQ, 1},
    {"下个季度", K::kRelative, kQ, 1}, {"下一季度", K::kRelative, kQ, 1},
    {"next quarter", K::kRelative, kQ, 1},
    // years (a part may follow: 去年Q3, 今年上半年)
    {"今年", K::kYear, 0}, {"本年", K::kYear, 0}, {"本年度", K::kYear, 0}, {"今年度", K::kYear, 0},
    {"this year", K::kYear, 0}, {"去年", K::kYear, -1}, {"去年度", K::kYear, -1},
    {"上一年", K::kYear, -1}, {"上一年度", K::kYear, -1}, {"上年", K::kYear, -1},
    {"上年度", K::kYear, -1}, {"last year", K::kYear, -1}, {"前年", K::kYear, -2},
    {"明年", K::kYear, 1}, {"明年度", K::kYear, 1}, {"next year", K::kYear, 1},
    // halves
    {"上半年", K::kHalf, 1}, {"下半年", K::kHalf, 2}, {"first half", K::kHalf, 1},
    {"second half", K::kHalf, 2}, {"h1", K::kHalf, 1}, {"h2", K::kHalf, 2},
    // quarters of a year
    {"第一季度", K::kQuarter, 1}, {"一季度", K::kQuarter, 1}, {"首季度", K::kQuarter, 1},
    {"第二季度", K::kQuarter, 2}, {"二季度", K::kQuarter, 2}, {"第三季度", K::kQuarter, 3},
    {"三季度", K::kQuarter, 3}, {"第四季度", K::kQuarter, 4}, {"四季度", K::kQuarter, 4},
    {"q1", K::kQuarter, 1}, {"q2", K::kQuarter, 2}, {"q3", K::kQuarter, 3}, {"q4", K::kQuarter, 4},
    {"first quarter", K::kQuarter, 1}, {"second quarter", K::kQuarter, 2},
    {"third quarter", K::kQuarter, 3}, {"fourth quarter", K::kQuarter, 4},
    // months of a year
    {"一月", K::kMonth, 1}, {"元月", K::kMonth, 1}, {"二月", K::kMonth, 2}, {"三月", K::kMonth, 3},
    {"四月", K::kMonth, 4}, {"五月", K::kMonth, 5}, {"六月", K::kMonth, 6}, {"七月", K::kMonth, 7},
    {"八月", K::kMonth, 8}, {"九月", K::kMonth, 9}, {"十月", K::kMonth, 10},
    {"十一月", K::kMonth, 11}, {"十二月", K::kMonth, 12},
    {"january", K::kEnMonth, 1}, {"jan", K::kEnMonth, 1}, {"february", K::kEnMonth, 2},
    {"feb", K::kEnMonth, 2}, {"march", K::kEnMonth, 3}, {"mar", K::kEnMonth, 3},
    {"april", K::kEnMonth, 4}, {"apr", K::kEnMonth, 4}, {"may", K::kEnMonth, 5},
    {"june", K::kEnMonth, 6}, {"jun", K::kEnMonth, 6}, {"july", K::kEnMonth, 7},
    {"jul", K::kEnMonth, 7}, {"august", K::kEnMonth, 8}, {"aug", K::kEnMonth, 8},
    {"september", K::kEnMonth, 9}, {"sep", K::kEnMonth, 9}, {"sept", K::kEnMonth, 9},
    {"october", K::kEnMonth, 10}, {"oct", K::kEnMonth, 10}, {"november", K::kEnMonth, 11},
    {"nov", K::kEnMonth, 11}, {"december", K::kEnMonth, 12}, {"dec", K::kEnMonth, 12},
    // the Spring Festival (节前/年前 alone are ambiguous: not here)
    {"春节前", K::kFestival, -1}, {"春节之前", K::kFestival, -1}, {"春节以前", K::kFestival, -1},
    {"过年前", K::kFestival, -1}, {"春节后", K::kFestival, 1}, {"春节之后", K::kFestival, 1},
    {"春节以后", K::kFestival, 1}, {"过年后", K::kFestival, 1},
    {"before spring festival", K::kFestival, -1}, {"after spring festival", K::kFestival, 1},
    {"before chinese new year", K::kFestival, -1}, {"after chinese new year", K::kFestival, 1},
    // public holidays: the days of their break (time_anchor.cpp)
    {"元旦", K::kHoliday, TimeMention::kNewYear}, {"元旦节", K::kHoliday, TimeMention::kNewYear},
    {"春节", K::kHoliday, TimeMention::kSpringFestival},
    {"过年", K::kHoliday, TimeMention::kSpringFestival},
    {"春节假期", K::kHoliday, TimeMention::kSpringFestival},
    {"除夕", K::kHoliday, TimeMention::kNewYearsEve},
    {"大年三十", K::kHoliday, TimeMention::kNewYearsEve},
    {"大年初一", K::kHoliday, TimeMention::kFirstDay}, {"正月初一", K::kHoliday, TimeMention::kFirstDay},
    {"清明", K::kHoliday, TimeMention::kQingming}, {"清明节", K::kHoliday, TimeMention::kQingming},
    {"五一", K::kHoliday, TimeMention::kLabourDay}, {"劳动节", K::kHoliday, TimeMention::kLabourDay},
    {"五一劳动节", K::kHoliday, TimeMention::kLabourDay},
    {"端午", K::kHoliday, TimeMention::kDragonBoat}, {"端午节", K::kHoliday, TimeMention::kDragonBoat},
    {"中秋", K::kHoliday, TimeMention::kMidAutumn}, {"中秋节", K::kHoliday, TimeMention::kMidAutumn},
    {"国庆", K::kHoliday, TimeMention::kNationalDay}, {"国庆节", K::kHoliday, TimeMention::kNationalDay},
    {"十一黄金周", K::kHoliday, TimeMention::kNationalDay},
    {"十一假期", K::kHoliday, TimeMention::kNationalDay},
    {"十一长假", K::kHoliday, TimeMention::kNationalDay},
    {"十一期间", K::kHoliday, TimeMention::kNationalDay},
    // rolling windows: a count and a unit follow
    {"最近", K::kRollPrefix}, {"近", K::kRollPrefix}, {"过去", K::kRollPrefix},
    {"past", K::kRollPrefix}, {"last", K::kRollPrefix},
};

// A holiday's name in a place, a wish or its food (五一路支行, 国庆北路, 中秋节快乐, 端午粽子): no
// period. Closed classes of the language.
bool names_a_place(std::string_view t, std::size_t end) {
  std::string_view rest = t.substr(end);
  // The shorter word of 中秋节快乐 (中秋) is judged by what follows the whole name.
  if (rest.starts_with("节")) rest.remove_prefix(std::string_view("节").size());
  for (std::string_view w : {"快乐", "愉快", "月饼", "粽子", "礼盒"})
    if (rest.starts_with(w)) return true;
  // 国庆北路, 五一新村: a direction or 新 / 老 may stand between the name and the place's kind.
  for (std::string_view d : {"东", "南", "西", "北", "中", "新", "老"})
    if (rest.starts_with(d)) {
      rest.remove_prefix(d.size());
      break;
    }
  for (std::string_view w : {"路", "街", "大道", "道", "巷", "广场", "大厦", "村", "镇", "小区", "桥",
                             "社区", "支行", "分行", "营业部", "商场", "市场", "中学", "小学", "医院",
                             "公园", "店"})
    if (rest.starts_with(w)) return true;
  return false;
}
// True when the character before byte b is one of `chars` (three-byte Han characters).
bool after_any(std::string_view t, std::uint32_t b, std::string_view chars) {
  if (b < 3) return false;
  const std::string_view prev = t.substr(b - 3, 3);
  for (std::size_t k = 0; k + 3 <= chars.size(); k += 3)
    if (chars.substr(k, 3) == prev) return true;
  return false;
}

// A time word whose first character belongs to the word before it: 目前|年假 (not 前年),
// 马上|年底, 线上|周报, 成本|月度, 如今|年轻, 除去|年终, 统一|月度, 接近|三个月.
struct Guard {
  std::string_view first;   // the time word starts with this character
  std::string_view before;  // ... and is rejected after any of these
};
constexpr Guard kGuards[] = {
    {"前", "目提以之当此事会节年空生眼面跟从先日超"},
    {"上", "马以线网早晚向之会手身桌路楼地天台面头北往"},
    {"本", "成样日版资基根原课剧账文脚笔副正标范蓝底话书画"},
    {"今", "如迄古"},
    {"去", "除回出上下进失死离删减退"},
    {"近", "接将附靠临亲相邻贴逼就"},
    {"下", "以如天底地线手部南私乡眼当一之剩留放落楼"},
    {"明", "说证表声注透聪光发标简文阐英分鲜黎神"},
};

// A holiday word inside another word or a number: 超过|年度, 通过|年审 and 请过|年假 hold no
// 过年; 张国庆 and 全国|庆祝 no 国庆; 三十五|一个月 and 五一二 no 五一; 清明上河图 is a painting.
// Closed classes of the language.
bool holiday_at_boundaries(std::string_view t, const TimeWord& w, std::uint32_t begin,
                           std::uint32_t end) {
  if (names_a_place(t, end)) return false;
  constexpr std::string_view kNumerals = "〇零一二三四五六七八九十百千万两0123456789";
  if (after_any(t, begin, kNumerals) || after_any(t, begin, "超通错请不经度越路闯略放跳"))
    return false;
  if (at(t, end, "上河") || at(t, end, "祝") || at(t, end, "典") || at(t, end, "贺")) return false;
  for (std::string_view n : {"〇", "零", "一", "二", "三", "四", "五", "六", "七", "八", "九", "个", "份"})
    if (w.text == "五一" && at(t, end, n)) return false;
  // 国庆 after a character of a name (张国庆, 李国庆): only after a word it may follow.
  if (w.text.starts_with("国庆") && begin >= 3 && t[begin - 1] & 0x80 &&
      !after_any(t, begin, "年的和与及到至从在是个逢近临过秋节旦今去明每这那"))
    return false;
  return true;
}

// Verbs whose complement 下 (看下, 查下, 比下) ends a word: what follows starts a new one.
constexpr std::string_view kComplementVerbs =
    "看查问说讲聊比找搜瞧试算读翻核对解绍释较认计总结理整讨论梳估评测验";

// True when the text before b ends with a verb complement: 一下 (看一下, 对比一下, 了解一下) or
// verb + 下 (看下, 查下). Its 下 belongs to the verb, so it cannot start 下去 and swallow 去年;
// the rule is the complement's, not a list of the phrases it appears in.
bool after_complement(std::string_view t, std::uint32_t b) {
  if (!ends_at(t, b, "下")) return false;
  return after_any(t, b - 3, "一") || after_any(t, b - 3, kComplementVerbs);
}

}  // namespace

std::span<const TimeWord> time_words() noexcept { return kWords; }

bool time_word_at_boundaries(std::string_view text, const TimeWord& w, std::uint32_t begin,
                             std::uint32_t end) noexcept {
  if (!is_english(w.text)) {
    if (!after_complement(text, begin))
      for (const Guard& g : kGuards)
        if (w.text.starts_with(g.first) && after_any(text, begin, g.before)) return false;
    // 这周期 / 本周边: 周 begins another word.
    if (w.text.ends_with("周") && (at(text, end, "期") || at(text, end, "边"))) return false;
    // 一下|月度报表: 月 begins 月度.
    if (w.text.ends_with("月") && at(text, end, "度")) return false;
    if (w.kind == K::kHoliday && !holiday_at_boundaries(text, w, begin, end)) return false;
    if (w.kind == K::kMonth) {
      // 统一月度, 第一月 …: the numeral belongs to the word before; 一月一次: once a month.
      if (after_any(text, begin, "统第每唯单同万逐专合之划均归整初周")) return false;
      if (end + 3 <= text.size() && after_any(text, end + 3, "一两几多内")) return false;
    }
    return true;
  }
  const bool q_or_h = w.text.size() == 2 && is_digit(w.text[1]);
  if (begin > 0 && (q_or_h ? is_alpha(text[begin - 1]) : is_alnum(text[begin - 1]))) return false;
  return !alnum_at(text, end);
}

}  // namespace qaplan::internal
