#!/usr/bin/env bash
# Regenerates docs/cli.md, the command reference: every subcommand's `--help`, verbatim, between
# the BEGIN/END markers. tests/cli/help_readme_cli_test.cpp fails until this has been run after
# an option or its help text changed.
#   scripts/cli_help.sh build/qaplan
set -euo pipefail
bin=${1:?usage: scripts/cli_help.sh path/to/qaplan}
root=$(cd "$(dirname "$0")/.." && pwd)
page="$root/docs/cli.md"
begin='<!-- BEGIN command reference (scripts/cli_help.sh) -->'
end='<!-- END command reference -->'
grep -qxF "$begin" "$page" && grep -qxF "$end" "$page" \
  || { echo "cli_help.sh: $page has no '$begin' … '$end' markers" >&2; exit 2; }

# Command paths: the top level, then every name under "Subcommands:", breadth first.
subcommands() {  # $1 = command path ("" = top level)
  # shellcheck disable=SC2086
  "$bin" $1 --help | awk '/^Subcommands:/{on=1; next} on && /^  [^ ]/{print $1; next} on && NF==0{on=0}'
}
commands=("")
for ((i = 0; i < ${#commands[@]}; i++)); do
  while read -r sub; do
    [ -n "$sub" ] && commands+=("${commands[i]:+${commands[i]} }$sub")
  done < <(subcommands "${commands[i]}")
done

section=$(mktemp)
trap 'rm -f "$section" "$page.tmp"' EXIT
for cmd in "${commands[@]}"; do
  name=${cmd:-qaplan}
  {
    echo "<details><summary><code>qaplan${cmd:+ $cmd} --help</code></summary>"
    echo
    echo "<!-- help: $name -->"
    echo '```text'
    # shellcheck disable=SC2086
    "$bin" $cmd --help
    echo '```'
    echo
    echo "</details>"
    echo
  } >>"$section"
done
# Splice between the markers; write a temp file and rename so a failure leaves the page intact.
awk -v begin="$begin" -v end="$end" -v section="$section" '
  $0 == begin { print; print ""; while ((getline line < section) > 0) print line; skip = 1; next }
  $0 == end   { skip = 0 }
  !skip       { print }' "$page" >"$page.tmp"
mv "$page.tmp" "$page"
echo "cli_help.sh: ${#commands[@]} help blocks written to docs/cli.md"
