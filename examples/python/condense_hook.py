#!/usr/bin/env python3
"""A host's condense-question step as qaplan's rewrite hook (docs/rewrite.md).

The callable below stands in for the LLM a host would call: it gets qaplan's filled-in prompt
(the follow-up, the compressed history) and answers with a JSON array holding one standalone
question. qaplan validates it (the turn's numbers, IDs and entities kept; no dropped word, split
word, repeated seam or pasted history clause) and uses it instead of the built-in rewrite; when
the answer is refused or the call fails, the built-in rewrite stands and `rewrite.reasons` says
why.

    python3 examples/python/condense_hook.py [--json]
"""
from __future__ import annotations

import json
import sys

import qaplan

# What the stand-in "LLM" answers, by follow-up. A real hook sends req.prompt to its model.
CANNED = {
    "需要提前几天": "年假申请需要提前几天",
    "那病假呢": "病假怎么申请",
    "最多能报多少": "年假最多能休多少天",  # off the turn's words: refused, the built-in stands
}


def llm(req: qaplan.RewriteRequest) -> str:
    if req.kind != "condense":
        return "[]"
    if req.question not in CANNED:
        raise RuntimeError("model server unavailable")  # the built-in rewrite stands
    return json.dumps([CANNED[req.question]], ensure_ascii=False)


DIALOGS = [
    ("需要提前几天", ["年假怎么申请"]),
    ("那病假呢", ["年假怎么申请"]),
    ("最多能报多少", ["出差打车可以报销吗"]),
    ("那婚假呢", ["年假怎么申请"]),
]


def main() -> int:
    as_json = "--json" in sys.argv[1:]
    planner = qaplan.Planner.from_default(rewriters={"llm": llm}, rewrite_hook="llm",
                                          rewrite_kinds=["condense"])
    for question, history in DIALOGS:
        prep = planner.prepare(question, history=history)
        a = planner.analyze(prep, now="2026-03-15T10:00:00+08:00")
        row = {"question": question, "history": history, "query": a.rewrite.query,
               "by": a.rewrite.by, "reasons": list(a.rewrite.reasons)}
        if as_json:
            print(json.dumps(row, ensure_ascii=False))
        else:
            print(f"{' / '.join(history)} → {question}\n    {a.rewrite.query}  ({a.rewrite.by}; "
                  f"{', '.join(a.rewrite.reasons)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
