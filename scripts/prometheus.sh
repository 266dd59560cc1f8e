#!/usr/bin/env bash
# Makes Prometheus' own tools available to the tests that prove the alert
# rules and the dashboard (AlertRulesIT): promtool, which checks the rules
# and runs their unit tests (deploy/prometheus/sluice-alerts.test.yaml), and
# the prometheus server, which the test starts itself on a loopback port with
# a configuration and data directory of its own, and kills afterwards.
#
# Installs Debian's prometheus package when either is missing. The package
# ships a service that would listen on :9090 and scrape the machine for good;
# the test needs none of it, so no service may start during the install: a
# policy-rc.d that refuses every start is put in place for the install when
# the machine has none, and the service is left disabled. Recommended packages
# (the node exporter, another service) are not installed. Idempotent: a
# machine that has both tools returns at once.
#
# Usage: scripts/prometheus.sh
set -euo pipefail
. "$(dirname "$0")/lib.sh" prometheus

have_tools() { command -v promtool >/dev/null 2>&1 && command -v prometheus >/dev/null 2>&1; }

if ! have_tools; then
  command -v apt-get >/dev/null 2>&1 || die "promtool and prometheus are missing and apt-get is not available to install them"
  policy=/usr/sbin/policy-rc.d
  if [ ! -e "$policy" ]; then
    # invoke-rc.d and deb-systemd-invoke ask this before starting a service; 101 is "not allowed".
    printf '#!/bin/sh\nexit 101\n' | as_root tee "$policy" >/dev/null
    as_root chmod 755 "$policy"
    trap 'as_root rm -f "$policy"' EXIT
  fi
  say "installing prometheus (for promtool and a test server; its service is not started)"
  apt_install --no-install-recommends prometheus
  if command -v systemctl >/dev/null 2>&1 && [ -d /run/systemd/system ]; then
    as_root systemctl disable --now prometheus.service >/dev/null 2>&1 || true
  elif command -v update-rc.d >/dev/null 2>&1; then
    as_root update-rc.d prometheus disable >/dev/null 2>&1 || true
  fi
fi
have_tools || die "promtool and prometheus could not be installed"
say "ready: $(promtool --version 2>&1 | head -n 1)"
