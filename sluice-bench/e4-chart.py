#!/usr/bin/env python3
"""Draws docs/e4.svg from the CSV StorageBenchmark writes (no libraries needed).

One panel per payload size; in each, the four cases side by side, one bar per serializer with no
codec, and a thin bar per codec beside it for the serializer the application uses by default.

    python3 sluice-bench/e4-chart.py e4.csv docs/e4.svg
"""
import csv
import sys

CASES = ["sqlite-queue", "sqlite-store", "pg-queue", "pg-store"]
CASE_LABELS = {
    "sqlite-queue": "persistent queue (SQLite)",
    "sqlite-store": "persistent object store (SQLite)",
    "pg-queue": "distributed queue (PostgreSQL)",
    "pg-store": "distributed object store (PostgreSQL)",
}
SERIALIZERS = ["jdk", "kryo", "fory"]
CODECS = ["none", "deflate", "gzip", "lz4", "zstd"]
COLORS = {"jdk": "#9e9e9e", "kryo": "#4e79a7", "fory": "#f28e2b"}
CODEC_COLORS = {"deflate": "#76b7b2", "gzip": "#59a14f", "lz4": "#edc948", "zstd": "#b07aa1"}
SIZES = ["1k", "100k", "1m"]


def load(path):
    rows = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            key = (row["case"], row["serializer"], row["codec"], row["size"])
            rows[key] = float(row["tps_median"])
    return rows


def panel(out, rows, size, top, width, height):
    values = [v for (c, s, k, z), v in rows.items() if z == size]
    if not values:
        return
    peak = max(values) * 1.1
    left, bottom = 70, top + height - 40
    plot_h = height - 70
    out.append(
        f'<text x="{left}" y="{top + 16}" font-size="14" font-weight="bold">'
        f"{size.upper()} payload: transactions per second (median)</text>"
    )
    for i in range(5):
        v = peak * i / 4
        y = bottom - plot_h * i / 4
        out.append(f'<line x1="{left}" x2="{width - 10}" y1="{y:.1f}" y2="{y:.1f}" stroke="#eee"/>')
        out.append(
            f'<text x="{left - 6}" y="{y + 4:.1f}" font-size="10" text-anchor="end">{v:,.0f}</text>'
        )
    group_w = (width - left - 10) / len(CASES)
    for gi, case in enumerate(CASES):
        x0 = left + gi * group_w + 10
        bars = [(s, "none", COLORS[s], 22) for s in SERIALIZERS]
        bars += [("fory", k, CODEC_COLORS[k], 10) for k in CODECS if k != "none"]
        x = x0
        for serializer, codec, color, w in bars:
            v = rows.get((case, serializer, codec, size))
            if v is not None:
                h = plot_h * v / peak
                out.append(
                    f'<rect x="{x:.1f}" y="{bottom - h:.1f}" width="{w}" height="{h:.1f}" '
                    f'fill="{color}"><title>{case} {serializer}+{codec} {size}: {v:,.0f}/s</title></rect>'
                )
            x += w + 3
        out.append(
            f'<text x="{x0:.1f}" y="{bottom + 16}" font-size="10">{CASE_LABELS[case]}</text>'
        )


def main():
    rows = load(sys.argv[1])
    width, height = 980, 300
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height * 3 + 40}" '
        'font-family="sans-serif">',
        '<rect width="100%" height="100%" fill="white"/>',
    ]
    for i, size in enumerate(SIZES):
        panel(out, rows, size, i * height, width, height)
    legend_y = height * 3 + 20
    x = 70
    for s in SERIALIZERS:
        out.append(f'<rect x="{x}" y="{legend_y - 10}" width="12" height="12" fill="{COLORS[s]}"/>')
        out.append(f'<text x="{x + 16}" y="{legend_y}" font-size="11">{s} + none</text>')
        x += 110
    for k in CODECS[1:]:
        out.append(
            f'<rect x="{x}" y="{legend_y - 10}" width="12" height="12" fill="{CODEC_COLORS[k]}"/>'
        )
        out.append(f'<text x="{x + 16}" y="{legend_y}" font-size="11">fory + {k}</text>')
        x += 110
    out.append("</svg>")
    with open(sys.argv[2], "w") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
