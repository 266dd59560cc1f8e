#!/usr/bin/env bash
# Sluice beside the Docker CLI on this machine, in one run: builds the worker,
# starts it (as a packaged process, with a recording callback receiver) per
# scenario, runs the same image and producer through `docker run`, and prints
# the table kept in BENCHMARKS.md (also written to target/bench-report.md).
# Then the collector's JMH benchmark (P4), via bench/collector.sh.
#
#   bench/run.sh                  the full run (about 25 minutes on 2 vCPUs)
#   bench/run.sh --smoke          every scenario at a tiny size, one variant of each: proves the harness runs
#   bench/run.sh P1 P3            only the named figures (P1-P3, P5-P11; P4 is the JMH benchmark)
#   bench/run.sh transports [MiB] [rounds]
#                                 the attach paths compared on one flood (ADR 0011; 1024 MiB, 3 rounds)
#   bench/run.sh calls [calls] [rounds]
#                                 one control call's cost, beside docker-java's pooled httpclient5 transport (300 calls, 3 rounds)
#   bench/run.sh claims [backlog] [tenants]
#                                 one claim from the store's queue on PostgreSQL, by 1 and 3 workers at once
#                                 (ADR 0063; a tenth of the backlog and all of it; 10000 rows, 10 tenants)
#   bench/run.sh groups [members] [rounds]
#                                 a dispatch group beside as many single dispatches (ADR 0028; 30 members, 3 rounds)
#   bench/run.sh jit [rounds]     the shipped C1-only JIT beside the full tiered compiler: worker CPU per flood (3 rounds)
#   bench/run.sh image [runs]     P6 in the JVM image (scripts/jvm-image.sh builds it): start-up and idle memory,
#                                 with and without AppCDS and other start-up options (5 runs each, about 10 minutes)
#   bench/run.sh stacks [pairs] [MiB]
#                                 the image's start-up stack as shipped beside the JVM's default compilers with the
#                                 JDK's SHA-256, and without AppCDS, interleaved: P6, CPU to ready, first and steady
#                                 dispatch, idle RSS, P1 and P7 beside the CLI (ADR 0048; 4 pairs, 256 MiB floods)
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/docker-engine.sh
./mvnw -B -q -ntp -DskipTests package dependency:build-classpath \
  -Dmdep.outputFile=target/test-classpath.txt -Dmdep.includeScope=test
# Run from a snapshot of the classes, so a build started meanwhile cannot pull them away.
snapshot=target/bench-harness
rm -rf "$snapshot" && mkdir -p "$snapshot" && cp -r target/classes target/test-classes "$snapshot/"
cp="$snapshot/test-classes:$snapshot/classes:$(cat target/test-classpath.txt)"

if [ "${1:-}" = "transports" ]; then
  shift
  exec java -Xmx512m -Djava.util.logging.manager=org.jboss.logmanager.LogManager -cp "$cp" \
    dev.sluice.bench.TransportComparison "$@"
fi
if [ "${1:-}" = "image" ]; then
  shift
  SLUICE_IMAGE=sluice:jvm scripts/jvm-image.sh --no-package
  exec java -Xmx256m -cp "$cp" dev.sluice.bench.ImageStartup sluice:jvm "$@"
fi
if [ "${1:-}" = "stacks" ]; then
  shift
  SLUICE_IMAGE=sluice:jvm scripts/jvm-image.sh --no-package
  exec java -Xmx256m -cp "$cp" dev.sluice.bench.StackComparison sluice:jvm "$@"
fi
if [ "${1:-}" = "jit" ]; then
  shift
  exec java -Xmx256m -cp "$cp" dev.sluice.bench.CompilerComparison "$@"
fi
if [ "${1:-}" = "groups" ]; then
  shift
  exec java -Xmx512m -cp "$cp" dev.sluice.bench.GroupOverhead "$@"
fi
if [ "${1:-}" = "claims" ]; then
  shift
  scripts/postgres.sh >/dev/null
  exec java -Xmx512m -cp "$cp" dev.sluice.bench.ClaimCost "$@"
fi
if [ "${1:-}" = "calls" ]; then
  shift
  exec java -Xmx512m -Djava.util.logging.manager=org.jboss.logmanager.LogManager -cp "$cp" \
    dev.sluice.bench.ControlCallCost "$@"
fi

java -Djava.util.logging.manager=org.jboss.logmanager.LogManager -cp "$cp" dev.sluice.bench.Harness "$@"

run_jmh=yes
for arg in "$@"; do
  case "$arg" in
    P4) run_jmh=yes; break ;;
    P*) run_jmh=no ;;
  esac
done
if [ "$run_jmh" = yes ]; then
  if [ "${1:-}" = "--smoke" ]; then bench/collector.sh --smoke; else bench/collector.sh; fi
fi
