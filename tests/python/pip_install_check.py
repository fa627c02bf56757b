#!/usr/bin/env python3
"""`pip install . --no-build-isolation --no-index` works with Debian's setuptools (issue 13 item 1).

ctest `python_pip_install`: a throw-away venv (--system-site-packages: Debian's setuptools,
wheel, numpy), pip with --no-index (any download attempt fails the install), the extension built
through setup.py in the already configured CMake tree (QAPLAN_CMAKE_BUILD_DIR). Then, from a
neutral directory so the checkout's python/qaplan cannot shadow it: the installed package is
the one imported, ships its stubs, py.typed and data, and plans a question exactly like the CLI.

    tests/python/pip_install_check.py SOURCE_DIR BUILD_DIR CLI
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

CHECK = r"""
import json, os, sys
from pathlib import Path
import qaplan
pkg = Path(qaplan.__file__).resolve().parent
assert str(pkg).startswith(sys.prefix), (pkg, sys.prefix)
for f in ("_core.pyi", "py.typed", "data/rules.toml", "data/eval_sets/policy-retrieval-v1.json"):
    assert (pkg / f).is_file(), f
planner = qaplan.Planner.from_default()
assert Path(planner.config_path).resolve() == (pkg / "data" / "rules.toml").resolve()
print(json.dumps({"plan": planner.prepare(sys.argv[1]).to_json(), "pkg": str(pkg)}))
"""


def main() -> int:
    source, build, cli = (Path(a).resolve() for a in sys.argv[1:4])
    question = "报销费用超过5000需要谁审批"
    with tempfile.TemporaryDirectory(prefix="qaplan-pip-") as tmp:
        venv = Path(tmp) / "venv"
        subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True)
        py = venv / "bin" / "python"
        env = dict(os.environ, QAPLAN_CMAKE_BUILD_DIR=str(build), PIP_NO_INPUT="1",
                   PIP_DISABLE_PIP_VERSION_CHECK="1")
        env.pop("PYTHONPATH", None)
        env.pop("QAPLAN_CONFIG", None)
        r = subprocess.run([str(py), "-m", "pip", "install", "--no-build-isolation", "--no-index",
                            str(source)], env=env, capture_output=True, text=True)
        if r.returncode != 0:
            sys.stderr.write(r.stdout[-4000:] + r.stderr[-4000:])
            print(f"FAILED: pip install exited {r.returncode}")
            return 1
        r = subprocess.run([str(py), "-c", CHECK, question], env=env, cwd=tmp, capture_output=True,
                           text=True)
        if r.returncode != 0:
            sys.stderr.write(r.stderr)
            print("FAILED: the installed package does not work")
            return 1
        got = json.loads(r.stdout)
        want = subprocess.run([str(cli), "plan", question, "--plan-only", "--config",
                               str(source / "config" / "rules.toml")], env=env, capture_output=True,
                              text=True, check=True).stdout.rstrip("\n")
        if got["plan"] != want:
            print(f"FAILED: installed qaplan ({got['pkg']}) plans differently from the CLI:\n"
                  f"  python {got['plan']}\n  cli    {want}")
            return 1
        print(f"ok: pip install --no-build-isolation --no-index → {got['pkg']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
