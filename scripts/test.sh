#!/usr/bin/env bash
# Runs the test suite, whole or in one of its lanes.
#
#   scripts/test.sh --fast   unit, property and @QuarkusTest tests against a
#                            scripted engine: no Docker, PostgreSQL or Node
#                            needed, a few minutes on two cores.
#   scripts/test.sh          the whole suite (what .ci/run runs, in three parts):
#                            the fast lane's tests, the integration tests, and
#                            then the Podman lane (below). With Maven arguments
#                            (-Dit.test=...), those alone, without the Podman lane.
#   scripts/test.sh --integration
#                            the whole suite without the fast lane's tests, for
#                            a run that has just passed them (.ci/run).
#   scripts/test.sh --podman the integration tests of the second engine: a
#                            subset (PODMAN_TESTS below) and the @Tag("podman")
#                            tests against Podman's Docker-compatible API, which
#                            scripts/podman.sh installs and starts beside
#                            dockerd (docs/operations.md, "Engines"; ADR 0078).
#   scripts/test.sh --setup  only installs and starts what the integration and
#                            Podman lanes need (below), and runs no test: .ci/run
#                            does it while the fast lane runs, which needs none
#                            of it.
#
# The whole suite brings up what it needs first: a Docker engine
# and the test agent image (scripts/docker-engine.sh), a test registry holding
# that image (scripts/registry.sh), gVisor's runsc as a runtime of that engine
# (scripts/runsc.sh), a PostgreSQL server
# (scripts/postgres.sh), Prometheus' promtool and server for the alert rules'
# tests (scripts/prometheus.sh), and the Node packages that check manifests and
# callbacks with other ecosystems' tools and receive traces (src/test/node). The JVM image test
# (ImageIT) builds the image with scripts/jvm-image.sh, which installs
# debootstrap and makes the image's Java base the first time. Unit tests,
# @QuarkusTest tests and the integration tests against the real engine and
# both stores all run; none is skipped for want of Docker, PostgreSQL, Node or
# kubectl.
#
# Each lane ends with scripts/skipped-tests.sh on the reports it wrote: a
# skipped test fails it unless src/test/skipped-tests.txt lists it with its
# reason.
#
# Usage: scripts/test.sh [--fast | --integration | --podman | --setup] [extra Maven arguments]
set -euo pipefail
. "$(dirname "$0")/lib.sh" test
cd "$(dirname "$0")/.."

lane=full
case "${1:-}" in
  --fast) lane=fast; shift ;;
  --integration) lane=integration; shift ;;
  --podman) lane=podman; shift ;;
  --setup) lane=setup; shift ;;
esac

# Reports older than this are earlier runs' (target/ keeps them).
started=$(mktemp)
trap 'rm -f "$started"' EXIT

if [ "$lane" = fast ]; then
  # An engine that cannot exist: a test of this lane that reached for the real
  # engine instead of the scripted one fails here rather than passing by luck.
  export SLUICE_DOCKER_HOST=unix:///nonexistent/sluice-fast-lane/docker.sock
  ./mvnw -B -ntp test "$@"
  scripts/skipped-tests.sh --newer "$started" target/surefire-reports
  exit 0
fi

if [ "$lane" = podman ]; then
  # Lifecycle, cancel, timeout and kill, the hardening flags as inspected, the user and log ranges
  # (DispatchLifecycleIT); the witness (WitnessIT); reconciliation after a worker's restart
  # (CrashRecoveryIT's restarts); 64 MiB byte for byte and the refusals (PodmanEngineIT).
  podman_tests='DispatchLifecycleIT,WitnessIT,CrashRecoveryIT#queuedAndRunningDispatchesSurviveASigkill+aResultReadBackFromTheLogAfterARestartCarriesTheDigestsOfALiveCapture+whatOutlastsTheDrainPeriodIsLeftForReconciliation,PodmanEngineIT'
  host=$(scripts/podman.sh) || die "no Podman engine could be had (scripts/podman.sh)"
  export DOCKER_HOST=$host SLUICE_DOCKER_HOST=$host
  # Podman ignores a container's runtime, so the test profile's runtimes would make every worker refuse to start.
  export SLUICE_CONTAINER_RUNTIMES=
  for id in sluice-test sluice-test-1 sluice-test-2; do
    stale=$(docker ps -aq --filter label=dev.sluice.worker-id=$id)
    [ -z "$stale" ] || docker rm -f $stale >/dev/null
  done
  # The packaged worker is built again only when something changed since it was built (after the
  # integration lane, nothing has).
  built=()
  if [ -f target/sluice-runner.jar ] && [ -z "$(find src pom.xml -path src/test/node/node_modules -prune -o -newer target/sluice-runner.jar -print -quit)" ]; then
    built=(-Dquarkus.build.skip=true)
  fi
  ./mvnw -B -ntp verify -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false "${built[@]}" \
    -Dsluice.it.excluded-groups=engine-wide -Dit.test="$podman_tests" "$@"
  scripts/skipped-tests.sh --newer "$started" target/failsafe-reports
  exit 0
fi

# What the integration lane needs, installed and started when missing; each
# script keeps what already runs.
setup() {
  scripts/docker-engine.sh
  # The registry the pull tests pull from (ImagePullIT): loopback, TLS, a password.
  scripts/registry.sh
  scripts/runsc.sh
  scripts/postgres.sh >/dev/null
  # promtool checks and unit-tests the alert rules; a Prometheus server scrapes a worker (AlertRulesIT, PrometheusScrapeIT).
  scripts/prometheus.sh

  # Node and npm: Debian's, when the machine has none.
  if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    command -v apt-get >/dev/null 2>&1 || die "node and npm are missing and apt-get is not available to install them"
    say "installing nodejs and npm"
    apt_install nodejs npm
  fi
  command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1 || die "node and npm could not be installed"
  # Exactly the locked packages, from the npm registry; none runs install scripts. Installed
  # again only when the lock differs from the copy kept beside them at the last install.
  if ! cmp -s src/test/node/package-lock.json src/test/node/node_modules/.sluice-installed-lock.json; then
    npm ci --prefix src/test/node --ignore-scripts --no-audit --no-fund --loglevel=error \
      || die "npm ci in src/test/node failed"
    cp src/test/node/package-lock.json src/test/node/node_modules/.sluice-installed-lock.json
  fi
  # ManifestsIT renders the manifests with kubectl's kustomize (v5; Debian's
  # kubernetes-client is too old to read them).
  command -v kubectl >/dev/null 2>&1 || die "kubectl is missing: install a current kubectl (it renders deploy/kubernetes)"
  # Containers of earlier test runs (the tests' worker ids, one per test JVM) would only pile up.
  for id in sluice-test sluice-test-1 sluice-test-2; do
    stale=$(docker ps -aq --filter label=dev.sluice.worker-id=$id)
    [ -z "$stale" ] || docker rm -f $stale >/dev/null
  done
}

if [ "$lane" = setup ]; then
  setup
  scripts/podman.sh >/dev/null
  exit 0
fi

setup
if [ "$lane" = integration ]; then
  set -- -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false "$@"
fi
./mvnw -B -ntp verify "$@"
scripts/skipped-tests.sh --newer "$started" target/surefire-reports target/failsafe-reports
if [ "$lane" = full ] && [ $# -eq 0 ]; then
  exec scripts/test.sh --podman
fi
