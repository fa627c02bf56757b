#!/usr/bin/env bash
# Packaging test (docs/library.md): a host project (tests/package) uses qaplan
#   (a) from an install tree:  cmake --install BUILD_DIR into a temp prefix, find_package(qaplan);
#   (b) through add_subdirectory() of this checkout;
# and in both cases runs one Planner::prepare() on a golden question.
# Usage: scripts/test_package.sh BUILD_DIR   (BUILD_DIR: a configured and built qaplan tree)
set -euo pipefail

if [[ $# -ne 1 || ! -f "$1/CMakeCache.txt" ]]; then
  echo "usage: $0 BUILD_DIR  (a configured and built qaplan build directory)" >&2
  exit 2
fi
build_dir=$(cd "$1" && pwd)
src_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
generator=Ninja
command -v ninja >/dev/null || { echo "test_package: ninja not found" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/qaplan-package.XXXXXX")
trap 'rm -rf "$work"' EXIT
log="$work/log"
# Each step's output goes to a log that is shown only when the step fails.
step() {
  local name=$1
  shift
  if ! "$@" >"$log" 2>&1; then
    echo "test_package: FAILED: $name" >&2
    echo "  command: $*" >&2
    sed 's/^/  | /' "$log" >&2
    exit 1
  fi
}

# The first ```cpp block of docs/library.md (the host program users copy) is built and run as a
# second consumer.
readme_example="$work/readme_example.cpp"
python3 - "$src_dir/docs/library.md" "$readme_example" <<'PY'
import re, sys
text = open(sys.argv[1], encoding="utf-8").read()
block = re.search(r"```cpp\n(.*?)```", text, re.S)
if not block:
    sys.exit("test_package: docs/library.md has no ```cpp block")
open(sys.argv[2], "w", encoding="utf-8").write(block.group(1))
PY

# (a) install tree in a temp prefix -------------------------------------------------------------
prefix=$(mktemp -d "$work/prefix.XXXXXX")
step "install $build_dir" cmake --install "$build_dir" --prefix "$prefix"
config_file=$(find "$prefix" -path '*/cmake/qaplan/qaplanConfig.cmake' -print -quit)
[[ -n "$config_file" ]] || { echo "test_package: no qaplanConfig.cmake under $prefix" >&2; exit 1; }
for f in "$(dirname "$config_file")/qaplanConfigVersion.cmake" \
         "$(dirname "$config_file")/qaplanTargets.cmake" \
         "$prefix/include/qaplan/qaplan.hpp" "$prefix/include/qaplan/export.hpp" \
         "$prefix/include/qaplan/version.hpp" "$prefix/share/qaplan/rules.toml"; do
  [[ -f "$f" ]] || { echo "test_package: not installed: ${f#"$prefix"/}" >&2; exit 1; }
done
# Only the training room links the trainer's LIBLINEAR: a host of the evaluation or retrieval
# code does not (the exported link interface says what each library pulls in).
targets_file="$(dirname "$config_file")/qaplanTargets.cmake"
link_of() { awk -v t="set_target_properties(qaplan::$1 PROPERTIES" \
  'index($0, t) == 1 {on = 1} on && /INTERFACE_LINK_LIBRARIES/ {print; exit}' "$targets_file"; }
link_of training | grep -q LIBLINEAR || {
  echo "test_package: qaplan::training does not link LIBLINEAR: $(link_of training)" >&2; exit 1; }
for room in common planning ranking eval engines; do
  if link_of "$room" | grep -q LIBLINEAR; then
    echo "test_package: qaplan::$room links LIBLINEAR (only training may): $(link_of "$room")" >&2
    exit 1
  fi
done
step "configure consumer (find_package)" cmake -S "$src_dir/tests/package" -B "$work/installed" \
  -G "$generator" -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix" \
  -DQAPLAN_README_EXAMPLE="$readme_example"
step "build consumer (find_package)" cmake --build "$work/installed" -j2
# Outside any checkout, with no $QAPLAN_CONFIG and an empty user config dir, the library and the
# CLI must find <prefix>/share/qaplan/rules.toml on their own (Planner::create_default()).
mkdir -p "$work/xdg" "$work/elsewhere"
outside() { (cd "$work/elsewhere" && env -u QAPLAN_CONFIG XDG_CONFIG_HOME="$work/xdg" "$@"); }
step "run the docs/library.md example (find_package, create_default)" outside "$work/installed/readme_example"
step "run consumer (find_package)" \
  "$work/installed/qaplan_consumer" "$prefix/share/qaplan/rules.toml"
step "run consumer (find_package, create_default)" outside "$work/installed/qaplan_consumer" --default
grep -qF "default config $prefix/share/qaplan/rules.toml (installed default)" "$log" || {
  echo "test_package: create_default() did not use the installed rules:" >&2; cat "$log" >&2; exit 1; }
installed_run=$(tail -n 1 "$log")
cli_note="no CLI installed"
if [[ -x "$prefix/bin/qaplan" ]]; then
  step "run installed CLI" outside "$prefix/bin/qaplan" -v plan "报销费用超过5000需要谁审批" --plan-only
  grep -q '"reason":"faq_first_short_query_guard_pricing_guard"' "$log" || {
    echo "test_package: installed CLI printed an unexpected plan:" >&2; cat "$log" >&2; exit 1; }
  grep -qF "qaplan: config $prefix/share/qaplan/rules.toml (installed default)" "$log" || {
    echo "test_package: installed CLI did not use the installed rules:" >&2; cat "$log" >&2; exit 1; }
  cli_note="installed CLI ok"
fi

# (b) add_subdirectory of this checkout ---------------------------------------------------------
# Unoptimized and without debug info: this build proves the wiring, and -O0 compiles the whole
# library in about half the time of -O2 (the CI budget is 30 minutes on 2 cores). With clang when
# it is installed: a host built with clang is covered too, and clang compiles this code base
# ~35 % faster than g++ at -O0. The hot rooms compile in batches too (QAPLAN_UNITY_HOT): their
# speed does not matter here.
subdir_compiler=()
command -v clang++ >/dev/null && subdir_compiler=(-DCMAKE_CXX_COMPILER=clang++)
step "configure consumer (add_subdirectory)" cmake -S "$src_dir/tests/package" -B "$work/subdir" \
  -G "$generator" -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG=-O0 -DQAPLAN_UNITY_HOT=ON -DQAPLAN_SOURCE_DIR="$src_dir" \
  "${subdir_compiler[@]}"
step "build consumer (add_subdirectory)" cmake --build "$work/subdir" -j2
step "run consumer (add_subdirectory)" "$work/subdir/qaplan_consumer" "$src_dir/config/rules.toml"
step "run consumer (add_subdirectory, create_default)" outside "$work/subdir/qaplan_consumer" --default
grep -qF "default config $src_dir/config/rules.toml (build tree's source)" "$log" || {
  echo "test_package: add_subdirectory create_default() did not use the source rules:" >&2
  cat "$log" >&2; exit 1; }

shared=$(sed -n 's/^BUILD_SHARED_LIBS:BOOL=//p' "$build_dir/CMakeCache.txt")
echo "PASS test_package: find_package (install prefix, BUILD_SHARED_LIBS=${shared:-OFF}," \
     "$cli_note) and add_subdirectory (${subdir_compiler[*]:-default compiler}) consumers ran prepare(): ${installed_run#qaplan_consumer: }"
