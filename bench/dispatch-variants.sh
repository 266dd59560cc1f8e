#!/usr/bin/env bash
# What gVisor and a workspace cost a dispatch (ADRs 0061, 0060): the same
# dispatches under the engine's default runtime (runc), under runsc, and
# under runc with a workspace of 2,000 files (a tar.gz of 2,000 files of 1 KiB
# of random text, inline), in turn, one at a time, through the packaged
# worker as it ships, beside `docker run` of the same commands under each
# runtime in the same run. Prints, per runtime and
# command, the record's createdAt to finishedAt (what a control plane waits)
# and durationMs (the container's start to its exit) at p50 and p90, and the
# Docker CLI's wall time, as the rows kept in BENCHMARKS.md. Bounded: every
# wait has a deadline, and the worker it started is stopped on exit.
#
#   bench/dispatch-variants.sh        10 rounds
#   bench/dispatch-variants.sh 30     30 rounds
#
# Needs the engine with runsc registered (scripts/docker-engine.sh,
# scripts/runsc.sh), the test image sluice-agent:test and a packaged worker
# (./mvnw -DskipTests package).
set -euo pipefail
. "$(dirname "$0")/lib.sh" dispatch-variants
cd "$(dirname "$0")/.."

rounds=${1:-10}
docker info --format '{{json .Runtimes}}' | grep -q '"runsc"' || die "the engine has no runsc: scripts/runsc.sh"

work=$(mktemp -d)
at_exit 'rm -rf "$work"'
start_worker "$work" SLUICE_WORKER_ID=bench-runtimes SLUICE_CONTAINER_RUNTIMES=runsc

declare -A commands=([true]='true' [seq]='seq 1 200000 | sha256sum')
finished() {
  curl -sf "$base/v1/dispatches/$1" -o "$work/$1.json" || return 1
  python3 -c 'import json,sys
sys.exit(0 if json.load(open(sys.argv[1]))["status"] not in ("queued","starting","running") else 1)' "$work/$1.json"
}
# The workspace: 2,000 files in 40 directories, as a repository is laid out.
python3 - "$work/workspace.b64" <<'PY'
import base64, io, os, sys, tarfile
buf = io.BytesIO()
with tarfile.open(fileobj=buf, mode="w:gz") as tar:
    for i in range(2000):
        data = base64.b64encode(os.urandom(768))
        info = tarfile.TarInfo(f"src/d{i % 40:02d}/f{i:04d}.txt")
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
open(sys.argv[1], "w").write(base64.b64encode(buf.getvalue()).decode())
PY
cli() { # runtime, command
  local start end
  start=$(date +%s%N)
  docker run --rm --network none --runtime "$1" sluice-agent:test sh -c "$2" >/dev/null
  end=$(date +%s%N)
  echo "$(( (end - start) / 1000000 ))"
}
for r in $(seq 1 "$rounds"); do
  for name in true seq; do
    for variant in runc runsc workspace; do
      id="rt-$variant-$name-$r"
      python3 - "$id" "${commands[$name]}" "$variant" "$work/workspace.b64" >"$work/body.json" <<'PY'
import json, sys
id, command, variant, archive = sys.argv[1:5]
body = {"id": id, "image": "sluice-agent:test", "command": ["sh", "-c", command]}
if variant == "runsc":
    body["runtime"] = "runsc"
if variant == "workspace":
    body["workspace"] = {"archive": {"base64": open(archive).read()}}
print(json.dumps(body))
PY
      curl -sf -o /dev/null -H 'Content-Type: application/json' -d @"$work/body.json" "$base/v1/dispatches" \
        || die "POST $id was refused"
      wait_for 120 "$id" finished "$id"
      [ "$variant" = workspace ] || echo "$variant $name $(cli "$variant" "${commands[$name]}")" >>"$work/cli.txt"
    done
  done
done

python3 - "$work" "$rounds" <<'PY'
import glob, json, sys
from datetime import datetime

work, rounds = sys.argv[1], int(sys.argv[2])
def t(s):
    return datetime.fromisoformat(s.replace("Z", "+00:00"))
def pct(xs, p):  # nearest rank
    xs = sorted(xs)
    return xs[max(0, min(len(xs) - 1, -(-len(xs) * p // 100) - 1))]
rows = {}
for path in glob.glob(f"{work}/rt-*.json"):
    r = json.load(open(path))
    _, variant, name, _ = r["id"].split("-", 3)
    runtime = "runsc" if variant == "runsc" else "runc"
    if r["status"] != "succeeded" or r["result"]["runtime"] != runtime:
        sys.exit(f"{r['id']}: {r['status']} under {r['result'].get('runtime')}")
    e2e = (t(r["finishedAt"]) - t(r["createdAt"])).total_seconds() * 1000
    rows.setdefault((name, variant), ([], []))[0].append(e2e)
    rows[(name, variant)][1].append(r["result"]["durationMs"])
cli = {}
for line in open(f"{work}/cli.txt"):
    runtime, name, ms = line.split()
    cli.setdefault((name, runtime), []).append(int(ms))
print(f"{rounds} rounds, one dispatch at a time, runc, runsc and runc with the workspace in turn")
print("| command | dispatch | created to finished p50 | p90 | durationMs p50 | p90 | docker run p50 | p90 |")
print("| --- | --- | --- | --- | --- | --- | --- | --- |")
for name in ("true", "seq"):
    for variant in ("runc", "runsc", "workspace"):
        e2e, run = rows[(name, variant)]
        c = cli.get((name, variant))
        shown = f"{pct(c, 50)} ms | {pct(c, 90)} ms" if c else "- | -"
        label = "runc, 2,000-file workspace" if variant == "workspace" else variant
        print(f"| {name} | {label} | {pct(e2e, 50):.0f} ms | {pct(e2e, 90):.0f} ms | {pct(run, 50):.0f} ms "
              f"| {pct(run, 90):.0f} ms | {shown} |")
PY
