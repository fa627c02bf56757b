"""Where the package finds its data: the shipped rules and the frozen benchmark's inputs.

The package carries them in ``qaplan/data/`` (pip install and the build tree alike); a CMake
install puts the same files in ``<prefix>/share/qaplan/``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from ._errors import IoError

_DATA = Path(__file__).resolve().parent / "data"


def _share_dirs() -> list[Path]:
    out = []
    for prefix in dict.fromkeys([sys.prefix, sys.base_prefix, "/usr/local", "/usr"]):
        out.append(Path(prefix) / "share" / "qaplan")
    return out


def default_config() -> str:
    """$QAPLAN_CONFIG, else the packaged rules.toml, else <prefix>/share/qaplan/rules.toml."""
    env = os.environ.get("QAPLAN_CONFIG")
    if env:
        return env
    candidates = [_DATA / "rules.toml"] + [d / "rules.toml" for d in _share_dirs()]
    for c in candidates:
        if c.is_file():
            return str(c)
    raise IoError(
        "no config found: pass Planner(path) or set QAPLAN_CONFIG (looked in "
        + ", ".join(str(c) for c in candidates) + ")",
        field="config",
    )


def eval_sets_dir() -> Path:
    """The directory holding policy-retrieval-v1.json (packaged copy first)."""
    candidates = [_DATA / "eval_sets"] + [d / "eval_sets" for d in _share_dirs()]
    for c in candidates:
        if (c / "policy-retrieval-v1.json").is_file():
            return c
    raise IoError(
        "no benchmark dataset found: pass dataset= (looked in "
        + ", ".join(str(c) for c in candidates) + ")",
        field="dataset",
    )
