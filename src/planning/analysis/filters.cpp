#include "planning/analysis/filters.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "common/toml_reader.hpp"
#include "common/dates.hpp"
#include "common/utf8.hpp"
#include "planning/analysis/time_expr.hpp"
#include "planning/analysis/time_filters.hpp"
#include "planning/matcher.hpp"
#include "planning/text.hpp"

namespace qaplan {
namespace internal {
namespace {

// What one automaton pattern stands for. Families resolve overlaps among themselves only: a tag
// cue inside a path cue (合同 in 合同库) still counts for both.
enum class Family : std::uint8_t { kIgnore, kTime, kWho, kSigned, kPath, kTag };
enum class Cue : std::uint8_t {
  kIgnore, kTime, kDepartment, kSessionDepartment, kSessionUser, kSigned, kDraft, kPath, kTag
};

Family family_of(Cue c) {
  switch (c) {
    case Cue::kIgnore: return Family::kIgnore;
    case Cue::kTime: return Family::kTime;
    case Cue::kDepartment:
    case Cue::kSessionDepartment:
    case Cue::kSessionUser: return Family::kWho;  // 我的部门 (a session cue) over 我的
    case Cue::kSigned:
    case Cue::kDraft: return Family::kSigned;  // 未盖章 over 盖章
    case Cue::kPath: return Family::kPath;
    case Cue::kTag: return Family::kTag;
  }
  return Family::kIgnore;
}

// What a compiled index was built from, cheap to compare on every question: every number, and
// the buffer and length of every list (an element count for the nested ones). A push_back, an
// erase or a new list is noticed; a cue rewritten in place is not (see FiltersCompiled).
struct Shape {
  std::vector<std::pair<const void*, std::size_t>> lists;
  std::vector<long long> numbers;
  friend bool operator==(const Shape&, const Shape&) = default;

  static void of(const FiltersConfig& c, Shape& s) {
    s.lists.clear();
    s.numbers.assign(
        {c.week_start, c.spring_festival_days, c.max_window_days, c.year_less_ahead_days,
         c.year_less_plan_ahead_days, c.year_less_holiday_ahead_days});
    auto add = [&](const auto& v) { s.lists.emplace_back(v.data(), v.size()); };
    add(c.spring_festival_dates);
    add(c.departments);
    add(c.tags);
    add(c.paths);
    add(c.signed_cues);
    add(c.draft_cues);
    add(c.session_department_cues);
    add(c.session_user_cues);
    add(c.ignore_within);
    add(c.plan_words);
    std::uint64_t nested = 0;  // a hash of the nested list lengths
    for (const auto& d : c.departments) nested = nested * 31 + d.aliases.size();
    for (const auto& t : c.tags) nested = nested * 31 + t.cues.size();
    for (const auto& p : c.paths) nested = nested * 31 + p.cues.size();
    s.numbers.push_back(static_cast<long long>(nested));
  }
};

}  // namespace

/// The compiled form of one FiltersConfig vocabulary (see FiltersCompiled).
struct FiltersIndex {
  struct Pattern {
    Cue cue;
    std::uint32_t target;  // time word, department, tag or path index
    bool ascii_start;      // must start / end a word (hr, it部, today)
    bool ascii_end;
  };
  Shape shape;
  std::string error;  // validate_filters_config(); set → extract gives nothing
  PatternMatcher matcher;
  std::vector<Pattern> patterns;  // by pattern id
  std::vector<std::pair<int, dates::Day>> festival_overrides;  // sorted by year

  explicit FiltersIndex(const FiltersConfig& c);

  // The index for `c`: the kept one while its shape is unchanged, else compiled anew.
  static std::shared_ptr<const FiltersIndex> of(const FiltersConfig& c) {
    auto cur = c.compiled.index_.load(std::memory_order_acquire);
    if (cur && cur->matches(c)) return cur;
    auto built = std::make_shared<const FiltersIndex>(c);
    c.compiled.index_.store(built, std::memory_order_release);
    return built;
  }

  bool matches(const FiltersConfig& c) const {
    thread_local Shape now;
    Shape::of(c, now);
    return now == shape;
  }
};

namespace {

bool ascii_alnum_byte(std::string_view t, std::size_t i) {
  return i < t.size() && is_ascii_alnum(static_cast<unsigned char>(t[i]));
}

// The form a cue must be written in to ever match a normalized question.
Result<std::string> normalized_form(std::string_view cue) {
  InputConfig limits;
  limits.max_question_chars = 1 << 20;
  auto n = normalize_question(cue, limits, "cue");
  if (!n.ok()) return n.error();
  return std::move(n->text);
}

// "" or why entry `i` cannot be a cue.
std::string check_cue(const std::string& w, std::size_t i) {
  const std::string at = "entry " + std::to_string(i);
  if (w.empty()) return at + " is empty";
  if (!is_valid_utf8(w)) return at + " is not valid UTF-8";
  auto n = normalized_form(w);
  if (!n.ok()) return at + " ('" + w + "') cannot be normalized";
  if (*n != w)
    return at + " ('" + w + "') is not in normalized form (questions are matched as '" + *n +
           "': lower-case ASCII, half-width, Simplified)";
  return "";
}

std::string check_cues(const std::vector<std::string>& words) {
  for (std::size_t i = 0; i < words.size(); ++i)
    if (auto m = check_cue(words[i], i); !m.empty()) return m;
  return "";
}

std::string check_name(const std::string& v) {
  if (v.empty()) return "must not be empty";
  if (!is_valid_utf8(v)) return "is not valid UTF-8";
  return "";
}

// Official dates are 01-21 .. 02-20; a day's slack on each side for any other calendar's view.
std::string check_festival_date(const std::string& s, std::optional<dates::Day>& out) {
  out = s.size() == 10 ? dates::parse_date_prefix(s) : std::nullopt;
  if (!out) return "'" + s + "' is not a date YYYY-MM-DD";
  const int md = out->month * 100 + out->day;
  if (md < 120 || md > 221) return "'" + s + "' is not a possible Spring Festival (01-20 .. 02-21)";
  return "";
}

// A field name goes into engine queries as it is (a Milvus expression too): plain names only.
std::string check_field_name(const std::string& v) {
  for (char ch : v)
    if (!is_ascii_alnum(static_cast<unsigned char>(ch)) && ch != '_' && ch != '.' && ch != '-')
      return "'" + v + "' is not a field name (letters, digits, _ . - only; \"\" = none)";
  return "";
}

std::string check_week_start(int v) { return v >= 1 && v <= 7 ? "" : "must be 1 (Monday) .. 7 (Sunday)"; }
std::string check_festival_days(int v) { return v >= 1 && v <= 366 ? "" : "must be within 1 .. 366"; }
std::string check_window(int v) { return v >= 1 && v <= 36600 ? "" : "must be within 1 .. 36600"; }
std::string check_ahead(int v) { return v >= 0 && v <= 366 ? "" : "must be within 0 .. 366"; }

// A cue claimed by two owners (two departments, two paths).
struct Claims {
  std::map<std::string, std::string> owner;
  std::string claim(const std::string& cue, const std::string& who) {
    auto [it, fresh] = owner.emplace(cue, who);
    if (fresh || it->second == who) return "";
    return "'" + cue + "' names both '" + it->second + "' and '" + who + "'";
  }
};

using toml_reader::Reader;
using toml_reader::Value;

// An array of cues with the element's line in any error.
Status read_filter_cues(Reader& r, std::string_view key, std::vector<std::string>& out,
                        bool required = false) {
  QAPLAN_TRY(r.get(key, out, required));
  const Value* arr = r.find(key);
  if (!arr) return {};
  if (required && out.empty()) return r.err(*arr, key, "must not be empty");
  for (std::size_t i = 0; i < out.size(); ++i)
    if (auto m = check_cue(out[i], i); !m.empty()) return r.err(toml_reader::array_of(*arr)[i], key, m);
  return {};
}

Status read_int(Reader& r, std::string_view key, int& out, std::string (*check)(int)) {
  QAPLAN_TRY(r.get_int(key, out));
  if (const Value* v = r.find(key))
    if (auto m = check(out); !m.empty()) return r.err(*v, key, m);
  return {};
}

Status read_name(Reader& r, std::string_view key, std::string& out, std::set<std::string>& seen) {
  QAPLAN_TRY(r.get(key, out, true));
  const Value* v = r.find(key);
  if (auto m = check_name(out); !m.empty()) return r.err(*v, key, m);
  if (!seen.insert(out).second) return r.err(*v, key, "duplicate '" + out + "'");
  return {};
}

// Each cue of `key` claimed for `who`; the first conflict names the cue's line.
Status claim_all(Reader& r, std::string_view key, const std::vector<std::string>& cues,
                 const std::string& who, Claims& claims) {
  const Value* arr = r.find(key);
  for (std::size_t i = 0; i < cues.size(); ++i)
    if (auto m = claims.claim(cues[i], who); !m.empty())
      return arr ? r.err(toml_reader::array_of(*arr)[i], key, m) : r.err(r.v, key, m);
  return {};
}

// "department:财务→财务部", or "department:财务部" when the words are the value.
std::string tag_reason(std::string_view family, std::string_view words, std::string_view value) {
  std::string r(family);
  r += ':';
  r += words;
  if (words != value) {
    r += "→";
    r += value;
  }
  return r;
}

struct Hit {
  std::uint32_t pattern;
  std::uint32_t begin;
  std::uint32_t end;
  Family family;
};

}  // namespace

FiltersIndex::FiltersIndex(const FiltersConfig& c) {
  Shape::of(c, shape);
  error = validate_filters_config(c);
  if (!error.empty()) return;
  auto add = [&](std::string_view text, Cue cue, std::uint32_t target) {
    if (text.empty()) return;
    matcher.add(text, static_cast<std::uint32_t>(patterns.size()));
    patterns.push_back(Pattern{cue, target, ascii_alnum_byte(text, 0),
                               ascii_alnum_byte(text, text.size() - 1)});
  };
  const auto words = time_words();
  for (std::size_t k = 0; k < words.size(); ++k)
    add(words[k].text, Cue::kTime, static_cast<std::uint32_t>(k));
  for (const auto& w : c.ignore_within) add(w, Cue::kIgnore, 0);
  for (std::uint32_t d = 0; d < c.departments.size(); ++d) {
    // The name is a metadata value (IT部); the question holds its normalized form (it部).
    if (auto n = normalized_form(c.departments[d].name); n.ok()) add(*n, Cue::kDepartment, d);
    for (const auto& a : c.departments[d].aliases) add(a, Cue::kDepartment, d);
  }
  for (std::uint32_t k = 0; k < c.tags.size(); ++k)
    for (const auto& w : c.tags[k].cues) add(w, Cue::kTag, k);
  for (std::uint32_t k = 0; k < c.paths.size(); ++k)
    for (const auto& w : c.paths[k].cues) add(w, Cue::kPath, k);
  for (const auto& w : c.signed_cues) add(w, Cue::kSigned, 0);
  for (const auto& w : c.draft_cues) add(w, Cue::kDraft, 0);
  for (const auto& w : c.session_department_cues) add(w, Cue::kSessionDepartment, 0);
  for (const auto& w : c.session_user_cues) add(w, Cue::kSessionUser, 0);
  matcher.build();
  for (const auto& s : c.spring_festival_dates)
    if (auto d = dates::parse_date_prefix(s)) festival_overrides.emplace_back(d->year, *d);
  std::sort(festival_overrides.begin(), festival_overrides.end());
}

std::string validate_filters_config(const FiltersConfig& c) {
  if (auto m = check_week_start(c.week_start); !m.empty()) return "week_start " + m;
  if (auto m = check_festival_days(c.spring_festival_days); !m.empty())
    return "spring_festival_days " + m;
  if (auto m = check_window(c.max_window_days); !m.empty()) return "max_window_days " + m;
  if (auto m = check_ahead(c.year_less_ahead_days); !m.empty()) return "year_less_ahead_days " + m;
  if (auto m = check_ahead(c.year_less_plan_ahead_days); !m.empty())
    return "year_less_plan_ahead_days " + m;
  if (auto m = check_ahead(c.year_less_holiday_ahead_days); !m.empty())
    return "year_less_holiday_ahead_days " + m;
  std::set<int> years;
  for (const auto& s : c.spring_festival_dates) {
    std::optional<dates::Day> d;
    if (auto m = check_festival_date(s, d); !m.empty()) return "spring_festival_dates " + m;
    if (!years.insert(d->year).second)
      return "spring_festival_dates: two dates for " + std::to_string(d->year);
  }
  if (auto m = check_field_name(c.published_date_field); !m.empty())
    return "published_date_field " + m;
  if (auto m = check_field_name(c.signed_date_field); !m.empty()) return "signed_date_field " + m;
  if (auto m = check_field_name(c.updated_date_field); !m.empty())
    return "updated_date_field " + m;
  if (c.word_filters != "prefer" && c.word_filters != "require")
    return "word_filters must be \"prefer\" or \"require\"";
  const std::pair<const char*, const std::vector<std::string>*> lists[] = {
      {"signed_cues", &c.signed_cues},
      {"draft_cues", &c.draft_cues},
      {"session_department_cues", &c.session_department_cues},
      {"session_user_cues", &c.session_user_cues},
      {"ignore_within", &c.ignore_within},
      {"plan_words", &c.plan_words}};
  for (const auto& [key, list] : lists)
    if (auto m = check_cues(*list); !m.empty()) return std::string(key) + " " + m;
  Claims signed_claims;
  for (const auto& w : c.signed_cues) signed_claims.claim(w, "signed_cues");
  for (const auto& w : c.draft_cues)
    if (auto m = signed_claims.claim(w, "draft_cues"); !m.empty()) return "draft_cues " + m;
  std::set<std::string> names;
  Claims dept_claims;
  for (const auto& d : c.departments) {
    if (auto m = check_name(d.name); !m.empty()) return "departments name " + m;
    if (!names.insert(d.name).second) return "departments name duplicate '" + d.name + "'";
    if (auto m = check_cues(d.aliases); !m.empty()) return "departments." + d.name + " aliases " + m;
    for (const auto& a : d.aliases)
      if (auto m = dept_claims.claim(a, d.name); !m.empty()) return "departments aliases " + m;
  }
  std::set<std::string> tags;
  for (const auto& t : c.tags) {
    if (auto m = check_name(t.tag); !m.empty()) return "tags tag " + m;
    if (!tags.insert(t.tag).second) return "tags tag duplicate '" + t.tag + "'";
    if (t.cues.empty()) return "tags." + t.tag + " cues must not be empty";
    if (auto m = check_cues(t.cues); !m.empty()) return "tags." + t.tag + " cues " + m;
  }
  std::set<std::string> prefixes;
  Claims path_claims;
  for (const auto& p : c.paths) {
    if (auto m = check_name(p.prefix); !m.empty()) return "paths prefix " + m;
    if (!prefixes.insert(p.prefix).second) return "paths prefix duplicate '" + p.prefix + "'";
    if (p.cues.empty()) return "paths." + p.prefix + " cues must not be empty";
    if (auto m = check_cues(p.cues); !m.empty()) return "paths." + p.prefix + " cues " + m;
    for (const auto& w : p.cues)
      if (auto m = path_claims.claim(w, p.prefix); !m.empty()) return "paths cues " + m;
  }
  return "";
}

Status read_filters_config(Reader& r, FiltersConfig& out) {
  QAPLAN_TRY(read_int(r, "week_start", out.week_start, check_week_start));
  QAPLAN_TRY(read_int(r, "spring_festival_days", out.spring_festival_days, check_festival_days));
  QAPLAN_TRY(read_int(r, "max_window_days", out.max_window_days, check_window));
  QAPLAN_TRY(read_int(r, "year_less_ahead_days", out.year_less_ahead_days, check_ahead));
  QAPLAN_TRY(
      read_int(r, "year_less_plan_ahead_days", out.year_less_plan_ahead_days, check_ahead));
  QAPLAN_TRY(read_int(r, "year_less_holiday_ahead_days", out.year_less_holiday_ahead_days,
                      check_ahead));
  QAPLAN_TRY(r.get("spring_festival_dates", out.spring_festival_dates));
  if (const Value* arr = r.find("spring_festival_dates")) {
    std::set<int> years;
    for (std::size_t i = 0; i < out.spring_festival_dates.size(); ++i) {
      std::optional<dates::Day> d;
      const Value& at = toml_reader::array_of(*arr)[i];
      if (auto m = check_festival_date(out.spring_festival_dates[i], d); !m.empty())
        return r.err(at, "spring_festival_dates", m);
      if (!years.insert(d->year).second)
        return r.err(at, "spring_festival_dates", "two dates for " + std::to_string(d->year));
    }
  }
  for (auto [key, field] : {std::pair<const char*, std::string*>{"published_date_field",
                                                                &out.published_date_field},
                            {"signed_date_field", &out.signed_date_field},
                            {"updated_date_field", &out.updated_date_field}}) {
    QAPLAN_TRY(r.get(key, *field));
    if (const Value* v = r.find(key))
      if (auto m = check_field_name(*field); !m.empty()) return r.err(*v, key, m);
  }
  QAPLAN_TRY(r.get("word_filters", out.word_filters));
  if (const Value* v = r.find("word_filters"))
    if (out.word_filters != "prefer" && out.word_filters != "require")
      return r.err(*v, "word_filters", "must be \"prefer\" or \"require\"");
  QAPLAN_TRY(read_filter_cues(r, "signed_cues", out.signed_cues));
  QAPLAN_TRY(read_filter_cues(r, "draft_cues", out.draft_cues));
  {
    Claims claims;
    QAPLAN_TRY(claim_all(r, "signed_cues", out.signed_cues, "signed_cues", claims));
    QAPLAN_TRY(claim_all(r, "draft_cues", out.draft_cues, "draft_cues", claims));
  }
  QAPLAN_TRY(read_filter_cues(r, "session_department_cues", out.session_department_cues));
  QAPLAN_TRY(read_filter_cues(r, "session_user_cues", out.session_user_cues));
  QAPLAN_TRY(read_filter_cues(r, "ignore_within", out.ignore_within));
  QAPLAN_TRY(read_filter_cues(r, "plan_words", out.plan_words));

  std::set<std::string> names;
  Claims dept_claims;
  out.departments.clear();
  QAPLAN_TRY(toml_reader::each_table(r, "departments", out.departments,
                                     [&](Reader& t, FilterDepartment& d) -> Status {
    QAPLAN_TRY(read_name(t, "name", d.name, names));
    QAPLAN_TRY(read_filter_cues(t, "aliases", d.aliases));
    return claim_all(t, "aliases", d.aliases, d.name, dept_claims);
  }));
  std::set<std::string> tags;
  out.tags.clear();
  QAPLAN_TRY(toml_reader::each_table(r, "tags", out.tags, [&](Reader& t, FilterTag& x) -> Status {
    QAPLAN_TRY(read_name(t, "tag", x.tag, tags));
    return read_filter_cues(t, "cues", x.cues, true);
  }));
  std::set<std::string> prefixes;
  Claims path_claims;
  out.paths.clear();
  QAPLAN_TRY(toml_reader::each_table(r, "paths", out.paths, [&](Reader& t, FilterPath& p) -> Status {
    QAPLAN_TRY(read_name(t, "prefix", p.prefix, prefixes));
    QAPLAN_TRY(read_filter_cues(t, "cues", p.cues, true));
    return claim_all(t, "cues", p.cues, p.prefix, path_claims);
  }));
  // Compile now, so the first question does not pay for it (a moved config keeps it).
  if (validate_filters_config(out).empty()) FiltersIndex::of(out);
  return {};
}

namespace {

// Department (unless it is the asker's own, from the session), tags and path read from words
// are a guess at how documents are filed: preferences, with one reason naming them.
void mark_preferred(Filters& f, bool department_from_session) {
  if (f.department && !department_from_session) f.preferred.push_back("department");
  if (!f.tags.empty()) f.preferred.push_back("tags");
  if (f.path_prefix) f.preferred.push_back("path_prefix");
  if (f.preferred.empty()) return;
  std::string names;
  for (const std::string& n : f.preferred) names += (names.empty() ? "" : ",") + n;
  f.reasons.push_back("preferred:" + names + " (from words: matching documents rank higher, the "
                      "others still come back)");
}

// The cue words of `text` on their boundaries (a time word on a time word's, an ASCII cue not
// inside an ASCII word), into `hits`.
void scan_cues(std::string_view text, const FiltersIndex& ix, std::vector<Hit>& hits) {
  const auto time_vocab = time_words();
  ix.matcher.scan(text, [&](std::uint32_t id, std::uint32_t b, std::uint32_t e) {
    const auto& p = ix.patterns[id];
    if (p.cue == Cue::kTime) {
      if (!time_word_at_boundaries(text, time_vocab[p.target], b, e)) return;
    } else if ((p.ascii_start && b > 0 && ascii_alnum_byte(text, b - 1)) ||
               (p.ascii_end && ascii_alnum_byte(text, e))) {
      return;
    }
    hits.push_back(Hit{id, b, e, family_of(p.cue)});
  });
}

// Leftmost-longest within a family; anything inside an ignore_within phrase is dropped.
void keep_leftmost_longest(std::vector<Hit>& hits) {
  std::sort(hits.begin(), hits.end(), [](const Hit& a, const Hit& b) {
    if (a.family != b.family) return a.family < b.family;
    if (a.begin != b.begin) return a.begin < b.begin;
    return a.end > b.end;
  });
  std::size_t n_ignore = 0;
  while (n_ignore < hits.size() && hits[n_ignore].family == Family::kIgnore) ++n_ignore;
  auto ignored = [&](const Hit& h) {
    for (std::size_t k = 0; k < n_ignore; ++k)
      if (hits[k].begin <= h.begin && h.end <= hits[k].end) return true;
    return false;
  };
  std::size_t kept = 0;
  Family fam = Family::kIgnore;
  std::uint32_t reach = 0;
  for (std::size_t k = n_ignore; k < hits.size(); ++k) {
    const Hit h = hits[k];
    if (h.family != fam) {
      fam = h.family;
      reach = 0;
    }
    if (ignored(h)) continue;
    if (fam != Family::kTag && h.begin < reach) continue;  // overlaps a longer, earlier cue
    reach = std::max(reach, h.end);
    hits[kept++] = h;
  }
  hits.resize(kept);
}

// What the question's words (not its time) say: departments named (value, words), the asker,
// signed or draft, path prefixes, tags. Session cues count once.
struct WordCues {
  std::vector<std::pair<std::string, std::string>> named;  // (department, words)
  bool session_dept_done = false, session_user_done = false;
  bool signed_seen = false, draft_seen = false;
  std::string signed_words, draft_words;
  std::vector<std::uint32_t> paths;
  std::string path_words;
  std::vector<bool> tag_on;

  void name(std::string value, std::string_view words) {
    for (const auto& n : named)
      if (n.first == value) return;
    named.emplace_back(std::move(value), std::string(words));
  }
};

// A session cue (我们部门, 我的): the session's value, or uncertain without one.
void session_cue(const FiltersIndex::Pattern& p, std::string_view words, const AnalysisContext& context,
                 WordCues& w, Filters& f) {
  if (p.cue == Cue::kSessionDepartment) {
    if (w.session_dept_done) return;
    w.session_dept_done = true;
    if (context.session_department && !context.session_department->empty()) {
      w.name(*context.session_department, words);
    } else {
      f.uncertain = true;
      f.reasons.push_back("uncertain:" + std::string(words) + " without a session department");
    }
    return;
  }
  if (w.session_user_done) return;
  w.session_user_done = true;
  if (context.session_user && !context.session_user->empty()) {
    f.user = *context.session_user;
    f.reasons.push_back(tag_reason("user", words, *f.user) + " (session)");
  } else {
    f.uncertain = true;
    f.reasons.push_back("uncertain:" + std::string(words) + " without a session user");
  }
}

WordCues read_word_cues(std::string_view text, const std::vector<Hit>& hits,
                        const FiltersIndex& ix, const FiltersConfig& config,
                        const AnalysisContext& context, Filters& f) {
  WordCues w;
  for (const Hit& h : hits) {
    const auto& p = ix.patterns[h.pattern];
    const std::string_view words = text.substr(h.begin, h.end - h.begin);
    switch (p.cue) {
      case Cue::kDepartment: w.name(config.departments[p.target].name, words); break;
      case Cue::kSessionDepartment:
      case Cue::kSessionUser: session_cue(p, words, context, w, f); break;
      case Cue::kSigned:
        if (!w.signed_seen) w.signed_words = words;
        w.signed_seen = true;
        break;
      case Cue::kDraft:
        if (!w.draft_seen) w.draft_words = words;
        w.draft_seen = true;
        break;
      case Cue::kPath:
        if (std::find(w.paths.begin(), w.paths.end(), p.target) == w.paths.end()) {
          if (w.paths.empty()) w.path_words = words;
          w.paths.push_back(p.target);
        }
        break;
      case Cue::kTag:
        if (w.tag_on.empty()) w.tag_on.assign(config.tags.size(), false);
        w.tag_on[p.target] = true;
        break;
      case Cue::kIgnore:
      case Cue::kTime: break;
    }
  }
  return w;
}

// One department, one path prefix, signed or draft: a filter; several or both: skipped, with a
// reason. Returns whether the department came from the session.
bool apply_word_cues(const WordCues& w, const FiltersConfig& config, const AnalysisContext& context,
                     Filters& f) {
  bool from_session = false;
  if (w.named.size() == 1) {
    f.department = w.named.front().first;
    from_session = context.session_department &&
                   w.named.front().first == *context.session_department && w.session_dept_done;
    f.reasons.push_back(tag_reason("department", w.named.front().second, w.named.front().first) +
                        (from_session ? " (session)" : ""));
  } else if (w.named.size() > 1) {
    std::string all;
    for (const auto& n : w.named) all += (all.empty() ? "" : "|") + n.first;
    f.reasons.push_back("department:skipped " + all + " (several named)");
  }
  for (std::size_t k = 0; k < w.tag_on.size(); ++k) {
    if (!w.tag_on[k]) continue;
    f.tags.push_back(config.tags[k].tag);
    f.reasons.push_back("tag:" + config.tags[k].tag);
  }
  if (w.paths.size() == 1) {
    f.path_prefix = config.paths[w.paths.front()].prefix;
    f.reasons.push_back(tag_reason("path_prefix", w.path_words, *f.path_prefix));
  } else if (w.paths.size() > 1) {
    std::string all;
    for (auto k : w.paths) all += (all.empty() ? "" : "|") + config.paths[k].prefix;
    f.reasons.push_back("path_prefix:skipped " + all + " (several named)");
  }
  if (w.signed_seen && w.draft_seen) {
    f.reasons.push_back("is_signed:skipped " + w.signed_words + "|" + w.draft_words + " (both)");
  } else if (w.signed_seen || w.draft_seen) {
    f.is_signed = w.signed_seen;
    f.reasons.push_back("is_signed:" + (w.signed_seen ? w.signed_words : w.draft_words) + "→" +
                        (w.signed_seen ? "true" : "false"));
  }
  return from_session;
}

}  // namespace

Filters extract_filters(std::string_view text, const FiltersConfig& config,
                        const AnalysisContext& context) {
  return extract_filters(text, config, context, *FiltersIndex::of(config));
}

std::shared_ptr<const FiltersIndex> filters_index(const FiltersConfig& config) {
  return FiltersIndex::of(config);
}

Filters extract_filters(std::string_view text, const FiltersConfig& config,
                        const AnalysisContext& context, const FiltersIndex& ix) {
  Filters f;
  if (!ix.error.empty()) {
    f.reasons.push_back("filters:invalid config: " + ix.error);
    return f;
  }
  // One scan; scratch buffers are per thread so a question allocates nothing it does not keep.
  thread_local std::vector<Hit> hits;
  thread_local std::vector<TimeWordHit> time_hits;
  thread_local std::vector<TimeMention> mentions;
  hits.clear();
  time_hits.clear();
  mentions.clear();
  scan_cues(text, ix, hits);
  // No cue and no digit: nothing to read (the digits tested inline: find_first_of called
  // memchr once per byte of the question).
  const auto digit = [](char c) { return c >= '0' && c <= '9'; };
  if (hits.empty() && std::none_of(text.begin(), text.end(), digit)) return f;
  keep_leftmost_longest(hits);
  for (const Hit& h : hits)
    if (h.family == Family::kTime)
      time_hits.push_back(TimeWordHit{ix.patterns[h.pattern].target, h.begin, h.end});
  find_time_mentions(text, time_hits, mentions);
  if (!mentions.empty()) time_filters(text, mentions, config, ix.festival_overrides, context, f);
  const WordCues words = read_word_cues(text, hits, ix, config, context, f);
  const bool from_session = apply_word_cues(words, config, context, f);
  if (config.word_filters == "prefer") mark_preferred(f, from_session);
  return f;
}

}  // namespace internal

Result<std::string> check_timezone(std::string_view name) {
  if (auto z = internal::dates::resolve_zone(name)) return z->id;
  return make_error(ErrorCode::kInvalidInput,
                    "unknown time zone " + internal::echo(std::string(name)) +
                        " (an IANA name such as Asia/Shanghai, or an offset such as +08:00)",
                    "timezone");
}

}  // namespace qaplan
