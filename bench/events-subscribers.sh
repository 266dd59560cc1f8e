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
. "$(dirname "$0")/lib.sh" events-subscribers
cd "$(dirname "$0")/.."

subscribers=${1:-200}

# Polled at a pace that leaves the measured worker its CPU.
wait_interval=0.5
work=$(mktemp -d)
at_exit 'rm -rf "$work"'
start_worker "$work" SLUICE_WORKER_ID=bench-events SLUICE_EVENTS_MAX_SUBSCRIBERS=$((subscribers + 10))
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  if [ -n "${id:-}" ]; then curl -s -o /dev/null -X DELETE "$base/v1/dispatches/$id" || true; sleep 3; fi
}
at_exit cleanup

id=$(curl -sf -H 'Content-Type: application/json' \
  -d '{"image":"sluice-agent:test","command":["sh","-c","echo started; sleep 600"],"timeout":"PT15M"}' \
  "$base/v1/dispatches" | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
wait_for 60 "the dispatch to run" sh -c "curl -sf $base/v1/dispatches/$id | grep -q '\"status\":\"running\"'"

measure() { # label
  jcmd "$worker_pid" GC.run >/dev/null
  sleep 1
  local rss heap
  rss=$(awk '/VmRSS/ {print $2}' "/proc/$worker_pid/status")
  # The heap's generations (not metaspace), each "... used 1234K ...".
  heap=$(jcmd "$worker_pid" GC.heap_info | awk '/generation|heap/ && / used / {
    for (i = 1; i <= NF; i++) if ($i == "used") { v = $(i + 1); gsub(/[K,]/, "", v); s += v } } END { print s }')
  printf '%s: RSS %d KiB, heap after a full GC %d KiB, threads %d\n' "$1" "$rss" "$heap" "$(ls /proc/$worker_pid/task | wc -l)"
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
jcmd "$worker_pid" GC.class_histogram | awk '/dev\.sluice\.events|SseEventSinkImpl/ {
  printf "  %-60s %6d objects %9d bytes\n", $4, $2, $3; n += $3 } END { printf "  together: %d bytes\n", n }'
echo "$subscribers subscribers: RSS +$(( $(cat "$work/rss-after") - $(cat "$work/rss-before") )) KiB," \
  "heap after a full GC $(( $(cat "$work/heap-after") - $(cat "$work/heap-before") )) KiB"
