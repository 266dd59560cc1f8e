#!/bin/bash
# The training run of the JVM image (Dockerfile.jvm runs it while building):
# starts the worker as the image starts it, with a fresh store, asks what a
# probe and a client ask first, stops it with SIGTERM, and leaves the classes it
# loaded in an AppCDS archive. Started with that archive, the worker maps those
# classes parsed and verified instead of loading them from the jars
# (BENCHMARKS.md, "The JVM image"; ADR 0019).
#
# No engine answers while an image builds: the worker starts without one (its
# readiness says so), and the classes it would load to talk to one are loaded
# from the jars at run time.
#
# Usage: appcds-training.sh ARCHIVE   (run in /deployments; bash for /dev/tcp)
set -euo pipefail

archive=$1
port=8080
data=$(mktemp -d)
log=$(mktemp)

# One HTTP/1.0 exchange over bash's /dev/tcp: the base image needs no HTTP client.
ask() {
  local method=$1 path=$2 body=${3:-}
  { printf '%s %s HTTP/1.0\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s' \
      "$method" "$path" "${#body}" "$body" >&3 && cat <&3 >/dev/null; } 3<>"/dev/tcp/127.0.0.1/$port"
}

SLUICE_DATA_DIR=$data QUARKUS_HTTP_PORT=$port \
  java @/deployments/jvm.options -XX:ArchiveClassesAtExit="$archive" -jar /deployments/sluice.jar >"$log" 2>&1 &
worker=$!

started=no
for _ in $(seq 1 1200); do
  kill -0 "$worker" 2>/dev/null || break
  if ask GET /q/health/started 2>/dev/null; then started=yes; break; fi
  sleep 0.1
done
if [ "$started" != yes ]; then
  cat "$log" >&2
  echo "appcds-training: the worker did not start" >&2
  kill -KILL "$worker" 2>/dev/null || true
  exit 1
fi

ask GET /q/health/ready
ask GET /q/health/live
ask GET /q/health
ask GET /v1/dispatches
ask GET /v1/dispatches/training
ask POST /v1/dispatches '{"id":"training","image":"training:none","command":["true"]}'

kill -TERM "$worker"
wait "$worker" || true
rm -rf "$data" "$log"
if [ ! -s "$archive" ]; then
  echo "appcds-training: no archive was written to $archive" >&2
  exit 1
fi
