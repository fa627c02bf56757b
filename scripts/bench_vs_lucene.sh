#!/usr/bin/env bash
# Speed of qaplan BM25 top-10 vs Lucene 8 (block-max WAND `topk` mode) on the same synthetic corpus,
# in one run (issue 3 item 15). A benchmark, not a test: it never fails on a missed target, it prints
# the numbers and says which targets were met.
#
#   scripts/bench_vs_lucene.sh [QAPLAN_BIN] [SHARED_DIR]
#     QAPLAN_BIN  the qaplan CLI (default: build/qaplan under the repo root)
#     SHARED_DIR  the shared folder with peers/ (default: ../shared beside the repo root)
#   Environment (defaults in brackets):
#     CORPORA     space-separated NDOCSxMEANLEN ["200000x60 20000x300"], e.g. "10000x60 100000x60"
#     PAIRS       qaplan/Lucene runs per corpus and query set, run alternately [3]
#     ROUNDS      timed rounds per run after 2 warm-ups; the best round is reported [3]
#     NORMS       qaplan --norms [lucene] (same one-byte norms as Lucene, so same top-10)
#     BENCH_DATA  where generated corpora are cached [${TMPDIR:-/tmp}/qaplan-bench]
#     RAW_OUT     also append the raw per-run measurements (TSV) to this file [none]
#
# Corpora come from peers/gen_zipf_corpus.py (vocab 50 000, Zipf s 1.0, seed 42); each has 1 000
# short (3-term) and 1 000 long (12-term) queries. Protocol for both systems (the harness's): one
# thread, two warm-up rounds over all queries, then the best of ROUNDS timed rounds; QPS of that
# round and per-query nearest-rank p50/p95 latency. The pairs alternate which system runs first.
# Ratios are taken per pair (qaplan ÷ Lucene for QPS, qaplan ÷ Lucene for latencies) and quoted as
# median [min–max] over the pairs.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-$root/build/qaplan}
shared=${2:-$root/../shared}
corpora=${CORPORA:-"200000x60 20000x300"}
pairs=${PAIRS:-3}
rounds=${ROUNDS:-3}
norms=${NORMS:-lucene}
data=${BENCH_DATA:-${TMPDIR:-/tmp}/qaplan-bench}
peer=$shared/peers

[[ -x "$bin" ]] || { echo "bench_vs_lucene: qaplan binary not found: $bin" >&2; exit 2; }
[[ -f "$peer/lucene/run.sh" ]] || { echo "bench_vs_lucene: $peer/lucene absent" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/qaplan-bvl.XXXXXX")
trap 'rm -rf "$work"' EXIT
raw=$work/raw.tsv
: >"$raw"

# Compile the Lucene harness (and install Java + Lucene when missing) through run.sh once.
export LUCENE_WORK=$work/lucene
printf 'd0\ta b\nd1\tb c\n' >"$work/tiny.tsv"
printf 'q0\tb\n' >"$work/tinyq.tsv"
bash "$peer/lucene/run.sh" "$work/tiny.tsv" "$work/tinyq.tsv" "$work/tiny.out" topk 1 10 2>/dev/null
cp_jars=$(ls /usr/share/java/lucene-core-8*.jar /usr/share/java/lucene-analyzers-common-8*.jar | tr '\n' ':')
lucene() { java ${JAVA_OPTS:-} -cp "$cp_jars$LUCENE_WORK" LuceneBm25 "$@"; }

# key=value pairs of the first stderr line matching $2, as "key value" lines.
kv() { grep -m1 -- "$2" "$1" | tr ' ' '\n' | grep '=' | tr '=' ' ' || true; }
get() { awk -v k="$2" '$1 == k { print $2 }' <<<"$1"; }

{
  echo "- host: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //');" \
    "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "- qaplan: $bin (git $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?')" \
    "+ working tree); $(java -version 2>&1 | head -1);" \
    "$(basename "$(ls /usr/share/java/lucene-core-8*.jar | head -1)" .jar)"
  echo "- command: CORPORA=\"$corpora\" PAIRS=$pairs ROUNDS=$rounds NORMS=$norms $0 ${*:-}"
} >"$work/header.txt"
cat "$work/header.txt" >&2

for spec in $corpora; do
  ndocs=${spec%x*} meanlen=${spec#*x}
  dir=$data/zipf-$ndocs-$meanlen
  if [[ ! -f "$dir/q_long.jsonl" ]]; then
    echo "## generating $spec into $dir" >&2
    rm -rf "$dir.tmp"
    python3 "$peer/gen_zipf_corpus.py" "$dir.tmp" "$ndocs" 50000 "$meanlen" >&2
    rm -rf "$dir" && mv "$dir.tmp" "$dir"
  fi
  rm -rf "$work/index"
  lucene index "$dir/corpus.tsv" "$work/index" 2>"$work/lidx.err"
  lidx=$(kv "$work/lidx.err" 'lucene index')
  l_build=$(python3 -c "print(f'{$(get "$lidx" index_s) + $(get "$lidx" forcemerge_s):.3f}')")
  echo "## $spec: lucene index ${l_build} s (incl. forceMerge)" >&2
  for p in $(seq 1 "$pairs"); do
    for qt in short long; do
      order="qaplan lucene"; (( p % 2 == 0 )) && order="lucene qaplan"
      for sys in $order; do
        if [[ $sys == qaplan ]]; then
          "$bin" search --corpus "$dir/corpus.jsonl" --queries "$dir/q_$qt.jsonl" --mode bm25 \
            --norms "$norms" --k 10 --format tsv --rounds "$rounds" \
            --output "$work/qaplan_$qt.tsv" 2>"$work/q.err"
          m=$(kv "$work/q.err" 'qaplan search')
          build=$(get "$(kv "$work/q.err" 'qaplan index')" index_s)
        else
          lucene search "$work/index" "$dir/q_$qt.tsv" "$work/lucene_$qt.tsv" topk "$rounds" 10 \
            2>"$work/l.err"
          m=$(kv "$work/l.err" 'lucene search')
          build=$l_build
        fi
        line="$spec	$qt	$p	$sys	$(get "$m" qps)	$(get "$m" p50_us)	$(get "$m" p95_us)	$(get "$m" p99_us)	${build:-nan}"
        echo "$line" >>"$raw"
        echo "   $line" >&2
      done
    done
  done
  for qt in short long; do
    echo "$spec	$qt	parity	$(python3 "$peer/lucene/compare_topk.py" "$work/qaplan_$qt.tsv" "$work/lucene_$qt.tsv" 10)" >>"$work/parity.txt"
  done
done
[[ -n "${RAW_OUT:-}" ]] && cat "$raw" >>"$RAW_OUT"

cat "$work/header.txt"
echo "- load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
python3 - "$raw" "$work/parity.txt" "$norms" "$pairs" "$rounds" <<'PY'
import collections, statistics, sys
raw, parity, norms, pairs, rounds = sys.argv[1:6]
runs = collections.defaultdict(lambda: collections.defaultdict(dict))  # (spec, qt) -> pair -> sys
for line in open(raw):
    spec, qt, p, system, qps, p50, p95, p99, build = line.rstrip("\n").split("\t")
    runs[(spec, qt)][p][system] = dict(qps=float(qps), p50=float(p50), p95=float(p95),
                                       p99=float(p99), build=float(build))
def med(xs): return statistics.median(xs)
def rng(xs): return f"{med(xs):.2f} [{min(xs):.2f}–{max(xs):.2f}]"
def target(spec, qt):
    n, l = (int(x) for x in spec.split("x"))
    if n >= 200000 and l <= 100:
        return (1.5 if qt == "short" else 2.0), 1.0, 0.5
    if l >= 300:
        return 5.0, None, None
    return None, None, None
print(f"qaplan `search --mode bm25 --norms {norms} --k 10` vs Lucene 8 `topk` (block-max WAND); "
      f"one thread; 2 warm-ups + best of {rounds} rounds; {pairs} alternating pairs; "
      "values are medians over pairs, ratios median [min–max].\n")
print("| corpus (docs × mean tokens) | queries | qaplan QPS | Lucene QPS | QPS ratio | qaplan p50 µs | "
      "Lucene p50 µs | p50 ratio | qaplan p95 µs | Lucene p95 µs | p95 ratio | targets |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|")
builds = {}
for (spec, qt), per in runs.items():
    ps = [v for v in per.values() if "qaplan" in v and "lucene" in v]
    q = {k: [v["qaplan"][k] for v in ps] for k in ("qps", "p50", "p95", "build")}
    l = {k: [v["lucene"][k] for v in ps] for k in ("qps", "p50", "p95", "build")}
    rq = [v["qaplan"]["qps"] / v["lucene"]["qps"] for v in ps]
    r50 = [v["qaplan"]["p50"] / v["lucene"]["p50"] for v in ps]
    r95 = [v["qaplan"]["p95"] / v["lucene"]["p95"] for v in ps]
    tq, t50, t95 = target(spec, qt)
    verdict = []
    if tq is not None:
        verdict.append(f"QPS ≥ {tq}×: {'met' if med(rq) >= tq else 'MISSED'}")
    if t50 is not None:
        verdict.append(f"p50 ≤ 1×: {'met' if med(r50) <= t50 else 'MISSED'}")
    if t95 is not None:
        verdict.append(f"p95 ≤ ½: {'met' if med(r95) <= t95 else 'MISSED'}")
    n, ln = spec.split("x")
    print(f"| {int(n):,} × {ln} | {qt} ({3 if qt == 'short' else 12} terms) | {med(q['qps']):.0f} | "
          f"{med(l['qps']):.0f} | {rng(rq)} | {med(q['p50']):.0f} | {med(l['p50']):.0f} | {rng(r50)} | "
          f"{med(q['p95']):.0f} | {med(l['p95']):.0f} | {rng(r95)} | {'; '.join(verdict) or '—'} |")
    builds.setdefault(spec, (q["build"], l["build"][0]))
print("\n| corpus | qaplan index build s (tokenize + BM25, median) | Lucene index s (incl. forceMerge) |")
print("|---|---|---|")
for spec, (qb, lb) in builds.items():
    n, ln = spec.split("x")
    print(f"| {int(n):,} × {ln} | {med(qb):.2f} | {lb:.2f} |")
print("\nSame top-10 as Lucene (compare_topk.py on the last pair's outputs):\n")
for line in open(parity):
    print("    " + line.rstrip("\n").replace("\t", " "))
print("\nRaw runs (corpus, queries, pair, system, qps, p50 µs, p95 µs, p99 µs, index s):\n")
for line in open(raw):
    print("    " + line.rstrip("\n").replace("\t", " "))
PY
