#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/fuzz, clang + ASan + UBSan) and runs every one of them.
#   scripts/fuzz.sh [SECONDS] [TARGET…]     run each target SECONDS (default 60); TARGET = plan,
#                                           rules, … (default: all of tests/fuzz/*_fuzz.cpp)
#   scripts/fuzz.sh --seeds                 regenerate tests/fuzz/corpus and tests/fuzz/dict
# Environment:
#   FUZZ_BUILD   build directory (default build-fuzz)
#   FUZZ_JOBS    targets run side by side (default 1; CI uses 2 on 2 cores)
#   FUZZ_RUNS    also stop a target after this many executions (default: time only)
#   FUZZ_WORK    where each target's new corpus entries and crash files go (default
#                $FUZZ_BUILD/fuzz-work); the committed seeds in tests/fuzz/corpus and the past
#                findings' reproducers in tests/fuzz/regressions are read, never written
#   FUZZ_NICE    prefix for each fuzzer (e.g. "nice -n 19")
#   FUZZ_QUICK   1 = build at -O0 without debug info (about 2 min on 2 cores instead of ~6): for
#                replaying the seeds and regressions, not for long runs
#   FUZZ_PREBUILT 1 = do not configure or build: FUZZ_BUILD already holds the targets (CI builds
#                them in its sanitizer build beside the unit tests: -DQAPLAN_FUZZ=ON with tests on)
# A crash, a sanitizer report, an invariant failure (abort), a timeout (> 30 s for one input) or
# running out of memory fails the run; the reproducer is kept as FUZZ_WORK/<target>/crash-* (or
# timeout-*, oom-*) and the script prints how to replay it. Each target's executions, exec/s and
# coverage (libFuzzer cov: edges, ft: features) are printed in a table at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD="${FUZZ_BUILD:-build-fuzz}"
WORK="${FUZZ_WORK:-$BUILD/fuzz-work}"
JOBS="${FUZZ_JOBS:-1}"

configure_and_build() {
  if [[ "${FUZZ_PREBUILT:-0}" == 1 ]]; then
    [[ -d "$BUILD/fuzz" ]] || { echo "fuzz.sh: FUZZ_PREBUILT=1 but $BUILD/fuzz does not exist" >&2; exit 2; }
    return
  fi
  if ! command -v clang++ >/dev/null; then
    echo "fuzz.sh: clang++ not found (scripts/setup.sh installs clang)" >&2
    exit 2
  fi
  local opt=()  # the fuzz preset (CMakePresets.json), in $BUILD
  [[ "${FUZZ_QUICK:-0}" == 1 ]] && opt=(-DCMAKE_BUILD_TYPE=Debug "-DCMAKE_CXX_FLAGS_DEBUG=-O0 -g0")
  cmake --preset fuzz -B "$BUILD" "${opt[@]}" >/dev/null
  cmake --build "$BUILD" -j"$(nproc)" --target qaplan_fuzz
}

if [[ "${1:-}" == "--seeds" ]]; then
  configure_and_build
  "$BUILD/fuzz/fuzz_make_seeds" tests/fuzz/corpus
  python3 tests/fuzz/make_corpus.py .
  exit 0
fi

SECONDS_PER_TARGET="${1:-60}"
shift || true
configure_and_build
if [[ $# -gt 0 ]]; then
  targets=("$@")
else
  targets=()
  for f in tests/fuzz/*_fuzz.cpp; do
    n="$(basename "$f" .cpp)"
    targets+=("${n%_fuzz}")
  done
fi

run_one() {
  local t="$1" dir="$WORK/$1"
  mkdir -p "$dir/corpus"
  local args=(-max_total_time="$SECONDS_PER_TARGET" -timeout=30 -rss_limit_mb=2560
              -print_final_stats=1 -artifact_prefix="$dir/" -close_fd_mask=1)
  [[ -n "${FUZZ_RUNS:-}" ]] && args+=(-runs="$FUZZ_RUNS")
  [[ -f "tests/fuzz/dict/$t.dict" ]] && args+=(-dict="tests/fuzz/dict/$t.dict")
  # New units go to the first directory (the work corpus); the committed seeds are read only.
  local seeds=()
  [[ -d "tests/fuzz/corpus/$t" ]] && seeds+=("tests/fuzz/corpus/$t")
  # Every past finding's reproducer is replayed first (tests/fuzz/regressions/<target>/).
  [[ -d "tests/fuzz/regressions/$t" ]] && seeds+=("tests/fuzz/regressions/$t")
  local rc=0
  ${FUZZ_NICE:-} "$BUILD/fuzz/${t}_fuzz" "${args[@]}" "$dir/corpus" "${seeds[@]}" \
    >"$dir/log" 2>&1 || rc=$?
  echo "$rc" >"$dir/rc"
}

start=$(date +%s)
pids=()
for t in "${targets[@]}"; do
  if [[ ! -x "$BUILD/fuzz/${t}_fuzz" ]]; then
    echo "fuzz.sh: no target '$t' ($BUILD/fuzz/${t}_fuzz)" >&2
    exit 2
  fi
  run_one "$t" &
  pids+=($!)
  if [[ ${#pids[@]} -ge $JOBS ]]; then
    wait "${pids[0]}"
    pids=("${pids[@]:1}")
  fi
done
wait

failed=0
printf '\n%-12s %12s %9s %7s %8s %8s  %s\n' target executions exec/s cov ft corpus result
for t in "${targets[@]}"; do
  dir="$WORK/$t"
  rc="$(cat "$dir/rc")"
  fstat() { sed -n "s/^stat::$1: *//p" "$dir/log" | tail -1; }
  done_line="$(grep -E '^#[0-9]+[[:space:]]+(DONE|pulse|NEW|REDUCE|INITED)' "$dir/log" | tail -1 || true)"
  cov="$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$done_line")"
  ft="$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$done_line")"
  corp="$(sed -n 's/.* corp: \([0-9]*\)\/.*/\1/p' <<<"$done_line")"
  result=ok
  if [[ "$rc" != 0 ]]; then
    result="FAILED (exit $rc)"
    failed=1
  fi
  printf '%-12s %12s %9s %7s %8s %8s  %s\n' "$t" "$(fstat number_of_executed_units)" \
    "$(fstat average_exec_per_sec)" "${cov:-?}" "${ft:-?}" "${corp:-?}" "$result"
done
echo "($(( $(date +%s) - start )) s; logs in $WORK/<target>/log)"
if [[ $failed != 0 ]]; then
  for t in "${targets[@]}"; do
    dir="$WORK/$t"
    [[ "$(cat "$dir/rc")" == 0 ]] && continue
    echo "---- $t" >&2
    # The report with its stack (the first 30 frames), then the input itself: CI keeps only this
    # output, so a finding there must be reproducible from the log alone.
    grep -E "ERROR|INVARIANT|SUMMARY|Test unit written|==[0-9]+==|^ +#[0-9]+ " "$dir/log" |
      head -40 >&2 || true
    for a in "$dir"/crash-* "$dir"/timeout-* "$dir"/oom-* "$dir"/leak-*; do
      [[ -e "$a" ]] || continue
      echo "replay: $BUILD/fuzz/${t}_fuzz $a" >&2
      if [[ "$(stat -c %s "$a")" -le 4096 ]]; then
        echo "input (base64; decode with base64 -d > repro):" >&2
        base64 -w 0 "$a" >&2
        echo >&2
      fi
    done
  done
  exit 1
fi
