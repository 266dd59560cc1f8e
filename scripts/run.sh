#!/usr/bin/env bash
# Starts the worker on http://localhost:8080, bringing up what it needs first:
# a Docker engine and the example agent image (scripts/docker-engine.sh).
# Settings come from src/main/resources/application.properties and SLUICE_*
# environment variables.
#
# The API needs no token out of the box: the worker listens on loopback
# (127.0.0.1:8080, probes and metrics on 127.0.0.1:9000), where only this
# machine reaches it. A worker that listens beyond loopback refuses to start
# without SLUICE_API_TOKENS (ADR 0053): set QUARKUS_HTTP_HOST=0.0.0.0 with
# SLUICE_API_TOKENS to serve other machines.
#
# Callbacks work out of the box: when no signing secret is set, a development
# secret is generated once, kept in ./data/dev-signing-secret and printed, and
# receivers on this machine (localhost, 127.0.0.1) may be called back. Set
# SLUICE_CALLBACK_SIGNING_SECRETS (and SLUICE_CALLBACK_ALLOWED_HOSTS) to use
# your own; a production worker gets them from its secret store, never from
# this file.
set -euo pipefail
. "$(dirname "$0")/lib.sh" run
cd "$(dirname "$0")/.."

scripts/java-check.sh
scripts/docker-engine.sh
./mvnw -B -q -ntp package -DskipTests

if [ -z "${SLUICE_CALLBACK_SIGNING_SECRETS:-}" ]; then
  secret_file=data/dev-signing-secret
  if [ ! -s "$secret_file" ]; then
    mkdir -p data
    (umask 077 && printf 'whsec_%s\n' "$(head -c 32 /dev/urandom | base64 | tr -d '\n')" > "$secret_file")
  fi
  SLUICE_CALLBACK_SIGNING_SECRETS=$(cat "$secret_file")
  export SLUICE_CALLBACK_SIGNING_SECRETS
  export SLUICE_CALLBACK_ALLOWED_HOSTS=${SLUICE_CALLBACK_ALLOWED_HOSTS:-localhost,127.0.0.1}
  say "callbacks are signed with a development secret ($secret_file):"
  say "  $SLUICE_CALLBACK_SIGNING_SECRETS"
  say "receivers on ${SLUICE_CALLBACK_ALLOWED_HOSTS} may be called back."
  say "set SLUICE_CALLBACK_SIGNING_SECRETS=whsec_... (and SLUICE_CALLBACK_ALLOWED_HOSTS) to use your own."
fi

export QUARKUS_HTTP_HOST=${QUARKUS_HTTP_HOST:-127.0.0.1}
export QUARKUS_MANAGEMENT_HOST=${QUARKUS_MANAGEMENT_HOST:-127.0.0.1}
say "the API listens on ${QUARKUS_HTTP_HOST}:${QUARKUS_HTTP_PORT:-8080}, probes and metrics on ${QUARKUS_MANAGEMENT_HOST}:${QUARKUS_MANAGEMENT_PORT:-9000}."

exec scripts/worker.sh
