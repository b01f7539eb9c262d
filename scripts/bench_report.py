#!/usr/bin/env python3
"""Turn a Google Benchmark JSON run of bench/mrtq_bench into a plot and a
markdown table of ratios (each path against the ceiling and its peer measured
in the same run), written between the bench markers of docs/PERFORMANCE.md."""
import json
import platform
import re
import subprocess
import sys
from datetime import date

src, md_path, png_path = sys.argv[1:4]
data = json.load(open(src))
rate = {}  # (family, impl, n) -> items/s (median of the repetitions)
kernels = {}  # layer -> impl -> benchmark entry (KERNEL/<layer>/<impl>)
perch = {}  # (family, rows x channels) -> impl -> items/s (PERCH/<family>/<impl>/<shape>)
alu = {}  # threads -> benchmark entry (THREADS/alu_vpdpbusd/<threads>)
peak = None  # PEAK/vpdpbusd: vpdpbusd per second on registers (the kernel table's ceiling)
for b in data["benchmarks"]:
    if b.get("error_occurred"):
        continue
    name = b.get("run_name", b["name"])
    if b.get("run_type") == "aggregate" and b.get("aggregate_name") != "median":
        continue
    if name.startswith("PERCH/"):
        _, fam, impl, shape = name.split("/")[:4]
        perch.setdefault((fam, shape), {})[impl] = b["items_per_second"]
        continue
    if name.startswith("PEAK/"):
        peak = b["items_per_second"]
        continue
    if name.startswith("THREADS/"):  # THREADS/alu_vpdpbusd/<threads>: the machine's own 2-thread scaling
        alu[int(name.split("/")[2])] = b
        continue
    if name.startswith("KERNEL/"):
        _, layer, impl = name.split("/")[:3]
        kernels.setdefault(layer, {})[impl] = b
        continue
    fam, impl, n, al = name.split("/")[:4]
    rate[(fam, impl, int(n), al)] = b["items_per_second"]

sizes = sorted({k[2] for k in rate})
families = ["Q31_DBL", "Q31_RNDNU", "Q15_VTA", "Q15_RNDNU", "FP32"]
size_name = {8192: "L1 (8K)", 131072: "L2 (128K)", 16 << 20: "DRAM (16M, 64 MiB in)"}
peer = {"Q31_DBL": "gemmlowp_avx2", "FP32": "onednn"}


def cpu():
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor()


flags = ""
try:
    fl = re.search(r"^flags\s*:(.*)$", open("/proc/cpuinfo").read(), re.M).group(1).split()
    flags = " ".join(sorted(f for f in fl if f.startswith("avx512") or f in ("avx2", "sse4_1", "fma")))
except (OSError, AttributeError):
    pass
gcc = subprocess.run(["gcc", "--version"], capture_output=True, text=True).stdout.splitlines()[0]
ctx = data.get("context", {})

lines = []
lines.append(f"Measured {date.today().isoformat()} on **{cpu()}** ({ctx.get('num_cpus', '?')} cores visible, "
             f"{ctx.get('mhz_per_cpu', '?')} MHz reported), single thread; ISA flags: {flags}; compiler: {gcc}; "
             f"Google Benchmark {ctx.get('library_version', '1.7.1')}, median of 3 repetitions. Absolute rates drift "
             f"on this shared machine; the ratios compare runs made in the same process minutes apart.")
lines.append("")
lines.append("G items/s (one item = one int32 accumulator in, one int8 out). ceiling = load-narrow-store of the "
             "same bytes with the same pack-and-store and the same prefetching as the AVX-512 path (its loop without "
             "the arithmetic). mrtq dispatch = bench/loops.c built as a plain -O2 build is (no -m flag: the path chosen at run time). "
             "plain loop = the family written as a user writes it without mrtq (bench/plain.c, built "
             "like the scalar path); scalar / plain = the scalar path's time over the plain loop's. The peers are "
             "compared on their own instruction set: gemmlowp's fixed-point code is built for AVX2 and set against "
             "mrtq's AVX2 path; oneDNN picks its JIT kernel at run time (AVX-512 on an AVX-512 CPU) and is set "
             "against mrtq's AVX-512 path.")
lines.append("")
aligns = ["aligned", "misaligned"]
above = []
for al in aligns:
    lines.append(f"**{al}** ({'input and output 64-byte aligned' if al == 'aligned' else 'input and output one element past a 64-byte boundary'}):")
    lines.append("")
    hdr = ("| family | size | mrtq AVX-512 | mrtq AVX2 | mrtq SSE4.1 | mrtq dispatch | scalar | plain loop | peer | ceiling "
           "| AVX-512 / ceiling | same-ISA path / peer | dispatch / AVX-512 (rate) | scalar / plain (time) |")
    lines.append(hdr)
    lines.append("|" + "---|" * (hdr.count("|") - 1))
    for fam in families:
        for n in sizes:
            g = lambda impl: rate.get((fam, impl, n, al))
            ceil = rate.get(("CEILING", "load_narrow_store_avx512", n, al))
            a512, a2, s41, sc, pl = g("mrtq_avx512"), g("mrtq_avx2"), g("mrtq_sse41"), g("scalar"), g("plain_loop")
            dsp = g("mrtq_dispatch")
            p = g(peer[fam]) if fam in peer else None
            f = lambda v: f"{v / 1e9:.2f}" if v else "-"
            r = lambda a, b: f"{a / b:.2f}" if a and b else "-"
            pname = f"{f(p)} ({peer[fam].replace('_avx2', ' AVX2')})" if p else "-"
            same = a2 if fam == "Q31_DBL" else a512  # the peer's own instruction set
            sname = (" (AVX2)" if fam == "Q31_DBL" else " (AVX-512)") if p else ""
            vc = r(a512, ceil)
            if a512 and ceil and a512 > ceil:
                vc += "*"
                above.append(f"{fam} {size_name.get(n, n)} {al}")
            lines.append(f"| {fam} | {size_name.get(n, n)} | {f(a512)} | {f(a2)} | {f(s41)} | {f(dsp)} | {f(sc)} | {f(pl)} "
                         f"| {pname} | {f(ceil)} | {vc} | {r(same, p)}{sname} | {r(dsp, a512)} | {r(pl, sc)} |")
    lines.append("")
if above:
    lines.append("\\* Above the ceiling, which runs the same loop without the arithmetic: run-to-run noise of this "
                 "shared machine (the two were measured minutes apart), not a faster path: " + "; ".join(above) + ".")
    lines.append("")
lines.append(f"![throughput per family and size](performance.png)")
table = "\n".join(lines)

md = open(md_path).read()
begin, end = "<!-- bench:begin -->", "<!-- bench:end -->"
if not rate:  # a filtered run: say so rather than keep another run's table beside this one's
    table = (f"Not measured in the run of {date.today().isoformat()} on **{cpu()}** (a filtered run); "
             "`scripts/bench` without a filter measures it.")
md = md[: md.index(begin) + len(begin)] + "\n" + table + "\n" + md[md.index(end):]

# The per-channel table (mrtq_requant_s8_inner): rates and ratios of one run.
if perch:
    pl = [f"Measured {date.today().isoformat()} on **{cpu()}**, single thread, median of 3; compiler: {gcc}. "
          "G items/s (one int32 in, one int8 out); rows x channels in NHWC order, one description per channel "
          "(Q31_DBL: TFLite's per-channel multipliers, all with shift <= 0; FP32: XNNPACK's qc8 scales). plain loop = "
          "TFLite's per-channel output stage / XNNPACK's scalar fmagic written without mrtq (bench/plain.c, built "
          "like the scalar path); dispatch = a plain -O2 build.", "",
          "| family | rows x channels | mrtq AVX-512 | mrtq AVX2 | mrtq dispatch | scalar | plain loop "
          "| AVX-512 / plain loop (speed) | dispatch / AVX-512 (rate) | scalar / plain (time) |",
          "|---|---|---|---|---|---|---|---|---|---|"]
    for (fam, shape), d in perch.items():
        g = lambda k: d.get(k)
        f = lambda v: f"{v / 1e9:.2f}" if v else "-"
        r = lambda a, b: f"{a / b:.2f}" if a and b else "-"
        pl.append(f"| {fam} | {shape} | {f(g('mrtq_avx512'))} | {f(g('mrtq_avx2'))} | {f(g('mrtq_dispatch'))} "
                  f"| {f(g('scalar'))} | {f(g('plain_loop'))} | {r(g('mrtq_avx512'), g('plain_loop'))} "
                  f"| {r(g('mrtq_dispatch'), g('mrtq_avx512'))} | {r(g('plain_loop'), g('scalar'))} |")
else:
    pl = [f"Not measured in the run of {date.today().isoformat()} on **{cpu()}** (a filtered run); "
          "`scripts/bench` without a filter measures it."]
pb, pe = "<!-- perch:begin -->", "<!-- perch:end -->"
if pb in md:
    md = md[: md.index(pb) + len(pb)] + "\n" + "\n".join(pl) + "\n" + md[md.index(pe):]

# The kernel table: time per layer (ms), mrtq / oneDNN time ratios.
if kernels:
    kl = [f"Measured {date.today().isoformat()} on **{cpu()}**, single thread except the 2-thread columns (real time, "
          f"the fast core with examples/pool.h), median of 3; compiler: {gcc}.", "",
          "mrtq fast: oneDNN's convention (float epilogue, `mrtq_fastconv_onednn`); mrtq fast TFLite: the same layer "
          "and packed weights in TFLite's requantization (per-channel Q31 double rounding, "
          "`mrtq_fastconv_q8plan_run`: the descriptors planned once, as the weights are packed once), "
          "compared with `mrtq_conv2d_q8` before timing.", "",
          "| layer | MACs | mrtq scalar (ms) | mrtq fast (ms) | mrtq fast TFLite (ms) | oneDNN (ms) | oneDNN G MAC/s "
          "| mrtq fast G MAC/s | scalar / oneDNN time | fast / oneDNN time | fast TFLite / oneDNN time "
          "| fast TFLite / fast time | fast, 2 threads (ms) | fast TFLite, 2 threads (ms) | 1 / 2-thread speed-up "
          "(oneDNN conv., TFLite conv.) |", "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    ms = lambda b: b["real_time"] * {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}[b.get("time_unit", "ns")]
    for layer, d in kernels.items():
        if "mrtq_scalar" not in d or "onednn" not in d:
            continue
        m, o, fa, ft = d["mrtq_scalar"], d["onednn"], d.get("mrtq_fast"), d.get("mrtq_fast_tflite")
        f2, t2 = d.get("mrtq_fast_2t"), d.get("mrtq_fast_tflite_2t")
        macs = m["items_per_second"] * m["cpu_time"] * {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}[m.get("time_unit", "ns")]
        fast = (f"{ms(fa):.3f}", f"{fa['items_per_second'] / 1e9:.0f}", f"{ms(fa) / ms(o):.2f}x") if fa else ("-", "-", "-")
        tfl = (f"{ms(ft):.3f}", f"{ms(ft) / ms(o):.2f}x", f"{ms(ft) / ms(fa):.2f}x" if fa else "-") if ft else ("-", "-", "-")
        kl.append(f"| {layer} | {macs / 1e6:.1f} M | {ms(m):.2f} | {fast[0]} | {tfl[0]} | {ms(o):.3f} "
                  f"| {o['items_per_second'] / 1e9:.0f} | {fast[1]} | {ms(m) / ms(o):.0f}x | {fast[2]} | {tfl[1]} | {tfl[2]} "
                  f"| {f'{ms(f2):.3f}' if f2 else '-'} | {f'{ms(t2):.3f}' if t2 else '-'} "
                  f"| {f'{ms(fa) / ms(f2):.2f}x' if fa and f2 else '-'}, {f'{ms(ft) / ms(t2):.2f}x' if ft and t2 else '-'} |")
    if peak:
        kl += ["", f"The ceiling: this core retired **{peak / 1e9:.2f} G** `vpdpbusd` (512-bit) per second in this run "
               "(PEAK/vpdpbusd: 24 independent chains on registers, as many accumulators as the micro-kernel keeps, no "
               "memory traffic). A layer needs at least one per 16 output channels of a pixel per four taps of a "
               "channel's group (`vpdpbusd` column); at that rate they take the floor's time, whatever the kernel "
               "around them does. Depthwise layers need few (a 3x3 window is 3 per 16 outputs) and are bound by the "
               "rest (the epilogue, memory).", "",
               "| layer | vpdpbusd (M) | floor (ms) | oneDNN / floor | mrtq fast / floor | mrtq fast TFLite / floor |",
               "|---|---|---|---|---|---|"]
        for layer, d in kernels.items():
            o, fa, ft = d.get("onednn"), d.get("mrtq_fast"), d.get("mrtq_fast_tflite")
            if not o or "vpdpbusd" not in o:
                continue
            fl = o["vpdpbusd"] / peak * 1e3
            r = lambda b: f"{ms(b) / fl:.2f}" if b else "-"
            kl.append(f"| {layer} | {o['vpdpbusd'] / 1e6:.2f} | {fl:.3f} | {r(o)} | {r(fa)} | {r(ft)} |")
    pc = [(layer, ms(d["mrtq_fast_tflite_percall"]) / ms(d["mrtq_fast_tflite"])) for layer, d in kernels.items()
          if "mrtq_fast_tflite_percall" in d and "mrtq_fast_tflite" in d]
    if pc:
        kl += ["", "The same TFLite convention through `mrtq_fastconv_q8`, which checks the descriptors and builds their "
               "table on every call, in time per call against the planned column: " +
               ", ".join(f"{layer} {r:.2f}x" for layer, r in pc) + "."]
    if 1 in alu and 2 in alu:
        a1, a2 = ms(alu[1]), ms(alu[2])
        kl += ["", f"The machine's own 2-thread scaling at the end of this run (not a bound on the rows above, which "
               f"ran minutes earlier): register-only `vpdpbusd` work (no memory traffic) on one thread, {a1:.3f} ms, "
               f"and split in two tasks on the same pool, {a2:.3f} ms: **{a1 / a2:.2f}x**. Its two vCPUs share a host "
               "with other work, so this moves from run to run as the layers' 2-thread ratios do."]
else:
    kl = [f"Not measured in the run of {date.today().isoformat()} on **{cpu()}** (a filtered run); "
          "`scripts/bench` without a filter measures it."]
kb, ke = "<!-- kernels:begin -->", "<!-- kernels:end -->"
md = md[: md.index(kb) + len(kb)] + "\n" + "\n".join(kl) + "\n" + md[md.index(ke):]

# TFLite's 16x8 on the fast core beside the int8 TFLite convention of the same run (no peer computes 16x8 here).
k16 = [(layer, d) for layer, d in kernels.items() if "mrtq_fast_s16x8_acc64" in d]
if k16:
    ml = [f"Measured {date.today().isoformat()} on **{cpu()}** (the run of the kernel table above), single thread, "
          f"median of 3; compiler: {gcc}.", "",
          "| layer | mrtq fast TFLite int8 (ms) | 16x8 `_acc64` (ms) | 16x8 `_acc32` (ms) | `_acc64` / int8 time "
          "| `_acc32` / int8 time | 16x8 `_acc64` G MAC/s |", "|---|---|---|---|---|---|---|"]
    for layer, d in k16:
        a, b, t = d["mrtq_fast_s16x8_acc64"], d.get("mrtq_fast_s16x8_acc32"), d.get("mrtq_fast_tflite")
        ml.append(f"| {layer} | {f'{ms(t):.3f}' if t else '-'} | {ms(a):.3f} | {f'{ms(b):.3f}' if b else '-'} "
                  f"| {f'{ms(a) / ms(t):.2f}x' if t else '-'} | {f'{ms(b) / ms(t):.2f}x' if t and b else '-'} "
                  f"| {a['items_per_second'] / 1e9:.0f} |")
else:
    ml = [f"Not measured in the run of {date.today().isoformat()} on **{cpu()}** (a filtered run, or a CPU without "
          "AVX512-VNNI); `scripts/bench` without a filter measures it."]
mb, me = "<!-- kernels16:begin -->", "<!-- kernels16:end -->"
if mb in md:
    md = md[: md.index(mb) + len(mb)] + "\n" + "\n".join(ml) + "\n" + md[md.index(me):]
open(md_path, "w").write(md)

if not rate:
    sys.exit(0)
import matplotlib  # noqa: E402
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

impls = [("mrtq_avx512", "mrtq AVX-512"), ("mrtq_avx2", "mrtq AVX2"), ("mrtq_sse41", "mrtq SSE4.1"), ("scalar", "scalar C"),
         ("plain_loop", "plain loop"), ("peer", "peer")]
fig, axes = plt.subplots(2, len(sizes), figsize=(5 * len(sizes), 8.5), sharey=True, squeeze=False)
for row, al in enumerate(aligns):
    for ax, n in zip(axes[row], sizes):
        w = 0.13
        for j, (impl, label) in enumerate(impls):
            vals = []
            for fam in families:
                key = peer.get(fam) if impl == "peer" else impl
                vals.append((rate.get((fam, key, n, al)) or 0) / 1e9 if key else 0)
            ax.bar([i + (j - 2.5) * w for i in range(len(families))], vals, w, label=label)
        ceil = rate.get(("CEILING", "load_narrow_store_avx512", n, al))
        if ceil:
            ax.axhline(ceil / 1e9, color="k", ls="--", lw=1, label="ceiling (load-narrow-store)")
        ax.set_xticks(range(len(families)))
        ax.set_xticklabels(families, rotation=30)
        ax.set_title(f"{size_name.get(n, str(n))}, {al}")
        ax.set_yscale("log")
    axes[row][0].set_ylabel("G accumulators / s (log)")
axes = axes[0]
axes[0].set_ylabel("G accumulators / s (log)")
axes[-1].legend(fontsize=8)
fig.suptitle(f"mrtq requantization, single thread, {cpu()}")
fig.tight_layout()
fig.savefig(png_path, dpi=90)
print(f"wrote {md_path} and {png_path}")
