#!/usr/bin/env python3
"""Markdown tables of benchmark E4 for docs/benchmarks.md, from StorageBenchmark's CSV.

    python3 sluice-bench/e4-tables.py goals docs/e4-goals.csv    # jdk / kryo / fory, no codec
    python3 sluice-bench/e4-tables.py matrix docs/e4.csv         # every codec, one table per size
"""
import csv
import sys

CASES = {
    "sqlite-queue": ("persistent queue (SQLite)", "SQLite queue"),
    "sqlite-store": ("persistent object store (SQLite)", "SQLite store"),
    "pg-queue": ("distributed queue (PostgreSQL)", "PostgreSQL queue"),
    "pg-store": ("distributed object store (PostgreSQL)", "PostgreSQL store"),
}
SERIALIZERS = ["jdk", "kryo", "fory"]
CODECS = ["none", "deflate", "gzip", "lz4", "zstd"]
GOAL = 1.77  # the published best: Kryo +77.13% over JDK serialization


def read(path):
    """One row per case, serializer, codec and size: of several thread counts, the best."""
    rows = {}
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            key = (r["case"], r["serializer"], r["codec"], r["size"])
            if key not in rows or tps(r) > tps(rows[key]):
                rows[key] = r
    return rows


def tps(row):
    return float(row["tps_median"])


def threads(row):
    """The store threads of a row; a dash for queues and for CSVs from before the sweep."""
    return row.get("threads") or "-"


def goals(rows):
    print("| case | size | jdk | kryo | fory (default) | fory / jdk | goal: more than +77% "
          "| CPU µs/tx jdk / fory | store threads jdk / fory |")
    print("| --- | --- | ---: | ---: | ---: | ---: | --- | ---: | ---: |")
    for size in ["1k", "100k"]:
        for case, (name, _) in CASES.items():
            jdk, kryo, fory = (rows[(case, s, "none", size)] for s in SERIALIZERS)
            ratio = tps(fory) / tps(jdk)
            print(f"| {name} | {size.upper()} | {tps(jdk):,.0f} | {tps(kryo):,.0f} | "
                  f"{tps(fory):,.0f} | {ratio:.2f}× | {'met' if ratio > GOAL else 'missed'} | "
                  f"{float(jdk['cpu_us_per_tx']):,.0f} / {float(fory['cpu_us_per_tx']):,.0f} | "
                  f"{threads(jdk)} / {threads(fory)} |")


def matrix(rows):
    for size in ["1k", "100k", "1m"]:
        if not any(k[3] == size for k in rows):
            continue
        print(f"\n{size.upper()} payload, transactions per second "
              "(one run; the best codec of a row in bold):\n")
        print("| case | serializer | " + " | ".join(CODECS) + " |")
        print("| --- | --- | " + " | ".join("---:" for _ in CODECS) + " |")
        for case, (_, short) in CASES.items():
            for serializer in SERIALIZERS:
                values = [rows.get((case, serializer, c, size)) for c in CODECS]
                if not any(values):
                    continue
                best = max(tps(v) for v in values if v)
                cells = []
                for v in values:
                    if not v:
                        cells.append("")
                    elif tps(v) == best:
                        cells.append(f"**{tps(v):,.0f}**")
                    else:
                        cells.append(f"{tps(v):,.0f}")
                print(f"| {short} | {serializer} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("goals", "matrix"):
        sys.exit("usage: e4-tables.py goals|matrix FILE.csv")
    (goals if sys.argv[1] == "goals" else matrix)(read(sys.argv[2]))
