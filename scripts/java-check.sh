#!/usr/bin/env bash
# Makes sure the `java` on PATH takes the JVM settings the worker ships with
# (deploy/jvm.options), before anything is built: an older runtime would
# otherwise stop the worker at its start with "Unrecognized VM option" (the
# settings need Java 17.0.9 or later, for -XX:TrimNativeHeapInterval).
set -euo pipefail
. "$(dirname "$0")/lib.sh" java-check
cd "$(dirname "$0")/.."

command -v java >/dev/null || die "no java on PATH: the worker needs Java 17.0.9 or later"
if ! out=$(java @deploy/jvm.options -version 2>&1); then
  say "ERROR: $(command -v java) does not take the worker's JVM settings (deploy/jvm.options):"
  printf '%s\n' "$out" | sed 's/^/  /' >&2
  say "the worker needs Java 17.0.9 or later; put one first on PATH"
  exit 1
fi
