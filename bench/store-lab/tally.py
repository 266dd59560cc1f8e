#!/usr/bin/env python3
"""Tally of a stall-rate run: python3 tally.py results/<stall-rate run>"""
import json, pathlib, sys, collections
base = pathlib.Path(sys.argv[1])
tally = collections.defaultdict(lambda: [0, 0, 0, 0])
for f in sorted(base.glob("attempt-*/*.json")):
    r = json.loads(f.read_text())
    t = tally[f.stem]
    t[0] += 1
    t[1] += 1 if r.get("stalled") else 0
    t[2] += sum(p.get("roundsDone", 0) for p in r.get("phases", []))
    t[3] += 1 if any(p.get("failed") for p in r.get("phases", [])) else 0
print(f"# stall rate ({base.name})\n")
print("| variant | attempts | stalled | rounds completed before stop (all attempts) | attempts with failed writes |")
print("|---|---|---|---|---|")
for k, (n, s, rounds, failed) in sorted(tally.items()):
    print(f"| {k} | {n} | {s} | {rounds} | {failed} |")
