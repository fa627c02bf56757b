#!/usr/bin/env python3
"""`pip install . --no-build-isolation --no-index` works with Debian's setuptools (docs/python.md)
and with every other CPython of the same minor version on PATH (pyenv's, without `wheel`).

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


def other_interpreters() -> list[str]:
    """Other CPythons on PATH (a pyenv shim, say) of this one's minor version: the configured build
    tree's extension fits them, so their `pip install .` is checked too (pyenv's Python has
    no `wheel`; setup.py borrows Debian's)."""
    seen = {os.path.realpath(sys.executable)}
    out = []
    for name in ("python3", f"python3.{sys.version_info[1]}"):
        for d in os.environ.get("PATH", "").split(os.pathsep):
            exe = Path(d) / name
            if not exe.is_file() or not os.access(exe, os.X_OK):
                continue
            r = subprocess.run([str(exe), "-c", "import sys; print(sys.executable, sys.version_info[0], "
                                "sys.version_info[1], sys.implementation.name)"],
                               capture_output=True, text=True)
            if r.returncode != 0:
                continue
            real, major, minor, impl = r.stdout.split()
            if os.path.realpath(real) in seen or impl != "cpython":
                continue
            seen.add(os.path.realpath(real))
            if (int(major), int(minor)) != sys.version_info[:2]:
                print(f"SKIPPED: {real} is Python {major}.{minor}; the build tree is for "
                      f"{sys.version_info[0]}.{sys.version_info[1]} (run pip install . with it to check)")
                continue
            out.append(real)
    return out


def check_install(python: str, source: Path, build: Path, cli: Path, question: str) -> bool:
    with tempfile.TemporaryDirectory(prefix="qaplan-pip-") as tmp:
        venv = Path(tmp) / "venv"
        subprocess.run([python, "-m", "venv", "--system-site-packages", str(venv)], check=True)
        py = venv / "bin" / "python"
        env = dict(os.environ, QAPLAN_CMAKE_BUILD_DIR=str(build), PIP_NO_INPUT="1",
                   PIP_DISABLE_PIP_VERSION_CHECK="1", HOME=tmp, XDG_CONFIG_HOME=tmp)
        env.pop("PYTHONPATH", None)
        env.pop("QAPLAN_CONFIG", None)
        r = subprocess.run([str(py), "-m", "pip", "install", "--no-build-isolation", "--no-index",
                            str(source)], env=env, capture_output=True, text=True)
        if r.returncode != 0:
            sys.stderr.write(r.stdout[-4000:] + r.stderr[-4000:])
            print(f"FAILED: pip install with {python} exited {r.returncode}")
            return False
        r = subprocess.run([str(py), "-c", CHECK, question], env=env, cwd=tmp, capture_output=True,
                           text=True)
        if r.returncode != 0:
            sys.stderr.write(r.stderr)
            print(f"FAILED: the package installed with {python} does not work")
            return False
        got = json.loads(r.stdout)
        want = subprocess.run([str(cli), "plan", question, "--plan-only", "--config",
                               str(source / "config" / "rules.toml")], env=env, capture_output=True,
                              text=True, check=True).stdout.rstrip("\n")
        if got["plan"] != want:
            print(f"FAILED: installed qaplan ({got['pkg']}) plans differently from the CLI:\n"
                  f"  python {got['plan']}\n  cli    {want}")
            return False
        print(f"ok: {python}: pip install --no-build-isolation --no-index → {got['pkg']}")
    return True


def main() -> int:
    source, build, cli = (Path(a).resolve() for a in sys.argv[1:4])
    question = "报销费用超过5000需要谁审批"
    ok = True
    for python in [sys.executable] + other_interpreters():
        ok = check_install(python, source, build, cli, question) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
