"""The examples in examples/python run and do what they say."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from conftest import RULES, SOURCE_DIR, cli_plan

EXAMPLES = SOURCE_DIR / "examples" / "python"


def run_example(name: str, *args: str) -> list[dict]:
    pytest.importorskip("numpy", reason="SKIPPED: numpy is not installed (apt-get install python3-numpy)")
    env = dict(os.environ)
    env["QAPLAN_CONFIG"] = str(RULES)  # Planner.from_default(): the rules the CLI is run with
    r = subprocess.run([sys.executable, str(EXAMPLES / name), *args], capture_output=True,
                       text=True, encoding="utf-8", env=env, timeout=300)
    assert r.returncode == 0, r.stderr
    return [json.loads(line) for line in r.stdout.splitlines() if line.startswith("{")]


def _check_against_cli(cli, out, history_of):
    """Each answer follows the plan the CLI gives for the same question (the live rules and
    model), and does what the plan says: direct reply, FAQ at or above the threshold, or
    contexts from the allowed sources within the context budget."""
    answered = 0
    for o in out:
        args = [a for h in history_of.get(o["question"], []) for a in ("--history", h)]
        d = cli_plan(cli, o["question"], *args)
        assert o["route"] == d["route"]["reason"], o["question"]
        if d["route"]["route"] == "direct_answer":
            assert o["kind"] == "direct" and o["reply"] == d["route"]["reply"]
            continue
        plan = d["retrieval_plan"]
        assert o["intent"] == d["intent"]["intent"] and o["reason"] == plan["reason"]
        assert o["sources"] == sorted(d["effective_sources"])
        if o["kind"] == "faq":
            assert plan["run_faq"] and o["score"] >= o["threshold"] == plan["faq_direct_threshold"]
            assert not o["sources"] or o["source"] in o["sources"]
            answered += 1
        else:
            assert o["kind"] == "contexts"
            assert len(o["contexts"]) <= plan["final_context_top_n"]
            assert sum(len(c["text"]) for c in o["contexts"]) <= plan["max_context_chars"]
            assert all(not o["sources"] or c["source"] in o["sources"] for c in o["contexts"])
            answered += bool(o["contexts"])
    return answered


def test_retrieval_loop_demo(cli):
    out = run_example("retrieval_loop.py", "--json")
    by_q = {o["question"]: o for o in out}
    assert len(out) == 6
    history_of = {"那经理呢": ["普通员工到一类城市出差住宿标准是多少？"]}
    retrieval = [o for o in out if o["kind"] != "direct"]
    assert _check_against_cli(cli, out, history_of) == len(retrieval) >= 3  # every one answered
    follow = by_q["那经理呢"]
    if follow.get("intent") == "FOLLOW_UP":
        assert follow["retrieval_query"] != "那经理呢"  # rewritten with the history


def test_retrieval_loop_single_question(cli):
    out = run_example("retrieval_loop.py", "--json", "年假有几天")
    assert len(out) == 1 and out[0]["question"] == "年假有几天"
    assert out[0]["kind"] in ("faq", "contexts")
    assert _check_against_cli(cli, out, {}) == 1


def test_retriever_adapter():
    out = run_example("retriever_adapter.py")
    assert [o["question"] for o in out] == ["年假有几天", "那婚假呢", "谢谢"]
    first, follow, thanks = out
    assert first["documents"] and first["langchain_search_kwargs"]["k"] >= len(first["documents"])
    assert first["llamaindex_kwargs"]["similarity_top_k"] == first["langchain_search_kwargs"]["k"]
    assert follow["queries"][0] != "那婚假呢" and "婚假" in follow["queries"][0]
    assert thanks["direct_reply"] and thanks["documents"] == []


def test_condense_hook_example():
    """The host's condense step replaces the follow-up rewrite when it passes the checks; a
    refused answer or a failed call leaves the built-in rewrite with the reason."""
    out = {o["question"]: o for o in run_example("condense_hook.py", "--json")}
    assert len(out) == 4
    assert out["需要提前几天"]["query"] == "年假申请需要提前几天"
    assert out["需要提前几天"]["by"] == "llm" and out["需要提前几天"]["reasons"][-1] == "hook:condense"
    assert out["那病假呢"]["by"] == "llm"
    refused = out["最多能报多少"]
    assert refused["by"] == "builtin" and refused["reasons"][-1].startswith("hook:condense:rejected:")
    assert "最多能报多少" in refused["query"]
    failed = out["那婚假呢"]
    assert failed["by"] == "builtin" and failed["reasons"][-1] == "hook:condense:failed"
    assert "婚假" in failed["query"]
