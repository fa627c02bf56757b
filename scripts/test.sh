#!/usr/bin/env bash
# The test command (README, .ci/run): install dependencies, build, run every test suite.
#   1. Release build + all ctest suites (unit, cli, external — external skips when ../shared is absent)
#   2. ASan+UBSan build of the library and unit tests; any sanitizer report fails the run
#   3. packaging: a consumer project via find_package (install tree) and add_subdirectory
#   4. the frozen retrieval benchmark on both backends (smoke: exit 0 and reports written)
#   5. Lucene parity on CMRC 2018 (skips with a message when ../shared or apt is unavailable)
set -euo pipefail
cd "$(dirname "$0")/.."
JOBS="$(nproc)"
start=$(date +%s)
step() { printf '\n==== %s (%ss)\n' "$1" "$(( $(date +%s) - start ))"; }

step "setup + Release build"
scripts/setup.sh build
step "ctest (Release: unit, cli, external)"
ctest --test-dir build --output-on-failure -j"$JOBS" --timeout 600

step "sanitizers: ASan + UBSan unit tests"
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DQAPLAN_SANITIZE=ON \
  -DQAPLAN_BUILD_BENCHMARKS=OFF -DQAPLAN_BUILD_TOOLS=OFF >/dev/null
cmake --build build-asan -j"$JOBS"
ASAN_OPTIONS="abort_on_error=1:detect_leaks=1" UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1" \
  ctest --test-dir build-asan --output-on-failure -j"$JOBS" -L unit --timeout 900

step "packaging (install tree + add_subdirectory)"
scripts/test_package.sh build

step "frozen retrieval benchmark, both backends"
out="$(mktemp -d)"
./build/qaplan bench --backend local-tfidf --output "$out/local"
./build/qaplan bench --backend cached --query-vectors eval_sets/vectors/local-tfidf.query-vectors.json \
  --index-vectors eval_sets/vectors/local-tfidf.index.json --output "$out/cached"
test -s "$out/local/report.json" && test -s "$out/local/report.md" && test -s "$out/cached/report.json"

step "Lucene parity (CMRC 2018)"
scripts/lucene_parity.sh build/qaplan

step "all passed"
