# What the benchmarks and the demo share; sourced, never run:
#
#   . "$(dirname "$0")/lib.sh" WORD        (scripts/demo.sh: "$(dirname "$0")/../bench/lib.sh")
#
# It sources scripts/lib.sh with WORD (say, die, as_root, apt_install) and adds:
#   at_exit COMMAND     runs COMMAND (a string, evaluated) when the script exits,
#                       however it exits; the last one given runs first
#   free_port           prints a loopback port the system has free
#   wait_for SECONDS WHAT COMMAND...
#                       runs COMMAND until it succeeds; dies after SECONDS,
#                       saying WHAT it waited for (and the end of the worker's
#                       log, when a worker was started); it tries again every
#                       wait_interval seconds (0.1)
#   start_worker DIR [NAME=VALUE...]
#                       starts the packaged worker as it ships (scripts/worker.sh,
#                       target/sluice-runner.jar) with the settings given, its
#                       store in DIR/data and its log in DIR/worker.log, the API
#                       and the management interface on loopback (on the ports in
#                       worker_port and management_port when the script set
#                       them, else on free ones); waits up to
#                       worker_ready_seconds (120) for readiness, and stops it
#                       when the script exits. Sets worker_pid, worker_port,
#                       management_port, worker_log, base (the API's URL) and
#                       management (the management interface's URL).
#   stop_worker         stops it now: SIGTERM (it drains), SIGKILL after
#                       worker_stop_seconds (60)

. "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh" "${1:-$(basename "$0" .sh)}"
sluice_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

exit_steps=()
at_exit() { exit_steps+=("$1"); }
run_exit_steps() {
  local i
  for ((i = ${#exit_steps[@]} - 1; i >= 0; i--)); do eval "${exit_steps[$i]}" || true; done
}
trap run_exit_steps EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

wait_for() {
  local deadline=$((SECONDS + $1)) what=$2
  shift 2
  until "$@"; do
    if [ $SECONDS -ge $deadline ]; then
      if [ -n "${worker_log:-}" ]; then tail -20 "$worker_log" >&2; fi
      die "gave up waiting for $what"
    fi
    sleep "${wait_interval:-0.1}"
  done
}

start_worker() {
  local dir=$1
  shift
  [ -f "$sluice_root/target/sluice-runner.jar" ] || die "no target/sluice-runner.jar: run ./mvnw -DskipTests package first"
  worker_port=${worker_port:-$(free_port)}
  management_port=${management_port:-$(free_port)}
  base=http://127.0.0.1:$worker_port
  # Probes answer on the management port, not the API's (ADR 0053).
  management=http://127.0.0.1:$management_port
  worker_log=$dir/worker.log
  mkdir -p "$dir"
  env SLUICE_DATA_DIR="$dir/data" \
    QUARKUS_HTTP_HOST=127.0.0.1 QUARKUS_HTTP_PORT="$worker_port" \
    QUARKUS_MANAGEMENT_HOST=127.0.0.1 QUARKUS_MANAGEMENT_PORT="$management_port" \
    "$@" "$sluice_root/scripts/worker.sh" >"$worker_log" 2>&1 &
  worker_pid=$!
  at_exit stop_worker
  wait_for "${worker_ready_seconds:-120}" "the worker's readiness on $management (log: $worker_log)" worker_ready
}

worker_ready() {
  running "$worker_pid" || { tail -20 "$worker_log" >&2; die "the worker exited before it was ready (log: $worker_log)"; }
  curl -sf -o /dev/null "$management/q/health/ready"
}

# Alive, and not a zombie waiting to be reaped.
running() {
  local state
  state=$(ps -o stat= -p "$1" 2>/dev/null) && [ "${state:0:1}" != Z ]
}

stop_worker() {
  [ -n "${worker_pid:-}" ] || return 0
  kill -TERM "$worker_pid" 2>/dev/null || true
  local deadline=$((SECONDS + ${worker_stop_seconds:-60}))
  while running "$worker_pid" && [ $SECONDS -lt $deadline ]; do sleep 0.1; done
  kill -KILL "$worker_pid" 2>/dev/null || true
  wait "$worker_pid" 2>/dev/null || true
  worker_pid=
}
