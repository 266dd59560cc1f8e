#!/usr/bin/env bash
# Makes sure a Podman engine answers Docker's API on a socket of its own, and
# holds the test agent image: the second engine the Podman lane runs against
# (scripts/test.sh --podman, docs/operations.md "Engines", ADR 0078).
#
# It installs Debian's podman (4.3), catatonit (Podman's --init) and
# busybox-static when missing, and starts `podman system service` rootful in
# the background, with storage, run root and events of its own under
# /var/lib/sluice-podman and /run/sluice-podman: it never touches dockerd's
# /var/lib/docker, and dockerd never sees its containers. What works on this
# machine is found out, not assumed, and written into its containers.conf:
#   - cgroups: cgroupfs (no systemd runs here);
#   - the OCI runtime: the first of crun and runc that runs a container (crun
#     1.8 refuses a host of cgroup v1 with the v2 hierarchy mounted beside it,
#     "cgroups in hybrid mode not supported", as this machine has);
#   - storage: overlay where the kernel mounts it, else vfs;
#   - default ulimits below the machine's hard limits, or every container
#     fails with "error setting rlimit type 7: operation not permitted".
# Idempotent: a service that already answers is kept, and only the image is
# (re)built. It fails loudly when no Podman can be had.
#
# Usage: scripts/podman.sh [--no-image | --stop]
#   prints the socket's DOCKER_HOST (unix:///run/sluice-podman/podman.sock) on stdout.
#   --stop  stops the service this script started.
set -euo pipefail
. "$(dirname "$0")/lib.sh" podman

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
run_dir=${SLUICE_PODMAN_RUN_DIR:-/run/sluice-podman}
state_dir=${SLUICE_PODMAN_STATE_DIR:-/var/lib/sluice-podman}
socket=$run_dir/podman.sock
pid_file=$run_dir/service.pid
log=$run_dir/service.log
agent_image=${SLUICE_AGENT_IMAGE:-sluice-agent:test}
wait_seconds=${SLUICE_ENGINE_WAIT_SECONDS:-60}

[ "$(id -u)" -eq 0 ] || die "run as root: the service is rootful, as the worker's engine is"

# Every podman command of this script, and the service, read these two files alone.
export CONTAINERS_CONF=$state_dir/containers.conf
export CONTAINERS_STORAGE_CONF=$state_dir/storage.conf

answers() {
  curl -fsS --max-time 5 --unix-socket "$socket" http://podman/_ping >/dev/null 2>&1
}

install_packages() {
  local missing=()
  command -v podman >/dev/null 2>&1 || missing+=(podman)
  command -v catatonit >/dev/null 2>&1 || missing+=(catatonit)
  command -v runc >/dev/null 2>&1 || missing+=(runc)
  command -v curl >/dev/null 2>&1 || missing+=(curl)
  [ -x /bin/busybox ] || missing+=(busybox-static)
  [ ${#missing[@]} -eq 0 ] && return 0
  command -v apt-get >/dev/null 2>&1 || die "apt-get is not available to install ${missing[*]}"
  say "installing ${missing[*]}"
  apt_install "${missing[@]}"
  command -v podman >/dev/null 2>&1 || die "podman did not install"
}

write_config() {
  local runtime=$1 driver=$2
  mkdir -p "$state_dir" "$run_dir"
  cat >"$CONTAINERS_STORAGE_CONF" <<EOF
# Written by scripts/podman.sh: storage of Sluice's test Podman alone.
[storage]
driver = "$driver"
graphroot = "$state_dir/storage"
runroot = "$run_dir/storage"
EOF
  cat >"$CONTAINERS_CONF" <<EOF
# Written by scripts/podman.sh: Sluice's test Podman, beside dockerd.
[containers]
# Below this machine's hard limits (ulimit -Hn), which Podman's defaults exceed.
default_ulimits = [ "nofile=1024:1024", "nproc=4096:4096" ]
init_path = "/usr/bin/catatonit"
# A container of network none gets an /etc/hosts of localhost and its own name alone,
# not a copy of the host's entries and a host.containers.internal address.
base_hosts_file = "none"
host_containers_internal_ip = "none"
# Only what conmon hands on to a container's exit command (podman container cleanup): the
# database and the events log are found from the storage root and tmp_dir, as the cleanup finds
# them. A static_dir or events_logfile_path of its own left every container "stopped", never
# cleaned up, and each wait answered about twenty seconds after the exit.
[engine]
cgroup_manager = "cgroupfs"
events_logger = "file"
runtime = "$runtime"
tmp_dir = "$run_dir/tmp"
volume_path = "$state_dir/volumes"
EOF
}

# The storage driver: overlay where this kernel mounts it for Podman, else vfs.
choose_driver() {
  write_config runc overlay
  if podman info --format '{{.Store.GraphDriverName}}' >/dev/null 2>&1; then echo overlay; else echo vfs; fi
}

build_agent_image() {
  local ctx
  ctx=$(mktemp -d)
  trap 'rm -rf "$ctx"' RETURN
  cp /bin/busybox "$ctx/busybox"
  cp -r "$root/src/test/agent/." "$ctx/"
  # The Docker lane's image, from the same Dockerfile and context (scripts/docker-engine.sh).
  podman build -q -t "$agent_image" "$ctx" >/dev/null || die "could not build $agent_image"
}

# The first runtime that runs the agent image here.
choose_runtime() {
  local driver=$1 runtime
  for runtime in crun runc; do
    command -v "$runtime" >/dev/null 2>&1 || continue
    write_config "$runtime" "$driver"
    if podman run --rm --network none --init "$agent_image" true >>"$log" 2>&1; then
      echo "$runtime"
      return 0
    fi
    say "runtime $runtime does not run containers here (see $log)"
  done
  die "neither crun nor runc runs a container under Podman here (see $log)"
}

stop_service() {
  if [ -f "$pid_file" ] && kill -0 "$(cat "$pid_file")" 2>/dev/null; then
    local pid
    pid=$(cat "$pid_file")
    kill -TERM "$pid"
    for _ in $(seq 1 20); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
    say "service ($pid) stopped"
  fi
  rm -f "$pid_file"
}

start_service() {
  rm -f "$socket"
  say "starting podman system service on $socket (log: $log)"
  # A session of its own, no descriptor of ours: a caller reading our output is not held open by it.
  setsid nohup podman system service --time=0 "unix://$socket" </dev/null >>"$log" 2>&1 &
  echo $! >"$pid_file"
  local waited=0
  until answers; do
    kill -0 "$(cat "$pid_file")" 2>/dev/null || { tail -n 20 "$log" >&2; die "the service exited"; }
    [ "$waited" -lt $((wait_seconds * 2)) ] || { tail -n 20 "$log" >&2; die "no answer on $socket within ${wait_seconds}s"; }
    sleep 0.5; waited=$((waited + 1))
  done
}

if [ "${1:-}" = "--stop" ]; then
  stop_service
  exit 0
fi

mkdir -p "$run_dir"
if ! answers; then
  install_packages
  driver=$(choose_driver)
  write_config runc "$driver"
  build_agent_image
  runtime=$(choose_runtime "$driver")
  say "storage $driver, runtime $runtime, cgroups cgroupfs"
  start_service
elif [ "${1:-}" != "--no-image" ]; then
  build_agent_image
fi
answers || die "no Podman answers on $socket"
curl -fsS --max-time 5 --unix-socket "$socket" http://podman/version | grep -q '"Name":"Podman Engine"' \
  || die "what answers on $socket is not Podman"
say "Podman answers on $socket; image $agent_image ready"
echo "unix://$socket"
