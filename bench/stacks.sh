#!/usr/bin/env bash
# Two builds of the worker, each as its JVM image, measured in turn in one run
# (src/bench/java/dev/sluice/bench/StackComparison.java): P6 (docker start to
# readiness) and the CPU it took, the first and steady `true` dispatch, idle
# RSS, then P1 and P7 on floods of 64 KiB blocks and of 1 KiB lines, beside
# the Docker CLI. A is an earlier commit, built from `git archive` in
# target/stacks/; B is this checkout. The image of B is also started without
# its AppCDS archive, to show what the archive still buys. Arms alternate
# within every pair (A B B0, then B0 B A), so load from elsewhere falls on both.
# The table goes to stdout and target/bench-stacks.md (BENCHMARKS.md, "The
# start-up stack, one run"; ADR 0048).
#
# Usage: bench/stacks.sh [--pairs N] [--flood MiB] [REF]
#   REF      the commit to compare the checkout with (default af59d2a: the last
#            with C1 only and SHA-256 from NSS, ADRs 0019, 0038 and 0040)
#   --pairs  how many times each arm runs (5)
#   --flood  the size of each counted flood (256 MiB; the uncounted warm-up
#            floods are half of it)
# About 12 minutes on 2 quiet vCPUs with the defaults, both builds included;
# each pair's floods take ten times as long when the machine is loaded.
set -euo pipefail
cd "$(dirname "$0")/.."

ref=af59d2a
pairs=5
flood=256
while [ $# -gt 0 ]; do
  case "$1" in
    --pairs) pairs=$2; shift 2 ;;
    --flood) flood=$2; shift 2 ;;
    -*) printf 'usage: %s [--pairs N] [--flood MiB] [REF]\n' "$0" >&2; exit 2 ;;
    *) ref=$1; shift ;;
  esac
done
commit=$(git rev-parse --verify "$ref^{commit}")
say() { printf 'stacks: %s\n' "$*" >&2; }

scripts/docker-engine.sh

say "building B, this checkout ($(git rev-parse --short HEAD)$(git diff --quiet HEAD || echo ', with changes not committed'))"
./mvnw -B -q -o -ntp -DskipTests package dependency:build-classpath \
  -Dmdep.outputFile=target/test-classpath.txt -Dmdep.includeScope=test
# Run from a snapshot of the classes, so a build started meanwhile cannot pull them away.
snapshot=target/bench-harness
rm -rf "$snapshot" && mkdir -p "$snapshot" && cp -r target/classes target/test-classes "$snapshot/"
cp="$snapshot/test-classes:$snapshot/classes:$(cat target/test-classpath.txt)"
SLUICE_IMAGE=sluice:stack-b scripts/jvm-image.sh --no-package

# A's tree is kept per commit: a second run of the same comparison builds only the images.
tree=target/stacks/$commit
if [ ! -f "$tree/target/sluice-runner.jar" ]; then
  say "building A, ${commit:0:7}, in $tree"
  rm -rf "$tree" && mkdir -p "$tree"
  git archive "$commit" | tar -x -C "$tree"
  (cd "$tree" && ./mvnw -B -q -o -ntp -Dmaven.test.skip=true -Dspotless.check.skip=true package)
fi
(cd "$tree" && SLUICE_IMAGE=sluice:stack-a scripts/jvm-image.sh --no-package)

java -Xmx256m -cp "$cp" dev.sluice.bench.StackComparison \
  sluice:stack-a "${commit:0:7}" sluice:stack-b "$(git rev-parse --short HEAD)" "$pairs" "$flood"
