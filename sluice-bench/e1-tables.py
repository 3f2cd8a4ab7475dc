#!/usr/bin/env python3
"""Markdown tables of benchmark E1 for docs/benchmarks.md, from E1Benchmark's CSV of medians.

    python3 sluice-bench/e1-tables.py docs/e1.csv

One table per job: each profile's records/s and its ratio to the best fixed profile (auto's goal:
at least 0.95), what a record cost in CPU, auto's limit, and the machine's load beside it; the
throttled job adds the 429s the service sent per call (goal: under 1%); the CPU-light job (lite)
its rate against the goal of 200,000 records/s.
"""
import csv
import sys

JOBS = {
    "cpu": "CPU-bound: parse, transform, SHA-256 (CPU_INTENSIVE)",
    "io": "IO-bound: one call of the local service per record (BLOCKING_IO)",
    "throttled": "IO-bound against a concurrency cap: 429 above it, retried after a pause",
    "lite": "CPU-light end to end: one CPU_LITE step (upper-case a string)",
}
AUTO_GOAL = 0.95  # auto within 5% of the best fixed profile
RATE_429_GOAL = 1.0  # percent of calls answered 429
LITE_GOAL = 200_000  # records/s


def read(path):
    by_job = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            by_job.setdefault(row["job"], {})[row["profile"]] = row
    return by_job


def rps(row):
    return float(row["rps_median"])


def is_fixed(profile):
    """A fixed threading profile (a number of threads); auto and auto:N are not."""
    return profile.isdigit()


def order(profiles):
    """Fixed profiles by threads, then auto, then the diagnostic auto:N by N."""
    fixed = sorted((p for p in profiles if is_fixed(p)), key=int)
    capped = sorted((p for p in profiles if p.startswith("auto:")), key=lambda p: int(p[5:]))
    return fixed + (["auto"] if "auto" in profiles else []) + capped


def limit(row):
    # The adaptive limit gates BLOCKING_IO calls only: it says nothing about the CPU jobs.
    if is_fixed(row["profile"]) or not row["latency_ms"] or not row["limit_median"]:
        return "-"
    return f'{row["limit_min"]} / {row["limit_median"]} / {row["limit_max"]}'


def table(job, rows):
    first = next(iter(rows.values()))
    fixed = [r for p, r in rows.items() if is_fixed(p)]
    best = max(fixed, key=rps) if fixed else None
    throttled = job == "throttled"
    size = f'{int(first["records"]):,} records'
    if first["latency_ms"]:
        size += f', calls of {first["latency_ms"]} ms'
    if throttled:
        size += f', cap {first["cap"]} at once'
    if first["hash_rounds"]:
        size += f', {first["hash_rounds"]} SHA-256 rounds'
    print(f"\n**{job}**: {JOBS.get(job, job)}; {size}, blocks of {first['block_size']}, "
          f"median of {first['runs']} run(s).\n")
    head = ["profile", "records/s", "vs best fixed", "elapsed s", "failed"]
    if throttled:
        head += ["calls", "429s", "429 / call", "429s in 2nd half"]
    head += ["auto limit min / median / max", "CPU µs/record", "others' CPU (most in a run)", "load"]
    print("| " + " | ".join(head) + " |")
    print("| --- | " + " | ".join("---:" for _ in head[1:]) + " |")
    for profile in order(rows):
        r = rows[profile]
        ratio = f"{rps(r) / rps(best):.2f}×" if best else "-"
        if not is_fixed(profile) and best:
            ratio = f"**{ratio}**"
        cells = [profile, f"{rps(r):,.0f}", ratio, r["elapsed_s"], r["failed"]]
        if throttled:
            cells += [f'{int(r["calls"]):,}', f'{int(r["http_429"]):,}',
                      f'{float(r["rate_429_pct"]):.2f}%', r["late_429"]]
        cells += [limit(r), r["cpu_us_per_record"], f'{float(r["others_cpu_pct"]):.0f}%',
                  r["load1"]]
        print("| " + " | ".join(cells) + " |")
    goals(job, rows, best)


def goals(job, rows, best):
    auto = rows.get("auto")
    lines = []
    if auto and best:
        ratio = rps(auto) / rps(best)
        verdict = "met" if ratio >= AUTO_GOAL else "**missed**"
        lines.append(f"auto / best fixed ({best['profile']} threads) = {ratio:.2f}: "
                     f"goal ≥ {AUTO_GOAL} {verdict}")
    if job in ("cpu", "lite") and auto and best:
        # On a shared machine a CPU-bound rate follows what the other work leaves; the CPU a
        # record costs does not.
        cheapest = min((r for p, r in rows.items() if is_fixed(p)),
                       key=lambda r: float(r["cpu_us_per_record"]))
        ours = float(auto["cpu_us_per_record"])
        theirs = float(cheapest["cpu_us_per_record"])
        lines.append(f"CPU per record: auto {ours:.2f} µs, the cheapest fixed profile "
                     f"({cheapest['profile']} threads) {theirs:.2f} µs ({theirs / ours:.2f}×)")
    if job == "throttled" and auto:
        rate = float(auto["rate_429_pct"])
        verdict = "met" if rate < RATE_429_GOAL else "**missed**"
        lines.append(f"auto's 429s per call {rate:.2f}%: goal < {RATE_429_GOAL:.0f}% {verdict}")
    if job == "lite" and auto:
        value = rps(auto)
        verdict = "met" if value >= LITE_GOAL else "**missed**"
        lines.append(f"auto: {value:,.0f} records/s: goal ≥ {LITE_GOAL:,} {verdict}")
    if lines:
        print("\n" + "; ".join(lines) + ".")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: e1-tables.py FILE.csv")
    jobs = read(sys.argv[1])
    for job in [j for j in JOBS if j in jobs] + [j for j in jobs if j not in JOBS]:
        table(job, jobs[job])
