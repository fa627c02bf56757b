#!/usr/bin/env python3
"""Check that each third-party library enters qaplan's headers through one private adapter.

    scripts/third_party_headers.py [--root DIR]
    scripts/third_party_headers.py --selftest

ctest runs it as `third_party_headers` (label unit) and `third_party_headers_selftest`.

The rule (docs/architecture.md, "Public headers"): a third-party header (nlohmann, toml++ or
toml11, Nettle, OpenCC, hnswlib, ICU, spdlog, LIBLINEAR, xxHash) is included by .cpp files, or by
the one private adapter header that wraps its library (ADAPTERS below) — by no other header
under src/, include/ or tools/, public headers included. And an adapter header is itself
included only from .cpp files: a header that included it would carry the library to every file
that includes that header, which is what the adapter is there to stop.

Prints one line per violation, `<header>:<line>: <what> …`, and exits 1 when there is any. An
exception is allowed only when listed in ALLOWED with its reason; an ALLOWED entry that no longer
matches an include fails too (the list can only shrink), as does an adapter that is missing or
no longer includes its library (the table must say where each library is wrapped).

What it reads: `#include` lines (angle brackets or quotes, at the start of a line); a quoted
include is resolved against the including file's folder, then src/ and include/. Includes
inside `#if 0` or made by macros are not seen; the tree has none.
"""
from __future__ import annotations

import argparse
import os
import re
import sys

# library → (what its include paths start with, its adapter header or None for .cpp files only)
ADAPTERS = {
    "nlohmann JSON": (("nlohmann/",), "src/common/json_reader.hpp"),
    "toml++ / toml11": (("toml++/", "toml.hpp", "toml/"), "src/common/toml_reader.hpp"),
    "Nettle": (("nettle/",), "src/common/sha256.hpp"),
    "OpenCC": (("opencc/",), "src/planning/tw2s.hpp"),
    "hnswlib": (("hnswlib/",), "src/ranking/internal/hnsw_adapter.hpp"),
    "ICU": (("unicode/",), None),
    "spdlog": (("spdlog/", "fmt/"), None),
    "LIBLINEAR": (("linear.h",), None),
    "xxHash": (("xxhash.h",), None),
}

# (header, included path) → why this header may include it. Keep it short.
ALLOWED = {
    ("src/engines/request_shape.hpp", "common/json_reader.hpp"):
        "the engines room's request builders: every declaration here builds or takes a request "
        "body (nlohmann::ordered_json), and only the engines' own .cpp files, which all build "
        "JSON, include it",
}

DIRS = ("src", "include", "tools")
HEADER_EXT = (".hpp", ".h", ".hh", ".hxx")
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')


def includes(path: str):
    """(line number, delimiter, path) of every #include line of a file."""
    with open(path, encoding="utf-8", errors="replace") as f:
        for no, line in enumerate(f, 1):
            m = INCLUDE.match(line)
            if m:
                yield no, m.group(1), m.group(2)


def resolve(root: str, including: str, target: str) -> str | None:
    """The root-relative path of a quoted include, when it names a file of the tree."""
    for base in (os.path.dirname(os.path.join(root, including)), os.path.join(root, "src"),
                 os.path.join(root, "include")):
        p = os.path.normpath(os.path.join(base, target))
        if os.path.isfile(p):
            return os.path.relpath(p, root).replace(os.sep, "/")
    return None


def library_of(target: str, adapters) -> str | None:
    for lib, (prefixes, _) in adapters.items():
        if any(target == p or (p.endswith("/") and target.startswith(p)) for p in prefixes):
            return lib
    return None


def headers(root: str, dirs=DIRS):
    for d in dirs:
        for dirpath, dirnames, filenames in os.walk(os.path.join(root, d)):
            dirnames.sort()
            for fn in sorted(filenames):
                if fn.endswith(HEADER_EXT):
                    yield os.path.relpath(os.path.join(dirpath, fn), root).replace(os.sep, "/")


def adapter_paths(root: str, h: str, owner, memo, active=()):
    """{adapter: the include chain from `h` to it} for every adapter `h` brings in, directly or
    through the tree's own headers."""
    if h in memo:
        return memo[h]
    found = {}
    for _, delim, target in includes(os.path.join(root, h)):
        resolved = resolve(root, h, target) if delim == '"' else None
        if resolved is None or resolved in active or not resolved.endswith(HEADER_EXT):
            continue
        if resolved in owner:
            found.setdefault(resolved, [h, resolved])
            continue
        for adapter, chain in adapter_paths(root, resolved, owner, memo, active + (h,)).items():
            found.setdefault(adapter, [h] + chain)
    memo[h] = found
    return found


def check(root: str, adapters=ADAPTERS, allowed=ALLOWED, dirs=DIRS):
    """Returns (problems, number of headers read)."""
    owner = {a: lib for lib, (_, a) in adapters.items() if a}
    problems, used, seen, memo = [], set(), 0, {}
    for h in headers(root, dirs):
        seen += 1
        for no, delim, target in includes(os.path.join(root, h)):
            lib = library_of(target, adapters)
            if lib is not None:
                adapter = adapters[lib][1]
                if h == adapter:
                    continue
                if (h, target) in allowed:
                    used.add((h, target))
                    continue
                where = adapter if adapter else ".cpp files"
                problems.append(f"{h}:{no}: includes <{target}> ({lib}); only {where} may")
                continue
            resolved = resolve(root, h, target) if delim == '"' else None
            if resolved is None or resolved == h:
                continue
            reached = {resolved: [h, resolved]} if resolved in owner else {
                a: [h] + chain for a, chain in adapter_paths(root, resolved, owner, memo).items()}
            if reached and (h, target) in allowed:
                used.add((h, target))
                continue
            for adapter, chain in sorted(reached.items()):
                via = "" if len(chain) == 2 else " (" + " → ".join(chain[1:]) + ")"
                problems.append(f"{h}:{no}: brings the {owner[adapter]} adapter {adapter} into a "
                                f"header{via}; only .cpp files may include it (forward-declare, "
                                "or move what needs the library into a .cpp)")
    for h, target in sorted(set(allowed) - used):
        problems.append(f"{h}: allow-listed for {target} but no longer includes it: remove the "
                        "entry from ALLOWED")
    for lib, (prefixes, adapter) in adapters.items():
        if not adapter:
            continue
        path = os.path.join(root, adapter)
        if not os.path.isfile(path):
            problems.append(f"{adapter}: the {lib} adapter named in ADAPTERS does not exist")
        elif not any(library_of(t, {lib: (prefixes, adapter)}) for _, _, t in includes(path)):
            problems.append(f"{adapter}: the {lib} adapter named in ADAPTERS does not include it")
    return problems, seen


SELFTEST_TREE = {
    "src/common/json_reader.hpp": "#pragma once\n#include <nlohmann/json.hpp>\n",
    "src/common/json_reader.cpp": '#include "common/json_reader.hpp"\n#include <unicode/ucnv.h>\n',
    "src/common/plain.hpp": "#pragma once\n#include <string>\n// #include <nlohmann/json.hpp>\n",
    "src/common/spread.hpp": '#pragma once\n#include "json_reader.hpp"\n',
    "src/room/direct.hpp": "#pragma once\n#  include <nlohmann/json_fwd.hpp>\n",
    "src/room/icu.h": "#pragma once\n#include <unicode/unistr.h>\n",
    "src/room/excused.hpp": '#pragma once\n#include "common/json_reader.hpp"\n',
    "src/room/above.hpp": '#pragma once\n#include "room/excused.hpp"\n#include "common/plain.hpp"\n',
    "src/room/user.cpp": '#include "common/json_reader.hpp"\n#include <linear.h>\n',
    "include/qaplan/public.hpp": '#pragma once\n#include "toml++/toml.h"\n',
    "tools/cli.hpp": "#pragma once\n#include <CLI/CLI.hpp>\n",
}


def selftest() -> int:
    """Run the check on a small tree: exactly the violations it holds must be reported."""
    import tempfile
    adapters = {"nlohmann JSON": (("nlohmann/",), "src/common/json_reader.hpp"),
                "toml++ / toml11": (("toml++/",), "src/common/toml_reader.hpp"),
                "ICU": (("unicode/",), None), "LIBLINEAR": (("linear.h",), None)}
    allowed = {("src/room/excused.hpp", "common/json_reader.hpp"): "test",
               ("src/room/gone.hpp", "common/json_reader.hpp"): "test"}
    with tempfile.TemporaryDirectory() as root:
        for rel, text in SELFTEST_TREE.items():
            os.makedirs(os.path.dirname(os.path.join(root, rel)), exist_ok=True)
            with open(os.path.join(root, rel), "w", encoding="utf-8") as f:
                f.write(text)
        problems, seen = check(root, adapters, allowed)
    got = sorted(p.split(" ", 1)[0] for p in problems)
    want = sorted(["src/common/spread.hpp:2:", "src/room/direct.hpp:2:", "src/room/icu.h:2:",
                   "include/qaplan/public.hpp:2:", "src/room/above.hpp:2:", "src/room/gone.hpp:",
                   "src/common/toml_reader.hpp:"])
    if got != want or seen != 9:
        print(f"FAIL: selftest reported {got} over {seen} headers, expected {want} over 9")
        for p in problems:
            print("  " + p)
        return 1
    print("selftest ok")
    return 0


def main() -> int:
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", default=os.path.dirname(here))
    ap.add_argument("--selftest", action="store_true", help="check the checker on a small tree")
    args = ap.parse_args()
    if args.selftest:
        return selftest()
    problems, seen = check(args.root)
    for p in problems:
        print("FAIL: " + p)
    for (h, target), why in sorted(ALLOWED.items()):
        print(f"allowed: {h} includes {target}: {why}")
    print(f"{seen} headers under {', '.join(d + '/' for d in DIRS)}: {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
