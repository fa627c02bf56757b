#!/usr/bin/env bash
# Installs qaplan's Debian build dependencies (idempotent), configures, and builds the CLI.
# Usage: scripts/setup.sh [--all] [BUILD_DIR] [extra cmake args...]
#   By default only the `qaplan` CLI and the libraries it links are built: the README's first
#   command needs nothing else (docs/measured.md has its time). --all builds every target
#   (tests, benchmarks, tools, the Python module): scripts/test.sh passes it.
set -euo pipefail
cd "$(dirname "$0")/.."
TARGETS=(--target qaplan)
if [[ "${1:-}" == "--all" ]]; then
  TARGETS=()
  shift
fi
PKGS=(g++ cmake ninja-build pkg-config git python3
      nlohmann-json3-dev libtomlplusplus-dev libspdlog-dev libfmt-dev libicu-dev
      libhnswlib-dev libgtest-dev libgmock-dev libcli11-dev libbenchmark-dev
      libopencc-dev liblinear-dev libfasttext-dev libxxhash-dev nettle-dev
      pybind11-dev python3-dev python3-pytest python3-numpy  # the Python module (python/)
      python3-setuptools python3-wheel python3-pip python3-venv  # pip install . (no downloads)
      clang libclang-rt-14-dev  # libFuzzer targets (tests/fuzz, scripts/fuzz.sh)
      strace)  # fault injection: a kill at every rename (tests/cli/faults_cli_test.cpp)
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update
  $SUDO apt-get install -y --no-install-recommends "${missing[@]}"
fi
# Test tooling only (never a run-time dependency): the official Node.js clients' TypeScript
# request types that tests/engines/typecheck.sh (ctest -L engines) checks generated engine
# requests against. Reinstalled only when package-lock.json changed; skipped without node/npm.
if command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1; then
  if ! cmp -s tests/engines/package-lock.json tests/engines/node_modules/.qaplan-lock; then
    npm ci --prefix tests/engines --no-audit --no-fund --ignore-scripts
    cp tests/engines/package-lock.json tests/engines/node_modules/.qaplan-lock
  fi
else
  echo "setup.sh: node/npm not found: ctest will skip the engines type check (apt-get install nodejs npm)" >&2
fi
BUILD_DIR="${1:-build}"; shift || true
cmake --preset release -B "$BUILD_DIR" "$@"  # CMakePresets.json
cmake --build "$BUILD_DIR" -j"$(nproc)" "${TARGETS[@]}"
