#!/usr/bin/env python3
"""Python prepare() overhead over C++ (docs/python.md, Speed).

Both sides use tools/bench/planner_bench's --per-question protocol on the same questions
(tools/bench/data/planner_questions.jsonl, the shipped rules), in the same process:
one warm-up pass, then REPS passes over the whole set, every prepare() timed on its own, the
median kept per question.

  C++     Planner._prepare_loop_ns(): qaplan::Planner::prepare() in a C++ loop (no Python)
  Python  planner.prepare(question, history) timed with time.perf_counter_ns() — argument
          conversion, GIL release/re-acquire, the Preparation object; the timer's own cost counts
          against Python

ROUNDS rounds alternate C++ and Python (a busy machine slows both alike); a question's figure is
the median over rounds. Reported: the median over questions of each side, of the per-question
difference (the overhead) and of the per-question ratio.

    PYTHONPATH=build/python taskset -c 1 python3 python/bench_prepare.py [--reps 200] [--rounds 5]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

# This script sits beside the package's sources (python/qaplan, no _core there): import the built
# or installed qaplan instead of that folder.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]

import qaplan  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def python_medians(planner, requests, reps):
    prepare = planner.prepare
    clock = time.perf_counter_ns
    for q, h in requests:  # warm-up pass
        prepare(q, h)
    samples = [[0] * reps for _ in requests]
    for r in range(reps):
        for i, (q, h) in enumerate(requests):
            t0 = clock()
            prepare(q, h)
            samples[i][r] = clock() - t0
    return [statistics.median(s) for s in samples]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--questions", default=str(ROOT / "tools/bench/data/planner_questions.jsonl"))
    ap.add_argument("--config", default=str(ROOT / "config/rules.toml"))
    ap.add_argument("--reps", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--json", action="store_true", help="print the summary as JSON")
    args = ap.parse_args(argv)

    rows = [json.loads(l) for l in Path(args.questions).read_text(encoding="utf-8").splitlines() if l.strip()]
    requests = [(r["question"], r.get("history") or []) for r in rows]
    planner = qaplan.Planner(args.config)
    cpp_rounds, py_rounds = [], []
    for _ in range(args.rounds):
        cpp_rounds.append(planner._prepare_loop_ns(requests, args.reps))
        py_rounds.append(python_medians(planner, requests, args.reps))
    n = len(requests)
    cpp = [statistics.median(r[i] for r in cpp_rounds) for i in range(n)]
    py = [statistics.median(r[i] for r in py_rounds) for i in range(n)]
    diff = [p - c for p, c in zip(py, cpp)]
    ratio = [p / c for p, c in zip(py, cpp)]

    def q(v, p):
        s = sorted(v)
        return s[min(len(s) - 1, max(0, int(round(p / 100 * len(s) + 0.5)) - 1))]

    summary = {
        "questions": n, "reps": args.reps, "rounds": args.rounds,
        "cpp_median_us": statistics.median(cpp) / 1000,
        "python_median_us": statistics.median(py) / 1000,
        "overhead_median_us": statistics.median(diff) / 1000,
        "overhead_p95_us": q(diff, 95) / 1000,
        "ratio_median": statistics.median(ratio),
        "per_round_overhead_median_us": [
            statistics.median(p - c for p, c in zip(pr, cr)) / 1000 for pr, cr in zip(py_rounds, cpp_rounds)],
    }
    if args.json:
        print(json.dumps(summary))
    else:
        print(f"{n} questions x {args.reps} reps x {args.rounds} rounds (per-question medians)")
        print(f"  C++ prepare()      median {summary['cpp_median_us']:.3f} us")
        print(f"  Python prepare()   median {summary['python_median_us']:.3f} us")
        print(f"  overhead (py - c++) median {summary['overhead_median_us']:.3f} us, "
              f"p95 {summary['overhead_p95_us']:.3f} us (target <= 2 us)")
        print(f"  ratio py / c++     median {summary['ratio_median']:.2f}")
        print("  overhead per round: " + ", ".join(f"{x:.3f}" for x in summary["per_round_overhead_median_us"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
