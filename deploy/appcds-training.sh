#!/bin/bash
# The AppCDS training run: starts the worker as it ships, with a fresh store, no
# engine and nothing of the caller's environment, asks what a probe and a
# client ask first, stops it with SIGTERM, and leaves the classes it loaded in
# an AppCDS archive. Started with that archive, the worker maps those classes
# parsed and verified instead of loading them from the jar: a faster start, and
# a first dispatch that finds its request's way loaded (BENCHMARKS.md, "The JVM
# image" and P3; ADR 0048). The image build runs it (Dockerfile.jvm),
# and scripts/worker.sh once per build of the jar.
#
# No engine answers (none does while an image builds; the jar's training is
# kept away from the caller's on purpose): the classes the worker would load to
# talk to one are loaded from the jar at run time.
#
# Usage: appcds-training.sh ARCHIVE [JAR] [JVM_OPTIONS_FILE]
#   (defaults: the image's /deployments/sluice.jar and /deployments/jvm.options;
#   bash for /dev/tcp)
set -euo pipefail

archive=$1
jar=${2:-/deployments/sluice.jar}
options=${3:-/deployments/jvm.options}
data=$(mktemp -d)
log=$(mktemp)
partial="$archive.partial.$$"
trap 'rm -rf "$data" "$log" "$partial"' EXIT

# One HTTP/1.0 exchange over bash's /dev/tcp: the base image needs no HTTP client.
# ask goes to the API's port, probe to the management port.
exchange() {
  local to=$1 method=$2 path=$3 body=${4:-}
  { printf '%s %s HTTP/1.0\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s' \
      "$method" "$path" "${#body}" "$body" >&3 && cat <&3 >/dev/null; } 3<>"/dev/tcp/127.0.0.1/$to"
}
ask() { exchange "$port" "$@"; }
probe() { exchange "$management_port" GET "$1"; }

# Ports the system picks, read back from the start-up line (the API's, and the
# management port's for the probes, ADR 0053), both on loopback; the store and
# the engine are the training's own, whatever the caller's environment says.
env -i PATH="$PATH" ${JAVA_HOME:+JAVA_HOME="$JAVA_HOME"} MALLOC_ARENA_MAX=2 \
  SLUICE_DATA_DIR="$data" SLUICE_DOCKER_HOST=unix:///nonexistent/docker.sock SLUICE_LOG_JSON=false \
  QUARKUS_HTTP_HOST=127.0.0.1 QUARKUS_HTTP_PORT=0 \
  QUARKUS_MANAGEMENT_HOST=127.0.0.1 QUARKUS_MANAGEMENT_PORT=0 \
  java @"$options" -XX:ArchiveClassesAtExit="$partial" -jar "$jar" >"$log" 2>&1 &
worker=$!

port=
management_port=
for _ in $(seq 1 1200); do
  kill -0 "$worker" 2>/dev/null || break
  port=$(sed -n 's/.*Listening on: http:\/\/127\.0\.0\.1:\([0-9][0-9]*\).*/\1/p' "$log" | head -n 1)
  management_port=$(sed -n 's/.*Management interface listening on http:\/\/127\.0\.0\.1:\([0-9][0-9]*\).*/\1/p' "$log" | head -n 1)
  if [ -n "$port" ] && [ -n "$management_port" ] && probe /q/health/started 2>/dev/null; then break; fi
  port=
  sleep 0.1
done
if [ -z "$port" ]; then
  cat "$log" >&2
  echo "appcds-training: the worker did not start" >&2
  kill -KILL "$worker" 2>/dev/null || true
  exit 1
fi

probe /q/health/ready
probe /q/health/live
probe /q/health
ask GET /v1/dispatches
ask GET /v1/dispatches/training
ask POST /v1/dispatches '{"id":"training","image":"training:none","command":["true"]}'

kill -TERM "$worker"
wait "$worker" || true
if [ ! -s "$partial" ]; then
  echo "appcds-training: no archive was written to $archive" >&2
  exit 1
fi
mv -f "$partial" "$archive"
