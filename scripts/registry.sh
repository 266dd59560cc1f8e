#!/usr/bin/env bash
# Makes sure a test registry answers on loopback, with TLS and a password, and
# holds the test agent image: what the pull tests (ImagePullIT) pull from.
#
# Debian's docker-registry (distribution 2.8) serves 127.0.0.1:PORT over TLS
# with a server certificate signed by a CA made here, the first time, with
# openssl; the engine trusts that CA through /etc/docker/certs.d/HOST:PORT/
# (read at each pull: no engine restart). Clients authenticate with htpasswd
# (bcrypt) as a test user whose password is made here too. The agent image
# (sluice-agent:test, scripts/docker-engine.sh builds it) is pushed by tag
# with a throwaway DOCKER_CONFIG, so the machine's docker login is left as it
# was, and the pushed tag is removed from the engine again so that tests pull
# for real. Idempotent and quick on a second run: a registry that answers with
# the test user is kept, and only the push is repeated.
#
# Writes what the tests need to target/registry.env (next to the pom):
#   SLUICE_TEST_REGISTRY (host:port), SLUICE_TEST_REGISTRY_USER,
#   SLUICE_TEST_REGISTRY_PASSWORD, SLUICE_TEST_REGISTRY_CA,
#   SLUICE_TEST_REGISTRY_IMAGE (the pushed repository, without the host),
#   SLUICE_TEST_REGISTRY_LOG (its access log)
#
# Usage: scripts/registry.sh [--stop]
#   --stop  stops the registry this script started (and nothing else)
set -euo pipefail
. "$(dirname "$0")/lib.sh" registry

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
dir=${SLUICE_REGISTRY_DIR:-/tmp/sluice-registry}
port=${SLUICE_REGISTRY_PORT:-5443}
host=127.0.0.1:$port
user=sluice-test
repository=sluice/agent
agent_image=${SLUICE_AGENT_IMAGE:-sluice-agent:test}
wait_seconds=30

stop() {
  if [ -f "$dir/registry.pid" ] && kill -0 "$(cat "$dir/registry.pid")" 2>/dev/null; then
    kill "$(cat "$dir/registry.pid")"
    say "stopped"
  fi
  rm -f "$dir/registry.pid"
}

if [ "${1:-}" = --stop ]; then stop; exit 0; fi

install_packages() {
  local missing=()
  command -v docker-registry >/dev/null 2>&1 || missing+=(docker-registry)
  command -v htpasswd >/dev/null 2>&1 || missing+=(apache2-utils)
  command -v openssl >/dev/null 2>&1 || missing+=(openssl)
  [ ${#missing[@]} -eq 0 ] && return 0
  command -v apt-get >/dev/null 2>&1 || die "apt-get is not available to install ${missing[*]}"
  say "installing ${missing[*]}"
  # The package would start a registry of its own on :5000 as a service; nothing here needs it.
  apt_install "${missing[@]}"
  if command -v systemctl >/dev/null 2>&1 && [ -d /run/systemd/system ]; then
    as_root systemctl disable --now docker-registry >/dev/null 2>&1 || true
  fi
}

make_credentials() {
  mkdir -p "$dir/data"
  chmod 700 "$dir"
  if [ ! -s "$dir/ca.crt" ] || [ ! -s "$dir/server.crt" ] \
      || ! openssl verify -CAfile "$dir/ca.crt" "$dir/server.crt" >/dev/null 2>&1 \
      || ! openssl x509 -checkend 86400 -noout -in "$dir/server.crt" >/dev/null 2>&1; then
    say "making a CA and a server certificate for localhost and 127.0.0.1"
    openssl req -x509 -newkey rsa:2048 -nodes -days 30 -subj "/CN=sluice test registry CA" \
      -keyout "$dir/ca.key" -out "$dir/ca.crt" 2>/dev/null
    openssl req -newkey rsa:2048 -nodes -subj "/CN=localhost" \
      -keyout "$dir/server.key" -out "$dir/server.csr" 2>/dev/null
    printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n' >"$dir/server.ext"
    openssl x509 -req -in "$dir/server.csr" -CA "$dir/ca.crt" -CAkey "$dir/ca.key" -CAcreateserial \
      -days 30 -extfile "$dir/server.ext" -out "$dir/server.crt" 2>/dev/null
  fi
  if [ ! -s "$dir/password" ]; then
    openssl rand -hex 16 >"$dir/password"
  fi
  htpasswd -Bbc "$dir/htpasswd" "$user" "$(cat "$dir/password")" 2>/dev/null
  # The engine reads certs.d at each pull: trusting the CA needs no restart.
  for name in "127.0.0.1:$port" "localhost:$port"; do
    if ! cmp -s "$dir/ca.crt" "/etc/docker/certs.d/$name/ca.crt" 2>/dev/null; then
      as_root mkdir -p "/etc/docker/certs.d/$name"
      as_root cp "$dir/ca.crt" "/etc/docker/certs.d/$name/ca.crt"
    fi
  done
}

answers() {
  [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 3 --cacert "$dir/ca.crt" \
    -u "$user:$(cat "$dir/password")" "https://$host/v2/")" = 200 ]
}

start_registry() {
  cat >"$dir/config.yml" <<EOF
version: 0.1
log:
  level: info
  formatter: text
storage:
  filesystem:
    rootdirectory: $dir/data
  delete:
    enabled: true
http:
  addr: $host
  tls:
    certificate: $dir/server.crt
    key: $dir/server.key
auth:
  htpasswd:
    realm: sluice-test
    path: $dir/htpasswd
EOF
  stop
  say "starting docker-registry on $host (log: $dir/registry.log)"
  nohup docker-registry serve "$dir/config.yml" >>"$dir/registry.log" 2>&1 &
  echo $! >"$dir/registry.pid"
  local waited=0
  until answers; do
    kill -0 "$(cat "$dir/registry.pid")" 2>/dev/null || { tail -n 20 "$dir/registry.log" >&2; die "docker-registry exited"; }
    [ "$waited" -lt "$((wait_seconds * 4))" ] || { tail -n 20 "$dir/registry.log" >&2; die "no answer within ${wait_seconds}s"; }
    sleep 0.25; waited=$((waited + 1))
  done
}

push_image() {
  docker image inspect "$agent_image" >/dev/null 2>&1 || die "$agent_image is missing: run scripts/docker-engine.sh first"
  local config
  config=$(mktemp -d)
  trap 'rm -rf "$config"' RETURN
  # Its warning that the throwaway config holds the password in clear is said only when the login fails.
  DOCKER_CONFIG=$config docker login --username "$user" --password-stdin "$host" <"$dir/password" \
    >/dev/null 2>"$config/login.err" || { cat "$config/login.err" >&2; die "docker login to $host failed"; }
  docker tag "$agent_image" "$host/$repository:test"
  # ImageCollectIT's own references, so that ImagePullIT's removals never meet them: two more tags of the
  # agent image, and an image of its own (one label more), whose reference is then its only name.
  docker tag "$agent_image" "$host/$repository:collect"
  docker tag "$agent_image" "$host/$repository:collect-pinned"
  printf 'FROM %s\nLABEL dev.sluice.test=collect-held\n' "$agent_image" \
    | docker build -q -t "$host/sluice/collect-held:1" - >/dev/null 2>"$config/build.err" \
    || { cat "$config/build.err" >&2; die "could not build $host/sluice/collect-held:1"; }
  local pushed=("$host/$repository:test" "$host/$repository:collect" "$host/$repository:collect-pinned"
    "$host/sluice/collect-held:1")
  local image pid pids=()
  for image in "${pushed[@]}"; do
    DOCKER_CONFIG=$config docker push -q "$image" >/dev/null & pids+=($!)
  done
  for pid in "${pids[@]}"; do wait "$pid" || die "docker push to $host failed"; done
  # Only the pushed tags go: the agent image keeps its own name.
  docker rmi "${pushed[@]}" >/dev/null
}

install_packages
make_credentials
answers || start_registry
push_image
mkdir -p "$root/target"
cat >"$root/target/registry.env" <<EOF
SLUICE_TEST_REGISTRY=$host
SLUICE_TEST_REGISTRY_USER=$user
SLUICE_TEST_REGISTRY_PASSWORD=$(cat "$dir/password")
SLUICE_TEST_REGISTRY_CA=$dir/ca.crt
SLUICE_TEST_REGISTRY_IMAGE=$repository
SLUICE_TEST_REGISTRY_LOG=$dir/registry.log
EOF
say "$host/$repository:test ready"
