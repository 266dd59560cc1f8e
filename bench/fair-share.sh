#!/usr/bin/env bash
# Fair share of the engine (issue 27, ADR 0057): tenant alpha posts 300
# dispatches, then tenant beta posts 10; each sleeps a while in a few run
# slots. Prints each tenant's queue wait (the record's startedAt minus its
# createdAt) at p50, p99 and max, beside what first-come-first-served would
# give beta (alpha's whole backlog ahead of it), as the rows kept in
# BENCHMARKS.md. Starts the packaged worker as it ships (scripts/worker.sh)
# against the real engine, with a token per tenant; bounded: every wait has a
# deadline, and the worker it started is stopped on exit.
#
#   bench/fair-share.sh                 300 + 10 dispatches of 1 s in 4 slots
#   bench/fair-share.sh 300 10 1 4      alpha's count, beta's, seconds each, slots
#
# Needs the engine (scripts/docker-engine.sh), the test image sluice-agent:test
# and a packaged worker (./mvnw -DskipTests package).
set -euo pipefail
. "$(dirname "$0")/lib.sh" fair-share
cd "$(dirname "$0")/.."

alpha_n=${1:-300}
beta_n=${2:-10}
seconds=${3:-1}
slots=${4:-4}

token() { head -c 64 /dev/urandom | sha256sum | cut -c1-32; }
alpha_token=$(token)
beta_token=$(token)
# Polled at a pace that leaves the measured worker its CPU.
wait_interval=0.5
work=$(mktemp -d)
at_exit 'rm -rf "$work"'
start_worker "$work" SLUICE_WORKER_ID=bench-fair SLUICE_API_TOKENS="alpha:$alpha_token,beta:$beta_token" \
  SLUICE_DISPATCH_MAX_RUNNING="$slots" SLUICE_DISPATCH_MAX_QUEUED=$((alpha_n + beta_n))

post() { # token, id
  local body
  body=$(printf '{"id":"%s","image":"sluice-agent:test","command":["sh","-c","sleep %s"],"timeout":"PT10M"}' \
    "$2" "$seconds")
  curl -sf -o /dev/null -H "Authorization: Bearer $1" -H 'Content-Type: application/json' -d "$body" \
    "$base/v1/dispatches" || die "POST $2 was refused"
}
for i in $(seq -w 1 "$alpha_n"); do post "$alpha_token" "fair-a-$i"; done
for i in $(seq -w 1 "$beta_n"); do post "$beta_token" "fair-b-$i"; done

record() { curl -sf -H "Authorization: Bearer $1" "$base/v1/dispatches/$2"; }
finished() { # token, id
  local r
  r=$(record "$1" "$2") || return 1
  python3 -c 'import json,sys
sys.exit(0 if json.loads(sys.argv[1])["status"] not in ("queued","starting","running") else 1)' "$r"
}
budget=$(( (alpha_n + beta_n) * (seconds + 2) / slots + 120 ))
wait_for "$budget" "alpha's last dispatch" finished "$alpha_token" "fair-a-$(seq -w 1 "$alpha_n" | tail -1)"
wait_for 120 "beta's last dispatch" finished "$beta_token" "fair-b-$(seq -w 1 "$beta_n" | tail -1)"

for i in $(seq -w 1 "$alpha_n"); do record "$alpha_token" "fair-a-$i"; echo; done >"$work/alpha.jsonl"
for i in $(seq -w 1 "$beta_n"); do record "$beta_token" "fair-b-$i"; echo; done >"$work/beta.jsonl"

python3 - "$work" "$alpha_n" "$beta_n" "$seconds" "$slots" <<'PY'
import json, sys
from datetime import datetime

work, alpha_n, beta_n, seconds, slots = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5])

def t(s):
    return datetime.fromisoformat(s.replace("Z", "+00:00"))

def waits(name):
    out = []
    for line in open(f"{work}/{name}.jsonl"):
        r = json.loads(line)
        if r.get("status") != "succeeded" or not r.get("startedAt"):
            sys.exit(f"{name}: {r.get('id')} ended {r.get('status')}")
        out.append((t(r["startedAt"]) - t(r["createdAt"])).total_seconds())
    return sorted(out)

def pct(xs, p):  # nearest rank
    return xs[max(0, min(len(xs) - 1, -(-len(xs) * p // 100) - 1))]

print(f"alpha {alpha_n} then beta {beta_n}, sleep {seconds:g} s each, {slots} run slots")
print("| tenant | dispatches | queue wait p50 | p99 | max |")
print("| --- | --- | --- | --- | --- |")
for name, n in (("alpha", alpha_n), ("beta", beta_n)):
    w = waits(name)
    print(f"| {name} | {n} | {pct(w, 50):.2f} s | {pct(w, 99):.2f} s | {w[-1]:.2f} s |")
print(f"first come first served would start beta's first after about {alpha_n * seconds / slots:.0f} s")
PY
