#!/usr/bin/env bash
# Builds the output witness (src/main/c/witness.c), the static program Sluice
# places in every dispatch container as its entrypoint wrapper: it runs the
# agent's command, relays and counts what it writes to stdout and stderr, and
# keeps the container alive until the engine has read all of it (the engine
# drops the end of a stream when the process exits ahead of its copy).
#
# It must run in any image, FROM scratch ones included, so it is linked
# statically: with musl-gcc when there is one (a small binary), else with the
# system compiler and -static. On Debian, as root, musl-tools is installed
# when musl-gcc is missing. The Maven build runs this in generate-resources so
# the binary is the classpath resource dev/sluice/container/files/sluice-witness.
# Given a SOURCE, it builds that program the same way instead: the tests'
# hostile agent (src/test/c/attack.c) runs FROM scratch too.
#
# Usage: scripts/witness.sh OUTPUT_FILE [SOURCE]
# SLUICE_WITNESS_CC names the one compiler to use instead of the search.
set -euo pipefail
. "$(dirname "$0")/lib.sh" witness

[ $# -ge 1 ] && [ $# -le 2 ] && [ -n "$1" ] || die "usage: scripts/witness.sh OUTPUT_FILE [SOURCE]"
out=$1
root=$(cd "$(dirname "$0")/.." && pwd)
src=${2:-$root/src/main/c/witness.c}
[ -f "$src" ] || die "source $src is missing"

# Maven runs this on every build; an output newer than its inputs is kept.
if [ -z "${SLUICE_WITNESS_CC:-}" ] && [ -x "$out" ] && [ "$out" -nt "$src" ] && [ "$out" -nt "$0" ]; then
  say "$out is up to date"
  exit 0
fi

flags=(-O2 -static -s -Wall -Wextra -Werror)

if [ -n "${SLUICE_WITNESS_CC:-}" ]; then
  candidates=("$SLUICE_WITNESS_CC")
else
  if ! command -v musl-gcc >/dev/null 2>&1 && [ -f /etc/debian_version ] \
      && command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" -eq 0 ]; then
    say "installing musl-tools for musl-gcc"
    log=$(mktemp)
    if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive NEEDRESTART_SUSPEND=1 \
        apt-get install -y -qq musl-tools; } >"$log" 2>&1; then
      cat "$log" >&2
      say "musl-tools could not be installed; linking with the system C library instead"
    fi
    rm -f "$log"
  fi
  candidates=(musl-gcc cc gcc)
fi

mkdir -p "$(dirname "$out")"
tmp=$(mktemp "$out.XXXXXX")
trap 'rm -f "$tmp"' EXIT

tried=()
for compiler in "${candidates[@]}"; do
  command -v "$compiler" >/dev/null 2>&1 || { tried+=("$compiler (not found)"); continue; }
  if "$compiler" "${flags[@]}" -o "$tmp" "$src"; then
    chmod 0755 "$tmp"
    mv -f "$tmp" "$out"
    say "built $out with $compiler ($(command -v "$compiler")): $(wc -c <"$out") bytes"
    exit 0
  fi
  tried+=("$compiler (failed)")
done
die "no compiler could build a static $src; tried: ${tried[*]}. Install musl-tools (musl-gcc) or gcc with a static libc (libc6-dev)."
