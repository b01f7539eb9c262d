#!/usr/bin/env python3
"""Which refusal reasons in include/mrtq/*.h no test verifies.

Run the test binaries with MRTQ_WHY_LOG=FILE (tests/harness.h appends every
reason a CHECK_REFUSED verified), then: why_coverage.py FILE. Prints the
reason literals of the headers that no logged reason contains, a count, and
the summary line "test_why_coverage: N passed, N failed" (one case: every
reachable reason is verified). Exit 1 if one is not."""
import glob, os, re, sys

# Guards no test can reach: sizes past the address space, and a step bound the
# longest plan (about 40 steps) stays far below.
UNREACHABLE = {
    'parts: the concatenated axis overflows size_t',
    'parts: the element count overflows size_t',
    'm: the plan needs more than MRTQ_VTA_MAX_STEPS steps',
}
root = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
try:
    logged = set(open(sys.argv[1]).read().split('\n')) - {''}
except OSError:  # no test logged a reason: every reason counts as unverified
    logged = set()
reasons = set()
for path in glob.glob(os.path.join(root, 'include', 'mrtq', '*.h')):
    for line in open(path):
        if line.lstrip().startswith(('#define', '/*', '*')) or not re.search(r'MRTQ__\w*(ERR|FAIL|WHY)\w*\(', line):
            continue
        for lit in re.findall(r'"((?:[^"\\]|\\.)*)"', line):
            if ': ' in lit:
                reasons.add((os.path.basename(path), lit))
missing = sorted(r for r in reasons if not any(r[1] in l for l in logged))
for h, lit in missing:
    print(f'{h}: "{lit}"' + (' (unreachable guard)' if lit in UNREACHABLE else ' NOT VERIFIED'))
print(f'{len(reasons) - len(missing)} of {len(reasons)} reason strings verified by a test')
bad = [r for r in missing if r[1] not in UNREACHABLE]
print(f'test_why_coverage: {0 if bad else 1} passed, {1 if bad else 0} failed')
sys.exit(1 if bad else 0)
