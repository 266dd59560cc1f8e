#!/usr/bin/env bash
# Runs the whole test suite, bringing up what it needs first: a Docker engine
# and the test agent image (scripts/docker-engine.sh), and a PostgreSQL server
# (scripts/postgres.sh). Unit tests, @QuarkusTest tests and the integration
# tests against the real engine and both stores all run; none is skipped for
# want of Docker or PostgreSQL.
#
# Usage: scripts/test.sh [extra Maven arguments]
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/docker-engine.sh
scripts/postgres.sh >/dev/null
# Containers of earlier test runs (the tests' worker id) would only pile up.
stale=$(docker ps -aq --filter label=dev.sluice.worker-id=sluice-test)
[ -z "$stale" ] || docker rm -f $stale >/dev/null
exec ./mvnw -B -ntp verify "$@"
