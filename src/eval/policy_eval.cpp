// The intent-policy gate (policy_eval.hpp).
#include "qaplan/eval/policy_eval.hpp"

#include <cmath>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>

#include "common/json_reader.hpp"
#include "common/sha256.hpp"
#include "qaplan/planning/json.hpp"

namespace qaplan {
namespace {

namespace js = internal::json;
using nlohmann::ordered_json;

constexpr const char* kDimensions[] = {"route", "intent", "source", "rewrite",
                                       "policy", "score", "plan"};

std::optional<std::string> opt_str(const js::Json& o, const std::string& path, const char* key) {
  auto it = o.find(key);
  if (it == o.end() || it->is_null()) return std::nullopt;
  if (!it->is_string()) js::fail(js::join(path, key), "must be a string or null");
  return it->get<std::string>();
}

std::optional<double> opt_unit(const js::Json& o, const std::string& path, const char* key) {
  auto it = o.find(key);
  if (it == o.end() || it->is_null()) return std::nullopt;
  if (!it->is_number() || it->get<double>() < 0 || it->get<double>() > 1)
    js::fail(js::join(path, key), "must be a number in [0, 1]");
  return it->get<double>();
}

PolicySample parse_sample(const js::Json& o, const std::string& path) {
  js::expect_keys(o, path, {"id", "severity", "question"},
                  {"history", "scenario", "source_filter", "note", "expected_route",
                   "expected_route_reason", "expected_intent", "expected_source",
                   "expected_requires_rewrite", "expected_decision_policy",
                   "expected_confidence_min", "expected_confidence_max",
                   "expected_rule_score_min", "expected_rule_score_max",
                   "expected_plan_contains"});
  PolicySample s;
  s.id = js::req_string(o, path, "id");
  const std::string severity = js::req_string(o, path, "severity");
  if (severity != "critical" && severity != "warning")
    js::fail(js::join(path, "severity"), "must be critical|warning");
  s.critical = severity == "critical";
  if (!o.at("question").is_string()) js::fail(js::join(path, "question"), "must be a string");
  s.question = o.at("question").get<std::string>();
  if (auto it = o.find("history"); it != o.end()) {
    if (!it->is_array()) js::fail(js::join(path, "history"), "must be an array of strings");
    for (const auto& h : *it) {
      if (!h.is_string()) js::fail(js::join(path, "history"), "must be an array of strings");
      s.history.push_back(h.get<std::string>());
    }
  }
  s.scenario = opt_str(o, path, "scenario").value_or("");
  s.source_filter = opt_str(o, path, "source_filter");
  s.note = opt_str(o, path, "note").value_or("");
  s.expected_route = opt_str(o, path, "expected_route");
  s.expected_route_reason = opt_str(o, path, "expected_route_reason");
  s.expected_intent = opt_str(o, path, "expected_intent");
  if (o.contains("expected_source")) {
    s.check_source = true;
    s.expected_source = opt_str(o, path, "expected_source");
  }
  if (auto it = o.find("expected_requires_rewrite"); it != o.end()) {
    if (!it->is_boolean()) js::fail(js::join(path, "expected_requires_rewrite"), "must be a boolean");
    s.expected_requires_rewrite = it->get<bool>();
  }
  s.expected_decision_policy = opt_str(o, path, "expected_decision_policy");
  s.expected_confidence_min = opt_unit(o, path, "expected_confidence_min");
  s.expected_confidence_max = opt_unit(o, path, "expected_confidence_max");
  s.expected_rule_score_min = opt_unit(o, path, "expected_rule_score_min");
  s.expected_rule_score_max = opt_unit(o, path, "expected_rule_score_max");
  if (auto it = o.find("expected_plan_contains"); it != o.end()) {
    if (!it->is_object() || it->empty())
      js::fail(js::join(path, "expected_plan_contains"), "must be a non-empty object");
    s.expected_plan_contains = it->dump();
  }
  const bool expects = s.expected_route || s.expected_route_reason || s.expected_intent ||
                       s.check_source || s.expected_requires_rewrite ||
                       s.expected_decision_policy || s.expected_confidence_min ||
                       s.expected_confidence_max || s.expected_rule_score_min ||
                       s.expected_rule_score_max || !s.expected_plan_contains.empty();
  if (!expects) js::fail(path, "states no expectation");
  return s;
}

std::string show(const ordered_json& j) { return j.is_string() ? j.get<std::string>() : j.dump(); }

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}

struct Checker {
  PolicySampleResult& r;
  void add(const char* dim, std::string field, bool ok, std::string expected, std::string actual) {
    r.checks.push_back({dim, std::move(field), ok, std::move(expected), std::move(actual)});
  }
  void equal(const char* dim, std::string field, const std::string& expected,
             const std::string& actual) {
    add(dim, std::move(field), expected == actual, expected, actual);
  }
  void range(const char* dim, std::string field, std::optional<double> lo, std::optional<double> hi,
             double actual) {
    if (!lo && !hi) return;
    const bool ok = (!lo || actual >= *lo - 1e-9) && (!hi || actual <= *hi + 1e-9);
    add(dim, std::move(field), ok,
        "[" + (lo ? number(*lo) : std::string("-")) + ", " + (hi ? number(*hi) : std::string("-")) +
            "]",
        number(actual));
  }
};

void check(const PolicySample& s, const ordered_json& out, PolicySampleResult& r) {
  Checker c{r};
  const auto& route = out["route"];
  if (s.expected_route) c.equal("route", "route", *s.expected_route, route["route"]);
  if (s.expected_route_reason)
    c.equal("route", "route_reason", *s.expected_route_reason, route["reason"]);
  const bool retrieval = route["route"] == "retrieval";
  const ordered_json& intent = out["intent"];
  if (s.expected_intent)
    c.equal("intent", "intent", *s.expected_intent,
            intent.is_null() ? std::string("<direct answer>") : show(intent["intent"]));
  if (s.check_source)
    c.equal("source", "effective_source", s.expected_source.value_or("null"),
            show(out["effective_source"].is_null() ? ordered_json("null") : out["effective_source"]));
  if (s.expected_requires_rewrite)
    c.equal("rewrite", "requires_rewrite", *s.expected_requires_rewrite ? "true" : "false",
            retrieval && intent["requires_rewrite"].get<bool>() ? "true" : "false");
  if (s.expected_decision_policy)
    c.equal("policy", "decision_policy", *s.expected_decision_policy,
            intent.is_null() ? std::string("<direct answer>") : show(intent["decision_policy"]));
  if (s.expected_confidence_min || s.expected_confidence_max) {
    if (!retrieval) c.add("score", "confidence", false, "a retrieval decision", "<direct answer>");
    else
      c.range("score", "confidence", s.expected_confidence_min, s.expected_confidence_max,
              intent["confidence"].get<double>());
  }
  if (s.expected_rule_score_min || s.expected_rule_score_max) {
    if (!retrieval) c.add("score", "rule_score", false, "a retrieval decision", "<direct answer>");
    else
      c.range("score", "rule_score", s.expected_rule_score_min, s.expected_rule_score_max,
              intent["rule_score"].get<double>());
  }
  if (!s.expected_plan_contains.empty()) {
    const auto want = ordered_json::parse(s.expected_plan_contains);
    const ordered_json& plan = out["retrieval_plan"];
    for (const auto& [k, v] : want.items()) {
      if (plan.is_null()) {
        c.add("plan", k, false, show(v), "<no plan>");
        continue;
      }
      if (!plan.contains(k)) {
        c.add("plan", k, false, show(v), "<no such field>");
        continue;
      }
      const auto& got = plan[k];
      const bool ok = v.is_number() && got.is_number()
                          ? std::fabs(v.get<double>() - got.get<double>()) < 1e-9
                          : v == got;
      c.add("plan", k, ok, show(v), show(got));
    }
  }
}

}  // namespace

Result<PolicyDataset> parse_policy_dataset(std::string_view json_text, std::string_view name) {
  return js::read_json(name, 0, [&] {
    const js::Json root = js::parse_strict(json_text);
    js::expect_keys(root, "", {"version", "samples"}, {"description"});
    PolicyDataset d;
    d.version = js::req_string(root, "", "version");
    if (auto it = root.find("description"); it != root.end() && it->is_string())
      d.description = it->get<std::string>();
    const js::Json& samples = js::req_array(root, "", "samples", true);
    std::map<std::string, std::size_t> ids;
    for (std::size_t i = 0; i < samples.size(); ++i) {
      const std::string path = js::index_path("samples", i);
      PolicySample s = parse_sample(samples[i], path);
      if (auto [it, fresh] = ids.emplace(s.id, i); !fresh)
        js::fail(js::join(path, "id"), "duplicate id " + s.id);
      d.samples.push_back(std::move(s));
    }
    d.sha256 = internal::sha256_hex(json_text);
    return d;
  });
}

PolicyReport evaluate_policy(const Planner& planner, const PolicyDataset& dataset,
                             std::string_view dataset_name, std::string_view model) {
  PolicyReport rep;
  rep.dataset_name = std::string(dataset_name);
  rep.dataset_version = dataset.version;
  rep.dataset_sha256 = dataset.sha256;
  rep.config_origin = planner.config().origin;
  rep.model = std::string(model);
  std::map<std::string, PolicyDimension> dims;
  for (const char* d : kDimensions) dims[d] = PolicyDimension{d, 0, 0};
  for (const PolicySample& s : dataset.samples) {
    PolicySampleResult r;
    r.id = s.id;
    r.critical = s.critical;
    r.question = s.question;
    r.history = s.history;
    PrepareRequest req{s.question, s.history, s.scenario, s.source_filter};
    auto prep = planner.prepare(req);
    if (!prep.ok()) {
      r.error = prep.error().to_string();
    } else {
      check(s, ordered_json::parse(to_json(*prep)), r);
    }
    r.passed = r.error.empty();
    std::map<std::string, bool> dim_ok;
    for (const PolicyCheck& c : r.checks) {
      r.passed = r.passed && c.passed;
      auto [it, fresh] = dim_ok.emplace(c.dimension, c.passed);
      if (!fresh) it->second = it->second && c.passed;
    }
    for (const auto& [d, ok] : dim_ok) {
      ++dims[d].checked;
      dims[d].passed += ok ? 1 : 0;
    }
    (s.critical ? rep.critical_samples : rep.warning_samples)++;
    if (!r.passed) (s.critical ? rep.critical_failed : rep.warning_failed)++;
    rep.samples.push_back(std::move(r));
  }
  for (const char* d : kDimensions) rep.dimensions.push_back(dims[d]);
  return rep;
}

}  // namespace qaplan
