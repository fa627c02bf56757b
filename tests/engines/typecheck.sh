#!/usr/bin/env bash
# Type-checks qaplan's generated engine requests against the official Node.js clients'
# TypeScript request types (tsc --strict, excess-property checks on object literals).
#
#   tests/engines/typecheck.sh [GOLDEN_DIR|GOLDEN_FILE ...]   default: tests/engines/golden
#   tests/engines/typecheck.sh --selftest                      good samples pass, bad ones fail
#
# Needs node and tests/engines/node_modules (scripts/setup.sh, or
# `npm ci --prefix tests/engines`); exits 2 with a one-line message when they are missing.
# Exit 0: every request type-checks; 1: tsc (or gen_ts.mjs) rejected something, diagnostics
# printed. Works from any cwd. Test tooling only: nothing here is a run-time dependency.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

case "${1:-}" in -h|--help) sed -n '2,12p' "$0"; exit 0;; esac
NODE="${QAPLAN_NODE:-node}"   # ctest passes the node found at configure time
if ! command -v "$NODE" >/dev/null 2>&1; then
  echo "typecheck.sh: $NODE not found (apt-get install nodejs npm, then scripts/setup.sh)" >&2
  exit 2
fi

# node_modules must hold every pinned devDependency at its pinned version (a stale install after
# a version bump would check against the wrong types).
if ! problem="$("$NODE" -e '
  const fs = require("fs"), path = require("path");
  const dir = process.argv[1];
  const pkg = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));
  for (const [name, spec] of Object.entries(pkg.devDependencies)) {
    const want = spec.replace(/^npm:.*@/, "");
    let have;
    try { have = JSON.parse(fs.readFileSync(path.join(dir, "node_modules", name, "package.json"), "utf8")).version; }
    catch { console.log(`${name} is not installed`); process.exit(1); }
    if (have !== want) { console.log(`${name} is ${have}, package.json pins ${want}`); process.exit(1); }
  }' "$HERE")"; then
  echo "typecheck.sh: tests/engines/node_modules is missing or stale (${problem:-unreadable}):" \
       "run scripts/setup.sh or npm ci --prefix tests/engines" >&2
  exit 2
fi

TSC=("$NODE" "$HERE/node_modules/typescript/bin/tsc" --noEmit --strict --skipLibCheck --pretty false)

if [ "${1:-}" = "--selftest" ]; then
  [ $# -eq 1 ] || { echo "usage: typecheck.sh --selftest" >&2; exit 2; }
  exec "$NODE" "$HERE/selftest.mjs"
fi

OUT="$HERE/generated/golden"   # tsconfig.json includes exactly this folder
if [ $# -eq 0 ]; then set -- "$HERE/golden"; fi
"$NODE" "$HERE/gen_ts.mjs" --out "$OUT" "$@" || exit 1

log="$(mktemp)"
trap 'rm -f "$log"' EXIT
status=0
(cd "$HERE" && "${TSC[@]}" -p .) >"$log" 2>&1 || status=$?   # paths: generated/golden/<name>.ts
cat "$log"

# Per golden file verdict, and a closing "N passed, N failed" line.
total=0; bad=0
for ts in "$OUT"/*.ts; do
  total=$((total + 1))
  if awk -v p="generated/golden/$(basename "$ts")(" 'index($0, p) == 1 { found = 1 } END { exit !found }' "$log"; then
    bad=$((bad + 1)); echo "FAIL $(basename "$ts" .ts).json"
  fi
done
if [ "$status" -ne 0 ] && [ "$bad" -eq 0 ]; then bad=$total; fi  # tsc failed outside the files
echo "typecheck: $((total - bad)) passed, $bad failed"
[ "$status" -eq 0 ] || exit 1
