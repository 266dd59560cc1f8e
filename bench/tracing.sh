#!/usr/bin/env bash
# What tracing costs a dispatch (ADR 0069): bench/run.sh P3 (a container that
# runs `true`, submit to callback received, beside `docker run --rm`) twice on
# one build, first as shipped (spans made, exported nowhere), then exporting
# every span over OTLP/HTTP to a local receiver (src/test/node/otlp-receiver.mjs,
# OpenTelemetry's own protobuf types). Prints both tables and how many spans
# the receiver got.
#
#   bench/tracing.sh
set -euo pipefail
cd "$(dirname "$0")/.."

[ -d src/test/node/node_modules ] || npm ci --prefix src/test/node --ignore-scripts --no-audit --no-fund >/dev/null
spans=$(mktemp)
node src/test/node/otlp-receiver.mjs >"$spans" 2>/dev/null &
receiver=$!
trap 'kill $receiver 2>/dev/null || true; rm -f "$spans"' EXIT
for _ in $(seq 1 100); do
  port=$(head -1 "$spans" | sed -n 's/.*"port": *\([0-9]*\).*/\1/p')
  [ -n "$port" ] && break
  sleep 0.1
done
[ -n "$port" ] || { echo "the OTLP receiver did not start" >&2; exit 1; }

echo "== P3, spans made and exported nowhere (as shipped)"
bench/run.sh P3
cp target/bench-report.md target/bench-report-untraced.md
echo "== P3, every span exported over OTLP/HTTP to 127.0.0.1:$port"
QUARKUS_OTEL_EXPORTER_OTLP_TRACES_ENDPOINT="http://127.0.0.1:$port" \
QUARKUS_OTEL_EXPORTER_OTLP_TRACES_PROTOCOL=http/protobuf \
  bench/run.sh P3
echo "spans received: $(($(wc -l <"$spans") - 1))"
