#!/bin/sh
# Regenerates the shipped vector pack eval_sets/vectors/ (docs/guide.md, the frozen benchmark) with
# qaplan's built-in local-tfidf embedder: TF-IDF fitted on the body text of the in-scope chunks of
# eval_sets/policy-retrieval-v1.json. Deterministic: rerunning it reproduces the files byte for
# byte. Usage: scripts/make_vector_pack.sh [path/to/qaplan]   (default: build/qaplan)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
qaplan=${1:-"$root/build/qaplan"}
# --write-vector-pack publishes a generation (DIR/gen-N, DIR/current, links): written to a
# scratch directory, then the two files are copied in as the plain files the repository ships.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$qaplan" bench --backend local-tfidf \
  --dataset "$root/eval_sets/policy-retrieval-v1.json" \
  --write-vector-pack "$tmp/pack" >/dev/null
cp -L "$tmp/pack/local-tfidf.index.json" "$tmp/pack/local-tfidf.query-vectors.json" \
  "$root/eval_sets/vectors/"
