#!/usr/bin/env bash
# qaplan BM25 vs Lucene 8 on the same synthetic corpora, side by side in one run
# (docs/benchmarks.md). A benchmark, not a test: it never fails on a missed target; it prints the
# numbers and says which targets were met.
#
#   scripts/bench_vs_lucene.sh [QAPLAN_BIN] [SHARED_DIR]
#     QAPLAN_BIN  the qaplan CLI (default: build/qaplan under the repo root)
#     SHARED_DIR  the shared folder with peers/ (default: ../shared beside the repo root)
#   Environment (defaults in brackets):
#     CORPORA     space-separated NDOCSxMEANLEN ["200000x60 1000000x60"]
#     PAIRS       qaplan/Lucene runs per corpus and query set, run alternately [3]
#     ROUNDS      timed rounds per search run after 2 warm-ups; the best round is reported [5]
#     NORMS       qaplan --norms [lucene] (the same one-byte norms as Lucene, so the same top-10)
#     LOAD_MAX    wait before every timed run until the 1-minute load average is below this [0.5]
#     LOAD_WAIT   …but at most this many seconds per run, then run anyway and record the load [900]
#     BENCH_DATA  where generated corpora are cached [${TMPDIR:-/tmp}/qaplan-bench]
#     RAW_OUT     also append the raw per-run measurements (TSV) to this file [none]
#
# What is measured, the same way for both systems (each a separate process, one thread):
#   build   wall time of the whole indexing command — process start, reading the corpus file,
#           indexing, writing the index (Lucene: including commit + forceMerge to one segment,
#           which is how its index is searched here) — and the process's peak RSS
#   search  `search` over 1 000 queries: two warm-up rounds, then the best of ROUNDS timed rounds
#           (QPS of that round, nearest-rank per-query p50/p95), and the peak RSS of the search
#           process (the index it serves, mapped or loaded, plus the queries)
#   open    wall time of a whole `search` process answering one query from the saved index
#           (process start, open, first answer) — qaplan's CLI also reports open_ms itself
#   size    bytes of the index directory on disk
# Corpora come from peers/gen_zipf_corpus.py (vocab 50 000, Zipf s 1.0, seed 42); each has 1 000
# short (3-term) and 1 000 long (12-term) queries. Pairs alternate which system runs first; ratios
# are taken per pair and quoted as median [min–max].
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-$root/build/qaplan}
shared=${2:-$root/../shared}
corpora=${CORPORA:-"200000x60 1000000x60"}
pairs=${PAIRS:-3}
rounds=${ROUNDS:-5}
norms=${NORMS:-lucene}
load_max=${LOAD_MAX:-0.5}
load_wait=${LOAD_WAIT:-900}
data=${BENCH_DATA:-${TMPDIR:-/tmp}/qaplan-bench}
peer=$shared/peers

[[ -x "$bin" ]] || { echo "bench_vs_lucene: qaplan binary not found: $bin" >&2; exit 2; }
[[ -f "$peer/lucene/run.sh" ]] || { echo "bench_vs_lucene: $peer/lucene absent" >&2; exit 2; }
(( rounds >= 5 )) || echo "bench_vs_lucene: warning: ROUNDS=$rounds < 5 gives the JVM little warm-up" >&2
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

load1() { cut -d' ' -f1 /proc/loadavg; }
# Waits until the 1-minute load average is below LOAD_MAX (at most LOAD_WAIT s); prints the load
# the run starts under.
wait_quiet() {
  local waited=0
  while python3 -c "import sys; sys.exit(0 if float('$(load1)') >= float('$load_max') else 1)" &&
      (( waited < load_wait )); do
    sleep 10
    waited=$((waited + 10))
  done
  load1
}
# Runs a command; writes "wall_s maxrss_kb" to $1 and the command's stderr to $2.
measure() {
  local out=$1 err=$2
  shift 2
  python3 - "$out" "$err" "$@" <<'PY'
import resource, subprocess, sys, time
out, err, cmd = sys.argv[1], sys.argv[2], sys.argv[3:]
t0 = time.monotonic()
with open(err, "w") as e:
    rc = subprocess.call(cmd, stdout=subprocess.DEVNULL, stderr=e)
wall = time.monotonic() - t0
rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
open(out, "w").write(f"{wall:.3f} {rss}\n")
sys.exit(rc)
PY
}
kv() { grep -m1 -- "$2" "$1" | tr ' ' '\n' | grep '=' | tr '=' ' ' || true; }
get() { awk -v k="$2" '$1 == k { print $2 }' <<<"$1"; }

{
  echo "- host: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //');" \
    "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "- qaplan: $bin (git $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '?')" \
    "+ working tree); $(java -version 2>&1 | head -1);" \
    "$(basename "$(ls /usr/share/java/lucene-core-8*.jar | head -1)" .jar)"
  echo "- command: CORPORA=\"$corpora\" PAIRS=$pairs ROUNDS=$rounds NORMS=$norms LOAD_MAX=$load_max $0 ${*:-}"
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
  first_q=$(head -1 "$dir/q_short.jsonl" | python3 -c 'import json,sys; print(json.loads(sys.stdin.readline())["query"])')
  for p in $(seq 1 "$pairs"); do
    order="qaplan lucene"; (( p % 2 == 0 )) && order="lucene qaplan"
    for sys in $order; do
      idx=$work/idx-$sys
      rm -rf "$idx"
      # Build.
      ld=$(wait_quiet)
      if [[ $sys == qaplan ]]; then
        # --no-store: the index alone, as Lucene's harness stores only the id (no text to show).
        measure "$work/m" "$work/e" "$bin" index build --corpus "$dir/corpus.jsonl" --output "$idx" \
          --norms "$norms" --no-store
      else
        measure "$work/m" "$work/e" java ${JAVA_OPTS:-} -cp "$cp_jars$LUCENE_WORK" LuceneBm25 index \
          "$dir/corpus.tsv" "$idx"
      fi
      read -r bwall brss <"$work/m"
      size=$(du -sb "$idx" | cut -f1)
      echo "$spec	build	$p	$sys	$bwall	$brss	$size	$ld" >>"$raw"
      echo "   $spec build pair $p $sys: ${bwall}s rss ${brss}KB size ${size}B load $ld" >&2
      # Open to first answer: one whole process, one query.
      ld=$(wait_quiet)
      if [[ $sys == qaplan ]]; then
        measure "$work/m" "$work/e" "$bin" search --index "$idx" --query "$first_q" --k 10
      else
        printf 'q0\t%s\n' "$first_q" >"$work/one.tsv"
        measure "$work/m" "$work/e" java ${JAVA_OPTS:-} -cp "$cp_jars$LUCENE_WORK" LuceneBm25 search \
          "$idx" "$work/one.tsv" "$work/one.out" topk 1 10
      fi
      read -r owall orss <"$work/m"
      echo "$spec	open	$p	$sys	$owall	$orss	0	$ld" >>"$raw"
      for qt in short long; do
        ld=$(wait_quiet)
        if [[ $sys == qaplan ]]; then
          measure "$work/m" "$work/e" "$bin" search --index "$idx" --queries "$dir/q_$qt.jsonl" --k 10 \
            --format tsv --rounds "$rounds" --output "$work/qaplan_$qt.tsv"
          m=$(kv "$work/e" 'qaplan search')
        else
          measure "$work/m" "$work/e" java ${JAVA_OPTS:-} -cp "$cp_jars$LUCENE_WORK" LuceneBm25 search \
            "$idx" "$dir/q_$qt.tsv" "$work/lucene_$qt.tsv" topk "$rounds" 10
          m=$(kv "$work/e" 'lucene search')
        fi
        read -r swall srss <"$work/m"
        line="$spec	$qt	$p	$sys	$(get "$m" qps)	$(get "$m" p50_us)	$(get "$m" p95_us)	$srss	$ld"
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
search = collections.defaultdict(lambda: collections.defaultdict(dict))
build = collections.defaultdict(lambda: collections.defaultdict(dict))
opened = collections.defaultdict(lambda: collections.defaultdict(dict))
loads = []
for line in open(raw):
    f = line.rstrip("\n").split("\t")
    spec, kind, p, system = f[:4]
    loads.append(float(f[-1]))
    if kind == "build":
        build[spec][p][system] = dict(wall=float(f[4]), rss=float(f[5]) / 1024, size=float(f[6]))
    elif kind == "open":
        opened[spec][p][system] = dict(wall=float(f[4]) * 1000, rss=float(f[5]) / 1024)
    else:
        search[(spec, kind)][p][system] = dict(qps=float(f[4]), p50=float(f[5]), p95=float(f[6]),
                                               rss=float(f[7]) / 1024)
def med(xs): return statistics.median(xs)
def rng(xs): return f"{med(xs):.2f} [{min(xs):.2f}–{max(xs):.2f}]"
def both(per): return [v for v in per.values() if "qaplan" in v and "lucene" in v]
print(f"qaplan `index build` + `search --index DIR --norms {norms} --k 10` vs Lucene 8 `topk` "
      f"(block-max WAND); one thread; 2 warm-ups + best of {rounds} rounds; {pairs} alternating pairs; "
      f"1-minute load average before the runs: median {med(loads):.2f}, max {max(loads):.2f}. "
      "Values are medians over pairs; ratios qaplan ÷ Lucene, median [min–max].\n")
print("| corpus | queries | qaplan QPS | Lucene QPS | QPS ratio (target ≥ 5) | qaplan p50 µs | Lucene p50 µs | "
      "qaplan p95 µs | Lucene p95 µs | qaplan RSS MB | Lucene RSS MB | RSS ratio (target ≤ 1) |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|")
for (spec, qt), per in search.items():
    ps = both(per)
    if not ps: continue
    q = {k: [v["qaplan"][k] for v in ps] for k in ("qps", "p50", "p95", "rss")}
    l = {k: [v["lucene"][k] for v in ps] for k in ("qps", "p50", "p95", "rss")}
    rq = [v["qaplan"]["qps"] / v["lucene"]["qps"] for v in ps]
    rr = [v["qaplan"]["rss"] / v["lucene"]["rss"] for v in ps]
    n, ln = spec.split("x")
    print(f"| {int(n):,} × {ln} | {qt} ({3 if qt == 'short' else 12} terms) | {med(q['qps']):.0f} | "
          f"{med(l['qps']):.0f} | {rng(rq)} {'met' if med(rq) >= 5 else 'MISSED'} | {med(q['p50']):.0f} | "
          f"{med(l['p50']):.0f} | {med(q['p95']):.0f} | {med(l['p95']):.0f} | {med(q['rss']):.0f} | "
          f"{med(l['rss']):.0f} | {rng(rr)} {'met' if med(rr) <= 1 else 'MISSED'} |")
print("\n| corpus | qaplan build s | Lucene build s | build docs/s ratio (target ≥ 1.5) | qaplan build RSS MB | "
      "Lucene build RSS MB | qaplan index MB | Lucene index MB | size ratio (target ≤ 1) | "
      "qaplan open → first answer ms | Lucene open → first answer ms |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
for spec, per in build.items():
    ps = both(per)
    n = int(spec.split("x")[0])
    qb = [v["qaplan"]["wall"] for v in ps]; lb = [v["lucene"]["wall"] for v in ps]
    rb = [v["lucene"]["wall"] / v["qaplan"]["wall"] for v in ps]
    rs = [v["qaplan"]["size"] / v["lucene"]["size"] for v in ps]
    op = both(opened[spec])
    qo = [v["qaplan"]["wall"] for v in op]; lo = [v["lucene"]["wall"] for v in op]
    print(f"| {n:,} × {spec.split('x')[1]} | {med(qb):.2f} ({n / med(qb):,.0f} docs/s) | {med(lb):.2f} "
          f"({n / med(lb):,.0f} docs/s) | {rng(rb)} {'met' if med(rb) >= 1.5 else 'MISSED'} | "
          f"{med([v['qaplan']['rss'] for v in ps]):.0f} | {med([v['lucene']['rss'] for v in ps]):.0f} | "
          f"{med([v['qaplan']['size'] for v in ps]) / 1e6:.1f} | {med([v['lucene']['size'] for v in ps]) / 1e6:.1f} | "
          f"{rng(rs)} {'met' if med(rs) <= 1 else 'MISSED'} | {med(qo):.0f} | {med(lo):.0f} |")
print("\nSame top-10 as Lucene (compare_topk.py on the last pair's outputs):\n")
for line in open(parity):
    print("    " + line.rstrip("\n").replace("\t", " "))
print("\nRaw runs (corpus, kind, pair, system, then build: wall s, peak RSS KB, bytes; open: wall s, "
      "peak RSS KB; search: qps, p50 µs, p95 µs, peak RSS KB; last: load average before the run):\n")
for line in open(raw):
    print("    " + line.rstrip("\n").replace("\t", " "))
PY
