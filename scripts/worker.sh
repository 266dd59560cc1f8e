#!/usr/bin/env bash
# Starts the packaged worker (target/sluice-runner.jar) as it ships: the JVM
# settings of deploy/jvm.options with JAVA_OPTS after them, and two malloc
# arenas, not one per thread that ever allocated (less resident memory, idle
# and under floods; BENCHMARKS.md, P2). The image starts it the same way
# (Dockerfile.jvm), the integration tests through WorkerProcess.startAsShipped.
# Settings come from SLUICE_* environment variables; java replaces this shell,
# so a signal sent to it reaches the worker.
set -euo pipefail
cd "$(dirname "$0")/.."

export MALLOC_ARENA_MAX=${MALLOC_ARENA_MAX:-2}
exec java @deploy/jvm.options ${JAVA_OPTS:-} -jar target/sluice-runner.jar
