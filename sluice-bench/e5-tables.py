#!/usr/bin/env python3
"""Markdown tables and a chart of benchmark E5 for docs/benchmarks.md, from E5Benchmark's CSVs.

Rows of the same configuration, node count, threads and job count (several --runs) are merged
into their median. "others' CPU" is the share of the 2 cores that processes outside the run took
(other sessions' builds and tests on a shared machine): a row with much of it is noisy.

    python3 sluice-bench/e5-tables.py work docs/e5.csv             # every run, and two pivots
    python3 sluice-bench/e5-tables.py noop docs/e5-noop.csv        # jobs per second, and created
    python3 sluice-bench/e5-tables.py latency docs/e5-latency.csv  # due-to-start percentiles
    python3 sluice-bench/e5-tables.py chart docs/e5.csv docs/e5.svg

The chart (SVG, no libraries needed, as e4-chart.py draws) has two panels against the node
count, one line per configuration: the makespan over the ideal, and lock failures per job.
"""
import csv
import statistics
import sys

CONFIGS = ["baseline", "48", "backoff-50", "backoff-70", "backoff-90", "skip-locked"]
LABELS = {
    "baseline": "baseline (3/cycle)",
    "48": "48/cycle",
    "backoff-50": "backoff 50/250",
    "backoff-70": "backoff 70/350",
    "backoff-90": "backoff 90/450",
    "skip-locked": "skip-locked",
}
COLORS = {
    "baseline": "#9e9e9e",
    "48": "#4e79a7",
    "backoff-50": "#76b7b2",
    "backoff-70": "#59a14f",
    "backoff-90": "#edc948",
    "skip-locked": "#e15759",
}
LATENCY_GOALS = {"p50_ms": 5.0, "p99_ms": 15.0}
NOOP_GOALS = {1: 20_000, 5: 30_000}


def read(path, key_fields):
    """Rows grouped by key_fields, each group merged into one row of medians."""
    groups = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            groups.setdefault(tuple(row[k] for k in key_fields), []).append(row)
    merged = {}
    for key, rows in groups.items():
        row = dict(rows[0])
        for name in rows[0]:
            if name in key_fields:
                continue
            try:
                row[name] = statistics.median(float(r[name]) for r in rows if r[name] != "")
            except (ValueError, statistics.StatisticsError):
                pass
        row["runs"] = len(rows)
        merged[key] = row
    return merged


def order(key):
    config = key[0]
    return (CONFIGS.index(config) if config in CONFIGS else len(CONFIGS), config,
            *(int(k) for k in key[1:]))


def work(path):
    with open(path, newline="") as f:
        header = next(csv.reader(f))
    # Later CSVs also carry the sleeps as really taken and the vacuum interval (variants).
    extra = [k for k in ("vacuum_s",) if k in header]
    rows = read(path, ["config", "nodes", "threads", "jobs", "prefetch"] + extra)
    slept = "over_slept_ideal_pct" in header
    for r in rows.values():
        r["backends_ms_per_job"] = r["backends_cpu_s"] * 1000 / int(r["jobs"])
    print("| config | nodes × threads | prefetch | " + ("vacuum | " if extra else "")
          + "jobs | makespan s | ideal s | over ideal | "
          + ("over ideal of the sleeps as taken | " if slept else "")
          + "lock failures/job | statements/job | transactions/job | db CPU ms/job | attempts | "
          "others' CPU | runs |")
    print("| --- | --- | ---: | " + ("---: | " if extra else "")
          + "---: | ---: | ---: | ---: | " + ("---: | " if slept else "")
          + "---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for key in sorted(rows, key=order):
        r = rows[key]
        vacuum = ""
        if extra:
            vacuum = f"every {r['vacuum_s']} s | " if r["vacuum_s"] != "0" else "none | "
        sleeps = ""
        if slept:
            sleeps = (f"{r['over_slept_ideal_pct']:+.1f}% | "
                      if isinstance(r["over_slept_ideal_pct"], float) else " | ")
        print(f"| {LABELS.get(r['config'], r['config'])} | {r['nodes']} × {r['threads']} | "
              f"{r['prefetch']} | {vacuum}{int(r['jobs']):,} | {r['makespan_s']:.1f} | "
              f"{r['ideal_s']:.1f} | {r['over_ideal_pct']:+.1f}% | {sleeps}"
              f"{r['lock_failures_per_job']:.3f} | {r['statements_per_job']:.2f} | "
              f"{r['transactions_per_job']:.2f} | {r['db_cpu_ms_per_job']:.3f} | "
              f"{int(r['attempts']):,} | {r['others_cpu_pct']:.0f}% | {r['runs']} |")
    if extra or len({k[4] for k in rows}) > 1:
        return  # variants: the pivots compare configurations, not settings
    for column, title, fmt in [
        ("over_ideal_pct", "Makespan over the ideal", "{:+.1f}%"),
        ("lock_failures_per_job", "Lock failures per job", "{:.3f}"),
        ("db_cpu_ms_per_job", "Database CPU per job, every postgres process (ms)", "{:.3f}"),
        ("backends_ms_per_job", "Database CPU per job, the nodes' own backends (ms)", "{:.3f}"),
    ]:
        pivot(rows, column, title, fmt)


def pivot(rows, column, title, fmt):
    """One row per configuration, one column per node count (with its job count)."""
    nodes = sorted({(int(k[1]), int(k[3])) for k in rows})
    configs = [c for c in CONFIGS if any(k[0] == c for k in rows)]
    print(f"\n{title}:\n")
    print("| config | " + " | ".join(f"{n} node{'s' if n > 1 else ''} ({j:,} jobs)"
                                     for n, j in nodes) + " |")
    print("| --- | " + " | ".join("---:" for _ in nodes) + " |")
    for config in configs:
        cells = []
        for n, j in nodes:
            match = [r for k, r in rows.items() if k[0] == config and int(k[1]) == n
                     and int(k[3]) == j]
            cells.append(fmt.format(match[0][column]) if match else "")
        print(f"| {LABELS.get(config, config)} | " + " | ".join(cells) + " |")


def noop(path):
    rows = read(path, ["config", "nodes", "threads", "jobs", "prefetch"])
    # CSVs written since the creation was timed have its rate; older ones show no such column.
    created = all("create_jobs_per_s" in r for r in rows.values())
    print("| config | nodes × threads | prefetch | jobs | jobs/s | goal | "
          + ("created jobs/s | " if created else "")
          + "statements/job | transactions/job | db CPU ms/job | nodes' CPU s | others' CPU | runs |")
    print("| --- | --- | ---: | ---: | ---: | --- | " + ("---: | " if created else "")
          + "---: | ---: | ---: | ---: | ---: | ---: |")
    for key in sorted(rows, key=order):
        r = rows[key]
        n = int(r["nodes"])
        goal = NOOP_GOALS.get(n)
        verdict = "" if goal is None else (
            f"≥ {goal:,}: {'met' if r['jobs_per_s'] >= goal else 'missed'}")
        print(f"| {LABELS.get(r['config'], r['config'])} | {n} × {r['threads']} | "
              f"{r['prefetch']} | {int(r['jobs']):,} | {r['jobs_per_s']:,.0f} | {verdict} | "
              + (f"{r['create_jobs_per_s']:,.0f} | " if created else "")
              + f"{r['statements_per_job']:.3f} | {r['transactions_per_job']:.3f} | "
              f"{r['db_cpu_ms_per_job']:.3f} | {r['nodes_cpu_s']:.1f} | "
              f"{r['others_cpu_pct']:.0f}% | {r['runs']} |")


def latency(path):
    rows = read(path, ["config", "nodes", "threads", "jobs"])
    print("| config | nodes | jobs (one per interval) | p50 ms | p90 ms | p99 ms | max ms | "
          "goal p50 ≤ 5, p99 ≤ 15 | statements/job | runs |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: |")
    for key in sorted(rows, key=order):
        r = rows[key]
        met = all(r[k] <= v for k, v in LATENCY_GOALS.items())
        print(f"| {LABELS.get(r['config'], r['config'])} | {r['nodes']} | "
              f"{int(r['jobs']):,} (every {r['interval_ms']:.0f} ms) | {r['p50_ms']:.1f} | "
              f"{r['p90_ms']:.1f} | {r['p99_ms']:.1f} | {r['max_ms']:.1f} | "
              f"{'met' if met else 'missed'} | {r['statements_per_job']:.1f} | {r['runs']} |")


def panel(out, rows, column, title, top, left, width, height):
    """A line per configuration of `column` against the node count."""
    nodes = sorted({int(k[1]) for k in rows})
    values = [r[column] for r in rows.values()]
    low, high = min(0.0, min(values)), max(values) * 1.1 or 1.0
    plot_left, plot_right = left + 60, left + width - 10
    plot_top, bottom = top + 30, top + height - 40

    def x(n):
        span = max(1, nodes[-1] - nodes[0])
        return plot_left + (plot_right - plot_left) * (n - nodes[0]) / span

    def y(v):
        return bottom - (bottom - plot_top) * (v - low) / (high - low)

    out.append(f'<text x="{plot_left}" y="{top + 16}" font-size="14" font-weight="bold">'
               f"{title}</text>")
    for i in range(5):
        v = low + (high - low) * i / 4
        out.append(f'<line x1="{plot_left}" x2="{plot_right}" y1="{y(v):.1f}" y2="{y(v):.1f}" '
                   'stroke="#eee"/>')
        out.append(f'<text x="{plot_left - 6}" y="{y(v) + 4:.1f}" font-size="10" '
                   f'text-anchor="end">{v:,.2f}</text>')
    for n in nodes:
        out.append(f'<text x="{x(n):.1f}" y="{bottom + 16}" font-size="10" '
                   f'text-anchor="middle">{n}</text>')
    out.append(f'<text x="{(plot_left + plot_right) / 2:.1f}" y="{bottom + 32}" font-size="11" '
               'text-anchor="middle">nodes (× 10 threads)</text>')
    for config in CONFIGS:
        points = sorted((int(k[1]), r[column]) for k, r in rows.items() if k[0] == config)
        if not points:
            continue
        path = " ".join(f"{x(n):.1f},{y(v):.1f}" for n, v in points)
        out.append(f'<polyline points="{path}" fill="none" stroke="{COLORS[config]}" '
                   'stroke-width="2"/>')
        for n, v in points:
            out.append(f'<circle cx="{x(n):.1f}" cy="{y(v):.1f}" r="3" fill="{COLORS[config]}">'
                       f"<title>{config}, {n} nodes: {v:.3f}</title></circle>")


def chart(path, target):
    merged = read(path, ["config", "nodes", "threads", "jobs"])
    # One point per configuration and node count: the run with the most jobs.
    rows = {}
    for key, row in merged.items():
        short = (key[0], key[1])
        if short not in rows or int(row["jobs"]) > int(rows[short]["jobs"]):
            rows[short] = row
    jobs = sorted({int(r["jobs"]) for r in rows.values()})
    width, height = 980, 340
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height + 70}" '
           'font-family="sans-serif">', '<rect width="100%" height="100%" fill="white"/>']
    panel(out, rows, "over_ideal_pct", "Makespan over the ideal (%)", 0, 0, width / 2, height)
    panel(out, rows, "lock_failures_per_job", "Lock failures per job", 0, width / 2, width / 2,
          height)
    x = 60
    for config in CONFIGS:
        if any(k[0] == config for k in rows):
            out.append(f'<rect x="{x}" y="{height + 2}" width="12" height="12" '
                       f'fill="{COLORS[config]}"/>')
            out.append(f'<text x="{x + 16}" y="{height + 12}" font-size="11">'
                       f"{LABELS[config]}</text>")
            x += 150
    out.append(f'<text x="60" y="{height + 40}" font-size="11">Jobs per run: '
               + ", ".join(f"{j:,}" for j in jobs)
               + " (where a node count has several, the largest); work N(80 ms, 25 ms)."
               "</text>")
    out.append("</svg>")
    with open(target, "w") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    commands = {"work": work, "noop": noop, "latency": latency}
    if len(sys.argv) == 4 and sys.argv[1] == "chart":
        chart(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 3 and sys.argv[1] in commands:
        commands[sys.argv[1]](sys.argv[2])
    else:
        sys.exit("usage: e5-tables.py work|noop|latency FILE.csv | chart FILE.csv OUT.svg")
