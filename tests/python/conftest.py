"""Shared fixtures of the Python binding's tests (pytest; ctest label `python`).

Environment (ctest sets all of them; see python/CMakeLists.txt):
  PYTHONPATH             the build tree's python/ folder, or nothing for an installed qaplan
  QAPLAN_BIN             the CLI the results are compared with
  QAPLAN_SOURCE_DIR      the checkout (test data, examples); default: two levels up
  QAPLAN_TEST_CONFIG     the rules file (default: <checkout>/config/rules.toml)
  QAPLAN_SKIP_EXIT_CODE  when set, a run that passed but skipped something exits with this code
                         (ctest's SKIP_RETURN_CODE), so a missing dependency is never a silent pass
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

SOURCE_DIR = Path(os.environ.get("QAPLAN_SOURCE_DIR") or Path(__file__).resolve().parents[2])
# The rules both sides run with; QAPLAN_TEST_CONFIG swaps them (e.g. a copy with [model] on).
RULES = Path(os.environ.get("QAPLAN_TEST_CONFIG") or SOURCE_DIR / "config" / "rules.toml")
DATA = SOURCE_DIR / "tests" / "data"


def _find_cli() -> str | None:
    env = os.environ.get("QAPLAN_BIN")
    if env:
        return env if Path(env).is_file() else None
    for build in ("build", "build-py"):
        p = SOURCE_DIR / build / "qaplan"
        if p.is_file():
            return str(p)
    return shutil.which("qaplan")


@pytest.fixture(scope="session")
def qaplan():
    import qaplan as q

    return q


@pytest.fixture(scope="session")
def cli() -> str:
    path = _find_cli()
    if path is None:
        pytest.skip("SKIPPED: no qaplan CLI to compare with (set QAPLAN_BIN or build build/qaplan)")
    return path


@pytest.fixture(scope="session")
def planner(qaplan):
    return qaplan.Planner(str(RULES))


# The analysis stage anchors relative time at `now`; the CLI reads the clock unless given --now.
# Both sides get the same fixed anchor and time-zone label so their JSON can be compared.
NOW = "2026-11-30T10:00:00+08:00"
TZ = "Asia/Shanghai"

# [intent_gateway] model_budget_us in the edited configs below (ROOMY_BUDGET).
MODEL_BUDGET_US = 1_000_000


def set_key(lines: list, table: str, key: str, value: str, origin: Path) -> None:
    """Sets `key = value` in `[table]` of a rules.toml split into lines; the key must exist."""
    start = lines.index("[" + table + "]")
    for i in range(start + 1, len(lines)):
        if lines[i].startswith("["):
            break
        if lines[i].split("=")[0].strip() == key:
            lines[i] = key + " = " + value
            return
    raise AssertionError(f"no `{key}` key in [{table}] of {origin}")


def edited_config(tmp_path_factory, edits) -> Path:
    """A copy of the shipped config/ with `(table, key, value)` edits in its rules.toml."""
    dst = tmp_path_factory.mktemp("config") / "config"
    shutil.copytree(RULES.parent, dst)
    rules = dst / "rules.toml"
    lines = rules.read_text(encoding="utf-8").split("\n")
    for table, key, value in edits:
        set_key(lines, table, key, value, RULES)
    rules.write_text("\n".join(lines), encoding="utf-8")
    return rules


# The host-model budget in the fixtures below is 1 s instead of the shipped 2 ms, so a test whose
# model answers at once cannot fail because a loaded 2-core CI machine preempted it mid-call; the
# timeout test sleeps past whatever budget it is given.
ROOMY_BUDGET = ("intent_gateway", "model_budget_us", str(MODEL_BUDGET_US))


@pytest.fixture(scope="session")
def rules_without_model(tmp_path_factory) -> Path:
    """The shipped rules with [model] enabled = false: the rule-only planner, for tests of how a
    host's intent model is arbitrated against the rules (whatever the shipped rules.toml says
    about the built-in model)."""
    return edited_config(tmp_path_factory, [("model", "enabled", "false"), ROOMY_BUDGET])


@pytest.fixture(scope="session")
def rules_roomy_budget(tmp_path_factory) -> Path:
    """The shipped rules, built-in model as shipped, with the roomy host-model budget."""
    return edited_config(tmp_path_factory, [ROOMY_BUDGET])


def cli_plan(cli: str, question: str, *args: str, config: Path = RULES, plan_only: bool = True) -> dict:
    """`qaplan plan` for one question, parsed (the live reference the typed views are checked
    against, so a change of rules or model changes both sides)."""
    extra = ["--plan-only"] if plan_only else ["--now", NOW, "--tz", TZ]
    r = run_cli(cli, "plan", question, *args, "--config", str(config), *extra)
    return json.loads(r.stdout)


def run_cli(cli: str, *args: str, input: str | None = None, check: bool = True) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env.pop("QAPLAN_CONFIG", None)
    r = subprocess.run([cli, *args], capture_output=True, text=True, encoding="utf-8", env=env,
                       input=input)
    if check and r.returncode != 0:
        raise AssertionError(f"{cli} {' '.join(args)} exited {r.returncode}: {r.stderr}")
    return r


def read_jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def compact(obj) -> str:
    """json.dumps the way the library's serializer writes: compact, UTF-8, keys in order."""
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def pytest_sessionfinish(session, exitstatus):
    code = os.environ.get("QAPLAN_SKIP_EXIT_CODE")
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    skipped = len(reporter.stats.get("skipped", [])) if reporter else 0
    if skipped and exitstatus == 0:
        sys.stderr.write(f"\nQAPLAN-PYTHON: {skipped} test(s) SKIPPED — see the reasons above\n")
        if code:
            session.exitstatus = int(code)
