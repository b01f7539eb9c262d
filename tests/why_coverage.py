#!/usr/bin/env python3
"""Which refusal reasons in include/mrtq/*.h no test verifies.

Run the test binaries with MRTQ_WHY_LOG=FILE (tests/harness.h appends every
reason a CHECK_REFUSED verified), then: why_coverage.py FILE. Prints the
reason literals of the headers that no logged reason matches, a count, and
the summary line "test_why_coverage: N passed, N failed" (one case: every
reachable reason is verified). Exit 1 if one is not.

A reason literal is every string literal holding ": " inside the arguments of
an MRTQ__*ERR* / *FAIL* / *WHY* call (adjacent literals joined, calls over
several lines included; comments and macro definitions skipped). A logged
reason matches it when it is the literal, or the literal behind a prefix that
names the struct it belongs to ("rq->", "rq[c].", "a->rq->": the reason
macros that compose one)."""
import glob, os, re, sys

# Guards no test can reach: sizes past the address space, and a step bound the
# longest plan (about 40 steps) stays far below.
UNREACHABLE = {
    'parts: the concatenated axis overflows size_t',
    'parts: the element count overflows size_t',
    'm: the plan needs more than MRTQ_VTA_MAX_STEPS steps',
    # the net builder's check of its own plan's micro-op bound (a bound the tests verify layer by layer)
    'plan->layer[i].uops: below the micro-ops the layer emitted',
}
root = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
try:
    logged = set(open(sys.argv[1]).read().split('\n')) - {''}
except OSError:  # no test logged a reason: every reason counts as unverified
    logged = set()


def calls(src):
    """The argument text of every reason call in src."""
    src = re.sub(r'/\*.*?\*/', '', src, flags=re.S)
    src = '\n'.join(l for l in src.split('\n') if not l.lstrip().startswith('#') and not l.rstrip().endswith('\\'))
    for m in re.finditer(r'MRTQ__\w*(ERR|FAIL|WHY)\w*\(', src):
        i = j = m.end()
        depth = 1
        while depth and j < len(src):
            c = src[j]
            if c == '"':
                j += 1
                while src[j] != '"':
                    j += 2 if src[j] == '\\' else 1
            elif c == '(':
                depth += 1
            elif c == ')':
                depth -= 1
            j += 1
        yield src[i:j - 1]


reasons = set()
inc = os.path.join(root, 'include', 'mrtq')
for path in glob.glob(os.path.join(inc, '*.h')) + glob.glob(os.path.join(inc, '*', '*.h')):  # vta/ too
    for arg in calls(open(path).read()):
        arg = re.sub(r'"\s*"', '', arg)  # "a" "b" is one literal
        for lit in re.findall(r'"((?:[^"\\]|\\.)*)"', arg):
            if ': ' in lit:
                reasons.add((os.path.relpath(path, inc), lit))


def verified(lit):
    if lit.startswith(': '):  # the rule half of a reason whose argument name a macro pastes in front
        return any(l.endswith(lit) for l in logged)
    return any(l == lit or (l.endswith(lit) and l[:-len(lit)].endswith(('->', '.'))) for l in logged)


missing = sorted(r for r in reasons if not verified(r[1]))
for h, lit in missing:
    print(f'{h}: "{lit}"' + (' (unreachable guard)' if lit in UNREACHABLE else ' NOT VERIFIED'))
print(f'{len(reasons) - len(missing)} of {len(reasons)} reason strings verified by a test')
bad = [r for r in missing if r[1] not in UNREACHABLE]
print(f'test_why_coverage: {0 if bad else 1} passed, {1 if bad else 0} failed')
sys.exit(1 if bad else 0)
