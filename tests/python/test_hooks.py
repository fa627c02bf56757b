"""Python callables as the intent model and as a rewrite hook: their answers are used like a C++
model's, and every failure (exception, bad score, bad type, too slow) is recorded as model_failed
/ a failed hook call while the rule decision stands.

The arbitration tests run on `rules_without_model` (the shipped rules with [model] off), so the
reference is the rule-only decision whichever way the shipped rules.toml sets the built-in model."""

from __future__ import annotations

import json
import time

import pytest

from conftest import MODEL_BUDGET_US, NOW, RULES, TZ, run_cli

# A weak-rule question (default_knowledge 0.60) and a strong-rule one (FAQ 0.86).
WEAK = "公司年会"  # the fallback rule (0.60), not a vetoed one (这个怎么弄 is a conflict)
STRONG = "报销费用超过5000需要谁审批"


def test_model_is_called_with_the_question(qaplan, rules_without_model):
    seen = []

    def model(inp):
        seen.append((inp.question, inp.normalized, list(inp.history), inp.budget_us))
        return ("FAQ_QUERY", 0.9)

    planner = qaplan.Planner(rules_without_model, intent_model=model)
    prep = planner.prepare("年假 怎么申请", history=["你好"])
    assert seen == [("年假 怎么申请", "年假怎么申请", ["你好"], MODEL_BUDGET_US)]
    assert prep.intent.model_candidate.intent == "FAQ_QUERY"
    assert prep.intent.model_candidate.rule_id == "model"  # the callable's __name__


def test_model_overrides_a_weak_rule_and_agrees_with_a_strong_one(qaplan, rules_without_model):
    planner = qaplan.Planner(rules_without_model, intent_model=lambda inp: qaplan.IntentCandidate("FAQ_QUERY", 0.95, "llm"))
    weak = planner.prepare(WEAK)
    assert weak.intent.rule_candidate.score < 0.70
    assert weak.intent.decision_policy == "model_override"
    assert weak.intent.intent == "FAQ_QUERY" and weak.intent.confidence == 0.95
    assert weak.intent.model_candidate.rule_id == "llm"
    strong = planner.prepare(STRONG)
    assert strong.intent.decision_policy == "rule_model_agree"
    assert strong.intent.confidence == 0.99
    # The JSON records the model's candidate too.
    assert strong.to_dict()["intent"]["model_candidate"]["rule_id"] == "llm"


def test_model_disagreeing_with_a_strong_rule_is_a_conflict(qaplan, rules_without_model):
    planner = qaplan.Planner(rules_without_model, intent_model=lambda inp: ("KNOWLEDGE_QUERY", 0.97))
    prep = planner.prepare(STRONG)
    assert prep.intent.decision_policy == "conflict"
    assert prep.intent.intent == "FAQ_QUERY"
    assert prep.intent.confidence == 0.68


def boom(inp):
    raise ValueError("model server down")


def slow(inp):
    time.sleep(inp.budget_us / 1e6 + 0.02)  # 20 ms past [intent_gateway] model_budget_us
    return ("FAQ_QUERY", 0.9)


@pytest.mark.parametrize(
    "model, error_part",
    [
        (boom, "exception: ValueError: model server down"),
        (lambda inp: ("FAQ_QUERY", 1.5), "score outside [0, 1]"),
        (lambda inp: ("FAQ_QUERY", float("nan")), "score outside [0, 1]"),
        (lambda inp: ("NOT_AN_INTENT", 0.9), "NOT_AN_INTENT"),
        (lambda inp: None, "must return"),
        (lambda inp: ("FAQ_QUERY",), "must return"),
        (lambda inp: ("FAQ_QUERY", "high"), "score must be a number"),
        (slow, "timeout"),
    ],
)
def test_model_failures_leave_the_rule_standing(qaplan, rules_without_model, model, error_part):
    planner = qaplan.Planner(rules_without_model)
    hooked = qaplan.Planner(rules_without_model, intent_model=model)
    for q in (WEAK, STRONG):
        prep = hooked.prepare(q)
        ref = planner.prepare(q)
        assert prep.intent.decision_policy == "model_failed"
        assert error_part in prep.intent.model_error
        assert prep.intent.intent == ref.intent.intent
        assert prep.intent.confidence == ref.intent.confidence
        assert prep.plan.knobs() == ref.plan.knobs()
        assert prep.to_dict()["intent"]["model_error"] == prep.intent.model_error


def test_model_must_be_callable(qaplan):
    with pytest.raises(qaplan.InvalidInput) as info:
        qaplan.Planner(RULES, intent_model="gpt")
    assert info.value.field == "intent_model"


# --- analysis and the rewrite hook ------------------------------------------------------------

KNOWLEDGE = "公司会议室预约规则在哪里查看以及需要遵守哪些流程要求"


def test_analyze_to_dict_is_the_librarys_json(qaplan, planner):
    prep = planner.prepare("它支持Mac吗", history=["VPN怎么连"])
    a = planner.analyze(prep, now="2026-11-30T10:00:00+08:00", timezone="Asia/Shanghai")
    assert a.rewrite.rewritten and a.rewrite.query
    assert a.variants[0].kind == "original"
    d = a.to_dict()
    assert d == json.loads(a.to_json())
    assert d["rewrite"]["query"] == a.rewrite.query
    full = prep.to_dict(a)
    assert full["analysis"] == d
    assert full["retrieval_plan"] == prep.to_dict()["retrieval_plan"]
    assert a.execution.path in ("semantic", "graph", "research", "out_of_scope", "direct")
    assert a.prompt.id


def test_analyze_now_as_datetime(qaplan, planner):
    import datetime

    prep = planner.prepare("上个月的报销制度有哪些变化")
    tz = datetime.timezone(datetime.timedelta(hours=8))
    a1 = planner.analyze(prep, now=datetime.datetime(2026, 11, 30, 10, 0, tzinfo=tz))
    a2 = planner.analyze(prep, now="2026-11-30T10:00:00+08:00")
    assert a1.to_dict() == a2.to_dict()
    with pytest.raises(qaplan.InvalidInput) as info:
        planner.analyze(prep, now="yesterday")
    assert info.value.field == "now"


def test_full_plan_equals_cli_without_plan_only(qaplan, planner, cli):
    for q in (KNOWLEDGE, "上个月的报销制度有哪些变化", "我们部门最近7天的通知"):
        r = run_cli(cli, "plan", q, "--now", NOW, "--tz", TZ, "--session-department", "财务部",
                    "--config", str(RULES))
        assert "analysis" in json.loads(r.stdout)
        prep = planner.prepare(q)
        a = planner.analyze(prep, now=NOW, timezone=TZ, session_department="财务部")
        assert prep.to_json(a) == r.stdout.rstrip("\n"), q


def test_python_model_replaces_the_builtin_candidate(qaplan, rules_roomy_budget):
    # With the shipped rules (built-in model on or off), a host model's candidate is the one
    # arbitrated, and its failure is model_failed with the rule standing.
    hooked = qaplan.Planner(rules_roomy_budget,
                            intent_model=lambda inp: qaplan.IntentCandidate("FAQ_QUERY", 0.95, "host"))
    prep = hooked.prepare(STRONG)
    assert prep.intent.model_candidate.rule_id == "host"
    assert prep.intent.decision_policy in ("rule_model_agree", "model_override", "conflict")
    failing = qaplan.Planner(RULES, intent_model=boom).prepare(STRONG)
    assert failing.intent.decision_policy == "model_failed"
    assert failing.intent.intent == failing.intent.rule_candidate.intent


def test_rewrite_hook_variants(qaplan, cli, rules_without_model):
    calls = []

    def llm(req):
        calls.append((req.kind, req.question, req.budget_ms))
        assert "{q}" not in req.prompt and req.question in req.prompt
        return ["会议室预约规则在哪里查看", "会议室预约需要遵守哪些流程"]

    planner = qaplan.Planner(rules_without_model, rewriters={"llm": llm}, rewrite_hook="llm")
    prep = planner.prepare(KNOWLEDGE)
    assert prep.plan.use_query_variants
    a = planner.analyze(prep)
    assert calls and calls[0][0] == "multi_query" and calls[0][2] == 2000
    assert [h.hook for h in a.hook_calls] == ["llm"] * len(calls)
    assert a.hook_calls[0].ok, a.hook_calls[0].error
    kinds = [v.kind for v in a.variants]
    assert kinds[0] == "original" and "multi_query" in kinds
    assert a.cost.model_calls == len(calls)
    # rewrite() is `qaplan rewrite`: the built-in rewrite alone, the hook is not called
    calls.clear()
    for q, history in ((KNOWLEDGE, []), ("它支持Mac吗", ["VPN怎么连"])):
        args = [a for h in history for a in ("--history", h)]
        r = run_cli(cli, "rewrite", q, *args, "--config", str(rules_without_model))
        assert planner.rewrite_json(q, history) == r.stdout.rstrip("\n")
    assert calls == []


@pytest.mark.parametrize(
    "hook, error_part",
    [
        (lambda req: (_ for _ in ()).throw(RuntimeError("llm quota")), "exception: RuntimeError: llm quota"),
        (lambda req: "not json", ""),
        (lambda req: 42, "must return"),
    ],
)
def test_rewrite_hook_failures_are_recorded(qaplan, rules_without_model, hook, error_part):
    hooked = qaplan.Planner(rules_without_model, rewriters={"llm": hook}, rewrite_hook="llm")
    prep = hooked.prepare(KNOWLEDGE)
    a = hooked.analyze(prep)
    assert a.hook_calls and not a.hook_calls[0].ok
    assert error_part in a.hook_calls[0].error
    assert a.cost.hook_failures >= 1
    assert not [v for v in a.variants if v.kind == "multi_query"]
    assert a.variants[0].kind == "original"


def test_unregistered_rewrite_hook_is_a_config_error(qaplan):
    with pytest.raises(qaplan.InvalidConfig) as info:
        qaplan.Planner(RULES, rewrite_hook="llm")
    assert info.value.key == "[rewrite] hook"
    with pytest.raises(qaplan.InvalidInput):
        qaplan.Planner(RULES, rewriters={"llm": "not callable"})
