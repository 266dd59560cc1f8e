#!/usr/bin/env bash
# Makes gVisor's runsc a runtime of the Docker engine, for dispatches that ask
# for `runtime: runsc` (ADR 0061; docs/operations.md, "Runtimes").
#
# Installs Debian's runsc when it is missing, registers it in the engine's
# daemon.json as `runsc` with gVisor's own network stack off (dispatches run
# with no network; see the ADR for why), makes the engine reload its
# configuration (SIGHUP: running containers are untouched), and runs one
# container under it. Idempotent: an engine that already lists runsc is left
# as it is. Fails loudly when runsc cannot be had or cannot run a container.
#
# Usage: scripts/runsc.sh
set -euo pipefail
. "$(dirname "$0")/lib.sh" runsc

daemon_json=${SLUICE_DAEMON_JSON:-/etc/docker/daemon.json}
agent_image=${SLUICE_AGENT_IMAGE:-sluice-agent:test}

engine_has_runsc() { docker info --format '{{json .Runtimes}}' 2>/dev/null | grep -q '"runsc"'; }

if ! command -v runsc >/dev/null 2>&1; then
  command -v apt-get >/dev/null 2>&1 || die "runsc is missing and apt-get is not available to install it"
  say "installing runsc"
  apt_install runsc
fi
runsc_path=$(command -v runsc) || die "runsc could not be installed"

if ! engine_has_runsc; then
  entry="{\"path\":\"$runsc_path\",\"runtimeArgs\":[\"--network=none\"]}"
  if [ ! -s "$daemon_json" ]; then
    as_root mkdir -p "$(dirname "$daemon_json")"
    printf '{"runtimes":{"runsc":%s}}\n' "$entry" | as_root tee "$daemon_json" >/dev/null
  elif command -v python3 >/dev/null 2>&1; then
    as_root python3 - "$daemon_json" "$entry" <<'PY'
import json, sys
path, entry = sys.argv[1], json.loads(sys.argv[2])
with open(path) as f:
    config = json.load(f)
config.setdefault("runtimes", {})["runsc"] = entry
with open(path, "w") as f:
    json.dump(config, f, indent=2)
PY
  else
    die "$daemon_json exists and python3 is missing to add runsc to it: add \"runtimes\": {\"runsc\": $entry}"
  fi
  pid=$(pgrep -x dockerd | head -n 1) || die "no dockerd process to reload"
  say "registering runsc with the engine (SIGHUP to dockerd $pid)"
  as_root kill -HUP "$pid"
  for _ in $(seq 1 20); do engine_has_runsc && break; sleep 0.5; done
  engine_has_runsc || die "the engine did not take runsc from $daemon_json (its log says why)"
fi

# One container under it, so a kernel or engine that cannot run gVisor fails here and says so.
out=$(docker run --rm --runtime runsc --network none "$agent_image" sh -c 'echo runsc-ok' 2>&1) \
  || die "the engine could not run a container under runsc: $out"
[ "$out" = runsc-ok ] || die "a container under runsc printed '$out', not 'runsc-ok'"
say "runsc ready"
