#!/usr/bin/env bash
# JMH benchmark of collector ingest (1 KiB chunks), printed as GB/s per stream, and per CPU-second.
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

build() {
  ./mvnw -B -q -ntp -Pbench -DskipTests test-compile dependency:build-classpath \
    -Dmdep.outputFile=target/bench-classpath.txt -Dmdep.includeScope=test
}
build
# Test classes compiled without the profile look up to date to it, but lack JMH's generated list.
if [ ! -f target/test-classes/META-INF/BenchmarkList ]; then
  rm -rf target/test-classes target/generated-test-sources
  build
fi
# Run from a snapshot of the classes, so a build started meanwhile cannot pull them away.
snapshot=target/bench-run
rm -rf "$snapshot" && mkdir -p "$snapshot" && cp -r target/classes target/test-classes "$snapshot/"
cp="$snapshot/test-classes:$snapshot/classes:$(cat target/bench-classpath.txt)"
out=target/bench-collector.txt
java -cp "$cp" org.openjdk.jmh.Main OutputCollectorBenchmark "${jmh_args[@]}" | tee "$out"

# One operation is one 1 KiB chunk. ingest:cpuNanos is the CPU time the measuring thread used per
# second: on a machine shared with other work the score over it is the throughput per CPU-second.
echo
# JMH prints "score ± error ops/s", or just "score ops/s" for a single iteration.
awk '
  function score() { return ($(NF-2) == "\u00b1" || $(NF-2) == "±") ? $(NF-3) : $(NF-1) }
  function error() { return ($(NF-2) == "\u00b1" || $(NF-2) == "±") ? $(NF-1) : 0 }
  # "OutputCollectorBenchmark.ingest  fits ..." or "OutputCollectorBenchmark.sha256  N/A ..."
  $1 ~ /^OutputCollectorBenchmark\.[a-z0-9]+(:cpuNanos)?$/ && $3 == "thrpt" {
    split($1, name, /[.:]/)
    c = $2 == "N/A" ? name[2] : name[2] "/" $2
    if ($1 ~ /:cpuNanos$/) { cpu[c] = score() / 1e9 } else { cases[++n] = c; ops[c] = score(); err[c] = error() }
  }
  END {
    for (i = 1; i <= n; i++) {
      c = cases[i]
      printf "collector %-16s %6.2f GB/s (± %.2f)", c, ops[c] * 1024 / 1e9, err[c] * 1024 / 1e9
      if (cpu[c] > 0) printf "; %5.2f GB per CPU-second (on CPU %2.0f%% of the time)", ops[c] * 1024 / 1e9 / cpu[c], 100 * cpu[c]
      printf "\n"
    }
  }' "$out"
