// `qaplan recommend` (recommend.hpp).
#include "qaplan/eval/recommend.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "common/json_reader.hpp"
#include "common/sha256.hpp"
#include "eval/report_util.hpp"

namespace qaplan {
namespace {

namespace js = internal::json;
using nlohmann::ordered_json;
using internal::num_text;

constexpr const char* kApply = "apply_candidate_after_review";
constexpr const char* kKeep = "keep_current";

// A member by dotted path; fails naming the path when absent.
const js::Json& at(const js::Json& j, const std::string& path) {
  const js::Json* cur = &j;
  std::size_t start = 0;
  while (start <= path.size()) {
    const std::size_t dot = path.find('.', start);
    const std::string key = path.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    if (!cur->is_object() || !cur->contains(key)) js::fail(path, "missing field");
    cur = &cur->at(key);
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  return *cur;
}
double num(const js::Json& j, const std::string& path) {
  const js::Json& v = at(j, path);
  if (!v.is_number()) js::fail(path, "must be a number");
  return v.get<double>();
}
std::size_t count(const js::Json& j, const std::string& path) {
  const js::Json& v = at(j, path);
  if (!v.is_number_unsigned() && !v.is_number_integer()) js::fail(path, "must be a count");
  return v.get<std::size_t>();
}
std::string str(const js::Json& j, const std::string& path) {
  const js::Json& v = at(j, path);
  if (!v.is_string()) js::fail(path, "must be a string");
  return v.get<std::string>();
}

// One edit of the config text: the line and the new line.
struct Edit {
  std::size_t line = 0;  // 0-based
  std::string before, after;
};

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::string cur;
  std::istringstream in(text);
  while (std::getline(in, cur)) lines.push_back(cur);
  return lines;
}

std::string trim(std::string_view s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string_view::npos) return "";
  return std::string(s.substr(b, s.find_last_not_of(" \t\r") - b + 1));
}

bool is_header(const std::string& line) { return !trim(line).empty() && trim(line)[0] == '['; }

// Replaces the number after `key =` in `line` (from byte `from`); false when absent.
bool replace_number(std::string& line, const std::string& key, double value, std::size_t from = 0) {
  std::size_t p = from;
  while ((p = line.find(key, p)) != std::string::npos) {
    const bool word_start = p == 0 || !(std::isalnum(static_cast<unsigned char>(line[p - 1])) || line[p - 1] == '_');
    std::size_t q = p + key.size();
    const bool word_end = q >= line.size() || !(std::isalnum(static_cast<unsigned char>(line[q])) || line[q] == '_');
    if (word_start && word_end) {
      while (q < line.size() && line[q] == ' ') ++q;
      if (q < line.size() && line[q] == '=') {
        ++q;
        while (q < line.size() && line[q] == ' ') ++q;
        std::size_t e = q;
        while (e < line.size() && (std::isdigit(static_cast<unsigned char>(line[e])) || line[e] == '.' ||
                                   line[e] == '-' || line[e] == '+' || line[e] == 'e'))
          ++e;
        if (e > q) {
          line.replace(q, e - q, num_text(value));
          return true;
        }
      }
    }
    p += key.size();
  }
  return false;
}

// Finds the line that holds `parameter` and returns the edit. Parameters:
//   "[section] key"                          a plain key of a table
//   "[[retrieval_strategy.patches]] <id> <op>.<knob>"  a knob inside a patch's set/at_least/at_most
std::optional<Edit> make_edit(const std::vector<std::string>& lines, const std::string& parameter,
                              double value) {
  if (parameter.rfind("[[retrieval_strategy.patches]] ", 0) == 0) {
    std::istringstream in(parameter.substr(31));
    std::string id, opknob;
    in >> id >> opknob;
    const auto dot = opknob.find('.');
    if (dot == std::string::npos) return std::nullopt;
    const std::string op = opknob.substr(0, dot), knob = opknob.substr(dot + 1);
    for (std::size_t i = 0; i < lines.size(); ++i) {
      if (trim(lines[i]) != "[[retrieval_strategy.patches]]" &&
          trim(lines[i]).rfind("[[retrieval_strategy.patches]]", 0) != 0)
        continue;
      // The block runs to the next header.
      std::size_t end = i + 1;
      while (end < lines.size() && !is_header(lines[end])) ++end;
      bool ours = false;
      for (std::size_t k = i + 1; k < end; ++k) {
        const std::string t = trim(lines[k]);
        if (t.rfind("id", 0) == 0 && t.find('"' + id + '"') != std::string::npos) ours = true;
      }
      if (!ours) continue;
      for (std::size_t k = i + 1; k < end; ++k) {
        const std::string t = trim(lines[k]);
        if (t.rfind(op, 0) != 0 || t.find('{') == std::string::npos) continue;
        std::string line = lines[k];
        if (replace_number(line, knob, value, line.find('{'))) return Edit{k, lines[k], line};
      }
      return std::nullopt;
    }
    return std::nullopt;
  }
  const auto close = parameter.find("] ");
  if (parameter.empty() || parameter[0] != '[' || close == std::string::npos) return std::nullopt;
  const std::string section = parameter.substr(0, close + 1), key = parameter.substr(close + 2);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string t = trim(lines[i]);
    if (t.rfind(section, 0) != 0) continue;
    for (std::size_t k = i + 1; k < lines.size() && !is_header(lines[k]); ++k) {
      const std::string tk = trim(lines[k]);
      if (tk.rfind(key, 0) != 0) continue;
      std::string line = lines[k];
      if (replace_number(line, key, value)) return Edit{k, lines[k], line};
    }
  }
  return std::nullopt;
}

std::string hunk(const std::vector<std::string>& lines, const Edit& e) {
  const std::size_t from = e.line >= 2 ? e.line - 2 : 0;
  const std::size_t to = std::min(lines.size(), e.line + 3);
  std::string h = "@@ -" + std::to_string(from + 1) + "," + std::to_string(to - from) + " +" +
                  std::to_string(from + 1) + "," + std::to_string(to - from) + " @@\n";
  for (std::size_t i = from; i < to; ++i) {
    if (i == e.line) {
      h += "-" + e.before + "\n+" + e.after + "\n";
    } else {
      h += " " + lines[i] + "\n";
    }
  }
  return h;
}

std::size_t noise_floor(const ChainEvalConfig& s, std::size_t test_samples) {
  return std::max<std::size_t>(
      s.min_gain, static_cast<std::size_t>(std::ceil(s.noise_rate * static_cast<double>(test_samples))));
}

struct Point {
  std::size_t correct = 0, false_direct = 0, missed = 0;
  bool feasible = true;
};
Point point(const js::Json& j, const std::string& path) {
  return {count(j, path + ".correct_direct"), count(j, path + ".false_direct"),
          count(j, path + ".missed_direct"), at(j, path + ".feasible").get<bool>()};
}
std::string point_text(const Point& p) {
  return std::to_string(p.correct) + " correct / " + std::to_string(p.false_direct) + " false";
}

// Reads `file` as a report whose "report" field is `report`; `not_it` is the message otherwise.
Result<js::Json> read_report(const NamedText& file, const char* report, const char* not_it) {
  return js::read_json(file.name, 0, [&] {
    js::Json j = js::parse_strict(file.text);
    if (str(j, "report") != report) js::fail("report", not_it);
    return j;
  });
}

// Same data, same config: the calibration and the evaluation ran on one dataset with one config,
// and that config is `config_file`. Sets r's dataset fields.
void check_same_inputs(const js::Json& cal, const js::Json& ev, const NamedText& eval_file,
                       const NamedText& config_file, RecommendReport& r) {
  const std::string cal_ds = str(cal, "dataset.sha256"), ev_ds = str(ev, "dataset.sha256");
  if (cal_ds != ev_ds)
    js::fail(eval_file.name + ": dataset.sha256",
             "the evaluation ran on another dataset than the calibration (" + cal_ds.substr(0, 12) +
                 "… vs " + ev_ds.substr(0, 12) + "…)");
  const std::string cal_cfg = str(cal, "config.sha256"), ev_cfg = str(ev, "config.sha256");
  if (cal_cfg != ev_cfg)
    js::fail(eval_file.name + ": config.sha256",
             "the evaluation ran with another config than the calibration");
  if (cal_cfg != r.config_sha256)
    js::fail(config_file.name,
             "this config is not the one the calibration ran with (SHA-256 " +
                 r.config_sha256.substr(0, 12) + "… vs " + cal_cfg.substr(0, 12) + "…)");
  r.dataset_version = str(cal, "dataset.version");
  r.dataset_sha256 = cal_ds;
}

// Gates: the intent-policy and eval-chain gates into r; returns why every item is held back
// ("" when both pass).
std::string read_gates(const js::Json& pol, const js::Json& ev, RecommendReport& r) {
  const std::size_t crit = count(pol, "summary.critical.samples");
  const std::size_t crit_failed = count(pol, "summary.critical.failed");
  r.policy_gate_failed = crit_failed > 0;
  r.policy_summary = "critical failed " + std::to_string(crit_failed) + "/" + std::to_string(crit);
  if (pol.contains("accuracy") && pol["accuracy"].is_object())
    for (const auto& [dim, v] : pol["accuracy"].items())
      if (v.is_object() && v.contains("checked") && v["checked"].get<std::size_t>() > 0)
        r.policy_summary += "; " + dim + " " + std::to_string(v["passed"].get<std::size_t>()) +
                            "/" + std::to_string(v["checked"].get<std::size_t>());
  r.evaluation_gate_failed = at(ev, "regression.failed").get<bool>();
  r.evaluation_summary = "regression gate " + std::string(r.evaluation_gate_failed ? "FAILED" : "passed");
  for (const auto& c : at(ev, "regression.checks"))
    if (c.at("regressed").get<bool>())
      r.evaluation_summary += "; " + c.at("metric").get<std::string>() + " regressed";
  std::string gate_reason;
  if (r.policy_gate_failed)
    gate_reason = "gate failed: eval-policy " + r.policy_summary +
                  " — fix routing, intent and source before tuning retrieval";
  else if (r.evaluation_gate_failed)
    gate_reason = "gate failed: eval-chain " + r.evaluation_summary +
                  " — fix the regression before tuning";
  return gate_reason;
}

// Sets an item's decision: only "improved" applies the candidate.
void decide(Recommendation& rec, const std::string& code, const std::string& why) {
  rec.action = code == "improved" ? kApply : kKeep;
  rec.reason_code = code;
  rec.reason = why;
}

// 1. The FAQ direct threshold of one calibration band `b`.
Recommendation band_recommendation(const js::Json& b, const ChainEvalConfig& s,
                                   const std::string& gate_reason, double ceiling) {
  Recommendation rec;
  rec.parameter = str(b, "parameter");
  rec.current = num(b, "current");
  rec.candidate = num(b, "candidate");
  rec.symptom = *rec.candidate > *rec.current   ? "误直出 (false direct answers): raise"
                : *rec.candidate < *rec.current ? "漏直出 (missed direct answers): lower"
                                                : "FAQ direct answers";
  const std::size_t n = count(b, "samples"), pos = count(b, "positives");
  const std::size_t tn = count(b, "test.samples");
  const Point cur = point(b, "test.at_current"), cand = point(b, "test.at_candidate");
  const long gain = (static_cast<long>(cand.correct) - static_cast<long>(cur.correct)) +
                    (static_cast<long>(cur.false_direct) - static_cast<long>(cand.false_direct));
  const std::string test_text = "test " + point_text(cur) + " at " + num_text(*rec.current) +
                                " vs " + point_text(cand) + " at " + num_text(*rec.candidate);
  if (!gate_reason.empty()) {
    decide(rec, "gate_failed", gate_reason);
  } else if (n < s.min_band_samples || pos < s.min_band_positives) {
    decide(rec, "too_few_samples",
           "too few samples: " + std::to_string(n) + " dev samples, " + std::to_string(pos) +
               " good (need " + std::to_string(s.min_band_samples) + " and " +
               std::to_string(s.min_band_positives) + ")");
  } else if (*rec.candidate == *rec.current) {
    decide(rec, "no_improvement", "no improvement: the dev optimum is the current value");
  } else if (!cand.feasible) {
    decide(rec, "no_improvement",
           "no improvement: on test the candidate breaks the false-direct ceiling " +
               internal::pct_or(ceiling) + " (" + test_text + ")");
  } else if (gain <= 0) {
    decide(rec, "no_improvement", "no improvement on test (" + test_text + ")");
  } else if (static_cast<std::size_t>(gain) < noise_floor(s, tn)) {
    decide(rec, "within_noise",
           "improvement within noise: test gain " + std::to_string(gain) + " < " +
               std::to_string(noise_floor(s, tn)) + " (" + test_text + ")");
  } else {
    decide(rec, "improved",
           "test gain " + std::to_string(gain) + " ≥ " + std::to_string(noise_floor(s, tn)) +
               " (" + test_text + "); dev " + std::to_string(n) + " samples, " +
               std::to_string(pos) + " good");
  }
  return rec;
}

// 2. model_min_score, from the calibration's "model_min_score" object `m`.
Recommendation model_min_score_recommendation(const js::Json& m, const ChainEvalConfig& s,
                                              const std::string& gate_reason) {
  Recommendation rec;
  rec.parameter = "[intent_gateway] model_min_score";
  rec.symptom = "意图模型误接管规则 (the model overrides rules wrongly): raise";
  rec.current = num(m, "current");
  if (!at(m, "available").get<bool>()) {
    decide(rec, gate_reason.empty() ? "too_few_samples" : "gate_failed",
           gate_reason.empty() ? "too few samples: no candidate — " + str(m, "skipped")
                               : gate_reason);
  } else {
    rec.candidate = num(m, "candidate");
    if (*rec.candidate < *rec.current) rec.symptom = "model takeovers are right more often than the rules: lower";
    const std::size_t rows = count(m, "samples");
    const std::size_t cur = count(m, "test.at_current.correct");
    const std::size_t cand = count(m, "test.at_candidate.correct");
    const std::size_t trows = count(m, "test.at_current.rows");
    const std::string text = "test correct intents " + std::to_string(cur) + "/" +
                             std::to_string(trows) + " at " + num_text(*rec.current) + " vs " +
                             std::to_string(cand) + " at " + num_text(*rec.candidate);
    const long gain = static_cast<long>(cand) - static_cast<long>(cur);
    if (!gate_reason.empty())
      decide(rec, "gate_failed", gate_reason);
    else if (rows < s.min_band_samples)
      decide(rec, "too_few_samples", "too few samples: " + std::to_string(rows) + " dev rows");
    else if (*rec.candidate == *rec.current)
      decide(rec, "no_improvement", "no improvement: the dev optimum is the current value");
    else if (gain <= 0)
      decide(rec, "no_improvement", "no improvement on test (" + text + ")");
    else if (static_cast<std::size_t>(gain) < noise_floor(s, trows))
      decide(rec, "within_noise", "improvement within noise: test gain " +
                                      std::to_string(gain) + " < " +
                                      std::to_string(noise_floor(s, trows)) + " (" + text + ")");
    else
      decide(rec, "improved", "test gain " + std::to_string(gain) + " (" + text + ")");
  }
  return rec;
}

// Frequent conflicts: keep the conservative score and ask for samples (docs/evaluation.md).
Recommendation conflict_recommendation(const js::Json& m, const std::string& gate_reason) {
  Recommendation c;
  c.parameter = "[intent_gateway] conflict_final_score";
  c.symptom = "规则和模型频繁冲突 (rule and model often disagree)";
  const std::size_t conflicts = count(m, "dev_at_current.conflicts");
  const std::size_t rows = count(m, "dev_at_current.rows");
  decide(c, gate_reason.empty() ? "no_improvement" : "gate_failed",
         gate_reason.empty()
             ? "keep the conservative score and add training samples: " +
                   std::to_string(conflicts) + " conflicts in " + std::to_string(rows) +
                   " dev rows"
             : gate_reason);
  return c;
}

// 3. One pool what-if `w` of the evaluation (漏召回).
Recommendation pool_recommendation(const js::Json& ev, const js::Json& w, const ChainEvalConfig& s,
                                   const std::string& gate_reason) {
  Recommendation rec;
  rec.parameter = str(w, "parameter");
  rec.symptom = "漏召回 (expected evidence not retrieved): widen the pool";
  rec.current = num(w, "from");
  rec.candidate = num(w, "to");
  const std::size_t now = count(ev, "metrics.test.counts.expected_chunks_in_context");
  const std::size_t then = count(w, "test.counts.expected_chunks_in_context");
  const std::size_t chunks = count(ev, "metrics.test.counts.expected_chunks");
  const std::size_t acc_now = count(ev, "metrics.test.counts.hit_type_correct");
  const std::size_t acc_then = count(w, "test.counts.hit_type_correct");
  const std::size_t questions = count(ev, "metrics.test.questions");
  const long gain = static_cast<long>(then) - static_cast<long>(now);
  const std::string text = "test expected chunks in context " + std::to_string(now) + "/" +
                           std::to_string(chunks) + " → " + std::to_string(then) +
                           ", hit types right " + std::to_string(acc_now) + " → " +
                           std::to_string(acc_then);
  if (!gate_reason.empty())
    decide(rec, "gate_failed", gate_reason);
  else if (gain <= 0 || acc_then < acc_now)
    decide(rec, "no_improvement", "no improvement on test (" + text + ")");
  else if (static_cast<std::size_t>(gain) < noise_floor(s, questions))
    decide(rec, "within_noise", "improvement within noise: " + text);
  else
    decide(rec, "improved", text);
  return rec;
}

// Diffs: each applied item's hunk, and the whole config diff (edits in line order); moves the
// items into r.
void add_diffs(std::vector<std::pair<Recommendation, std::optional<Edit>>>& items,
               const std::vector<std::string>& lines, const std::string& config_name,
               RecommendReport& r) {
  std::vector<Edit> edits;
  for (auto& [rec, edit] : items) {
    if (rec.action == kApply && rec.candidate) {
      edit = make_edit(lines, rec.parameter, *rec.candidate);
      if (!edit) js::fail(config_name, "cannot find " + rec.parameter + " in the config");
      rec.diff = hunk(lines, *edit);
      edits.push_back(*edit);
    }
    r.items.push_back(rec);
  }
  std::sort(edits.begin(), edits.end(), [](const Edit& a, const Edit& b) { return a.line < b.line; });
  if (!edits.empty()) {
    r.config_diff = "--- " + config_name + "\n+++ " + config_name + "\n";
    for (const Edit& e : edits) r.config_diff += hunk(lines, e);
  }
}

}  // namespace

Result<RecommendReport> recommend(const NamedText& cal_file, const NamedText& eval_file,
                                  const NamedText& policy_file, const NamedText& config_file,
                                  const ChainEvalConfig& s) {
  RecommendReport r;
  r.calibration_name = cal_file.name;
  r.evaluation_name = eval_file.name;
  r.policy_name = policy_file.name;
  r.config_name = config_file.name;
  r.config_sha256 = internal::sha256_hex(config_file.text);
  r.latency_budget_us = s.latency_p95_budget_us;
  QAPLAN_ASSIGN_OR_RETURN(js::Json cal,
                          read_report(cal_file, "qaplan threshold calibration",
                                      "not a calibration report (qaplan calibrate)"));
  QAPLAN_ASSIGN_OR_RETURN(js::Json ev,
                          read_report(eval_file, "qaplan core-chain evaluation",
                                      "not a core-chain evaluation (qaplan eval-chain)"));
  QAPLAN_ASSIGN_OR_RETURN(js::Json pol,
                          read_report(policy_file, "intent-policy",
                                      "not an intent-policy report (qaplan eval-policy)"));
  const std::vector<std::string> lines = split_lines(config_file.text);

  return js::read_json("recommend", 0, [&] {
    // Same data, same config.
    check_same_inputs(cal, ev, eval_file, config_file, r);

    // Gates.
    const std::string gate_reason = read_gates(pol, ev, r);

    const double ceiling = num(cal, "faq_direct.false_direct_ceiling");
    std::vector<std::pair<Recommendation, std::optional<Edit>>> items;

    // 1. FAQ direct thresholds, one per band.
    for (const auto& b : at(cal, "faq_direct.bands"))
      items.emplace_back(band_recommendation(b, s, gate_reason, ceiling), std::nullopt);

    // 2. model_min_score.
    {
      const js::Json& m = at(cal, "model_min_score");
      items.emplace_back(model_min_score_recommendation(m, s, gate_reason), std::nullopt);
      if (at(m, "available").get<bool>())
        items.emplace_back(conflict_recommendation(m, gate_reason), std::nullopt);
    }

    // 3. The pool what-ifs (漏召回).
    for (const auto& w : at(ev, "what_if"))
      items.emplace_back(pool_recommendation(ev, w, s, gate_reason), std::nullopt);

    // Latency: reported, never a change by itself.
    if (ev.contains("timing") && ev["timing"].contains("stages") &&
        ev["timing"]["stages"].contains("chain") && ev["timing"]["stages"]["chain"]["p95_us"].is_number())
      r.chain_p95_us = ev["timing"]["stages"]["chain"]["p95_us"].get<double>();

    // Diffs.
    add_diffs(items, lines, config_file.name, r);
    return r;
  });
}

std::string recommend_report_json(const RecommendReport& r, bool pretty) {
  ordered_json j;
  j["report"] = "qaplan parameter recommendation";
  j["inputs"] = {{"calibration", r.calibration_name},
                 {"evaluation", r.evaluation_name},
                 {"policy", r.policy_name},
                 {"config", r.config_name},
                 {"config_sha256", r.config_sha256},
                 {"dataset", r.dataset_version},
                 {"dataset_sha256", r.dataset_sha256}};
  j["gates"] = {{"policy", {{"failed", r.policy_gate_failed}, {"summary", r.policy_summary}}},
                {"evaluation", {{"failed", r.evaluation_gate_failed}, {"summary", r.evaluation_summary}}}};
  ordered_json items = ordered_json::array();
  for (const Recommendation& x : r.items)
    items.push_back({{"parameter", x.parameter},
                     {"symptom", x.symptom},
                     {"current", x.current ? ordered_json(*x.current) : ordered_json(nullptr)},
                     {"candidate", x.candidate ? ordered_json(*x.candidate) : ordered_json(nullptr)},
                     {"action", x.action},
                     {"reason_code", x.reason_code},
                     {"reason", x.reason},
                     {"diff", x.diff}});
  j["recommendations"] = std::move(items);
  j["config_diff"] = r.config_diff;
  j["edits_config"] = false;
  j["timing"] = {{"chain_p95_us", r.chain_p95_us ? ordered_json(*r.chain_p95_us) : ordered_json(nullptr)},
                 {"budget_us", r.latency_budget_us}};
  return j.dump(pretty ? 2 : -1, ' ', false, ordered_json::error_handler_t::strict) + "\n";
}

std::string recommend_report_markdown(const RecommendReport& r) {
  using internal::cell;
  std::string md = "# Parameter recommendation — " + r.dataset_version + "\n\n";
  md += "Inputs: calibration `" + cell(r.calibration_name) + "`, evaluation `" +
        cell(r.evaluation_name) + "`, intent policy `" + cell(r.policy_name) + "`, config `" +
        cell(r.config_name) + "` (SHA-256 `" + r.config_sha256.substr(0, 16) +
        "…`). The config is **not** edited; the diff below is what applying every "
        "`apply_candidate_after_review` item would change.\n\n";
  md += "Gates: intent policy — " + std::string(r.policy_gate_failed ? "**FAILED**" : "passed") +
        " (" + cell(r.policy_summary) + "); core chain — " + cell(r.evaluation_summary) + ".\n\n";
  md += "| parameter | symptom | current | candidate | action | reason |\n"
        "|---|---|---|---|---|---|\n";
  for (const Recommendation& x : r.items)
    md += "| `" + cell(x.parameter) + "` | " + cell(x.symptom) + " | " +
          (x.current ? num_text(*x.current) : "—") + " | " +
          (x.candidate ? num_text(*x.candidate) : "—") + " | " +
          (x.action == kApply ? "**" + x.action + "**" : x.action) + " | " + cell(x.reason) + " |\n";
  md += "\n## Latency (timing)\n\n";
  if (r.chain_p95_us)
    md += "p95 of one question through the chain: " + internal::num_or(r.chain_p95_us, "%.1f") +
          " µs against a budget of " + num_text(r.latency_budget_us) + " µs: " +
          (*r.chain_p95_us > r.latency_budget_us
               ? "**over budget** — look at the slow samples first, then lower top_k / "
                 "final_context_top_n only if recall does not drop."
               : "within budget, no change.") + "\n\n";
  else
    md += "The evaluation carries no latency figures.\n\n";
  md += "## Config diff\n\n";
  md += r.config_diff.empty() ? "No change recommended.\n" : "```diff\n" + r.config_diff + "```\n";
  return md;
}

}  // namespace qaplan
