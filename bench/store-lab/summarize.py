#!/usr/bin/env python3
"""Tables (Markdown) of a store-lab run: python3 summarize.py results/<run>"""
import json
import pathlib
import sys

run = pathlib.Path(sys.argv[1])
rows = []
for f in sorted(run.glob("*.json")):
    rows.append((f.stem, json.loads(f.read_text())))


def s(d, k="p50"):
    return "-" if not d or k not in d else f"{d[k]:g}"


def trio(d):
    return "-" if not d or "p50" not in d else f"{d['p50']:g} / {d['p99']:g} / {d['max']:g}"


print(f"# store lab, {run.name}\n")
machine = run / "machine.txt"
if machine.exists():
    print("```\n" + machine.read_text().strip() + "\n```\n")

print("## Writes (per finishing transaction, ms: p50 / p99 / max)\n")
print("| variant | size | rounds | ok / failed | stall | transaction | commit() | pool wait p50/max | file write p50/max | round: last commit p50/max | round: all delivered p50/max |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
for tag, r in rows:
    for p in r.get("phases", []):
        size = f"{p['resultBytes'] // 1048576} MiB"
        pw = p.get("poolWaitMs")
        fw = p.get("fileWriteMs")
        print(f"| {tag} | {size} | {p.get('roundsDone', 0)}/{p['rounds']} | {p.get('ok', 0)} / {p.get('failed', 0)}"
              f" | {'STALL' if r.get('stalled') and r.get('stallPhase') == size.replace(' ', '') else ''}"
              f" | {trio(p.get('transactionMs'))} | {trio(p.get('commitMs'))}"
              f" | {s(pw)} / {s(pw, 'max')} | {s(fw)} / {s(fw, 'max')}"
              f" | {s(p.get('roundWriteMs'))} / {s(p.get('roundWriteMs'), 'max')}"
              f" | {s(p.get('roundDeliveredMs'))} / {s(p.get('roundDeliveredMs'), 'max')} |")

print("\n## At the end (after the read test)\n")
print("| variant | database | stalled | errors | heap after GC MiB | RSS MiB (peak) | direct buffers MiB | files open MiB | files closed MiB | longest call ms | run s |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
for tag, r in rows:
    m = r.get("memory", {})
    errs = sum(r.get("errors", {}).values())
    so = r.get("sizeOpen", {})
    sc = r.get("sizeClosed", {})
    print(f"| {tag} | {r.get('database', '?').split(' (driver')[0]} | {'YES: ' + r.get('stallPhase', '') if r.get('stalled') else 'no'}"
          f" | {errs} | {m.get('heapAfterGcMiB', '-')} | {m.get('rssMiB', '-')} ({m.get('rssPeakMiB', '-')})"
          f" | {m.get('bufferPool_direct_MiB', '-')} | {so.get('totalMiB', '-')} | {sc.get('totalMiB', '-')}"
          f" | {r.get('longestCallMs', '-')} | {r.get('runSeconds', '-')} |")

print("\n## Reading one stored 4 MiB result into a discarding stream (median of the reads)\n")
print("| variant | method | ms p50 / max | heap allocated per read MiB (p50) |")
print("|---|---|---|---|")
for tag, r in rows:
    for method, v in (r.get("read") or {}).items():
        if method == "id":
            continue
        print(f"| {tag} | {method} | {s(v['ms'])} / {s(v['ms'], 'max')} | {s(v['allocatedMiB'])} |")

print("\n## Errors\n")
for tag, r in rows:
    for msg, n in (r.get("errors") or {}).items():
        print(f"- {tag}: {n} x {msg}")
