#!/usr/bin/env python3
"""Per-layer cost of a network on VTA, as a table and a plot.

usage: scripts/vta_cost.py CSV SVG [--update-docs MD]

CSV: what `mrtq_vta_resnet18 --csv` writes (one row per layer: counts, DRAM
bytes per buffer kind, compulsory bytes, modelled milliseconds). SVG: per-layer
bars of the modelled time on the Pynq-Z1 configuration and of the DRAM traffic
against the compulsory traffic (no plotting library needed). With
--update-docs, the Markdown table replaces the text between
<!-- vta-cost:begin --> and <!-- vta-cost:end --> in MD.
"""
import csv
import sys


def main():
    args = sys.argv[1:]
    if len(args) < 2 or args[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if args and args[0] in ("-h", "--help") else 2
    rows = list(csv.DictReader(open(args[0])))
    mib = 1024.0 * 1024.0
    for r in rows:
        r["traffic"] = sum(int(r[k]) for k in ("inp", "wgt", "acc", "uop", "out")) / mib
        r["min"] = int(r["compulsory"]) / mib
        r["ms"] = float(r["ms_pynq"])
    # the table
    lines = ["| layer | insns | micro-ops | GEMM | ALU | INP MiB | WGT MiB | ACC KiB | out MiB | traffic / compulsory "
             "| Pynq-Z1 ms | Ultra96 ms | bound |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append("| %s | %s | %d | %s | %s | %.2f | %.2f | %.1f | %.2f | %.2f | %.2f | %.2f | %s |" % (
            r["layer"], r["insns"], int(r["uop"]) // 4, r["gemm_ops"], r["alu_ops"], int(r["inp"]) / mib,
            int(r["wgt"]) / mib, int(r["acc"]) / 1024.0, int(r["out"]) / mib, r["traffic"] / r["min"], r["ms"],
            float(r["ms_ultra96"]), "compute" if r["bound"] == "comp" else "memory"))
    tt, tm = sum(r["traffic"] for r in rows), sum(r["min"] for r in rows)
    lines.append("| total | %d | %d | %d | %d | %.2f | %.2f | %.1f | %.2f | %.2f | %.1f | %.1f | |" % (
        sum(int(r["insns"]) for r in rows), sum(int(r["uop"]) // 4 for r in rows),
        sum(int(r["gemm_ops"]) for r in rows), sum(int(r["alu_ops"]) for r in rows),
        sum(int(r["inp"]) for r in rows) / mib, sum(int(r["wgt"]) for r in rows) / mib,
        sum(int(r["acc"]) for r in rows) / 1024.0, sum(int(r["out"]) for r in rows) / mib, tt / tm,
        sum(r["ms"] for r in rows), sum(float(r["ms_ultra96"]) for r in rows)))
    table = "\n".join(lines)
    # the plot: two bar charts, one row per layer
    W, rowh, left, mid = 900, 16, 110, 470
    H = 60 + rowh * len(rows)
    maxms = max(r["ms"] for r in rows) or 1.0
    maxmb = max(r["traffic"] for r in rows) or 1.0
    svg = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="11">' % (W, H),
           '<rect width="100%" height="100%" fill="white"/>',
           '<text x="%d" y="18" font-size="13">modelled time per layer, Pynq-Z1 configuration (ms)</text>' % left,
           '<text x="%d" y="18" font-size="13">DRAM traffic (MiB): moved (bar), compulsory (mark)</text>' % (mid + 20)]
    for i, r in enumerate(rows):
        y = 40 + i * rowh
        svg.append('<text x="%d" y="%d" text-anchor="end">%s</text>' % (left - 6, y + 11, r["layer"]))
        wt = (mid - left - 60) * r["ms"] / maxms
        col = "#4c72b0" if r["bound"] == "comp" else "#dd8452"
        svg.append('<rect x="%d" y="%d" width="%.1f" height="%d" fill="%s"/>' % (left, y + 2, wt, rowh - 4, col))
        svg.append('<text x="%.1f" y="%d">%.2f</text>' % (left + wt + 4, y + 11, r["ms"]))
        x0 = mid + 20
        wm = (W - x0 - 60) * r["traffic"] / maxmb
        wc = (W - x0 - 60) * r["min"] / maxmb
        svg.append('<rect x="%d" y="%d" width="%.1f" height="%d" fill="#8c8c8c"/>' % (x0, y + 2, wm, rowh - 4))
        svg.append('<rect x="%.1f" y="%d" width="2" height="%d" fill="black"/>' % (x0 + wc, y, rowh))
        svg.append('<text x="%.1f" y="%d">%.2f</text>' % (x0 + wm + 4, y + 11, r["traffic"]))
    svg.append('<text x="%d" y="%d">blue: compute-bound, orange: memory-bound (the model in docs/vta.md)</text>' % (left, H - 6))
    svg.append("</svg>")
    open(args[1], "w").write("\n".join(svg) + "\n")
    if len(args) >= 4 and args[2] == "--update-docs":
        md = open(args[3]).read()
        a, b = md.index("<!-- vta-cost:begin -->"), md.index("<!-- vta-cost:end -->")
        md = md[:a] + "<!-- vta-cost:begin -->\n" + table + "\n" + md[b:]
        open(args[3], "w").write(md)
        print("wrote %s and %s" % (args[1], args[3]))
    else:
        print(table)
        print("wrote %s" % args[1])
    return 0


if __name__ == "__main__":
    sys.exit(main())
