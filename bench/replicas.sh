#!/usr/bin/env bash
# One replica against three on one engine and one PostgreSQL (issue 29): the
# same dispatches (ReplicasIT's: a few KiB each, half a second of sleep) posted
# round-robin, once to one replica and once to three, none killed; then the
# suite's own run, three replicas with one killed part-way. Prints ReplicasIT's
# figure lines (dispatches per second from the first POST to the last
# callback, and the wait from acceptance to the container's start at p50 and
# p99), as the rows kept in BENCHMARKS.md. Each replica has 8 run slots.
#
#   bench/replicas.sh          300 dispatches
#   bench/replicas.sh 600      another count
#
# Needs the engine and PostgreSQL (scripts/docker-engine.sh,
# scripts/postgres.sh); builds the worker as the integration tests do.
set -euo pipefail
cd "$(dirname "$0")/.."

n=${1:-300}
run() { # replicas, kill
  ./mvnw -B -o -Dspotless.check.skip=true -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false \
    -Dit.test=ReplicasIT -Dsluice.replicas.count="$1" -Dsluice.replicas.dispatches="$n" \
    -Dsluice.replicas.kill="$2" verify >"target/bench-replicas-$1-$2.log" 2>&1 \
    || { echo "ReplicasIT failed with $1 replicas; see target/bench-replicas-$1-$2.log" >&2; exit 1; }
  grep '^replicas:' "target/bench-replicas-$1-$2.log"
}
run 1 false
run 3 false
run 3 true
