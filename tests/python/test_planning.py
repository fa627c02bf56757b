"""Planner through Python: the labelled rows equal the CLI byte for byte; the typed views agree
with the JSON; bad input raises a qaplan.Error naming the field."""

from __future__ import annotations

import json
import os
import shutil

import pytest

from conftest import DATA, NOW, RULES, SOURCE_DIR, TZ, cli_plan, compact, read_jsonl, run_cli

PLAN_FILES = [
    "golden_plans.jsonl",
    "labelled_plans.jsonl",
    "own_plans.jsonl",
    "trap_questions.jsonl",
    "followups.jsonl",
    "category_source.jsonl",
]
REQUEST_KEYS = ("question", "history", "scenario", "source")


def requests_of(rows):
    return [{k: r[k] for k in REQUEST_KEYS if k in r} for r in rows]


def python_line(planner, qaplan, req, plan_only=True) -> str:
    """What `qaplan plan --input` prints for one request line: the plan (--plan-only) or the plan
    with its analysis (anchored at NOW), or the line's error object."""
    try:
        prep = planner.prepare(req["question"], req.get("history") or [], req.get("scenario"),
                               req.get("source"))
        if plan_only:
            return compact(prep.to_dict())
        return compact(prep.to_dict(planner.analyze(prep, now=NOW, timezone=TZ)))
    except qaplan.Error as e:
        return compact({"error": e.to_dict(), "line": req["_line"]})


def cli_batch(cli, tmp_path, reqs, plan_only):
    batch = tmp_path / "batch.jsonl"
    batch.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in reqs), encoding="utf-8")
    mode = ["--plan-only"] if plan_only else ["--now", NOW, "--tz", TZ]
    out = run_cli(cli, "plan", "--input", str(batch), "--config", str(RULES), *mode, check=False)
    lines = out.stdout.splitlines()
    assert len(lines) == len(reqs), out.stderr
    return out, lines


def _number_hint(got: str, want: str) -> str:
    if got != want and json.loads(got) == json.loads(want):
        return (" — same values, different number text: the CLI's JSON writer printed a number "
                "that is not the shortest round-trip form json.dumps writes")
    return ""


@pytest.mark.parametrize("plan_only", [True, False], ids=["plan_only", "with_analysis"])
@pytest.mark.parametrize("name", PLAN_FILES)
def test_rows_equal_cli_byte_for_byte(qaplan, planner, cli, tmp_path, name, plan_only):
    reqs = requests_of(read_jsonl(DATA / name))
    assert len(reqs) >= 6, name
    _, cli_lines = cli_batch(cli, tmp_path, reqs, plan_only)
    for i, (req, want) in enumerate(zip(reqs, cli_lines), start=1):
        req = dict(req, _line=i)
        got = python_line(planner, qaplan, req, plan_only)
        if name.startswith("golden") or got == want:
            assert got == want, f"{name}:{i} {req['question']}" + _number_hint(got, want)
        else:
            # nlohmann's writer (Grisu2) prints a few model probabilities with 16-17 digits where
            # json.dumps writes the shortest form: the values must be equal, and the library's own
            # text (to_json below) must still be the CLI's line byte for byte.
            assert json.loads(got) == json.loads(want), f"{name}:{i} {req['question']}"
        if "error" not in want:  # the library's own string, unparsed, is the CLI's line too
            prep = planner.prepare(req["question"], req.get("history") or [], req.get("scenario"),
                                   req.get("source"))
            analysis = None if plan_only else planner.analyze(prep, now=NOW, timezone=TZ)
            assert prep.to_json(analysis) == want


@pytest.mark.parametrize("plan_only", [True, False], ids=["plan_only", "with_analysis"])
def test_error_lines_equal_cli(qaplan, planner, cli, tmp_path, plan_only):
    reqs = [
        {"question": ""},
        {"question": "年假怎么申请", "scenario": "no_such_scenario"},
        {"question": "年假怎么申请", "source": "nowhere"},
        {"question": "它支持Mac吗", "history": ["VPN怎么连", ""]},
        {"question": "x" * 600},
    ]
    out, lines = cli_batch(cli, tmp_path, reqs, plan_only)
    assert out.returncode == 2
    for i, (req, want) in enumerate(zip(reqs, lines), start=1):
        assert '"error"' in want
        assert python_line(planner, qaplan, dict(req, _line=i), plan_only) == want


def _check_typed_views(prep, d):
    """The typed accessors say what the JSON (the CLI's) says."""
    assert prep.query == d["query"]
    assert prep.normalized_query == d["normalized_query"]
    assert prep.query_units == d["query_units"]
    assert prep.route.route == d["route"]["route"]
    assert prep.route.reason == d["route"]["reason"]
    assert prep.is_direct_answer == (d["route"]["route"] == "direct_answer")
    assert prep.effective_source == d["effective_source"]
    assert prep.effective_sources == d["effective_sources"]
    assert prep.fallback_sources == d["fallback_sources"]
    if d["intent"] is None:
        assert prep.intent is None
    else:
        i = d["intent"]
        assert prep.intent.intent == i["intent"]
        assert prep.intent.confidence == i["confidence"]
        assert prep.intent.rule_score == i["rule_score"]
        assert prep.intent.decision_policy == i["decision_policy"]
        assert prep.intent.requires_rewrite == i["requires_rewrite"]
        assert (prep.intent.model_candidate is None) == (i.get("model_candidate") is None)
    if d["retrieval_plan"] is None:
        assert prep.plan is None and prep.plan_trace is None
        return
    plan = d["retrieval_plan"]
    knobs = prep.plan.knobs()
    assert len(knobs) == 13
    assert list(knobs) == [k for k in plan if k in knobs]  # table order
    for k, v in knobs.items():
        assert plan[k] == v and type(plan[k]) is type(v), k
        assert getattr(prep.plan, k) == v
    assert prep.plan.reason == plan["reason"]
    assert prep.plan.question_category == prep.question_category
    fired = [(f.id, f.tag) for f in prep.plan_trace.fired]
    assert fired == [(f["id"], f["tag"]) for f in d["plan_trace"]["fired"]]
    for f, fd in zip(prep.plan_trace.fired, d["plan_trace"]["fired"]):
        assert [(c.field, c.op) for c in f.changes] == [(c["field"], c["op"]) for c in fd["changes"]]


def test_typed_views_match_the_cli(planner, cli):
    # The golden questions plus direct answers, follow-ups and a scenario/source request:
    # the reference is the CLI's live output, so a change of rules or model moves both sides.
    rows = read_jsonl(DATA / "golden_plans.jsonl")
    reqs = [(r["question"], r.get("history") or [], {}) for r in rows] + [
        ("你好", [], {}),
        ("帮我转人工", [], {}),
        ("它支持Mac吗", ["VPN怎么连"], {}),
        ("年假怎么申请", [], {"source": "finance"}),
        ("报销费用超过5000需要谁审批", [], {"scenario": "hr_helpdesk"}),
    ]
    kinds = set()
    for q, history, kw in reqs:
        args = [a for h in history for a in ("--history", h)]
        args += [a for k, v in kw.items() for a in (f"--{k}", v)]
        d = cli_plan(cli, q, *args)
        prep = planner.prepare(q, history, **kw)
        _check_typed_views(prep, d)
        kinds.add(prep.route.route)
        if prep.intent is not None:
            kinds.add(prep.intent.intent)
    assert {"direct_answer", "retrieval"} <= kinds  # both shapes were checked


def test_views_and_json_options(planner, qaplan):
    prep = planner.prepare("报销费用超过5000需要谁审批")
    d = prep.to_dict()
    assert "timings_us" not in d and "timings_us" in prep.to_dict(timings=True)
    assert prep.timings_us["total"] > 0
    assert json.loads(prep.to_json(pretty=True)) == d
    assert "\n" in prep.to_json(pretty=True) and "\n" not in prep.to_json()
    assert prep.route.route in repr(prep)
    direct = planner.prepare("你好")
    if direct.is_direct_answer:
        assert direct.route.reply and direct.to_dict()["route"]["reply"] == direct.route.reply
        assert direct.plan is None and direct.to_dict()["retrieval_plan"] is None


def test_history_scenario_source(planner):
    prep = planner.prepare("它支持Mac吗", history=["VPN怎么连"])
    assert prep.history == planner.rewrite("它支持Mac吗", ["VPN怎么连"])["history"]  # normalized
    # a tuple works like a list; bytes are taken as UTF-8
    assert planner.prepare("它支持Mac吗", ("VPN怎么连",)).to_json() == prep.to_json()
    assert planner.prepare("它支持Mac吗", ["VPN怎么连".encode()]).to_json() == prep.to_json()
    assert planner.prepare("年假怎么申请".encode()).query == "年假怎么申请"
    # an explicit source overrides the suggested one
    assert planner.prepare("年假怎么申请", source="finance").effective_source == "finance"


def test_rewrite_equals_cli(planner, cli):
    cases = [("它支持Mac吗", ["VPN怎么连"]), ("那经理呢", ["普通员工到一类城市出差住宿标准是多少？"]),
             ("年假怎么申请", []), ("你好", []), ("那这个呢", [])]
    for q, history in cases:
        args = [a for h in history for a in ("--history", h)]
        r = run_cli(cli, "rewrite", q, *args, "--config", str(RULES))
        assert planner.rewrite_json(q, history) == r.stdout.rstrip("\n"), q
        assert planner.rewrite(q, history) == json.loads(r.stdout)
    r = run_cli(cli, "rewrite", "它支持Mac吗", "--history", "VPN怎么连", "--pretty", "--config", str(RULES))
    assert planner.rewrite_json("它支持Mac吗", ["VPN怎么连"], pretty=True) == r.stdout.rstrip("\n")


def test_from_default_is_the_shipped_rules(qaplan, planner, monkeypatch):
    monkeypatch.delenv("QAPLAN_CONFIG", raising=False)
    default = qaplan.Planner.from_default()
    assert os.path.basename(default.config_path) == "rules.toml"
    shipped = qaplan.Planner(SOURCE_DIR / "config" / "rules.toml")  # the packaged copy's source
    q = "公司会议室预约规则在哪里查看以及需要遵守哪些流程要求"
    assert default.prepare(q).to_json() == shipped.prepare(q).to_json()
    monkeypatch.setenv("QAPLAN_CONFIG", str(RULES))
    assert qaplan.Planner.from_default().config_path == str(RULES)
    monkeypatch.setenv("QAPLAN_CONFIG", "/nonexistent/rules.toml")
    with pytest.raises(qaplan.IoError):
        qaplan.Planner.from_default()


def _cli_config_line(cli) -> str:
    """The file `qaplan -v plan` reports it read (stderr: "qaplan: config PATH (how)")."""
    r = run_cli(cli, "-v", "plan", "年假怎么申请", "--plan-only")
    line = r.stderr.strip().splitlines()[0]
    assert line.startswith("qaplan: config "), r.stderr
    return line[len("qaplan: config "):]


def test_from_default_follows_the_cli_lookup_order(qaplan, cli, tmp_path, monkeypatch):
    """One lookup everywhere: outside a checkout, with an empty user dir, the build-tree module
    reads the source tree's config/rules.toml in place (not its packaged copy), like the CLI;
    a rules file in the user config dir then wins in both, and both say so."""
    monkeypatch.delenv("QAPLAN_CONFIG", raising=False)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    path, how = qaplan.locate_config()
    assert (path, how) == (str(SOURCE_DIR / "config" / "rules.toml"), "build tree's source")
    assert qaplan.Planner.from_default().config_path == path
    assert _cli_config_line(cli) == f"{os.path.realpath(path)} ({how})"

    shutil.copytree(SOURCE_DIR / "config", tmp_path / "xdg" / "qaplan")  # rules + glossary, model
    user = tmp_path / "xdg" / "qaplan" / "rules.toml"
    path, how = qaplan.locate_config()
    assert (path, how) == (str(user), "user config dir")
    assert qaplan.Planner.from_default().config_path == str(user)
    assert _cli_config_line(cli) == f"{os.path.realpath(user)} (user config dir)"


@pytest.mark.parametrize(
    "args, kwargs, field",
    [
        (("",), {}, "question"),
        (("x" * 513,), {}, "question"),
        ((b"\xff\xfe",), {}, "question"),
        (("\ud800年假",), {}, "question"),  # a lone surrogate: invalid UTF-8 for the library
        ((123,), {}, "question"),
        ((None,), {}, "question"),
        (("年假怎么申请",), {"history": "VPN怎么连"}, "history"),  # a str is not a list of turns
        (("年假怎么申请",), {"history": ["ok", 5]}, "history[1]"),
        (("年假怎么申请",), {"history": ["ok", ""]}, "history[1]"),
        (("年假怎么申请",), {"history": ["q"] * 21}, "history"),
        (("年假怎么申请",), {"scenario": "nope"}, "scenario"),
        (("年假怎么申请",), {"source": "nope"}, "source"),
        (("年假怎么申请",), {"source": 1}, "source"),
    ],
)
def test_bad_requests_raise_invalid_input(qaplan, planner, args, kwargs, field):
    with pytest.raises(qaplan.InvalidInput) as info:
        planner.prepare(*args, **kwargs)
    e = info.value
    assert isinstance(e, qaplan.Error) and isinstance(e, ValueError)
    assert e.code == "invalid_input"
    assert e.field == e.key == field
    assert e.message and str(e).endswith(e.message)


@pytest.mark.parametrize(
    "kwargs, field",
    [
        ({"session_department": "\udc80"}, "session_department"),  # lone surrogate
        ({"session_department": b"\xff\xfe"}, "session_department"),
        ({"session_user": "a\x1b[31mb"}, "session_user"),  # a control byte
        ({"timezone": "\ud800"}, "timezone"),
    ],
)
def test_bad_analysis_context_raises_invalid_input(qaplan, planner, kwargs, field):
    prep = planner.prepare("我们组的报销流程")
    with pytest.raises(qaplan.InvalidInput) as info:
        planner.analyze(prep, **kwargs)
    assert info.value.field == field


def test_error_text_is_the_clis(qaplan, planner, cli):
    with pytest.raises(qaplan.InvalidInput) as info:
        planner.prepare("年假怎么申请", scenario="nope")
    r = run_cli(cli, "plan", "年假怎么申请", "--scenario", "nope", "--config", str(RULES), check=False)
    assert r.returncode == 2
    assert str(info.value) in r.stderr


def test_config_errors_carry_file_line_key(qaplan, tmp_path):
    with pytest.raises(qaplan.IoError) as io:
        qaplan.Planner(tmp_path / "missing.toml")
    assert isinstance(io.value, OSError) and io.value.code == "io_error"
    assert io.value.file and io.value.file.endswith("missing.toml")

    bad = tmp_path / "rules.toml"
    text = RULES.read_text(encoding="utf-8").replace(
        "[input]\n", "[input]\nno_such_key = 1\n", 1)
    assert "no_such_key" in text
    bad.write_text(text, encoding="utf-8")
    with pytest.raises(qaplan.InvalidConfig) as info:
        qaplan.Planner(bad)
    e = info.value
    assert e.code == "invalid_config" and e.file == str(bad)
    assert e.line and e.line > 1
    assert "no_such_key" in (e.key or "") + e.message
    assert str(e).startswith(f"{bad}:{e.line}")

    with pytest.raises(qaplan.InvalidInput):
        qaplan.Planner(42)


def test_a_host_lexicon_scopes_its_own_sources(qaplan, cli, tmp_path):
    """A planner built with a host's domain lexicon (domain_lexicon=) reports it and
    reads the host's words; a missing file is an error naming it."""
    lexicon = tmp_path / "bank.qdl"
    run_cli(cli, "domain", "build", "--kb", str(SOURCE_DIR / "eval_sets" / "domains" / "bank"),
            "--output", str(lexicon))
    default = qaplan.Planner(RULES)
    assert default.domain_description.startswith("kb.qdl sha256:")
    host = qaplan.Planner(RULES, domain_lexicon=lexicon)
    assert host.domain_description.startswith("bank.qdl sha256:")
    assert "4 sources" in host.domain_description
    with pytest.raises(qaplan.Error) as e:
        qaplan.Planner(RULES, domain_lexicon=tmp_path / "missing.qdl")
    assert "missing.qdl" in str(e.value)
