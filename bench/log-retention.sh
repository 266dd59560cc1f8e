#!/usr/bin/env bash
# What the runtime keeps of one long stream under a rotation budget (ADR 0032): one container of the
# test agent image writes BYTES of 100-byte lines with the given log options; the script reports how
# long writing took, how much of the stream `docker logs` still returns, the log's disk (read from
# the engine's data directory, so it needs root on the engine's host) and how long reading it back took.
#
#   bench/log-retention.sh                                   1 GiB, json-file 128m x 16, compressed
#   bench/log-retention.sh 1073741824 json-file max-size=128m max-file=10 compress=true
set -euo pipefail
bytes=${1:-1073741824}
driver=${2:-json-file}
shift 2 2>/dev/null || true
[ $# -gt 0 ] || set -- max-size=128m max-file=16 compress=true
opts=()
for o in "$@"; do opts+=(--log-opt "$o"); done
name=sluice-bench-logs-$$
trap 'docker rm -f "$name" >/dev/null 2>&1 || true' EXIT

start=$(date +%s.%N)
docker run -d --name "$name" --network none --log-driver "$driver" "${opts[@]}" sluice-agent:test \
  sh -c "yes \"\$(printf %099d 0)\" | head -c $bytes" >/dev/null
docker wait "$name" >/dev/null
written=$(echo "$(date +%s.%N) - $start" | bc)
dir=$(docker info -f '{{.DockerRootDir}}')/containers/$(docker inspect -f '{{.Id}}' "$name")
disk=$(du -sb "$dir" 2>/dev/null | cut -f1 || echo unknown)
start=$(date +%s.%N)
held=$(docker logs "$name" 2>/dev/null | wc -c)
read=$(echo "$(date +%s.%N) - $start" | bc)
echo "driver=$driver options=$* bytes=$bytes written_s=$written held=$held disk_bytes=$disk read_back_s=$read"
