"""The Python blocks users copy run as written: docs/python.md's quickstart and saved-index
blocks, and the README's quickstart. Each runs in a fresh interpreter (as a user's script would,
so a crash at exit fails too). With the shipped rules, a `# …` line right after a `print(…)` line
is the output the doc shows, and it must be what the block printed."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import RULES, SOURCE_DIR, run_cli

PYTHON_DOC = SOURCE_DIR / "docs" / "python.md"
README = SOURCE_DIR / "README.md"


def python_block(doc: Path, heading: str) -> str:
    """The first ```python block after the line `heading`."""
    text = doc.read_text(encoding="utf-8")
    at = text.find("\n" + heading + "\n")
    assert at >= 0, f"{doc.name} has no '{heading}' section"
    m = re.compile(r"```python\n(.*?)```", re.S).search(text, at)
    assert m, f"{doc.name}: no ```python block under '{heading}'"
    return m.group(1)


def shown_output(block: str) -> list[tuple[int, str]]:
    """(n, text): the n-th print() of the block is shown to print `text`."""
    lines = block.splitlines()
    out, prints = [], 0
    for i, line in enumerate(lines):
        if line.lstrip().startswith("print("):
            if i + 1 < len(lines) and lines[i + 1].startswith("# "):
                out.append((prints, lines[i + 1][2:]))
            prints += 1
    return out


def run_blocks(tmp_path: Path, *blocks: str, index: Path | None = None) -> None:
    pytest.importorskip("numpy", reason="SKIPPED: numpy is not installed (apt-get install python3-numpy)")
    code = "\n".join(blocks)
    if index is not None:
        code = code.replace('"/tmp/ix"', repr(str(index)))
    script = tmp_path / "doc_block.py"
    script.write_text(code, encoding="utf-8")
    env = dict(os.environ)
    env["QAPLAN_CONFIG"] = str(RULES)  # Planner.from_default(): the rules the suite runs with
    r = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                       encoding="utf-8", env=env, cwd=tmp_path, timeout=300)
    assert r.returncode == 0, f"exit {r.returncode}\n{r.stdout}\n{r.stderr}"
    if os.environ.get("QAPLAN_TEST_CONFIG"):
        return  # other rules may plan otherwise: the block must run, its shown output is the shipped rules'
    printed = r.stdout.splitlines()
    for n, want in shown_output(code):
        assert n < len(printed), f"print #{n + 1} printed nothing; stdout:\n{r.stdout}"
        assert printed[n] == want, f"print #{n + 1}: the doc shows\n  {want}\nbut it printed\n  {printed[n]}"


@pytest.fixture(scope="module")
def saved_index(cli, tmp_path_factory) -> Path:
    """What the README's quickstart builds in /tmp/ix."""
    out = tmp_path_factory.mktemp("docs") / "ix"
    run_cli(cli, "index", "build", "--corpus", str(SOURCE_DIR / "eval_sets" / "kb" / "docs.jsonl"),
            "--output", str(out))
    return out


def test_python_quickstart_runs_as_written(tmp_path):
    block = python_block(PYTHON_DOC, "## Quickstart")
    assert len(shown_output(block)) >= 4
    run_blocks(tmp_path, block)


def test_saved_index_block_runs_after_the_quickstart(tmp_path, saved_index):
    ask = python_block(PYTHON_DOC, "## Passages from a saved index")
    assert '"/tmp/ix"' in ask
    run_blocks(tmp_path, python_block(PYTHON_DOC, "## Quickstart"), ask, index=saved_index)


def test_readme_python_quickstart_runs_as_written(tmp_path, saved_index):
    block = python_block(README, "## Quickstart")
    assert '"/tmp/ix"' in block
    run_blocks(tmp_path, block, index=saved_index)
