#!/usr/bin/env python3
"""Markdown tables of benchmarks E2 and E3 for docs/benchmarks.md, from run-e2e3.sh's CSV.

    python3 sluice-bench/e2e3-tables.py e3 e3.csv    # req/s, × netty (within each repeat), % of ideal, errors, latency
    python3 sluice-bench/e2e3-tables.py e2 e2.csv    # makespans
"""
import csv
import statistics
import sys
from collections import defaultdict


def row_name(r):
    if r["target"] == "netty":
        return "netty"
    if r["strategy"] == "auto":
        return "`auto`"
    return f"`{r['strategy']}:{r['threads']}`"


def read(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def e3(rows):
    # The ratio to netty is taken within a repeat: the same client, minutes apart at most.
    netty = {(r["path"], r["clients"], r["repeat"]): float(r["req_s"])
             for r in rows if r["target"] == "netty"}
    groups = defaultdict(list)
    for r in rows:
        groups[(r["path"], int(r["clients"]), row_name(r))].append(r)
    print("| path | clients | row | req/s | × netty | % of ideal | errors | p50 / p99 / p99.9 ms | runs |")
    print("| --- | ---: | --- | ---: | ---: | ---: | --- | --- | ---: |")
    order = {"netty": 0, "`auto`": 1}
    for (path, clients, name) in sorted(groups, key=lambda k: (k[0] != "/nodelay", k[0], k[1], order.get(k[2], 2), k[2])):
        runs = groups[(path, clients, name)]
        med = lambda key: statistics.median(float(r[key]) for r in runs)
        ratios = [float(r["req_s"]) / netty[(path, r["clients"], r["repeat"])]
                  for r in runs if (path, r["clients"], r["repeat"]) in netty]
        ideal = [float(r["req_s"]) / float(r["ideal_req_s"]) * 100 for r in runs if r["ideal_req_s"]]
        errors = statistics.median(int(r["errors"]) for r in runs)
        kinds = sorted({r["errors_by_kind"] for r in runs if r["errors_by_kind"]})
        err = f"{errors:,.0f}" + (f" ({'; '.join(kinds)})" if kinds and len(kinds) == 1 else "")
        print(f"| `{path}` | {clients:,} | {name} | {med('req_s'):,.0f} | "
              f"{(f'{statistics.median(ratios):.2f}' if ratios else '—')} | "
              f"{(f'{statistics.median(ideal):.1f}%' if ideal else '—')} | {err} | "
              f"{med('p50_ms'):,.0f} / {med('p99_ms'):,.0f} / {med('p999_ms'):,.0f} | {len(runs)} |")


def e2(rows):
    groups = defaultdict(list)
    for r in rows:
        groups[row_name(r)].append(float(r["makespan_s"]))
    print("| row | runs (s) | median (s) |")
    print("| --- | --- | ---: |")
    for name, spans in groups.items():
        print(f"| {name} | {', '.join(f'{s:.2f}' for s in spans)} | {statistics.median(spans):.2f} |")


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("e2", "e3"):
        sys.exit("usage: e2e3-tables.py e2|e3 FILE.csv")
    (e3 if sys.argv[1] == "e3" else e2)(read(sys.argv[2]))
