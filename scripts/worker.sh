#!/usr/bin/env bash
# Starts the packaged worker (target/sluice-runner.jar) as it ships: the JVM
# settings of deploy/jvm.options with JAVA_OPTS after them, two malloc arenas,
# not one per thread that ever allocated (less resident memory, idle and under
# floods; BENCHMARKS.md, P2), and the AppCDS archive of this build of the jar,
# written by a training run the first time the build starts (a few seconds,
# once; ADR 0048). The image starts it the same way (Dockerfile.jvm), the
# benchmarks and the soak through WorkerProcess.startAsShipped, which runs this.
# Settings come from SLUICE_* environment variables; java replaces this shell,
# so a signal sent to it reaches the worker.
set -euo pipefail
. "$(dirname "$0")/lib.sh" worker
cd "$(dirname "$0")/.."

jar=target/sluice-runner.jar
archive=target/app-cds.jsa

if [ ! "$archive" -nt "$jar" ]; then
  say "writing the class-data archive of this build ($archive), once"
  if ! deploy/appcds-training.sh "$archive" "$jar" deploy/jvm.options >&2; then
    say "the training run failed; starting without the archive"
    rm -f "$archive"
  fi
fi
cds=()
if [ -s "$archive" ]; then
  cds=(-XX:SharedArchiveFile="$archive")
fi

export MALLOC_ARENA_MAX=${MALLOC_ARENA_MAX:-2}
exec java @deploy/jvm.options "${cds[@]}" ${JAVA_OPTS:-} -jar "$jar"
