#!/usr/bin/env bash
# Memory of idle event subscribers (ADR 0026): starts the packaged worker with
# the JVM settings it ships with (deploy/jvm.options), runs one quiet dispatch,
# and measures the worker's RSS and its live heap (after a full GC) before and
# after N subscribers (curl -N) hold its event stream open. Bounded: every wait
# has a deadline, and everything it started is stopped on exit.
#
#   bench/events-subscribers.sh         200 subscribers
#   bench/events-subscribers.sh 500     another count
#
# Needs the engine (scripts/docker-engine.sh), the test image sluice-agent:test
# and a packaged worker (./mvnw -DskipTests package).
set -euo pipefail
cd "$(dirname "$0")/.."

subscribers=${1:-200}
jar=target/sluice-runner.jar
[ -f "$jar" ] || { echo "no $jar: run ./mvnw -DskipTests package first" >&2; exit 1; }

work=$(mktemp -d)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
base="http://127.0.0.1:$port"
# Probes answer on the management port (ADR 0053).
management_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
management="http://127.0.0.1:$management_port"
pids=()
worker=
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  if [ -n "${id:-}" ]; then curl -s -o /dev/null -X DELETE "$base/v1/dispatches/$id" || true; sleep 3; fi
  [ -n "$worker" ] && kill "$worker" 2>/dev/null && wait "$worker" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

SLUICE_DATA_DIR="$work/data" SLUICE_WORKER_ID=bench-events \
  QUARKUS_HTTP_HOST=127.0.0.1 QUARKUS_HTTP_PORT=$port \
  QUARKUS_MANAGEMENT_HOST=127.0.0.1 QUARKUS_MANAGEMENT_PORT=$management_port \
  SLUICE_EVENTS_MAX_SUBSCRIBERS=$((subscribers + 10)) \
  scripts/worker.sh >"$work/worker.log" 2>&1 &
worker=$!

wait_for() { # seconds, description, command...
  local deadline=$((SECONDS + $1)) what=$2; shift 2
  until "$@"; do
    [ $SECONDS -lt $deadline ] || { echo "gave up waiting for $what" >&2; tail -20 "$work/worker.log" >&2; exit 1; }
    sleep 0.5
  done
}
wait_for 120 "readiness" curl -sf -o /dev/null "$management/q/health/ready"

id=$(curl -sf -H 'Content-Type: application/json' \
  -d '{"image":"sluice-agent:test","command":["sh","-c","echo started; sleep 600"],"timeout":"PT15M"}' \
  "$base/v1/dispatches" | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
wait_for 60 "the dispatch to run" sh -c "curl -sf $base/v1/dispatches/$id | grep -q '\"status\":\"running\"'"

measure() { # label
  jcmd "$worker" GC.run >/dev/null
  sleep 1
  local rss heap
  rss=$(awk '/VmRSS/ {print $2}' "/proc/$worker/status")
  # The heap's generations (not metaspace), each "... used 1234K ...".
  heap=$(jcmd "$worker" GC.heap_info | awk '/generation|heap/ && / used / {
    for (i = 1; i <= NF; i++) if ($i == "used") { v = $(i + 1); gsub(/[K,]/, "", v); s += v } } END { print s }')
  printf '%s: RSS %d KiB, heap after a full GC %d KiB, threads %d\n' "$1" "$rss" "$heap" "$(ls /proc/$worker/task | wc -l)"
  echo "$heap" >"$work/heap-$1"
  echo "$rss" >"$work/rss-$1"
}

measure before
for i in $(seq 1 "$subscribers"); do
  curl -sN "$base/v1/dispatches/$id/events" >"$work/sub-$i" 2>/dev/null &
  pids+=($!)
done
all_open() {
  local n=0
  for i in $(seq 1 "$subscribers"); do grep -q 'event: *state' "$work/sub-$i" 2>/dev/null && n=$((n + 1)); done
  [ "$n" -eq "$subscribers" ]
}
wait_for 120 "$subscribers subscribers to get their first event" all_open
measure after
# What the subscribers themselves hold: our objects per stream, and the REST layer's sink for each.
jcmd "$worker" GC.class_histogram | awk '/dev\.sluice\.events|SseEventSinkImpl/ {
  printf "  %-60s %6d objects %9d bytes\n", $4, $2, $3; n += $3 } END { printf "  together: %d bytes\n", n }'
echo "$subscribers subscribers: RSS +$(( $(cat "$work/rss-after") - $(cat "$work/rss-before") )) KiB," \
  "heap after a full GC $(( $(cat "$work/heap-after") - $(cat "$work/heap-before") )) KiB"
