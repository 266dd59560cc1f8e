#!/usr/bin/env bash
# Fails when a test of this run was skipped and src/test/skipped-tests.txt does
# not list it with its reason. A skipped test passes in Maven's count; here it
# fails the lane unless someone wrote down why it may not run.
#
# It reads the JUnit reports (TEST-*.xml) in each directory given, only those
# written after --newer's file when it is given: target/ keeps the reports of
# earlier runs. It fails too when it finds no report at all.
#
# Usage: scripts/skipped-tests.sh [--newer FILE] REPORTS_DIR...
#   SLUICE_SKIPPED_TESTS names another list (default src/test/skipped-tests.txt).
#
# The list has one test a line, `class#method` (as the report names them), then
# at least one space and the reason; `#` starts a comment line.
set -euo pipefail
. "$(dirname "$0")/lib.sh" skipped-tests

root=$(cd "$(dirname "$0")/.." && pwd)
list=${SLUICE_SKIPPED_TESTS:-$root/src/test/skipped-tests.txt}

newer=()
if [ "${1:-}" = --newer ]; then
  [ -e "${2:-}" ] || die "--newer needs an existing file"
  newer=(-newer "$2")
  shift 2
fi
[ $# -gt 0 ] || die "usage: scripts/skipped-tests.sh [--newer FILE] REPORTS_DIR..."
[ -f "$list" ] || die "no list of allowed skips at $list"

# The allowed skips, `class#method reason`; one without a reason is refused.
declare -A allowed=()
while IFS= read -r line || [ -n "$line" ]; do
  case "$line" in '' | '#'*) continue ;; esac
  read -r name reason <<<"$line"
  [ -n "$reason" ] || die "$list lists $name without its reason"
  allowed[$name]=$reason
done <"$list"

reports=()
for dir in "$@"; do
  [ -d "$dir" ] || continue
  while IFS= read -r -d '' report; do
    reports+=("$report")
  done < <(find "$dir" -maxdepth 1 -name 'TEST-*.xml' "${newer[@]}" -print0)
done
[ ${#reports[@]} -gt 0 ] || die "no test reports (TEST-*.xml) in $* from this run: did the lane run any test?"

# Each skipped test case as class#method: the report's elements split at '<',
# a <skipped> child naming the <testcase> before it.
skipped=$(awk '
  function attr(text, key) {
    if (match(text, "[ \t\r\n]" key "=\"[^\"]*\"")) {
      return substr(text, RSTART + length(key) + 3, RLENGTH - length(key) - 4)
    }
    return ""
  }
  function plain(text) {
    gsub(/&lt;/, "<", text); gsub(/&gt;/, ">", text); gsub(/&quot;/, "\"", text)
    gsub(/&apos;/, "\047", text); gsub(/&amp;/, "\\&", text)
    return text
  }
  BEGIN { RS = "<" }
  /^testcase[ \t\r\n]/ { test = plain(attr($0, "classname")) "#" plain(attr($0, "name")) }
  /^skipped[ \t\r\n\/>]/ { print test }
' "${reports[@]}" | sort)

count=0
unlisted=()
while IFS= read -r test; do
  [ -n "$test" ] || continue
  count=$((count + 1))
  if [ -n "${allowed[$test]:-}" ]; then
    say "skipped, as listed: $test (${allowed[$test]})"
  else
    unlisted+=("$test")
  fi
done <<<"$skipped"

if [ ${#unlisted[@]} -gt 0 ]; then
  for test in "${unlisted[@]}"; do say "skipped and not listed: $test"; done
  die "${#unlisted[@]} of $count skipped tests are not in $list: make each run (a test that needs something fails naming the command that sets it up), or list it with the reason it cannot run"
fi
say "${#reports[@]} reports, $count skipped, each listed with its reason"
