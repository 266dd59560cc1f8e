#!/usr/bin/env bash
# The whole loop in under a minute: a worker, a callback receiver that checks
# signatures, a dispatch whose output is cut, the signed callback printed, the
# full log read back by byte range, and an agent handed a workspace. Everything it starts is stopped again
# and nothing is left behind but the agent image.
#
# Usage: scripts/demo.sh        (ports 18080, 18081 and 18082; override with
#                                DEMO_WORKER_PORT, DEMO_RECEIVER_PORT and
#                                DEMO_MANAGEMENT_PORT)
set -euo pipefail
. "$(dirname "$0")/../bench/lib.sh" demo
cd "$(dirname "$0")/.."

worker_port=${DEMO_WORKER_PORT:-18080}
receiver_port=${DEMO_RECEIVER_PORT:-18081}
management_port=${DEMO_MANAGEMENT_PORT:-18082}

step() { printf '\n== %s\n' "$*"; }

for port in "$worker_port" "$receiver_port" "$management_port"; do
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
    die "port $port is taken; set DEMO_WORKER_PORT / DEMO_RECEIVER_PORT / DEMO_MANAGEMENT_PORT"
  fi
done

scripts/java-check.sh
scripts/docker-engine.sh
jar=target/sluice-runner.jar
if [ ! -f "$jar" ] || [ -n "$(find src/main pom.xml -newer "$jar" -print -quit)" ]; then
  step "building the worker"
  ./mvnw -B -q -ntp package -DskipTests
fi

work=$(mktemp -d)
at_exit 'rm -rf "$work"'

secret="whsec_$(head -c 32 /dev/urandom | base64 | tr -d '\n')"
mkdir -p "$work/callbacks"

step "starting a callback receiver that verifies Standard Webhooks signatures"
java scripts/demo/Receiver.java "$receiver_port" "$secret" "$work/callbacks" &
receiver=$!
at_exit 'kill -TERM "$receiver" 2>/dev/null; wait "$receiver" 2>/dev/null'

step "starting the worker on 127.0.0.1:$worker_port with a fresh store in $work/data"
start_worker "$work" SLUICE_WORKER_ID="demo-$$" SLUICE_CALLBACK_SIGNING_SECRETS="$secret" \
  SLUICE_CALLBACK_ALLOWED_HOSTS=127.0.0.1
grep -m1 'started in' "$worker_log" || true

id="demo-$(date +%s)"
step "dispatching $id: 100,000 lines of stdout under a 1 KiB cap, result called back"
cat <<JSON | tee "$work/request.json"
{
  "id": "$id",
  "image": "sluice-agent:test",
  "command": ["sh", "-c", "echo \"reviewing: \$(cat)\"; seq 1 100000; echo done >&2"],
  "input": "pull request 42",
  "output": { "stdoutCapBytes": 1024 },
  "callbackUrl": "http://127.0.0.1:$receiver_port/callback"
}
JSON
curl -fsS -X POST "$base/v1/dispatches" -H 'Content-Type: application/json' \
  -d @"$work/request.json" -o /dev/null -w 'HTTP %{http_code}\n'

step "waiting for the signed callback"
for _ in $(seq 1 300); do
  [ -n "$(ls -A "$work/callbacks")" ] && break
  sleep 0.1
done
body=$(find "$work/callbacks" -name '*.json' -print -quit)
[ -n "$body" ] || die "no verified callback arrived in 30 s (worker log: see above)"
cat "$body"; echo

step "the whole stdout stays in the runtime: bytes 0-39, and where they sit"
curl -fsS -D "$work/headers" "$base/v1/dispatches/$id/logs/stdout?offset=0&limit=40"
echo
grep -i '^sluice-log' "$work/headers"

step "handing an agent a workspace: a brief and a file to change, in its working directory"
cat <<JSON | tee "$work/workspace.json"
{
  "id": "$id-fix",
  "image": "sluice-agent:test",
  "command": ["sh", "-c", "cat BRIEF.md; sed -i s/TODO/done/ src/main.sh; find . -type f | sort | xargs sha256sum"],
  "workspace": { "files": [
    { "path": "BRIEF.md", "content": "Replace the TODO in src/main.sh.\\n" },
    { "path": "src/main.sh", "content": "#!/bin/sh\\necho TODO\\n", "mode": "0755" }
  ] }
}
JSON
curl -fsS -X POST "$base/v1/dispatches" -H 'Content-Type: application/json' \
  -d @"$work/workspace.json" -o /dev/null -w 'HTTP %{http_code}\n'
for _ in $(seq 1 300); do
  curl -fsS "$base/v1/dispatches/$id-fix" -o "$work/fix.json"
  grep -Eq '"status":"(succeeded|failed|timed_out|cancelled|error)"' "$work/fix.json" && break
  sleep 0.1
done
cat "$work/fix.json"; echo

step "done: stopping the worker (it drains first) and the receiver"
