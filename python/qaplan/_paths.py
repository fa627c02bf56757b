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


def locate_config() -> tuple[str, str]:
    """(path, how) of the rules file used when none is named — the CLI's order exactly:
    $QAPLAN_CONFIG, the qaplan checkout holding the working directory, the user config dir
    ($XDG_CONFIG_HOME/qaplan, ~/.config/qaplan), the build tree's source (a build-tree module
    reads config/ in place, never a copy), then the packaged qaplan/data/rules.toml and
    the install prefix's share/qaplan/rules.toml. Raises IoError naming where it looked."""
    from . import _core

    packaged = _DATA if (_DATA / "rules.toml").is_file() else None
    return _core._locate_config(str(packaged) if packaged else None)


def default_config() -> str:
    """The path of locate_config()."""
    return locate_config()[0]


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
