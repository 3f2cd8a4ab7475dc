#!/usr/bin/env python3
"""Draws docs/e1.svg from E1Benchmark's CSVs (no libraries needed).

Top: one panel per job, a bar per profile (records/s, median), auto's in orange (the diagnostic
auto:N lighter), and a dashed line at 95% of the best fixed profile (auto's goal). Below, from the trace of the last run: auto's
adaptive limit over time in the io and throttled jobs, with the service's 429s per second.

    python3 sluice-bench/e1-chart.py docs/e1.csv docs/e1-trace.csv docs/e1.svg
"""
import csv
import sys

JOBS = ["cpu", "io", "throttled", "lite"]
FIXED = "#4e79a7"
AUTO = "#f28e2b"
AUTO_CAPPED = "#ffbe7d"  # auto:N, auto holding at most N records (a diagnostic)
LIMIT = "#59a14f"
THROTTLED = "#e15759"


def load_rates(path):
    """Records/s by job and profile, and the service's cap by job (where it has one)."""
    rows, caps = {}, {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            rows.setdefault(row["job"], {})[row["profile"]] = float(row["rps_median"])
            if row["cap"]:
                caps[row["job"]] = int(row["cap"])
    return rows, caps


def load_trace(path):
    """The samples of auto's last run of each job, as (seconds, limit, 429s so far)."""
    runs = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            if row["profile"] == "auto":
                key = (row["job"], row["run"])
                runs.setdefault(key, []).append(
                    (float(row["t_s"]), float(row["limit"]), int(row["service_429"])))
    last = {}
    for (job, run), samples in runs.items():
        if job not in last or int(run) > int(last[job][0]):
            last[job] = (run, samples)
    return {job: samples for job, (run, samples) in last.items()}


def bars(out, job, rates, x0, top, width, height):
    profiles = sorted((p for p in rates if p.isdigit()), key=int) + sorted(
        (p for p in rates if not p.isdigit()), key=lambda p: (p != "auto", len(p), p))
    peak = max(rates.values()) * 1.15
    left, bottom = x0 + 60, top + height - 30
    plot_h, plot_w = height - 60, width - 70
    out.append(f'<text x="{x0 + 10}" y="{top + 16}" font-size="13" font-weight="bold">'
               f"{job}: records/s</text>")
    for i in range(5):
        v = peak * i / 4
        y = bottom - plot_h * i / 4
        out.append(f'<line x1="{left}" x2="{left + plot_w}" y1="{y:.1f}" y2="{y:.1f}" '
                   'stroke="#eee"/>')
        out.append(f'<text x="{left - 4}" y="{y + 4:.1f}" font-size="9" '
                   f'text-anchor="end">{v:,.0f}</text>')
    fixed = [v for p, v in rates.items() if p.isdigit()]
    if fixed:
        y = bottom - plot_h * 0.95 * max(fixed) / peak
        out.append(f'<line x1="{left}" x2="{left + plot_w}" y1="{y:.1f}" y2="{y:.1f}" '
                   'stroke="#333" stroke-dasharray="4 3"><title>95% of the best fixed profile'
                   "</title></line>")
    slot = plot_w / len(profiles)
    for i, profile in enumerate(profiles):
        v = rates[profile]
        h = plot_h * v / peak
        x = left + i * slot + slot * 0.2
        color = FIXED if profile.isdigit() else AUTO if profile == "auto" else AUTO_CAPPED
        out.append(f'<rect x="{x:.1f}" y="{bottom - h:.1f}" width="{slot * 0.6:.1f}" '
                   f'height="{h:.1f}" fill="{color}"><title>{job} {profile}: {v:,.0f}/s'
                   "</title></rect>")
        label = f"{profile} thr" if profile.isdigit() else profile
        out.append(f'<text x="{x + slot * 0.3:.1f}" y="{bottom + 14}" font-size="10" '
                   f'text-anchor="middle">{label}</text>')


def limit_panel(out, job, samples, cap, x0, top, width, height):
    if not samples:
        return
    end = max(s[0] for s in samples) or 1
    peak_limit = max(max(s[1] for s in samples), cap or 1, 1) * 1.1
    rates = []  # 429s per second between samples
    for (t0, _, c0), (t1, _, c1) in zip(samples, samples[1:]):
        rates.append((t1, (c1 - c0) / max(t1 - t0, 1e-3)))
    peak_rate = max([r for _, r in rates] + [1]) * 1.1
    left, bottom = x0 + 60, top + height - 30
    plot_h, plot_w = height - 60, width - 120
    out.append(f'<text x="{x0 + 10}" y="{top + 16}" font-size="13" font-weight="bold">'
               f"{job}, auto: adaptive limit (green) and 429s/s (red) over time</text>")
    for i in range(5):
        y = bottom - plot_h * i / 4
        out.append(f'<line x1="{left}" x2="{left + plot_w}" y1="{y:.1f}" y2="{y:.1f}" '
                   'stroke="#eee"/>')
        out.append(f'<text x="{left - 4}" y="{y + 4:.1f}" font-size="9" text-anchor="end" '
                   f'fill="{LIMIT}">{peak_limit * i / 4:,.0f}</text>')
        out.append(f'<text x="{left + plot_w + 4}" y="{y + 4:.1f}" font-size="9" '
                   f'fill="{THROTTLED}">{peak_rate * i / 4:,.{0 if peak_rate > 10 else 1}f}</text>')
    if cap:
        y = bottom - plot_h * cap / peak_limit
        out.append(f'<line x1="{left}" x2="{left + plot_w}" y1="{y:.1f}" y2="{y:.1f}" '
                   f'stroke="{LIMIT}" stroke-dasharray="4 3"/>')
        out.append(f'<text x="{left + 4}" y="{y - 3:.1f}" font-size="9" fill="{LIMIT}">'
                   f"the service's cap: {cap} at once</text>")
    for i in range(6):
        x = left + plot_w * i / 5
        out.append(f'<text x="{x:.1f}" y="{bottom + 14}" font-size="9" '
                   f'text-anchor="middle">{end * i / 5:.0f} s</text>')

    def path(points, peak, color):
        coords = " ".join(f"{left + plot_w * t / end:.1f},{bottom - plot_h * v / peak:.1f}"
                          for t, v in points)
        out.append(f'<polyline points="{coords}" fill="none" stroke="{color}" '
                   'stroke-width="1.5"/>')

    path([(t, limit) for t, limit, _ in samples if limit >= 0], peak_limit, LIMIT)
    path(rates, peak_rate, THROTTLED)


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: e1-chart.py E1.csv E1-TRACE.csv OUT.svg")
    rates, caps = load_rates(sys.argv[1])
    trace = load_trace(sys.argv[2])
    jobs = [j for j in JOBS if j in rates]
    limits = [j for j in ["io", "throttled"] if j in trace]
    width, bar_h, limit_h = 1000, 260, 240
    bar_w = width / max(len(jobs), 1)
    height = bar_h + limit_h * len(limits) + 10
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           'font-family="sans-serif">', '<rect width="100%" height="100%" fill="white"/>']
    for i, job in enumerate(jobs):
        bars(out, job, rates[job], i * bar_w, 0, bar_w, bar_h)
    for i, job in enumerate(limits):
        limit_panel(out, job, trace[job], caps.get(job), 0, bar_h + i * limit_h, width, limit_h)
    out.append("</svg>")
    with open(sys.argv[3], "w") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
