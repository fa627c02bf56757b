"""prepare() and search() release the GIL: two threads sharing one Planner / index give exactly
the results one thread gives."""

from __future__ import annotations

import threading

from conftest import DATA, read_jsonl

QUESTIONS_FILES = ("own_plans.jsonl", "labelled_plans.jsonl", "followups.jsonl")


def _requests():
    rows = []
    for name in QUESTIONS_FILES:
        rows += read_jsonl(DATA / name)
    return [(r["question"], r.get("history") or []) for r in rows]


def _run_in_threads(n_threads, fn, items):
    results = [None] * n_threads
    errors = []
    start = threading.Barrier(n_threads)

    def work(t):
        try:
            start.wait()
            results[t] = [fn(it) for it in items]
        except BaseException as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(t,)) for t in range(n_threads)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(timeout=300)
    assert not errors, errors
    return results


def test_two_threads_plan_like_one(planner):
    reqs = _requests() * 3
    assert len(reqs) > 1000
    one = [planner.prepare(q, h).to_json() for q, h in reqs]
    both = _run_in_threads(2, lambda r: planner.prepare(r[0], r[1]).to_json(), reqs)
    assert both[0] == one
    assert both[1] == one


def test_two_threads_search_like_one(qaplan):
    docs = read_jsonl(DATA.parent.parent / "eval_sets" / "kb" / "docs.jsonl")
    index = qaplan.Bm25Index([d["text"] for d in docs], [d["id"] for d in docs])
    queries = [q for q, _ in _requests()][:400]
    one = [[(h.id, h.score) for h in index.search(q, 10)] for q in queries]
    both = _run_in_threads(2, lambda q: [(h.id, h.score) for h in index.search(q, 10)], queries)
    assert both == [one, one]
    assert sum(len(r) for r in one) > 0
