#!/usr/bin/env bash
# Retrains the router model from eval_sets/router/ and checks that the result is byte-identical
# to the shipped config/models/router-v1.qpm (and to the SHA-256 recorded beside it). CI calls it.
#
#   scripts/train_model.sh [QAPLAN_BIN]            check (exit 0 identical, 1 different, 2 usage)
#   scripts/train_model.sh --update [QAPLAN_BIN]   retrain and replace the shipped model + .sha256
#                                                  and the [model] sha256 pinned in config/rules.toml
#
# QAPLAN_BIN defaults to build/qaplan. The training options are the library defaults (C and class
# balance per head chosen on the dev split, docs/model.md), so the command below is the whole
# recipe; the model's metadata records the data fingerprint, LIBLINEAR version and options. The
# source labels are config/rules.toml's [[sources]] + none, named explicitly so that a
# $QAPLAN_CONFIG pointing at a host's rules cannot change the shipped model's labels.
set -euo pipefail
cd "$(dirname "$0")/.."

update=0
if [[ "${1:-}" == "--update" ]]; then
  update=1
  shift
fi
bin="${1:-build/qaplan}"
if [[ ! -x "$bin" ]]; then
  echo "train_model: no qaplan binary at $bin (build first, or pass its path)" >&2
  exit 2
fi
shipped=config/models/router-v1.qpm
work=$(mktemp -d "${TMPDIR:-/tmp}/qaplan-train.XXXXXX")
trap 'rm -rf "$work"' EXIT

"$bin" model train --data eval_sets/router --config config/rules.toml \
  --output "$work/router-v1.qpm" --report "$work/report" >"$work/out.json"
fresh_sha=$(sha256sum "$work/router-v1.qpm" | cut -d' ' -f1)

if [[ $update == 1 ]]; then
  mkdir -p config/models
  cp "$work/router-v1.qpm" "$shipped.tmp" && mv "$shipped.tmp" "$shipped"
  echo "$fresh_sha  router-v1.qpm" >"$shipped.sha256"
  # The config pins the model ([model] sha256; Planner::create refuses another file).
  sed -i -e "/^\[model\]/,/^\[/{s/^sha256 = \"[0-9a-f]\{64\}\"/sha256 = \"$fresh_sha\"/}" config/rules.toml
  echo "train_model: updated $shipped ($fresh_sha, $(stat -c %s "$shipped") bytes) and [model] sha256 in config/rules.toml"
  exit 0
fi

if [[ ! -f "$shipped" ]]; then
  echo "train_model: FAILED: $shipped is missing" >&2
  exit 1
fi
recorded=$(cut -d' ' -f1 "$shipped.sha256" 2>/dev/null || true)
shipped_sha=$(sha256sum "$shipped" | cut -d' ' -f1)
if [[ "$recorded" != "$shipped_sha" ]]; then
  echo "train_model: FAILED: $shipped has sha256 $shipped_sha, $shipped.sha256 records '$recorded'" >&2
  exit 1
fi
if ! cmp -s "$work/router-v1.qpm" "$shipped"; then
  echo "train_model: FAILED: retraining gives $fresh_sha, the shipped model is $shipped_sha" >&2
  echo "  (data, features, options or the LIBLINEAR/BLAS build changed; if intended, rerun with" >&2
  echo "   --update and update [model] sha256 in config/rules.toml)" >&2
  exit 1
fi
pinned=$(sed -n '/^\[model\]/,/^\[/s/^sha256 = "\([0-9a-f]\{64\}\)".*/\1/p' config/rules.toml)
if [[ "$pinned" != "$shipped_sha" ]]; then
  echo "train_model: FAILED: config/rules.toml [model] sha256 is '$pinned', $shipped is $shipped_sha" >&2
  exit 1
fi
echo "train_model: OK: retraining reproduces $shipped byte for byte ($shipped_sha)"
