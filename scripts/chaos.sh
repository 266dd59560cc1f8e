#!/usr/bin/env bash
# The chaos test on its own: dispatches of mixed length and output while the
# packaged worker is killed with SIGKILL at random moments and restarted; a
# recording receiver is the ledger. Prints the figures (also in
# target/chaos-report.txt) and fails unless lost = 0 and conflicting = 0.
#
#   scripts/chaos.sh           40 dispatches, 5 kills (the suite's ChaosIT runs 24 and 3)
#   scripts/chaos.sh --long    200 dispatches, 25 kills
#   extra Maven arguments pass through, e.g. -Dchaos.seed=4242 to repeat a run
set -euo pipefail
cd "$(dirname "$0")/.."

profile=chaos
if [ "${1:-}" = "--long" ]; then
  profile=chaos-long
  shift
fi
scripts/docker-engine.sh
./mvnw -B -ntp verify -P"$profile" "$@"
cat target/chaos-report.txt
