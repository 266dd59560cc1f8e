#!/usr/bin/env bash
# Runs the whole test suite, bringing up what it needs first: a Docker engine
# and the test agent image (scripts/docker-engine.sh). Unit tests, @QuarkusTest
# tests and the integration tests against the real engine all run; none is
# skipped for want of Docker.
#
# Usage: scripts/test.sh [extra Maven arguments]
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/docker-engine.sh
exec ./mvnw -B -ntp verify "$@"
