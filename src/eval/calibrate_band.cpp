// `qaplan calibrate` (calibrate_band.hpp): FAQ direct thresholds per band and model_min_score.
#include "qaplan/eval/calibrate_band.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "common/json_reader.hpp"
#include "eval/report_util.hpp"
#include "eval/router_data.hpp"
#include "eval/svg.hpp"
#include "qaplan/io.hpp"
#include "qaplan/version.hpp"

namespace qaplan {
namespace {

using nlohmann::ordered_json;
using internal::cell;
using internal::count_text;
using internal::num_text;
using internal::rate_text;

std::string band_key(const Config& c, const std::string& band, std::string& op, double& value) {
  const auto knob = *find_knob("faq_direct_threshold");
  if (band == "defaults") {
    op.clear();
    value = c.retrieval_strategy.defaults.faq_direct_threshold;
    return "[retrieval_strategy.defaults] faq_direct_threshold";
  }
  for (const PlanPatchConfig& p : c.retrieval_strategy.patches) {
    if (p.id != band) continue;
    for (const PatchChange& ch : p.changes)
      if (ch.knob == knob) {
        op = std::string(to_string(ch.op));
        value = ch.value;
        return "[[retrieval_strategy.patches]] " + p.id + " " + op + ".faq_direct_threshold";
      }
  }
  return "";
}

struct Sample {
  DirectSample s;
  std::string decision_band;
};

// Every question of `split` through the chain, grouped by band.
void collect(const Planner& planner, const KbIndex& kb, const ChainSet& set, Split split,
             std::map<std::string, std::vector<Sample>>& bands, ExactOnlySummary& exact,
             std::size_t& questions, std::size_t& retrieval, std::size_t& samples) {
  const bool dev = split == Split::kDev;
  for (std::size_t i = 0; i < set.questions.size(); ++i) {
    const ChainQuestion& q = set.questions[i];
    if (q.split != split) continue;
    ++questions;
    const ChainResult r = run_chain_question(planner, kb, set, i);
    if (r.route != "retrieval") continue;
    ++retrieval;
    const auto& d = r.execution.faq_direct;
    if (!d || !d->has_candidate) continue;
    ++samples;
    const bool good = q.expected_hit_type == HitType::kFaqDirect && q.expected_faq_id &&
                      *q.expected_faq_id == d->faq_id;
    if (r.band.id == "exact_only") {
      (dev ? exact.dev_samples : exact.test_samples) += 1;
      (dev ? exact.dev_positives : exact.test_positives) += good;
      (dev ? exact.dev_exact : exact.test_exact) += d->exact;
      (dev ? exact.dev_exact_correct : exact.test_exact_correct) += d->exact && good;
      continue;
    }
    bands[r.band.id].push_back({{d->score, good}, std::string(decision_band(r.decision_score))});
  }
}

std::vector<DirectSample> plain(const std::vector<Sample>& v) {
  std::vector<DirectSample> out;
  out.reserve(v.size());
  for (const Sample& s : v) out.push_back(s.s);
  return out;
}

struct IntentRow {
  std::string text, previous;
  bool has_previous = false;
  std::string gold;
  bool dev = true;
};

Result<std::vector<IntentRow>> router_rows(const std::filesystem::path& dir, std::string& fingerprint) {
  const std::filesystem::path reg = dir / "fingerprints.json";
  QAPLAN_ASSIGN_OR_RETURN(std::string reg_text, read_file(reg, "router data registry"));
  namespace js = internal::json;
  QAPLAN_ASSIGN_OR_RETURN(auto names, js::read_json(reg.string(), 0, [&] {
                            const js::Json root = js::parse_strict(reg_text);
                            if (!root.is_object() || !root.contains("files") ||
                                !root.at("files").is_object())
                              js::fail("files", "must be an object of file names");
                            std::vector<std::string> out;
                            for (const auto& [n, v] : root.at("files").items()) out.push_back(n);
                            return out;
                          }));
  std::vector<NamedText> files;
  for (const std::string& n : names) {
    QAPLAN_ASSIGN_OR_RETURN(std::string t, read_file(dir / n, "router data file"));
    files.push_back({n, std::move(t)});
  }
  QAPLAN_ASSIGN_OR_RETURN(internal::RouterData data,
                          internal::load_router_data(files, {"fingerprints.json", reg_text}));
  fingerprint = data.fingerprint;
  const auto& labels = internal::router_label_sets()[static_cast<std::size_t>(internal::Head::kIntent)];
  std::vector<IntentRow> rows;
  for (const internal::RouterRow& r : data.rows) {
    const int l = r.label[static_cast<std::size_t>(internal::Head::kIntent)];
    if (l < 0 || r.split == internal::RouterSplit::kTrain) continue;
    rows.push_back({r.text, r.previous, r.has_previous, labels[static_cast<std::size_t>(l)],
                    r.split == internal::RouterSplit::kDev});
  }
  return rows;
}

Result<ModelScorePoint> score_rows(const Config& base, double t, const std::vector<IntentRow>& rows,
                                   bool dev) {
  Config c = base;
  c.intent_gateway.model_min_score = t;
  QAPLAN_ASSIGN_OR_RETURN(Planner p, Planner::create(std::move(c)));
  ModelScorePoint pt;
  pt.threshold = t;
  for (const IntentRow& r : rows) {
    if (r.dev != dev) continue;
    ++pt.rows;
    PrepareRequest req{r.text, r.has_previous ? std::vector<std::string>{r.previous}
                                              : std::vector<std::string>{},
                       "", std::nullopt};
    auto prep = p.prepare(req);
    if (!prep.ok() || !prep->intent) continue;
    ++pt.retrieval;
    const bool ok = to_string(prep->intent->intent) == r.gold;
    pt.correct += ok;
    switch (prep->intent->decision_policy) {
      case DecisionPolicy::kModelOverride:
        ++pt.overrides;
        pt.correct_overrides += ok;
        break;
      case DecisionPolicy::kConflict: ++pt.conflicts; break;
      case DecisionPolicy::kRuleModelAgree: ++pt.agreements; break;
      default: break;
    }
  }
  return pt;
}

Status calibrate_model(const Config& config, const std::filesystem::path& dir,
                       ModelScoreCalibration& m) {
  m.current = config.intent_gateway.model_min_score;
  std::vector<IntentRow> rows;
  QAPLAN_ASSIGN_OR_RETURN(rows, router_rows(dir, m.data_fingerprint));
  std::vector<double> grid;
  for (int i = 50; i <= 99; ++i) grid.push_back(i / 100.0);
  grid.push_back(m.current);
  std::sort(grid.begin(), grid.end());
  grid.erase(std::unique(grid.begin(), grid.end()), grid.end());
  for (std::size_t i = 0; i < grid.size(); ++i) {
    QAPLAN_ASSIGN_OR_RETURN(ModelScorePoint p, score_rows(config, grid[i], rows, true));
    if (grid[i] == m.current) m.current_index = i;
    m.curve.push_back(p);
  }
  std::size_t best = m.current_index;
  for (std::size_t i = 0; i < m.curve.size(); ++i) {
    const ModelScorePoint& p = m.curve[i];
    const ModelScorePoint& b = m.curve[best];
    const double dp = std::fabs(p.threshold - m.current), db = std::fabs(b.threshold - m.current);
    if (p.correct != b.correct ? p.correct > b.correct
                               : (dp != db ? dp < db : p.threshold > b.threshold))
      best = i;
  }
  m.chosen_index = best;
  m.threshold = m.curve[best].threshold;
  // Frozen: now the test rows, at the current value and at the candidate.
  QAPLAN_ASSIGN_OR_RETURN(m.test_current, score_rows(config, m.current, rows, false));
  QAPLAN_ASSIGN_OR_RETURN(m.test_candidate, score_rows(config, m.threshold, rows, false));
  m.available = true;
  return {};
}

}  // namespace

std::optional<double> ModelScorePoint::accuracy() const {
  if (rows == 0) return std::nullopt;
  return static_cast<double>(correct) / static_cast<double>(rows);
}

Result<CalibrationReport> run_calibration(const Config& config, std::string_view config_sha256,
                                          const KbIndex& kb, const ChainSet& set, Split split,
                                          const ChainEvalConfig& ec,
                                          const std::optional<std::filesystem::path>& router_dir) {
  if (split != Split::kDev)
    return make_error(ErrorCode::kInvalidInput,
                      "calibration uses the dev split only (test is scored after the candidates "
                      "are frozen)",
                      "--split");
  QAPLAN_TRY(check_chain_against_kb(set, kb));
  QAPLAN_ASSIGN_OR_RETURN(Planner planner, Planner::create(config));
  CalibrationReport r;
  r.dataset_name = set.name;
  r.dataset_version = set.version;
  r.dataset_sha256 = set.sha256;
  r.kb_version = kb.kb().version;
  r.kb_faq_sha256 = kb.kb().faq_sha256;
  r.kb_docs_sha256 = kb.kb().docs_sha256;
  r.config_origin = config.origin;
  r.config_sha256 = std::string(config_sha256);
  r.model = planner.model_description();
  r.eval_config_name = ec.name;
  r.eval_config_sha256 = ec.sha256;
  r.ceiling = ec.false_direct_ceiling;
  r.grid_step = ec.grid_step;

  // Phase 1: dev only; every candidate is frozen before a test question runs.
  std::map<std::string, std::vector<Sample>> dev_bands, test_bands;
  collect(planner, kb, set, Split::kDev, dev_bands, r.exact_only, r.split_questions,
          r.dev_retrieval, r.dev_samples);
  if (r.split_questions == 0)
    return make_error(ErrorCode::kInvalidInput, "the dev split has no question", set.name);
  for (const auto& [id, samples] : dev_bands) {
    BandCandidate b;
    b.band.id = id;
    double value = 0;
    b.config_key = band_key(config, id, b.band.op, value);
    if (b.config_key.empty()) continue;  // a band the config no longer has
    b.band.value = value;
    std::set<std::string> dbands;
    for (const Sample& s : samples) dbands.insert(s.decision_band);
    for (const std::string& d : dbands) b.decision_bands += (b.decision_bands.empty() ? "" : "+") + d;
    const std::vector<DirectSample> v = plain(samples);
    QAPLAN_ASSIGN_OR_RETURN(b.dev, calibrate_direct_threshold(v, value, ec.false_direct_ceiling,
                                                              ec.grid_step, ec.min_threshold));
    for (const PlanPatchConfig& p : config.retrieval_strategy.patches)
      if (p.id == id) b.band.tag = p.tag;
    r.bands.push_back(std::move(b));
  }
  if (router_dir && config.model.enabled) {
    QAPLAN_TRY(calibrate_model(config, *router_dir, r.model_min_score));
    r.model_min_score.model = r.model;
  } else {
    r.model_min_score.current = config.intent_gateway.model_min_score;
    r.model_min_score.skipped =
        !config.model.enabled
            ? "[model] enabled = false in " + config.origin +
                  ": the gateway never uses a model candidate, so model_min_score has no effect "
                  "to measure (pass --config with a model-enabled rules file)"
            : "no router data directory";
  }

  // Phase 2: test, scored at the current value and at the frozen candidate.
  std::size_t tq = 0, tr = 0, ts = 0;
  collect(planner, kb, set, Split::kTest, test_bands, r.exact_only, tq, tr, ts);
  r.test_questions = tq;
  for (BandCandidate& b : r.bands) {
    const std::vector<DirectSample> v = plain(test_bands[b.band.id]);
    b.test_samples = v.size();
    for (const DirectSample& s : v) b.test_positives += s.good;
    b.test_current = evaluate_direct_threshold(v, b.dev.current, r.ceiling);
    b.test_candidate = evaluate_direct_threshold(v, b.dev.threshold, r.ceiling);
  }
  return r;
}

// ---------------------------------------------------------------------------------------------
// Reports
// ---------------------------------------------------------------------------------------------

namespace {

ordered_json point_json(const DirectCurvePoint& p) {
  auto rate = p.false_direct_rate();
  return {{"threshold", p.threshold},
          {"correct_direct", p.correct},
          {"false_direct", p.false_direct},
          {"missed_direct", p.missed},
          {"false_direct_rate", rate ? ordered_json(*rate) : ordered_json(nullptr)},
          {"feasible", p.feasible}};
}

ordered_json model_point_json(const ModelScorePoint& p) {
  auto acc = p.accuracy();
  return {{"threshold", p.threshold},
          {"rows", p.rows},
          {"retrieval", p.retrieval},
          {"correct", p.correct},
          {"accuracy", acc ? ordered_json(*acc) : ordered_json(nullptr)},
          {"model_overrides", p.overrides},
          {"correct_overrides", p.correct_overrides},
          {"conflicts", p.conflicts},
          {"agreements", p.agreements}};
}

std::string file_safe(std::string s) {
  for (char& c : s)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) c = '-';
  return s;
}

std::string point_text(const DirectCurvePoint& p) {
  return std::to_string(p.correct) + " correct, " + std::to_string(p.false_direct) + " false (" +
         internal::pct_or(p.false_direct_rate()) + "), " + std::to_string(p.missed) + " missed";
}

}  // namespace

std::string calibration_report_json(const CalibrationReport& r, bool pretty) {
  ordered_json j;
  j["schema_version"] = 1;
  j["report"] = "qaplan threshold calibration";
  j["qaplan_version"] = QAPLAN_VERSION_STRING;
  j["dataset"] = {{"name", r.dataset_name}, {"version", r.dataset_version}, {"sha256", r.dataset_sha256}};
  j["knowledge_base"] = {{"version", r.kb_version}, {"faq_sha256", r.kb_faq_sha256},
                         {"docs_sha256", r.kb_docs_sha256}};
  j["config"] = {{"origin", r.config_origin}, {"sha256", r.config_sha256}, {"model", r.model}};
  j["eval_config"] = {{"name", r.eval_config_name}, {"sha256", r.eval_config_sha256}};
  j["split"] = r.split;
  j["scored_after_freezing"] = "test";
  j["samples"] = {{"dev_questions", r.split_questions},
                  {"dev_retrieval_questions", r.dev_retrieval},
                  {"dev_questions_with_faq_candidate", r.dev_samples},
                  {"test_questions", r.test_questions}};
  j["faq_direct"] = {
      {"score", "1 for an exact match of a question or paraphrase after normalization, else the "
                "local-tfidf cosine of the query and the candidate FAQ's best question/paraphrase"},
      {"objective", "maximise correct direct answers subject to false / (correct + false) <= "
                    "ceiling; ties: nearest the current value, then higher"},
      {"false_direct_ceiling", r.ceiling},
      {"grid_step", r.grid_step}};
  ordered_json bands = ordered_json::array();
  for (const BandCandidate& b : r.bands) {
    ordered_json curve = ordered_json::array();
    for (const DirectCurvePoint& p : b.dev.curve) curve.push_back(point_json(p));
    bands.push_back({{"parameter", b.config_key},
                     {"band", b.band.id},
                     {"tag", b.band.tag},
                     {"op", b.band.op},
                     {"decision_bands", b.decision_bands},
                     {"current", b.dev.current},
                     {"candidate", b.dev.threshold},
                     {"dataset_sha256", r.dataset_sha256},
                     {"split", "dev"},
                     {"samples", b.dev.samples},
                     {"positives", b.dev.positives},
                     {"dev_at_current", point_json(b.dev.curve[b.dev.current_index])},
                     {"dev_at_candidate", point_json(b.dev.curve[b.dev.chosen_index])},
                     {"test",
                      {{"samples", b.test_samples},
                       {"positives", b.test_positives},
                       {"at_current", point_json(b.test_current)},
                       {"at_candidate", point_json(b.test_candidate)}}},
                     {"curve", std::move(curve)}});
  }
  j["faq_direct"]["bands"] = std::move(bands);
  j["faq_direct"]["exact_only"] = {
      {"dev", {{"samples", r.exact_only.dev_samples}, {"positives", r.exact_only.dev_positives},
               {"exact_matches", r.exact_only.dev_exact},
               {"correct_exact_matches", r.exact_only.dev_exact_correct}}},
      {"test", {{"samples", r.exact_only.test_samples}, {"positives", r.exact_only.test_positives},
                {"exact_matches", r.exact_only.test_exact},
                {"correct_exact_matches", r.exact_only.test_exact_correct}}}};
  const ModelScoreCalibration& m = r.model_min_score;
  ordered_json mj;
  mj["parameter"] = "[intent_gateway] model_min_score";
  mj["available"] = m.available;
  mj["current"] = m.current;
  if (!m.available) {
    mj["skipped"] = m.skipped;
  } else {
    ordered_json curve = ordered_json::array();
    for (const ModelScorePoint& p : m.curve) curve.push_back(model_point_json(p));
    mj["candidate"] = m.threshold;
    mj["model"] = m.model;
    mj["data_fingerprint"] = m.data_fingerprint;
    mj["split"] = "dev";
    mj["samples"] = m.curve.empty() ? 0 : m.curve.front().rows;
    mj["objective"] = "maximise dev rows routed to retrieval with the labelled intent; ties: "
                      "nearest the current value, then higher";
    mj["dev_at_current"] = model_point_json(m.curve[m.current_index]);
    mj["dev_at_candidate"] = model_point_json(m.curve[m.chosen_index]);
    mj["test"] = {{"at_current", model_point_json(m.test_current)},
                  {"at_candidate", model_point_json(m.test_candidate)}};
    mj["curve"] = std::move(curve);
  }
  j["model_min_score"] = std::move(mj);
  return j.dump(pretty ? 2 : -1, ' ', false, ordered_json::error_handler_t::strict) + "\n";
}

std::string calibration_report_markdown(const CalibrationReport& r) {
  std::string md = "# Threshold calibration — " + r.dataset_version + " on " + r.kb_version + "\n\n";
  md += "Candidates are chosen on the **dev** split only and frozen; the **test** split is run "
        "afterwards and scored at the current value and at the candidate. Nothing here edits the "
        "config: `qaplan recommend` turns candidates into apply/keep decisions.\n\n";
  md += "| | |\n|---|---|\n";
  md += "| dataset | `" + cell(r.dataset_name) + "` (" + r.dataset_version + ", SHA-256 `" +
        r.dataset_sha256.substr(0, 16) + "…`): " + std::to_string(r.split_questions) + " dev, " +
        std::to_string(r.test_questions) + " test questions |\n";
  md += "| dev samples | " + std::to_string(r.dev_samples) + " questions reached the FAQ leg with a "
        "candidate (" + std::to_string(r.dev_retrieval) + " went to retrieval) |\n";
  md += "| config | `" + cell(r.config_origin) + "` (SHA-256 `" + r.config_sha256.substr(0, 16) +
        "…`), model " + cell(r.model) + " |\n";
  md += "| vectors | `local-tfidf` (built-in, offline): the direct score is a lexical cosine, not a "
        "semantic similarity |\n";
  md += "| false-direct ceiling | " + internal::pct_or(r.ceiling) + " of direct answers (from `" +
        cell(r.eval_config_name) + "`) |\n\n";

  md += "## FAQ direct thresholds per band\n\n"
        "A sample is a question whose FAQ leg produced a candidate; it is *good* when answering "
        "that FAQ directly is right (a faq_direct question and the expected FAQ). Under threshold "
        "t: **correct** = good samples with score ≥ t; **false** (误直出) = other samples with "
        "score ≥ t; **missed** (漏直出) = good samples below t. The candidate maximises correct "
        "answers with false / (correct + false) ≤ the ceiling; ties keep the value nearest the "
        "current one.\n\n";
  md += "| parameter | decision bands | dev samples (good) | current → candidate | dev at current | "
        "dev at candidate | test samples (good) | test at current | test at candidate |\n"
        "|---|---|---|---|---|---|---|---|---|\n";
  for (const BandCandidate& b : r.bands)
    md += "| `" + cell(b.config_key) + "` | " + b.decision_bands + " | " +
          std::to_string(b.dev.samples) + " (" + std::to_string(b.dev.positives) + ") | " +
          num_text(b.dev.current) + " → **" + num_text(b.dev.threshold) + "** | " +
          point_text(b.dev.curve[b.dev.current_index]) + " | " +
          point_text(b.dev.curve[b.dev.chosen_index]) + " | " + std::to_string(b.test_samples) +
          " (" + std::to_string(b.test_positives) + ") | " + point_text(b.test_current) + " | " +
          point_text(b.test_candidate) + " |\n";
  md += "\n";
  for (const BandCandidate& b : r.bands)
    md += "![" + b.band.id + "](threshold-" + file_safe(b.band.id) + ".svg)\n";
  md += "\n";
  const ExactOnlySummary& e = r.exact_only;
  md += "**Exact-only plans** (`faq_direct_exact_only`: low decision score or a table question) "
        "answer only exact matches, so no threshold applies: dev " +
        std::to_string(e.dev_samples) + " samples (" + std::to_string(e.dev_positives) +
        " good), " + count_text(e.dev_exact_correct, e.dev_exact) +
        " exact matches correct; test " + std::to_string(e.test_samples) + " samples (" +
        std::to_string(e.test_positives) + " good), " +
        count_text(e.test_exact_correct, e.test_exact) + " exact matches correct.\n\n";

  md += "## model_min_score ([intent_gateway])\n\n";
  const ModelScoreCalibration& m = r.model_min_score;
  if (!m.available) {
    md += "No candidate: " + m.skipped + ". Current value " + num_text(m.current) + ".\n\n";
  } else {
    auto acc = [](const ModelScorePoint& p) {
      return rate_text(p.accuracy(), p.correct, p.rows) + ", " + std::to_string(p.overrides) +
             " model overrides (" + std::to_string(p.correct_overrides) + " right), " +
             std::to_string(p.conflicts) + " conflicts";
    };
    md += "Rows of the router data (`" + m.data_fingerprint.substr(0, 16) +
          "…`) that carry an intent label, prepared with each candidate value; correct = routed "
          "to retrieval with the labelled intent.\n\n"
          "| | value | intent accuracy, overrides, conflicts |\n|---|---|---|\n";
    md += "| dev at current | " + num_text(m.current) + " | " + acc(m.curve[m.current_index]) + " |\n";
    md += "| dev at candidate | **" + num_text(m.threshold) + "** | " + acc(m.curve[m.chosen_index]) + " |\n";
    md += "| test at current | " + num_text(m.current) + " | " + acc(m.test_current) + " |\n";
    md += "| test at candidate | " + num_text(m.threshold) + " | " + acc(m.test_candidate) + " |\n\n";
    md += "![model_min_score](model-min-score.svg)\n\n";
  }
  md += "Full curves (every threshold with its counts) are in report.json.\n";
  return md;
}

std::vector<std::pair<std::string, std::string>> calibration_report_charts(const CalibrationReport& r) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const BandCandidate& b : r.bands) {
    LineChart c;
    c.title = "FAQ direct threshold — " + b.band.id + " (dev, " + std::to_string(b.dev.samples) +
              " samples, " + std::to_string(b.dev.positives) + " good)";
    c.x_label = "faq_direct_threshold (answer directly when score >= threshold)";
    c.y_label = "dev questions";
    ChartSeries good{"correct direct", {}, true, false, ""};
    ChartSeries bad{"false direct", {}, true, false, ""};
    ChartSeries missed{"missed direct", {}, true, true, ""};
    for (const DirectCurvePoint& p : b.dev.curve) {
      good.points.emplace_back(p.threshold, static_cast<double>(p.correct));
      bad.points.emplace_back(p.threshold, static_cast<double>(p.false_direct));
      missed.points.emplace_back(p.threshold, static_cast<double>(p.missed));
    }
    c.series = {good, bad, missed};
    c.markers.push_back({b.dev.current, "current " + num_text(b.dev.current), "#777777", true});
    c.markers.push_back({b.dev.threshold, "candidate " + num_text(b.dev.threshold), "#000000", false});
    out.emplace_back("threshold-" + file_safe(b.band.id) + ".svg", render_line_chart(c));
  }
  const ModelScoreCalibration& m = r.model_min_score;
  if (m.available) {
    LineChart c;
    c.title = "model_min_score — intent accuracy on dev (" +
              std::to_string(m.curve.empty() ? 0 : m.curve.front().rows) + " rows)";
    c.x_label = "[intent_gateway] model_min_score";
    c.y_label = "dev rows";
    ChartSeries ok{"correct intent", {}, true, false, ""};
    ChartSeries ov{"model overrides", {}, true, false, ""};
    ChartSeries cf{"conflicts", {}, true, true, ""};
    for (const ModelScorePoint& p : m.curve) {
      ok.points.emplace_back(p.threshold, static_cast<double>(p.correct));
      ov.points.emplace_back(p.threshold, static_cast<double>(p.overrides));
      cf.points.emplace_back(p.threshold, static_cast<double>(p.conflicts));
    }
    c.series = {ok, ov, cf};
    c.markers.push_back({m.current, "current " + num_text(m.current), "#777777", true});
    c.markers.push_back({m.threshold, "candidate " + num_text(m.threshold), "#000000", false});
    out.emplace_back("model-min-score.svg", render_line_chart(c));
  }
  return out;
}

}  // namespace qaplan
