"""Hook deadlines from Python (docs/python.md): a hook or intent model that never returns costs
the request its budget (budget + 50 ms at most), and Ctrl-C or exit() during a hook reach the
program instead of being swallowed as a failed hook call."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time

import pytest

from conftest import edited_config

KNOWLEDGE = "出差北京住宿超过550元的部分，制度里是怎么规定报销和审批的"


@pytest.fixture(scope="module")
def short_budgets(tmp_path_factory):
    """[model] off, a 200 ms rewrite-hook budget and a 200 ms host-model budget."""
    return edited_config(tmp_path_factory, [("model", "enabled", "false"),
                                            ("rewrite", "hook_budget_ms", "200"),
                                            ("intent_gateway", "model_budget_us", "200000")])


def test_a_rewrite_hook_that_never_returns_costs_its_budget(qaplan, short_budgets):
    never = threading.Event()  # set at the end, so the abandoned call ends with the test

    def hung(req):
        never.wait()
        return ["不会到达的变体"]

    planner = qaplan.Planner(short_budgets, rewriters={"llm": hung}, rewrite_hook="llm")
    prep = planner.prepare(KNOWLEDGE)
    took = []  # the best of three: a machine busy with other tests may wake the caller late once
    for _ in range(3):
        t0 = time.monotonic()
        a = planner.analyze(prep)
        took.append(time.monotonic() - t0)
    never.set()
    assert min(took) < 0.200 + 0.050, took
    assert len(a.hook_calls) == 1 and not a.hook_calls[0].ok
    assert a.hook_calls[0].error.startswith("timeout:"), a.hook_calls[0].error
    assert all("不会到达" not in v.text for v in a.variants)


def test_an_intent_model_that_never_returns_costs_its_budget(qaplan, short_budgets):
    never = threading.Event()

    def hung(inp):
        never.wait()
        return ("FAQ_QUERY", 0.9)

    planner = qaplan.Planner(short_budgets, intent_model=hung)
    took = []  # the best of three, as above
    for _ in range(3):
        t0 = time.monotonic()
        prep = planner.prepare("年假怎么申请")
        took.append(time.monotonic() - t0)
    never.set()
    assert min(took) < 0.200 + 0.050, took
    assert prep.intent.decision_policy == "model_failed"
    assert prep.intent.model_error.startswith("timeout:")


def _run(script: str, config, interrupt_after_line: str | None = None) -> subprocess.CompletedProcess:
    """Runs `script` with the config's path as argv[1]; with `interrupt_after_line`, sends SIGINT
    once the script has printed that line (so the signal lands while the hook runs)."""
    p = subprocess.Popen([sys.executable, "-c", textwrap.dedent(script), str(config)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         env=dict(os.environ))
    head = ""
    if interrupt_after_line is not None:
        head = p.stdout.readline()
        assert head.strip() == interrupt_after_line, head
        time.sleep(0.2)
        p.send_signal(signal.SIGINT)
    try:
        out, err = p.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
        pytest.fail(f"the program did not end: {err}")
    return subprocess.CompletedProcess(p.args, p.returncode, head + out, err)


@pytest.fixture(scope="module")
def long_model_budget(tmp_path_factory):
    """A 60 s host-model budget: only Ctrl-C can end a hung model's prepare() early."""
    return edited_config(tmp_path_factory, [("model", "enabled", "false"),
                                            ("intent_gateway", "model_budget_us", "60000000")])


def test_ctrl_c_during_a_hook_interrupts_the_program(long_model_budget):
    r = _run("""
        import sys, time, qaplan
        def model(inp):
            print("in the model", flush=True)
            time.sleep(10**6)
        planner = qaplan.Planner(sys.argv[1], intent_model=model)
        planner.prepare("年假怎么申请")
        print("prepare returned")
        """, long_model_budget, interrupt_after_line="in the model")
    assert "prepare returned" not in r.stdout
    assert "KeyboardInterrupt" in r.stderr, r.stderr
    assert r.returncode != 0


def test_exit_inside_a_hook_exits_the_program(short_budgets):
    r = _run("""
        import sys, qaplan
        def llm(req):
            sys.exit(7)
        planner = qaplan.Planner(sys.argv[1], rewriters={"llm": llm}, rewrite_hook="llm")
        prep = planner.prepare("出差北京住宿超过550元的部分，制度里是怎么规定报销和审批的")
        planner.analyze(prep)
        print("analyze returned")
        """, short_budgets)
    assert "analyze returned" not in r.stdout
    assert r.returncode == 7, r.stderr
