#!/usr/bin/env bash
# Starts the worker on http://localhost:8080, bringing up what it needs first:
# a Docker engine and the example agent image (scripts/docker-engine.sh).
# Settings come from src/main/resources/application.properties and SLUICE_*
# environment variables.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/docker-engine.sh
./mvnw -B -q -ntp package -DskipTests
exec java @deploy/jvm.options ${JAVA_OPTS:-} -jar target/quarkus-app/quarkus-run.jar
