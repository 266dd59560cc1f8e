#!/usr/bin/env bash
# JMH benchmark of collector ingest (1 KiB chunks), printed as GB/s per stream.
#
#   bench/collector.sh            full run: 3 forks x 5 iterations of 2 s
#   bench/collector.sh --smoke    one short fork, seconds: proves the harness still runs
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "${1:-}" = "--smoke" ]; then
  jmh_args=(-f 1 -wi 1 -w 1s -i 1 -r 1s)
else
  jmh_args=(-f 3 -wi 3 -w 2s -i 5 -r 2s)
fi

./mvnw -B -q -ntp -Pbench -DskipTests test-compile dependency:build-classpath \
  -Dmdep.outputFile=target/bench-classpath.txt -Dmdep.includeScope=test
# Run from a snapshot of the classes, so a build started meanwhile cannot pull them away.
snapshot=target/bench-run
rm -rf "$snapshot" && mkdir -p "$snapshot" && cp -r target/classes target/test-classes "$snapshot/"
cp="$snapshot/test-classes:$snapshot/classes:$(cat target/bench-classpath.txt)"
out=target/bench-collector.txt
java -cp "$cp" org.openjdk.jmh.Main OutputCollectorBenchmark "${jmh_args[@]}" | tee "$out"

# One operation is one 1 KiB chunk.
echo
# JMH prints "score ± error ops/s", or just "score ops/s" for a single iteration.
awk '/^OutputCollectorBenchmark.ingest/ {
  err = ($(NF-2) == "\u00b1" || $(NF-2) == "±") ? $(NF-1) : 0
  score = err ? $(NF-3) : $(NF-1)
  printf "collector ingest, %-9s %6.2f GB/s (± %.2f)\n", $2, score * 1024 / 1e9, err * 1024 / 1e9
}' "$out"
