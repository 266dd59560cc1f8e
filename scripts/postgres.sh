#!/usr/bin/env bash
# Makes sure a PostgreSQL server answers on localhost:5432 with the test role
# and databases (one per group of tests that must not see each other's rows), installing and starting Debian's server when none does. The
# store tests run against it as well as against the embedded H2; they fail
# (never skip) without it.
#
# Prints the JDBC URL of the test database.
set -euo pipefail
. "$(dirname "$0")/lib.sh" postgres

user=${SLUICE_TEST_POSTGRES_USER:-sluice}
password=${SLUICE_TEST_POSTGRES_PASSWORD:-sluice}
databases=(sluice_test sluice_app_test sluice_replicas_test sluice_groups_test sluice_images_test sluice_waiting_test sluice_queue_test sluice_attempts_test sluice_reach_test sluice_fleet_test sluice_probes_test)

as_postgres() {
  if [ "$(id -u)" -eq 0 ]; then su postgres -c "$*"; else sudo -u postgres sh -c "$*"; fi
}

answers() { command -v pg_isready >/dev/null 2>&1 && pg_isready -q -h localhost -p 5432; }

if ! answers; then
  if ! command -v pg_ctlcluster >/dev/null 2>&1; then
    command -v apt-get >/dev/null 2>&1 || die "no PostgreSQL answers and apt-get is not available to install one"
    say "installing postgresql"
    apt_install postgresql
  fi
  cluster=$(pg_lsclusters --no-header | awk 'NR == 1 { print $1 " " $2 }')
  [ -n "$cluster" ] || die "no PostgreSQL cluster found"
  say "starting cluster $cluster"
  as_root pg_ctlcluster $cluster start || true
  for _ in $(seq 1 30); do answers && break; sleep 1; done
  answers || die "PostgreSQL did not answer within 30s"
fi

as_postgres "psql -tAc \"SELECT 1 FROM pg_roles WHERE rolname = '$user'\"" | grep -q 1 \
  || as_postgres "psql -qc \"CREATE ROLE $user LOGIN PASSWORD '$password'\""
for db in "${databases[@]}"; do
  as_postgres "psql -tAc \"SELECT 1 FROM pg_database WHERE datname = '$db'\"" | grep -q 1 \
    || as_postgres "psql -qc \"CREATE DATABASE $db OWNER $user\""
done
say "ready"
echo "jdbc:postgresql://localhost:5432/${databases[0]}"
