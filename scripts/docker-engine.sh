#!/usr/bin/env bash
# Makes sure a Docker engine answers, and builds the test agent image.
#
# On a machine whose engine already answers it only (re)builds the image. On a
# fresh Debian machine it installs Debian's docker.io and busybox-static,
# starts dockerd in the background and waits for it. It fails loudly when no
# engine can be had: tests that need Docker must never be skipped.
#
# Usage: scripts/docker-engine.sh [--no-image | --restart]
#   --restart  stops the dockerd this script started and starts it again (the
#              daemon-fault tests use it); fails when the engine is not ours.
set -euo pipefail
. "$(dirname "$0")/lib.sh" docker-engine

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
log_dir=${SLUICE_ENGINE_LOG_DIR:-/tmp/sluice-dockerd}
pid_file=$log_dir/dockerd.pid
agent_image=${SLUICE_AGENT_IMAGE:-sluice-agent:test}
wait_seconds=${SLUICE_ENGINE_WAIT_SECONDS:-60}

engine_answers() { docker info >/dev/null 2>&1; }

install_packages() {
  local missing=()
  command -v dockerd >/dev/null 2>&1 || missing+=(docker.io)
  command -v docker >/dev/null 2>&1 || missing+=(docker.io)
  [ -x /bin/busybox ] || missing+=(busybox-static)
  [ ${#missing[@]} -eq 0 ] && return 0
  command -v apt-get >/dev/null 2>&1 || die "no Docker engine answers and apt-get is not available to install ${missing[*]}"
  say "installing ${missing[*]}"
  apt_install "${missing[@]}"
}

start_engine() {
  mkdir -p "$log_dir"
  say "starting dockerd (log: $log_dir/dockerd.log)"
  # No bridge and no iptables: dispatches run with network "none" by default,
  # and nothing here should send traffic into the bridge's private range.
  # dockerd writes its own pid file: the pid of a backgrounded shell function would not be its.
  as_root nohup dockerd --bridge=none --iptables=false --pidfile "$pid_file" >>"$log_dir/dockerd.log" 2>&1 &
  local waited=0
  until engine_answers; do
    if [ "$waited" -ge "$wait_seconds" ]; then
      tail -n 30 "$log_dir/dockerd.log" >&2 || true
      die "dockerd did not answer within ${wait_seconds}s"
    fi
    sleep 1; waited=$((waited + 1))
  done
  say "engine up after ${waited}s"
}

build_agent_image() {
  local ctx
  ctx=$(mktemp -d)
  trap 'rm -rf "$ctx"' RETURN
  [ -x /bin/busybox ] || install_packages
  [ -x /bin/busybox ] || die "/bin/busybox is missing; install busybox-static"
  cp /bin/busybox "$ctx/busybox"
  cp -r "$root/src/test/agent/." "$ctx/"
  docker build -q -t "$agent_image" "$ctx" >/dev/null || die "could not build $agent_image"
  say "image $agent_image ready"
}

restart_engine() {
  [ -f "$pid_file" ] && kill -0 "$(cat "$pid_file")" 2>/dev/null \
    || die "the running engine was not started by this script; not restarting it"
  local pid
  pid=$(cat "$pid_file")
  say "stopping dockerd ($pid)"
  as_root kill -TERM "$pid"
  for _ in $(seq 1 60); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
  kill -0 "$pid" 2>/dev/null && die "dockerd ($pid) did not stop"
  start_engine
}

if [ "${1:-}" = "--restart" ]; then
  restart_engine
  exit 0
fi

if ! engine_answers; then
  install_packages
  engine_answers || start_engine
fi
engine_answers || die "no Docker engine answers"

if [ "${1:-}" != "--no-image" ]; then
  build_agent_image
fi
