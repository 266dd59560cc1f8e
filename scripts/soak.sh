#!/usr/bin/env bash
# The soak: rounds of 50 dispatches that finish together, printing 1 MiB and
# then 4 MiB each, while orphaned containers wait on the engine to be reaped,
# against the packaged worker started with the JVM settings it ships with
# (deploy/jvm.options). Each result's stdout is checked byte for byte against
# what its process printed (the digest's length and SHA-256, computed here from
# the producer). Prints a table per round (also written to
# target/soak-report.md): short, wrong, claimed complete but short/wrong, said
# incomplete, the witness states. Fails when a result is lost, late, failed, or
# short or wrong without saying so (one that says output_incomplete is listed,
# not failed), when readiness is down after a round, or when an orphan is left.
#
#   scripts/soak.sh          the bounded run (3 rounds; the suite's SoakIT runs one
#                            of each size, or all 3 with -Dsluice.soak.bounded=true)
#   scripts/soak.sh --long   20 rounds: 15 of 1 MiB results, 5 of 4 MiB
#   scripts/soak.sh --rounds 3,5   3 rounds of 1 MiB results, then 5 of 4 MiB
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/docker-engine.sh
./mvnw -B -q -ntp -DskipTests package dependency:build-classpath \
  -Dmdep.outputFile=target/test-classpath.txt -Dmdep.includeScope=test
# Run from a snapshot of the classes, so a build started meanwhile cannot pull them away.
snapshot=target/soak-run
rm -rf "$snapshot" && mkdir -p "$snapshot" && cp -r target/classes target/test-classes "$snapshot/"
cp="$snapshot/test-classes:$snapshot/classes:$(cat target/test-classpath.txt)"
exec java -Djava.util.logging.manager=org.jboss.logmanager.LogManager -cp "$cp" dev.sluice.bench.Soak "$@"
