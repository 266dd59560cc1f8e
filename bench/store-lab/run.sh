#!/usr/bin/env bash
# Runs the store lab: one JVM per variant, results as JSON under results/<run>/,
# then a table of them (summarize.py).
#
#   ./run.sh                         # every variant, default rounds
#   ./run.sh h2-clob@2.4.240         # some variants (NAME@H2VERSION for H2, NAME for SQLite)
#   QUICK=1 ./run.sh                 # one round of each size, to check the set-up
#
# Rounds: H2 variants run R1_H2 rounds of 1 MiB and R4_H2 of 4 MiB (more, to
# give the commit livelock a chance), the others R1 and R4. Every variant runs
# with HEAP (-Xmx) and is killed after LIMIT seconds whatever happens (a stall
# inside the store cannot be stopped otherwise; the watchdog halts the JVM
# itself first, after 30 s, and leaves a thread dump beside the JSON).
set -euo pipefail
cd "$(dirname "$0")"

R1=${R1:-10}
R4=${R4:-3}
R1_H2=${R1_H2:-30}
R4_H2=${R4_H2:-5}
HEAP=${HEAP:-1g}
LIMIT=${LIMIT:-900}
READS=${READS:-20}
THREADS=${THREADS:-50}
if [ -n "${QUICK:-}" ]; then R1=1; R4=1; R1_H2=1; R4_H2=1; READS=3; fi
RUN=${RUN:-results/$(date +%Y%m%d-%H%M%S)}
JAVA_OPTS=${JAVA_OPTS:-}

if [ $# -eq 0 ]; then
  set -- h2-text@2.4.240 h2-clob@2.4.240 h2-blob@2.4.240 h2-files@2.4.240 \
         h2-text@2.5.252 h2-clob@2.5.252 h2-blob@2.5.252 h2-files@2.5.252 \
         sqlite-blob-full sqlite-blob-normal sqlite-files-full sqlite-files-normal
fi

if [ ! -d target/classes ] || [ ! -d target/lib/drivers ]; then
  ../../mvnw -q -B package
fi
mkdir -p "$RUN"
{
  echo "date: $(date -Is)"
  echo "host: $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB RAM, kernel $(uname -r)"
  echo "cpu: $(lscpu | sed -n 's/^Model name: *//p')"
  echo "fs: $(findmnt -no FSTYPE,SOURCE -T .)"
  echo "java: $(java -version 2>&1 | head -1)"
  echo "heap: $HEAP; threads: $THREADS; rounds: H2 ${R1_H2}x1MiB + ${R4_H2}x4MiB, others ${R1}x1MiB + ${R4}x4MiB"
} > "$RUN/machine.txt"
cat "$RUN/machine.txt"

for spec in "$@"; do
  name=${spec%@*}
  case "$name" in
    h2-*)
      version=${spec#*@}
      [ "$version" = "$spec" ] && version=2.4.240
      driver=target/lib/drivers/h2-$version.jar
      tag="$name-$version"
      r1=$R1_H2; r4=$R4_H2 ;;
    *)
      driver=$(ls target/lib/drivers/sqlite-jdbc-*.jar)
      tag="$name"
      r1=$R1; r4=$R4 ;;
  esac
  echo "=== $tag ($r1 x 1 MiB, $r4 x 4 MiB)"
  start=$(date +%s)
  set +e
  # shellcheck disable=SC2086
  timeout --signal=KILL "$LIMIT" java -Xmx"$HEAP" $JAVA_OPTS \
    -cp "target/classes:target/lib/common/*:$driver" dev.sluice.storelab.StoreLab \
    --variant "$name" --dir "data/$tag" --out "$RUN/$tag.json" \
    --rounds-1m "$r1" --rounds-4m "$r4" --reads "$READS" --threads "$THREADS" 2>&1 | tee "$RUN/$tag.log"
  rc=${PIPESTATUS[0]}
  set -e
  echo "exit $rc after $(( $(date +%s) - start )) s" | tee -a "$RUN/$tag.log"
  [ -n "${KEEP_DATA:-}" ] || rm -rf "data/$tag"
done

python3 summarize.py "$RUN" | tee "$RUN/summary.md"
