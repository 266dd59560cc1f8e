#!/usr/bin/env bash
# Many containers printing 4 MiB each and exiting together, every result held
# byte for byte to what its process printed: the load under which the engine
# drops the end of a stream (it closes its pipes about 2 s after the exit and
# loses what its copy had not read). Starts the packaged worker as shipped
# (scripts/worker.sh: its JVM settings, defaults, caps and embedded store, on
# loopback), runs rounds of concurrent dispatches of
#   sh -c "sleep 1; yes 'load line 0123456789 abcdefghij' | head -c 4194304"
# polls each record until terminal and checks its stdout digest (length and
# SHA-256, computed locally from the producer), its text and its witness; then
# rounds of as many concurrent attached `docker run` of the same image and
# producer with the worker's hardening flags, stdout counted and hashed. Prints
# the table (also written to target/load-4m-report.md): short, wrong, claimed
# complete but short/wrong, said incomplete, witness states, each side and the
# ratio. Exits 1 when a Sluice result is short or wrong without saying so,
# failed otherwise, or had no result within the deadline.
#
#   bench/load-4m.sh                        5 rounds of 50, then 3 CLI rounds of 50
#   bench/load-4m.sh --rounds 1 --concurrency 10 --cli-rounds 1
#   bench/load-4m.sh --deadline 180         seconds one dispatch (or docker run) may take
#   bench/load-4m.sh --no-package ...       use target/ as the last build left it
#
# Bounded: each dispatch and each docker run has the deadline, the whole run a
# limit derived from it; its containers (labelled) are removed when it ends,
# however it ends.
set -euo pipefail
cd "$(dirname "$0")/.."

package=yes
args=()
for arg in "$@"; do
  case "$arg" in
    --no-package) package=no ;;
    *) args+=("$arg") ;;
  esac
done
option() { # option NAME DEFAULT: the number after NAME in the arguments
  local name=$1 value=$2 i
  for ((i = 0; i < ${#args[@]}; i++)); do
    if [ "${args[$i]}" = "$name" ]; then value=${args[$((i + 1))]:-}; fi
  done
  case "$value" in ''|*[!0-9]*) echo "load-4m: $name needs a number" >&2; exit 2 ;; esac
  echo "$value"
}
rounds=$(option --rounds 5)
cli_rounds=$(option --cli-rounds 3)
deadline=$(option --deadline 180)
option --concurrency 50 >/dev/null
# Every round waits at most the deadline (and a minute of polling); start-up, warm-up and clean-up on top.
limit=$(( (rounds + cli_rounds) * (deadline + 120) + 600 ))

scripts/docker-engine.sh
if [ "$package" = yes ]; then
  ./mvnw -B -q -ntp -DskipTests package dependency:build-classpath \
    -Dmdep.outputFile=target/test-classpath.txt -Dmdep.includeScope=test
fi
# Run from a snapshot of the classes, so a build started meanwhile cannot pull them away.
snapshot=target/load-4m-run
rm -rf "$snapshot" && mkdir -p "$snapshot" && cp -r target/classes target/test-classes "$snapshot/"
cp="$snapshot/test-classes:$snapshot/classes:$(cat target/test-classpath.txt)"

clean_up() {
  # The harness and the worker it started share a process group of their own.
  if [ -n "${pid:-}" ] && kill -0 "$pid" 2>/dev/null; then
    kill -TERM -- "-$pid" 2>/dev/null || true
    sleep 5
    kill -KILL -- "-$pid" 2>/dev/null || true
  fi
  if [ -n "${watchdog:-}" ]; then kill "$watchdog" 2>/dev/null || true; fi
  for filter in label=dev.sluice.worker-id=load-4m label=dev.sluice.bench=load-4m; do
    ids=$(docker ps -aq --filter "$filter")
    if [ -n "$ids" ]; then
      # shellcheck disable=SC2086
      docker rm -f -v $ids >/dev/null 2>&1 || true
    fi
  done
}
trap clean_up EXIT
trap 'exit 130' INT TERM

setsid java -Djava.util.logging.manager=org.jboss.logmanager.LogManager -cp "$cp" \
  dev.sluice.bench.Load4m "${args[@]}" &
pid=$!
(
  sleep "$limit" &
  nap=$!
  trap 'kill "$nap" 2>/dev/null; exit 0' TERM
  wait "$nap" || exit 0
  echo "load-4m: over the ${limit} s limit, stopping" >&2
  kill -TERM -- "-$pid" 2>/dev/null
) &
watchdog=$!
status=0
wait "$pid" || status=$?
exit "$status"
