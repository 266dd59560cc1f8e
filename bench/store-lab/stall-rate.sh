#!/usr/bin/env bash
# How often a variant stalls: ATTEMPTS fresh processes (a new database each),
# each running R1 rounds of 1 MiB and R4 of 4 MiB, then a tally.
#
#   ./stall-rate.sh 5 0 5 h2-text@2.4.240 h2-blob@2.4.240
set -euo pipefail
cd "$(dirname "$0")"
attempts=$1; r1=$2; r4=$3; shift 3
base=${RUN:-results/stall-rate-$(date +%Y%m%d-%H%M%S)}
for spec in "$@"; do
  for i in $(seq 1 "$attempts"); do
    RUN="$base/attempt-$i" R1=$r1 R4=$r4 R1_H2=$r1 R4_H2=$r4 READS=1 ./run.sh "$spec" > /dev/null 2>&1 || true
  done
done
python3 tally.py "$base" | tee "$base/summary.md"
