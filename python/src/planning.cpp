// qaplan.Planner and what it returns. The objects wrap the library's own values (no copy into
// Python containers until asked); to_dict()/to_json() go through the library's JSON serializer
// (qaplan/planning/json.hpp), so they are the CLI's output by construction.
#include <pybind11/stl.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "common.hpp"
#include "qaplan/retrieval/ask.hpp"
#include "qaplan/ranking/config.hpp"
#include "saved_index.hpp"
#include "qaplan/planning/config.hpp"
#include "qaplan/planning/json.hpp"
#include "qaplan/planning/planner.hpp"

namespace qaplan::py {
namespace {

// json.loads, looked up once (leaked on purpose: it must outlive module teardown).
py::object json_loads(const std::string& text) {
  static py::object* loads = new py::object(py::module_::import("json").attr("loads"));
  return (*loads)(py::str(text));
}

// Whether the interpreter is shutting down: a thread that is not Python's own must not take the
// GIL then (CPython ends such a thread on the spot, which ends the program from a destructor).
bool finalizing() {
#if PY_VERSION_HEX >= 0x030D0000
  return Py_IsFinalizing() != 0;
#else
  return _Py_IsFinalizing() != 0;
#endif
}

// Drops a Python reference when no Python thread may hold the GIL any more (interpreter exit).
struct GilObject {
  py::object obj;
  explicit GilObject(py::object o) : obj(std::move(o)) {}
  GilObject(const GilObject&) = delete;
  GilObject& operator=(const GilObject&) = delete;
  ~GilObject() {
    if (Py_IsInitialized() && !finalizing()) {
      py::gil_scoped_acquire gil;
      obj = py::object();
    } else {
      obj.release();  // the interpreter is gone or going: leak rather than touch it
    }
  }
};

std::string callable_name(const py::object& fn, const std::string& given) {
  if (!given.empty()) return given;
  for (const char* attr : {"name", "__name__"})
    if (py::hasattr(fn, attr)) {
      py::object v = fn.attr(attr);
      if (py::isinstance<py::str>(v)) return v.cast<std::string>();
    }
  return py::str(py::type::handle_of(fn).attr("__name__")).cast<std::string>();
}

// What the Python intent model is called with (copies: the model may keep it).
struct PyIntentModelInput {
  std::string question;
  std::string normalized;
  std::vector<std::string> history;
  std::int64_t budget_us = 0;
};

// A Python callable as the gateway's IntentModel. Python errors become C++ exceptions, which the
// gateway records as model_failed exactly like a C++ model's; the GIL is taken only for the call.
class PyIntentModel final : public IntentModel {
 public:
  PyIntentModel(py::object fn, std::string name)
      : fn_(std::make_unique<GilObject>(std::move(fn))), name_(std::move(name)) {}
  std::string_view name() const override { return name_; }

  Result<IntentCandidate> classify(const IntentModelInput& in) const override {
    py::gil_scoped_acquire gil;
    try {
      PyIntentModelInput arg{std::string(in.question), std::string(in.normalized), in.history,
                             static_cast<std::int64_t>(in.budget.count())};
      py::object r = fn_->obj(std::move(arg));
      return candidate_from(r);
    } catch (py::error_already_set& e) {
      // Ctrl-C or exit() inside the model is the program's, not the model's failure.
      if (stash_fatal(e)) return make_error(ErrorCode::kInternal, "interrupted", "intent_model");
      throw std::runtime_error(e.what());  // "ValueError: …"; the gateway says "exception: …"
    }
  }

 private:
  Result<IntentCandidate> candidate_from(const py::object& r) const {
    auto bad = [](std::string m) { return make_error(ErrorCode::kInvalidInput, std::move(m), "intent_model"); };
    if (py::isinstance<IntentCandidate>(r)) return r.cast<IntentCandidate>();
    if (!py::isinstance<py::tuple>(r) && !py::isinstance<py::list>(r))
      return bad(std::string("must return (intent, score) or qaplan.IntentCandidate, not ") +
                 Py_TYPE(r.ptr())->tp_name);
    py::sequence seq = py::reinterpret_borrow<py::sequence>(r);
    if (seq.size() != 2 && seq.size() != 3) return bad("must return (intent, score[, rule_id])");
    if (!py::isinstance<py::str>(seq[0])) return bad("intent must be a str");
    QAPLAN_ASSIGN_OR_RETURN(Intent intent, parse_intent(seq[0].cast<std::string>()));
    PyObject* f = PyNumber_Float(py::object(seq[1]).ptr());
    if (f == nullptr) {
      PyErr_Clear();
      return bad("score must be a number");
    }
    IntentCandidate c;
    c.intent = intent;
    c.score = PyFloat_AsDouble(f);
    Py_DECREF(f);
    if (seq.size() == 3) {
      if (!py::isinstance<py::str>(seq[2])) return bad("rule_id must be a str");
      c.rule_id = seq[2].cast<std::string>();
    }
    return c;
  }

  std::unique_ptr<GilObject> fn_;
  std::string name_;
};

struct PyRewriteRequest {
  std::string kind, question, history_summary, prompt;
  std::int64_t budget_ms = 0;
};

// A Python callable as a QueryRewriter: returns the model's raw text (a str), or a list of str
// that is handed on as a JSON array. Everything else — and every exception — is a failed call
// that the analysis records while the built-in rewrite stands.
class PyQueryRewriter final : public QueryRewriter {
 public:
  PyQueryRewriter(py::object fn, std::string name)
      : fn_(std::make_unique<GilObject>(std::move(fn))), name_(std::move(name)) {}
  std::string_view name() const override { return name_; }

  Result<std::string> generate(const RewriteRequest& in) const override {
    py::gil_scoped_acquire gil;
    try {
      PyRewriteRequest arg{std::string(in.kind), std::string(in.question),
                           std::string(in.history_summary), std::string(in.prompt),
                           static_cast<std::int64_t>(in.budget.count())};
      py::object r = fn_->obj(std::move(arg));
      if (py::isinstance<py::str>(r)) return utf8(r, "rewriter");
      if (py::isinstance<py::list>(r) || py::isinstance<py::tuple>(r)) {
        static py::object* dumps = new py::object(py::module_::import("json").attr("dumps"));
        return (*dumps)(py::list(r), py::arg("ensure_ascii") = false).cast<std::string>();
      }
      return make_error(ErrorCode::kInvalidInput,
                        std::string("must return str (JSON array text) or a list of str, not ") +
                            Py_TYPE(r.ptr())->tp_name,
                        "rewriter");
    } catch (py::error_already_set& e) {
      if (stash_fatal(e)) return make_error(ErrorCode::kInternal, "interrupted", "rewriter");
      throw std::runtime_error(e.what());
    }
  }

 private:
  std::unique_ptr<GilObject> fn_;
  std::string name_;
};

struct PyPlanner {
  Planner planner;
  std::string config_path;
  /// The same config and intent model without the rewrite hook, for rewrite() — `qaplan
  /// rewrite` shows the built-in rewrite alone, and asking a host's LLM for variants nobody
  /// reads would cost a model call. Set only when a hook is configured (else `planner` is it).
  std::optional<Planner> builtin_rewrite;
  const Planner& rewrite_planner() const { return builtin_rewrite ? *builtin_rewrite : planner; }
};

PyPlanner make_planner(const std::string& path, py::object intent_model, py::object rewriters,
                       py::object rewrite_hook, py::object rewrite_kinds, py::object domain_lexicon) {
  Config config = unwrap(load_config(path));
  PlannerOptions options;
  if (!domain_lexicon.is_none()) options.domain_lexicon = fspath(domain_lexicon, "domain_lexicon");
  if (!intent_model.is_none()) {
    if (!PyCallable_Check(intent_model.ptr()))
      raise(make_error(ErrorCode::kInvalidInput, "must be callable", "intent_model"));
    options.intent_model = std::make_shared<PyIntentModel>(intent_model, callable_name(intent_model, ""));
  }
  if (!rewriters.is_none()) {
    if (!py::isinstance<py::dict>(rewriters))
      raise(make_error(ErrorCode::kInvalidInput, "must be a dict of name → callable", "rewriters"));
    for (auto [k, v] : py::reinterpret_borrow<py::dict>(rewriters)) {
      const std::string name = utf8(k, "rewriters");
      if (!PyCallable_Check(v.ptr()))
        raise(make_error(ErrorCode::kInvalidInput, "must be callable", "rewriters[" + name + "]"));
      options.rewriters[name] = std::make_shared<PyQueryRewriter>(py::reinterpret_borrow<py::object>(v), name);
    }
  }
  if (!rewrite_hook.is_none()) config.rewrite.hook = utf8(rewrite_hook, "rewrite_hook");
  // [rewrite] hook_kinds: what the hook is asked for ("condense" replaces a follow-up's rewrite).
  if (!rewrite_kinds.is_none()) config.rewrite.hook_kinds = utf8_list(rewrite_kinds, "rewrite_kinds");
  std::optional<Planner> builtin;
  if (!config.rewrite.hook.empty()) {
    Config plain = config;
    plain.rewrite.hook.clear();
    PlannerOptions plain_options{options.intent_model, {}, options.domain_lexicon};
    builtin = unwrap(Planner::create(std::move(plain), std::move(plain_options)));
  }
  Planner p = unwrap(Planner::create(std::move(config), std::move(options)));
  return PyPlanner{std::move(p), path, std::move(builtin)};
}

PrepareRequest make_request(py::handle question, py::handle history, py::handle scenario,
                            py::handle source) {
  PrepareRequest req;
  req.question = utf8(question, "question");
  req.history = utf8_list(history, "history");
  if (!scenario.is_none()) req.scenario = utf8(scenario, "scenario");
  if (!source.is_none()) req.source = utf8(source, "source");
  return req;
}

// `qaplan rewrite`: follow-up detection and the built-in rewrite, as the CLI's JSON text.
std::string rewrite_json(const PyPlanner& self, py::handle question, py::handle history,
                         py::handle scenario, bool pretty) {
  const PrepareRequest req = make_request(question, history, scenario, py::none());
  Result<std::string> r = make_error(ErrorCode::kInternal, "not run");
  {
    py::gil_scoped_release nogil;
    const Planner& planner = self.rewrite_planner();
    r = [&]() -> Result<std::string> {
      QAPLAN_ASSIGN_OR_RETURN(Preparation prep, planner.prepare(req));
      QAPLAN_ASSIGN_OR_RETURN(QueryAnalysis a, planner.analyze(prep, AnalysisContext{}));
      return rewrite_to_json(prep, a, JsonOptions{pretty, false});
    }();
  }
  raise_pending();
  return unwrap(std::move(r));
}

Preparation prepare(const PyPlanner& self, py::handle question, py::handle history,
                    py::handle scenario, py::handle source) {
  const PrepareRequest req = make_request(question, history, scenario, source);
  Result<Preparation> r = make_error(ErrorCode::kInternal, "not run");
  {
    py::gil_scoped_release nogil;
    r = self.planner.prepare(req);
  }
  raise_pending();
  return unwrap(std::move(r));
}

AnalysisContext context_from(py::handle now, py::handle timezone, py::handle department,
                             py::handle user) {
  AnalysisContext ctx;
  if (!now.is_none()) {
    if (py::hasattr(now, "isoformat") && !py::isinstance<py::str>(now)) {
      ctx.now = py::str(now.attr("isoformat")()).cast<std::string>();
    } else {
      ctx.now = utf8(now, "now");
    }
  }
  if (!timezone.is_none()) ctx.timezone = utf8(timezone, "timezone");
  if (!department.is_none()) ctx.session_department = utf8(department, "session_department");
  if (!user.is_none()) ctx.session_user = utf8(user, "session_user");
  return ctx;
}

QueryAnalysis analyze(const PyPlanner& self, const Preparation& prep, const AnalysisContext& ctx) {
  Result<QueryAnalysis> r = make_error(ErrorCode::kInternal, "not run");
  {
    py::gil_scoped_release nogil;
    r = self.planner.analyze(prep, ctx);
  }
  raise_pending();
  return unwrap(std::move(r));
}

// Planner.ask: `qaplan ask` over a SavedIndex, the same JSON as a dict.
py::object ask(const PyPlanner& self, py::handle question, const PySavedIndex& index,
               py::handle history, py::handle scenario, py::handle source, py::handle now,
               py::handle timezone, std::optional<std::vector<std::vector<float>>> vectors,
               bool explain) {
  PrepareRequest req{utf8(question, "question"), utf8_list(history, "history"),
                     scenario.is_none() ? std::string() : utf8(scenario, "scenario"),
                     std::nullopt};
  if (!source.is_none()) req.source = utf8(source, "source");
  const AnalysisContext ctx = context_from(now, timezone, py::none(), py::none());
  // [ranking.rrf] of the planner's rules file, as `qaplan ask --config` reads it.
  const RankingConfig ranking = unwrap(load_ranking_config(self.config_path));
  Result<AskResult> r = make_error(ErrorCode::kInternal, "not run");
  {
    py::gil_scoped_release nogil;
    r = ask_index(self.planner, req, ctx, index.index, index.store, ranking.rrf,
                  vectors.value_or(std::vector<std::vector<float>>{}));
  }
  raise_pending();
  return json_loads(ask_to_json(unwrap(std::move(r)), explain, false));
}

py::object knob_value(const PlanKnobs& k, const KnobInfo& info) {
  return std::visit([&](auto member) -> py::object { return py::cast(k.*member); }, info.member);
}

py::object knob_number(KnobId id, double v) {
  switch (kPlanKnobs[id].kind()) {
    case KnobKind::kFlag: return py::bool_(v != 0);
    case KnobKind::kCount: return py::int_(static_cast<long long>(v));
    case KnobKind::kUnit: return py::float_(v);
  }
  return py::float_(v);
}

}  // namespace

namespace {

void register_decisions(py::module_& m) {
  // --- values the planner returns (read-only views into the Preparation) --------------------
  py::class_<RouteDecision>(m, "RouteDecision", "The route stage's decision.")
      .def_property_readonly("route", [](const RouteDecision& r) { return std::string(to_string(r.route)); },
                             "\"retrieval\" or \"direct_answer\"")
      .def_property_readonly("reason", [](const RouteDecision& r) { return std::string(to_string(r.reason)); },
                             "\"needs_retrieval\", \"greeting\", \"handoff\", \"out_of_scope\", …")
      .def_readonly("detail", &RouteDecision::detail)
      .def_readonly("reply", &RouteDecision::reply)
      .def_property_readonly("decided_by", [](const RouteDecision& r) { return std::string(to_string(r.decided_by)); })
      .def_readonly("score", &RouteDecision::score)
      .def("__repr__", [](const RouteDecision& r) {
        return "RouteDecision(route='" + std::string(to_string(r.route)) + "', reason='" +
               std::string(to_string(r.reason)) + "')";
      });

  py::class_<IntentCandidate>(m, "IntentCandidate",
                              "One intent candidate (the rules' or a model's). A Python intent "
                              "model may return one instead of an (intent, score) tuple.")
      .def(py::init([](const std::string& intent, double score, const std::string& rule_id) {
             IntentCandidate c;
             c.intent = unwrap(parse_intent(intent));
             c.score = score;
             c.rule_id = rule_id;
             return c;
           }),
           py::arg("intent"), py::arg("score"), py::arg("rule_id") = "")
      .def_property_readonly("intent", [](const IntentCandidate& c) { return std::string(to_string(c.intent)); })
      .def_readonly("score", &IntentCandidate::score)
      .def_readonly("rule_id", &IntentCandidate::rule_id)
      .def_readonly("matched_rules", &IntentCandidate::matched_rules)
      .def_readonly("requires_rewrite", &IntentCandidate::requires_rewrite)
      .def_readonly("suggested_source", &IntentCandidate::suggested_source)
      .def("__repr__", [](const IntentCandidate& c) {
        return "IntentCandidate(intent='" + std::string(to_string(c.intent)) +
               "', score=" + py::repr(py::float_(c.score)).cast<std::string>() + ", rule_id='" +
               c.rule_id + "')";
      });

  py::class_<IntentResult>(m, "IntentResult", "The gateway's final intent decision.")
      .def_property_readonly("intent", [](const IntentResult& i) { return std::string(to_string(i.intent)); },
                             "\"FAQ_QUERY\", \"KNOWLEDGE_QUERY\" or \"FOLLOW_UP\"")
      .def_readonly("rule_score", &IntentResult::rule_score)
      .def_readonly("confidence", &IntentResult::confidence)
      .def_readonly("requires_rewrite", &IntentResult::requires_rewrite)
      .def_readonly("suggested_source", &IntentResult::suggested_source)
      .def_property_readonly("decision_policy",
                             [](const IntentResult& i) { return std::string(to_string(i.decision_policy)); },
                             "rule_only, rule_model_agree, model_override, conflict, model_failed")
      .def_readonly("matched_rules", &IntentResult::matched_rules)
      .def_readonly("rule_candidate", &IntentResult::rule_candidate)
      .def_property_readonly("model_candidate", [](const IntentResult& i) -> const IntentCandidate* {
        return i.model_candidate ? &*i.model_candidate : nullptr;
      }, py::return_value_policy::reference_internal)
      .def_property_readonly("model_error", [](const IntentResult& i) -> std::optional<std::string> {
        if (i.model_error.empty()) return std::nullopt;
        return i.model_error;
      })
      .def("__repr__", [](const IntentResult& i) {
        return "IntentResult(intent='" + std::string(to_string(i.intent)) +
               "', confidence=" + py::repr(py::float_(i.confidence)).cast<std::string>() +
               ", decision_policy='" + std::string(to_string(i.decision_policy)) + "')";
      });

}

void register_plan_views(py::module_& m) {
  auto plan = py::class_<RetrievalPlan>(
      m, "RetrievalPlan",
      "The immutable retrieval plan: the 13 knobs of the config's [retrieval_strategy] as "
      "attributes, plus question_category, intent_rule_score, intent_decision_score, reason.");
  for (const KnobInfo& info : kPlanKnobs) {
    const KnobInfo* row = &info;
    plan.def_property_readonly(std::string(info.name).c_str(), [row](const RetrievalPlan& p) {
      return knob_value(p.knobs(), *row);
    });
  }
  plan.def_property_readonly("question_category", [](const RetrievalPlan& p) {
        return std::string(to_string(p.question_category()));
      })
      .def_property_readonly("intent_rule_score", &RetrievalPlan::intent_rule_score)
      .def_property_readonly("intent_decision_score", &RetrievalPlan::intent_decision_score)
      .def_property_readonly("reason", &RetrievalPlan::reason)
      .def("knobs", [](const RetrievalPlan& p) {
        py::dict d;
        for (const KnobInfo& info : kPlanKnobs) d[py::str(std::string(info.name))] = knob_value(p.knobs(), info);
        return d;
      }, "The 13 knobs as a dict, in the table's order.")
      .def("__repr__", [](const RetrievalPlan& p) {
        return "RetrievalPlan(reason='" + p.reason() + "', doc_top_k=" +
               std::to_string(p.knobs().doc_top_k) + ", faq_top_k=" + std::to_string(p.knobs().faq_top_k) + ", …)";
      });

  py::class_<PlanChange>(m, "PlanChange", "One knob change a fired patch made.")
      .def_property_readonly("field", [](const PlanChange& c) { return std::string(kPlanKnobs[c.knob].name); })
      .def_property_readonly("op", [](const PlanChange& c) { return std::string(to_string(c.op)); })
      .def_property_readonly("value", [](const PlanChange& c) { return knob_number(c.knob, c.value); })
      .def_property_readonly("before", [](const PlanChange& c) { return knob_number(c.knob, c.before); })
      .def_property_readonly("after", [](const PlanChange& c) { return knob_number(c.knob, c.after); });
  py::class_<FiredPatch>(m, "FiredPatch", "A patch whose condition held, and what it changed.")
      .def_readonly("id", &FiredPatch::id)
      .def_readonly("tag", &FiredPatch::tag)
      .def_readonly("changes", &FiredPatch::changes);
  py::class_<PlanTrace>(m, "PlanTrace", "Which patches fired, in order.")
      .def_readonly("fired", &PlanTrace::fired);

}

void register_preparation(py::module_& m) {
  py::class_<Preparation>(m, "Preparation",
                          "Everything Planner.prepare() decided. For a direct answer, intent, plan "
                          "and plan_trace are None and route.reply holds the reply.")
      .def_readonly("query", &Preparation::query)
      .def_property_readonly("normalized_query", [](const Preparation& p) { return p.normalized.text; })
      .def_property_readonly("query_units", [](const Preparation& p) { return p.normalized.query_units; })
      .def_readonly("history", &Preparation::history)
      .def_property_readonly("route", [](const Preparation& p) { return &p.route; },
                             py::return_value_policy::reference_internal)
      .def_property_readonly("is_direct_answer",
                             [](const Preparation& p) { return p.route.route == Route::kDirectAnswer; })
      .def_property_readonly("intent", [](const Preparation& p) -> const IntentResult* {
        return p.intent ? &*p.intent : nullptr;
      }, py::return_value_policy::reference_internal)
      .def_readonly("effective_source", &Preparation::effective_source)
      .def_readonly("effective_sources", &Preparation::effective_sources)
      .def_readonly("fallback_sources", &Preparation::fallback_sources)
      .def_property_readonly("question_category",
                             [](const Preparation& p) { return std::string(to_string(p.category.value)); })
      .def_property_readonly("plan", [](const Preparation& p) -> const RetrievalPlan* {
        return p.plan ? &*p.plan : nullptr;
      }, py::return_value_policy::reference_internal)
      .def_property_readonly("plan_trace", [](const Preparation& p) -> const PlanTrace* {
        return p.plan_trace ? &*p.plan_trace : nullptr;
      }, py::return_value_policy::reference_internal)
      .def_property_readonly("timings_us", [](const Preparation& p) {
        py::dict d;
        const auto us = [](std::int64_t ns) { return static_cast<double>(ns) / 1000.0; };
        d["text"] = us(p.timings.text_ns);
        d["route"] = us(p.timings.route_ns);
        d["intent"] = us(p.timings.intent_ns);
        d["category"] = us(p.timings.category_ns);
        d["plan"] = us(p.timings.plan_ns);
        d["total"] = us(p.timings.total_ns);
        return d;
      }, "Per-stage wall time in microseconds (diagnostics only).")
      .def("to_json", [](const Preparation& p, const QueryAnalysis* a, bool pretty, bool timings) {
        const JsonOptions o{pretty, timings};
        return a ? to_json(p, *a, o) : to_json(p, o);
      }, py::arg("analysis") = py::none(), py::kw_only(), py::arg("pretty") = false,
         py::arg("timings") = false,
         "The CLI's JSON: `qaplan plan \"<q>\" --plan-only` without `analysis`, `qaplan plan "
         "\"<q>\"` with it.")
      .def("to_dict", [](const Preparation& p, const QueryAnalysis* a, bool timings) {
        const JsonOptions o{false, timings};
        return json_loads(a ? to_json(p, *a, o) : to_json(p, o));
      }, py::arg("analysis") = py::none(), py::kw_only(), py::arg("timings") = false,
         "json.loads(to_json(...)): plain dicts and lists, keys in the CLI's order.")
      .def("__repr__", [](const Preparation& p) {
        std::string s = "Preparation(query='" + p.query + "', route='" + std::string(to_string(p.route.route)) + "'";
        if (p.intent) s += ", intent='" + std::string(to_string(p.intent->intent)) + "'";
        if (p.plan) s += ", reason='" + p.plan->reason() + "'";
        return s + ")";
      });
}

void register_analysis(py::module_& m) {
  // --- analysis -----------------------------------------------------------------------------
  py::class_<Rewrite>(m, "Rewrite", "The follow-up rewrite (retrieval uses `query`).")
      .def_readonly("query", &Rewrite::query)
      .def_readonly("rewritten", &Rewrite::rewritten)
      .def_readonly("by", &Rewrite::by)
      .def_readonly("topic_anchor", &Rewrite::topic_anchor)
      .def_readonly("history_summary", &Rewrite::history_summary)
      .def_readonly("reasons", &Rewrite::reasons)
      .def_readonly("hook_error", &Rewrite::hook_error);
  py::class_<QueryVariant>(m, "QueryVariant", "One retrieval path.")
      .def_readonly("text", &QueryVariant::text)
      .def_readonly("kind", &QueryVariant::kind)
      .def_readonly("hypothetical", &QueryVariant::hypothetical)
      .def_readonly("origin", &QueryVariant::origin)
      .def("__repr__", [](const QueryVariant& v) {
        return "QueryVariant(kind='" + v.kind + "', text='" + v.text + "')";
      });
  py::class_<RejectedVariant>(m, "RejectedVariant")
      .def_readonly("text", &RejectedVariant::text)
      .def_readonly("kind", &RejectedVariant::kind)
      .def_readonly("reason", &RejectedVariant::reason);
  py::class_<HookCall>(m, "HookCall")
      .def_readonly("hook", &HookCall::hook)
      .def_readonly("kind", &HookCall::kind)
      .def_readonly("ok", &HookCall::ok)
      .def_readonly("error", &HookCall::error)
      .def_readonly("elapsed_us", &HookCall::elapsed_us)
      .def_readonly("kept", &HookCall::kept)
      .def_readonly("rejected", &HookCall::rejected);
  py::class_<TimeRange>(m, "TimeRange", "An absolute [from, to) range of local dates.")
      .def_readonly("from_", &TimeRange::from)
      .def_readonly("to", &TimeRange::to)
      .def_readonly("expression", &TimeRange::expression)
      .def_readonly("anchor", &TimeRange::anchor)
      .def_readonly("timezone", &TimeRange::timezone)
      .def_readonly("date", &TimeRange::date, "effective | published | signed")
      .def_readonly("field", &TimeRange::field,
                    "the metadata field of a published / signed range; \"\" for effective");
  py::class_<Filters>(m, "Filters")
      .def_readonly("time", &Filters::time, "the range when the question names one period")
      .def_readonly("time_ranges", &Filters::time_ranges,
                    "every period, one range each (a comparison has two)")
      .def_readonly("department", &Filters::department)
      .def_readonly("tags", &Filters::tags)
      .def_readonly("path_prefix", &Filters::path_prefix)
      .def_readonly("is_signed", &Filters::is_signed)
      .def_readonly("user", &Filters::user)
      .def_readonly("uncertain", &Filters::uncertain)
      .def_readonly("reasons", &Filters::reasons);
  py::class_<Routing>(m, "Routing")
      .def_readonly("index", &Routing::index)
      .def_readonly("mode", &Routing::mode)
      .def_readonly("model_tier", &Routing::model_tier)
      .def_readonly("ids", &Routing::ids)
      .def_readonly("parts", &Routing::parts)
      .def_readonly("reasons", &Routing::reasons);
  py::class_<ExecutionPath>(m, "ExecutionPath")
      .def_readonly("path", &ExecutionPath::path)
      .def_readonly("confidence", &ExecutionPath::confidence)
      .def_readonly("explicit_request", &ExecutionPath::explicit_request)
      .def_readonly("reasons", &ExecutionPath::reasons);
  py::class_<FallbackStep>(m, "FallbackStep")
      .def_readonly("step", &FallbackStep::step)
      .def_readonly("action", &FallbackStep::action)
      .def_readonly("params", &FallbackStep::params);
  py::class_<PromptProfile>(m, "PromptProfile")
      .def_readonly("id", &PromptProfile::id)
      .def_readonly("citation_style", &PromptProfile::citation_style)
      .def_readonly("caution", &PromptProfile::caution)
      .def_readonly("answer_format", &PromptProfile::answer_format)
      .def_readonly("max_context_chars", &PromptProfile::max_context_chars)
      .def_readonly("max_context_doc_chars", &PromptProfile::max_context_doc_chars)
      .def_readonly("final_context_top_n", &PromptProfile::final_context_top_n)
      .def_readonly("reasons", &PromptProfile::reasons);
  py::class_<CostLedger>(m, "CostLedger")
      .def_readonly("model_calls", &CostLedger::model_calls)
      .def_readonly("retrieval_calls", &CostLedger::retrieval_calls)
      .def_readonly("variant_paths", &CostLedger::variant_paths)
      .def_readonly("hook_failures", &CostLedger::hook_failures)
      .def_readonly("variants_rejected", &CostLedger::variants_rejected);
  py::class_<QueryAnalysis>(m, "QueryAnalysis",
                            "What Planner.analyze() decided: rewrite, variants, filters, routing, "
                            "execution path, fallback ladder, prompt profile, cost.")
      .def_readonly("rewrite", &QueryAnalysis::rewrite)
      .def_readonly("variants", &QueryAnalysis::variants)
      .def_readonly("variant_reasons", &QueryAnalysis::variant_reasons)
      .def_readonly("rejected", &QueryAnalysis::rejected)
      .def_readonly("hook_calls", &QueryAnalysis::hook_calls)
      .def_readonly("filters", &QueryAnalysis::filters)
      .def_readonly("routing", &QueryAnalysis::routing)
      .def_readonly("execution", &QueryAnalysis::execution)
      .def_readonly("fallback", &QueryAnalysis::fallback)
      .def_readonly("prompt", &QueryAnalysis::prompt)
      .def_readonly("cost", &QueryAnalysis::cost)
      .def("to_json", [](const QueryAnalysis& a, bool pretty) { return to_json(a, JsonOptions{pretty, false}); },
           py::kw_only(), py::arg("pretty") = false, "The library's JSON of the analysis alone.")
      .def("to_dict", [](const QueryAnalysis& a) { return json_loads(to_json(a, JsonOptions{})); });
}

void register_hook_inputs(py::module_& m) {
  // --- hooks ---------------------------------------------------------------------------------
  py::class_<PyIntentModelInput>(m, "IntentModelInput", "What a Python intent model is called with.")
      .def_readonly("question", &PyIntentModelInput::question, "as the user typed it")
      .def_readonly("normalized", &PyIntentModelInput::normalized, "NFKC casefold, Simplified")
      .def_readonly("history", &PyIntentModelInput::history, "earlier turns, oldest first")
      .def_readonly("budget_us", &PyIntentModelInput::budget_us,
                    "[intent_gateway] model_budget_us: a slower answer counts as model_failed")
      .def("__repr__", [](const PyIntentModelInput& i) { return "IntentModelInput(question='" + i.question + "')"; });
  py::class_<PyRewriteRequest>(m, "RewriteRequest", "What a Python rewrite hook is called with.")
      .def_readonly("kind", &PyRewriteRequest::kind, "multi_query, hyde, step_back or decomposition")
      .def_readonly("question", &PyRewriteRequest::question)
      .def_readonly("history_summary", &PyRewriteRequest::history_summary)
      .def_readonly("prompt", &PyRewriteRequest::prompt, "[rewrite] template, filled in")
      .def_readonly("budget_ms", &PyRewriteRequest::budget_ms,
                    "[rewrite] hook_budget_ms: a later answer is discarded")
      .def("__repr__", [](const PyRewriteRequest& r) { return "RewriteRequest(kind='" + r.kind + "', question='" + r.question + "')"; });
}

void register_planner(py::module_& m) {
  // --- the planner ---------------------------------------------------------------------------
  py::class_<PyPlanner>(m, "Planner",
                        "Prepares questions for retrieval. Immutable and thread-safe: share one "
                        "Planner between threads; prepare() and analyze() release the GIL.")
      .def(py::init([](py::handle config_path, py::object intent_model, py::object rewriters,
                       py::object rewrite_hook, py::object rewrite_kinds, py::object domain_lexicon) {
             return make_planner(fspath(config_path, "config_path"), std::move(intent_model),
                                 std::move(rewriters), std::move(rewrite_hook),
                                 std::move(rewrite_kinds), std::move(domain_lexicon));
           }),
           py::arg("config_path"), py::kw_only(), py::arg("intent_model") = py::none(),
           py::arg("rewriters") = py::none(), py::arg("rewrite_hook") = py::none(),
           py::arg("rewrite_kinds") = py::none(), py::arg("domain_lexicon") = py::none())
      .def_static("from_default", [](py::object intent_model, py::object rewriters,
                                     py::object rewrite_hook, py::object rewrite_kinds,
                                     py::object domain_lexicon) {
             const std::string path =
                 py::module_::import("qaplan._paths").attr("default_config")().cast<std::string>();
             return make_planner(path, std::move(intent_model), std::move(rewriters),
                                 std::move(rewrite_hook), std::move(rewrite_kinds),
                                 std::move(domain_lexicon));
           },
           py::kw_only(), py::arg("intent_model") = py::none(), py::arg("rewriters") = py::none(),
           py::arg("rewrite_hook") = py::none(), py::arg("rewrite_kinds") = py::none(),
           py::arg("domain_lexicon") = py::none(),
           "The rules the CLI uses without --config, found in the same order "
           "(qaplan.locate_config() says which file and why): $QAPLAN_CONFIG, the qaplan checkout "
           "holding the working directory, the user config dir, the build tree's source, then the "
           "rules.toml shipped in the package (qaplan/data/rules.toml).")
      .def("prepare", &prepare, py::arg("question"), py::arg("history") = py::none(),
           py::arg("scenario") = py::none(), py::arg("source") = py::none(),
           "Route, intent, category and RetrievalPlan of one question. Raises InvalidInput "
           "naming the field (question, history[i], scenario, source).")
      .def("analyze", [](const PyPlanner& self, const Preparation& prep, py::handle now,
                         py::handle timezone, py::handle department, py::handle user) {
             return analyze(self, prep, context_from(now, timezone, department, user));
           },
           py::arg("preparation"), py::kw_only(), py::arg("now") = py::none(),
           py::arg("timezone") = py::none(), py::arg("session_department") = py::none(),
           py::arg("session_user") = py::none(),
           "The analysis stage: rewrite, variants (through the rewrite hooks), filters, routing, "
           "execution path, fallback, prompt profile, cost. `now` is an ISO-8601 string or an "
           "aware datetime; `timezone` an IANA name or an offset (InvalidInput when unknown).")
      .def("rewrite", [](const PyPlanner& self, py::handle question, py::handle history,
                         py::handle scenario) {
             return json_loads(rewrite_json(self, question, history, scenario, false));
           },
           py::arg("question"), py::arg("history") = py::none(), py::arg("scenario") = py::none(),
           "`qaplan rewrite` as a dict: follow-up detection and the built-in rewrite (query, "
           "normalized_query, history, route, intent, follow_up, matched_rules, rewrite). The "
           "rewrite hook is not called.")
      .def("rewrite_json", [](const PyPlanner& self, py::handle question, py::handle history,
                              py::handle scenario, bool pretty) {
             return rewrite_json(self, question, history, scenario, pretty);
           },
           py::arg("question"), py::arg("history") = py::none(), py::arg("scenario") = py::none(),
           py::kw_only(), py::arg("pretty") = false,
           "rewrite() as the CLI's JSON text (byte for byte `qaplan rewrite`).")
      .def("ask", &ask,
           py::arg("question"), py::arg("index"), py::kw_only(), py::arg("history") = py::none(),
           py::arg("scenario") = py::none(), py::arg("source") = py::none(),
           py::arg("now") = py::none(), py::arg("timezone") = py::none(),
           py::arg("query_vectors") = py::none(), py::arg("explain") = false,
           "`qaplan ask` as a dict: prepare, analyze and BM25 over a SavedIndex with the plan's "
           "rewrite, variants, scope, time range and limits (query_vectors: your embedding of "
           "each query text, main query first, adds a cosine leg); the reply of a direct answer, "
           "or ranked passages with their text (explain=True adds the plan as `qaplan plan` "
           "prints it).")
      .def_readonly("config_path", &PyPlanner::config_path)
      .def_property_readonly("model_description",
                             [](const PyPlanner& p) { return p.planner.model_description(); })
      .def_property_readonly("domain_description",
                             [](const PyPlanner& p) { return p.planner.domain_description(); })
      .def("__repr__", [](const PyPlanner& p) { return "Planner('" + p.config_path + "')"; })
      .def("_prepare_loop_ns",
           [](const PyPlanner& self,
              const std::vector<std::pair<std::string, std::vector<std::string>>>& requests,
              int reps) {
             // The C++ side of python/bench_prepare.py, with planner_bench --per-question's
             // protocol: one warm-up pass, then `reps` passes over the whole set, every prepare()
             // timed on its own with steady_clock; returns the median ns per request.
             std::vector<PrepareRequest> reqs;
             for (const auto& [q, h] : requests) reqs.push_back(PrepareRequest{q, h, "", std::nullopt});
             const std::size_t n = reqs.size();
             const auto nreps = static_cast<std::size_t>(std::max(reps, 1));
             std::vector<double> samples(n * nreps), medians(n);
             {
               py::gil_scoped_release nogil;
               for (const PrepareRequest& r : reqs) (void)self.planner.prepare(r);
               for (std::size_t rep = 0; rep < nreps; ++rep)
                 for (std::size_t i = 0; i < n; ++i) {
                   const auto t0 = std::chrono::steady_clock::now();
                   auto out = self.planner.prepare(reqs[i]);
                   const auto t1 = std::chrono::steady_clock::now();
                   samples[i * nreps + rep] = static_cast<double>(
                       std::chrono::duration_cast<std::chrono::nanoseconds>(t1 - t0).count());
                 }
               for (std::size_t i = 0; i < n; ++i) {
                 auto first = samples.begin() + static_cast<std::ptrdiff_t>(i * nreps);
                 auto mid = first + static_cast<std::ptrdiff_t>(nreps / 2);
                 std::nth_element(first, mid, first + static_cast<std::ptrdiff_t>(nreps));
                 medians[i] = *mid;
               }
             }
             raise_pending();
             return medians;
           },
           py::arg("requests"), py::arg("reps"));
}

}  // namespace

void register_planning(py::module_& m) {
  register_decisions(m);
  register_plan_views(m);
  register_preparation(m);
  register_analysis(m);
  register_hook_inputs(m);
  register_planner(m);
}

}  // namespace qaplan::py
