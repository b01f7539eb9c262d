#!/usr/bin/env python3
"""Smoke run of the benchmark binary (part of the test command): every
benchmark at the L1 size and one kernel layer (MobileNet depthwise 512x14x14,
mrtq and oneDNN) run briefly; each one first checks its output against mrtq's
scalar path (the kernel layer: mrtq against oneDNN), so an error entry is a
failed case.
Prints "bench_smoke: N passed, N failed"."""
import json
import subprocess
import sys

binary = sys.argv[1]
out = subprocess.run([binary, "--benchmark_filter=/8192/|KERNEL/mobilenet_dw_3x3s1_512_14/", "--benchmark_min_time=0.001",
                      "--benchmark_format=json"], capture_output=True, text=True, check=False)
try:
    runs = json.loads(out.stdout)["benchmarks"]
except (ValueError, KeyError):
    print(out.stdout, out.stderr)
    runs = []
passed = failed = 0
for r in runs:
    if r.get("error_occurred"):
        failed += 1
        print(f"FAIL {r['name']}: {r.get('error_message')}")
    else:
        passed += 1
        print(f"ok   {r['name']} ({r['items_per_second'] / 1e9:.2f} G items/s)")
if out.returncode != 0 or not runs:
    failed += 1
print(f"bench_smoke: {passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
