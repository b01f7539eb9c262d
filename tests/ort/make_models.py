#!/usr/bin/env python3
"""Single-node ONNX models for the ONNX Runtime differential (tests/ort/run.sh).

Usage: make_models.py OUTDIR [SEED]

Writes OUTDIR/NNNN.onnx (one node each: the scales and zero points are
initializers, the data are graph inputs) and OUTDIR/cases.json, which
tests/ort/run_ort.js reads: per case the model, its feeds, every node input
(initializers too, for the C side) and the node's attributes. Floats travel as
their IEEE-754 bit patterns, so nothing is rounded on the way.

Needs Debian's python3-onnx (and numpy). The draws are seeded: the same SEED
gives the same models on every machine.
"""
import json
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OUT = sys.argv[1]
SEED = int(sys.argv[2]) if len(sys.argv) > 2 else 20261128
rng = np.random.RandomState(SEED)
os.makedirs(OUT, exist_ok=True)

NP = {'u8': np.uint8, 's8': np.int8, 's32': np.int32, 'f32': np.float32, 'u16': np.uint16, 's16': np.int16}
PT = {'u8': TensorProto.UINT8, 's8': TensorProto.INT8, 's32': TensorProto.INT32, 'f32': TensorProto.FLOAT,
      'u16': TensorProto.UINT16, 's16': TensorProto.INT16}
RANGE = {'u8': (0, 255), 's8': (-128, 127), 'u16': (0, 65535), 's16': (-32768, 32767)}
cases = []


def f32(x):
    return np.float32(x)


def bits(a):
    return np.ascontiguousarray(a, dtype=np.float32).view(np.uint32).ravel().tolist()


def tensor_json(name, t, arr):
    arr = np.asarray(arr, dtype=NP[t])
    data = bits(arr) if t == 'f32' else arr.ravel().astype(np.int64).tolist()
    return {'name': name, 'type': t, 'dims': list(arr.shape), 'data': data}


def case(op, node_op, inputs, outputs, attrs=None, domain='', cattrs=None):
    """inputs: [(name, type, array, is_initializer)] in node order (name '' =
    an omitted optional input); outputs: [(name, type)]. attrs: the node's
    attributes; cattrs: integers for the C side (floats as bits)."""
    attrs = attrs or {}
    node = helper.make_node(node_op, [i[0] for i in inputs], [o[0] for o in outputs], domain=domain or None,
                            **attrs)
    graph_inputs, inits = [], []
    for name, t, arr, init in inputs:
        if not name:
            continue
        arr = np.asarray(arr, dtype=NP[t])
        if init:
            inits.append(numpy_helper.from_array(arr, name))
        else:
            graph_inputs.append(helper.make_tensor_value_info(name, PT[t], list(arr.shape)))
    graph_outputs = [helper.make_tensor_value_info(n, PT[t], None) for n, t in outputs]
    graph = helper.make_graph([node], 'g', graph_inputs, graph_outputs, inits)
    opsets = [helper.make_opsetid('', 13)]
    if domain:
        opsets.append(helper.make_opsetid(domain, 1))
    model = helper.make_model(graph, opset_imports=opsets, producer_name='mrtq-tests')
    model.ir_version = 7
    idx = len(cases)
    path = '%04d.onnx' % idx
    onnx.save(model, os.path.join(OUT, path))
    cases.append({
        'id': idx, 'op': op, 'model': path,
        'feeds': [i[0] for i in inputs if i[0] and not i[3]],
        'inputs': [tensor_json(n, t, a) for n, t, a, _ in inputs if n],
        'outputs': [{'name': n, 'type': t} for n, t in outputs],
        'attrs': cattrs or {},
    })


def rand_scale(lo=-12, hi=3):
    """A float scale with a random 24-bit significand and exponent in [lo, hi)."""
    return f32(np.ldexp(1.0 + rng.randint(0, 1 << 23) / float(1 << 23), rng.randint(lo, hi)))


def rand_q(t, shape):
    lo, hi = RANGE[t]
    return rng.randint(lo, hi + 1, size=shape).astype(NP[t])


def rand_zp(t):
    lo, hi = RANGE[t]
    return NP[t](rng.randint(lo, hi + 1))


# ---------------- QuantizeLinear / DequantizeLinear ----------------
def special_floats(scale, zp, t):
    """Values around every rounding tie and the clamp edges for this scale."""
    lo, hi = RANGE[t]
    ks = np.arange(lo - int(zp) - 3, hi - int(zp) + 4, dtype=np.float64)
    ties = (ks + 0.5) * float(scale)
    v = np.concatenate([ks * float(scale), ties, np.nextafter(ties.astype(np.float32), np.float32(np.inf)),
                        np.nextafter(ties.astype(np.float32), np.float32(-np.inf))]).astype(np.float32)
    extra = np.array([np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0, 3.4e38, -3.4e38, 1e-45, -1e-45],
                     dtype=np.float32)
    return np.concatenate([v, extra])


for t in ('u8', 's8'):
    for k in range(24):
        s = rand_scale(-10, 4)
        zp = rand_zp(t) if k % 3 else NP[t](0 if t == 's8' else 128)
        x = special_floats(s, zp, t)
        x = np.concatenate([x, (rng.standard_normal(200) * float(s) * 60).astype(np.float32)])
        case('quantize', 'QuantizeLinear', [('x', 'f32', x, False), ('s', 'f32', np.array(s), True),
                                             ('zp', t, np.array(zp), True)], [('y', t)])
    # per axis: shape (2, C, 3, 5), axis 0..3 (negative too)
    for axis in (0, 1, 2, 3, -1, -3):
        shape = [2, 4, 3, 5]
        c = shape[axis]
        sc = np.array([rand_scale(-8, 2) for _ in range(c)], dtype=np.float32)
        zps = rand_q(t, [c])
        x = (rng.standard_normal(shape) * 40 * float(sc.mean())).astype(np.float32)
        x.ravel()[::7] = (np.round(x.ravel()[::7] / sc.mean()) + 0.5) * sc.mean()  # some near-ties
        case('quantize_axis', 'QuantizeLinear', [('x', 'f32', x, False), ('s', 'f32', sc, True),
                                                  ('zp', t, zps, True)], [('y', t)], attrs={'axis': axis},
             cattrs={'axis': axis})
    for k in range(6):
        s = rand_scale(-10, 4)
        zp = rand_zp(t)
        q = np.arange(RANGE[t][0], RANGE[t][1] + 1).astype(NP[t])
        case('dequantize', 'DequantizeLinear', [('x', t, q, False), ('s', 'f32', np.array(s), True),
                                                 ('zp', t, np.array(zp), True)], [('y', 'f32')])
    for axis in (0, 1, 3, -2):
        shape = [3, 4, 2, 6]
        c = shape[axis]
        sc = np.array([rand_scale(-8, 2) for _ in range(c)], dtype=np.float32)
        zps = rand_q(t, [c])
        case('dequantize_axis', 'DequantizeLinear', [('x', t, rand_q(t, shape), False), ('s', 'f32', sc, True),
                                                      ('zp', t, zps, True)], [('y', 'f32')],
             attrs={'axis': axis}, cattrs={'axis': axis})

# DynamicQuantizeLinear (uint8 only in ONNX)
for k in range(40):
    n = int(rng.randint(1, 300))
    kind = k % 5
    if kind == 0:
        x = rng.standard_normal(n).astype(np.float32) * f32(np.ldexp(1, rng.randint(-10, 10)))
    elif kind == 1:
        x = np.abs(rng.standard_normal(n)).astype(np.float32) + f32(rng.rand())  # all positive
    elif kind == 2:
        x = -np.abs(rng.standard_normal(n)).astype(np.float32) * 3  # all negative
    elif kind == 3:
        x = np.full(n, f32(rng.standard_normal()), dtype=np.float32)  # constant
    else:
        x = np.zeros(n, dtype=np.float32)
    case('dynamic_quantize', 'DynamicQuantizeLinear', [('x', 'f32', x, False)],
         [('y', 'u8'), ('y_scale', 'f32'), ('y_zp', 'u8')])
# a finite range wider than FLT_MAX: the scale overflows to infinity
case('dynamic_quantize', 'DynamicQuantizeLinear', [('x', 'f32', np.array([3e38, -3e38, 1.0, -2.5], np.float32), False)],
     [('y', 'u8'), ('y_scale', 'f32'), ('y_zp', 'u8')])
# ranges narrower than 255 times the smallest subnormal: the scale underflows to 0, and the zero point is
# 0 - lo / 0 (NaN for lo = 0, +inf for lo < 0) through ORT's std::max(qmin, std::min(qmax, .))
for x in ([0.0, 1e-45], [1e-45, 2e-45, 0.0], [0.0, -1e-45], [-3e-44, 1e-45], [0.0, 3e-43]):
    case('dynamic_quantize', 'DynamicQuantizeLinear', [('x', 'f32', np.array(x, np.float32), False)],
         [('y', 'u8'), ('y_scale', 'f32'), ('y_zp', 'u8')])


# ---------------- QLinearMatMul / QLinearConv ----------------
def operand_scales(n_out, per_channel):
    xs, ys = rand_scale(-9, -2), rand_scale(-7, 0)
    ws = np.array([rand_scale(-10, -4) for _ in range(n_out if per_channel else 1)], dtype=np.float32)
    return xs, ws, ys


for k in range(40):
    ta = 'u8' if k % 2 else 's8'
    tb = 's8' if k % 4 < 2 or ta == 's8' else 'u8'  # ORT: (u8, u8), (u8, s8), (s8, s8); y as a
    ty = ta
    m, kk, n = int(rng.randint(1, 9)), int(rng.randint(1, 70)), int(rng.randint(1, 20))
    per_col = k % 5 == 1
    xs, ws, ys = operand_scales(n, per_col)
    case('qlinear_matmul', 'QLinearMatMul',
         [('a', ta, rand_q(ta, [m, kk]), False), ('a_s', 'f32', np.array(xs), True),
          ('a_zp', ta, np.array(rand_zp(ta)), True), ('b', tb, rand_q(tb, [kk, n]), True),
          ('b_s', 'f32', ws if per_col else np.array(ws[0]), True),
          ('b_zp', tb, np.zeros(n, NP[tb]) if per_col else np.array(rand_zp(tb) if tb == 'u8' else 0), True),
          ('y_s', 'f32', np.array(ys), True), ('y_zp', ty, np.array(rand_zp(ty)), True)], [('y', ty)])

for k in range(60):
    tx = 'u8' if k % 2 else 's8'
    tw = 's8' if k % 3 or tx == 's8' else 'u8'  # ORT: (u8, u8), (u8, s8), (s8, s8)
    n, c, h, w = 1 + k % 2, int(rng.randint(1, 9)), int(rng.randint(3, 12)), int(rng.randint(3, 12))
    kh, kw = int(rng.randint(1, 4)), int(rng.randint(1, 4))
    group = 1
    if k % 4 == 3:
        group = c  # depthwise
    o = group * int(rng.randint(1, 4)) if group > 1 else int(rng.randint(1, 12))
    sh, sw = int(rng.randint(1, 3)), int(rng.randint(1, 3))
    dh, dw = int(rng.randint(1, 3)), int(rng.randint(1, 3))
    pads = [int(rng.randint(0, kh)), int(rng.randint(0, kw)), int(rng.randint(0, kh)), int(rng.randint(0, kw))]
    if (h + pads[0] + pads[2] - (kh - 1) * dh - 1) < 0 or (w + pads[1] + pads[3] - (kw - 1) * dw - 1) < 0:
        dh = dw = 1
    per_ch = (k // 2) % 2 == 0
    xs, ws, ys = operand_scales(o, per_ch)
    wzp = np.array(0 if tw == 's8' else rand_zp(tw))
    if tw == 'u8' and per_ch:  # ORT takes a zero point per output channel for uint8 weights
        wzp = rand_q('u8', [o])
    bias = rng.randint(-5000, 5000, size=o).astype(np.int32)
    ins = [('x', tx, rand_q(tx, [n, c, h, w]), False), ('x_s', 'f32', np.array(xs), True),
           ('x_zp', tx, np.array(rand_zp(tx)), True), ('w', tw, rand_q(tw, [o, c // group, kh, kw]), True),
           ('w_s', 'f32', ws if per_ch else np.array(ws[0]), True), ('w_zp', tw, wzp, True),
           ('y_s', 'f32', np.array(ys), True), ('y_zp', tx, np.array(rand_zp(tx)), True)]
    if k % 5:
        ins.append(('b', 's32', bias, True))
    attrs = {'kernel_shape': [kh, kw], 'strides': [sh, sw], 'dilations': [dh, dw], 'pads': pads, 'group': group}
    case('qlinear_conv', 'QLinearConv', ins, [('y', tx)], attrs=attrs,
         cattrs={'kh': kh, 'kw': kw, 'sh': sh, 'sw': sw, 'dh': dh, 'dw': dw, 'pt': pads[0], 'pl': pads[1],
                 'pb': pads[2], 'pr': pads[3], 'group': group})


# Constructed cases for the order of the requantization scale: a 1-column
# QLinearMatMul with k = 2 and b = [127, 1] reaches every accumulator, so for
# scales where each other float order (x * (w / y), (x / y) * w, the double
# quotient) gives another float than ORT's fl(fl(x * w) / y), one row per
# other order is placed where the two scales round the output differently.
def order_scales(xs, ws, ys):
    ort = f32(f32(xs * ws) / ys)
    return ort, [f32(xs * f32(ws / ys)), f32(f32(xs / ys) * ws), f32(np.float64(xs) * np.float64(ws) / np.float64(ys))]


def rne_out(acc, s, zp):
    return np.rint((acc.astype(np.float32) * s).astype(np.float32)) + zp


made = 0
while made < 12:
    xs, ws, ys = rand_scale(-8, -5), rand_scale(-7, -4), rand_scale(-8, -5)
    ort, alts = order_scales(xs, ws, ys)
    if any(a == ort for a in alts):
        continue
    za, zy = 128, 128
    acc = np.arange(-127 * 128, 127 * 128, dtype=np.int64)
    base = rne_out(acc, ort, zy)
    rows = []
    for a in alts:
        other = rne_out(acc, a, zy)
        hit = np.nonzero((other != base) & (np.minimum(base, other) >= 0) & (np.maximum(base, other) <= 255))[0]
        if len(hit) == 0:
            break
        v = int(acc[hit[rng.randint(len(hit))]])
        q0 = int(np.floor(v / 127.0))  # v = 127 q0 + q1, q1 in [0, 127)
        rows.append([q0 + za, v - 127 * q0 + za])
    if len(rows) != len(alts) or any(not (0 <= x <= 255) for r in rows for x in r):
        continue
    made += 1
    case('qlinear_matmul_order', 'QLinearMatMul',
         [('a', 'u8', np.array(rows), False), ('a_s', 'f32', np.array(xs), True),
          ('a_zp', 'u8', np.array(za), True), ('b', 's8', np.array([[127], [1]]), True),
          ('b_s', 'f32', np.array(ws), True), ('b_zp', 's8', np.array(0), True),
          ('y_s', 'f32', np.array(ys), True), ('y_zp', 'u8', np.array(zy), True)], [('y', 'u8')])


# com.microsoft QLinearAdd / QLinearMul: every (a, b) byte pair, on the three
# broadcast paths ORT's kernels take (same shape; b one value per innermost
# span; a one value per span), and a few other broadcasts.
GRID = np.arange(256)
for t in ('u8', 's8'):
    lo = RANGE[t][0]
    va = (np.repeat(GRID, 256) + lo).reshape(256, 256)
    vb = (np.tile(GRID, 256) + lo).reshape(256, 256)
    for opname, onnx_op in (('qlinear_add', 'QLinearAdd'), ('qlinear_mul', 'QLinearMul')):
        for k in range(9):
            path = k % 3
            if path == 0:
                a, b = va.reshape(-1), vb.reshape(-1)
            elif path == 1:
                a, b = vb, va[:, :1]  # [256, 256] and [256, 1]
            else:
                a, b = va[:, :1], vb  # [256, 1] and [256, 256]
            if opname == 'qlinear_add':
                sa, sb, sc = rand_scale(-8, -1), rand_scale(-8, -1), rand_scale(-8, -1)
            else:
                sa, sb, sc = rand_scale(-6, -2), rand_scale(-6, -2), rand_scale(-9, -4)
            zs = [rand_zp(t) for _ in range(3)]
            case(opname, onnx_op,
                 [('a', t, a, False), ('a_s', 'f32', np.array(sa), True), ('a_zp', t, np.array(zs[0]), True),
                  ('b', t, b, False), ('b_s', 'f32', np.array(sb), True), ('b_zp', t, np.array(zs[1]), True),
                  ('c_s', 'f32', np.array(sc), True), ('c_zp', t, np.array(zs[2]), True)], [('c', t)],
                 domain='com.microsoft')
        for shapes in (([3, 1, 5], [4, 1]), ([1], [7]), ([6], [1]), ([1], [1]), ([2, 3, 4], [3, 4]),
                       ([2, 1, 4], [1, 3, 1]), ([5, 1], [1]), ([1, 1, 1], [2, 3, 1])):
            sa, sb, sc = rand_scale(-8, -1), rand_scale(-8, -1), rand_scale(-10, -2)
            zs = [rand_zp(t) for _ in range(3)]
            case(opname, onnx_op,
                 [('a', t, rand_q(t, shapes[0]), False), ('a_s', 'f32', np.array(sa), True),
                  ('a_zp', t, np.array(zs[0]), True), ('b', t, rand_q(t, shapes[1]), False),
                  ('b_s', 'f32', np.array(sb), True), ('b_zp', t, np.array(zs[1]), True),
                  ('c_s', 'f32', np.array(sc), True), ('c_zp', t, np.array(zs[2]), True)], [('c', t)],
                 domain='com.microsoft')


# Constructed QLinearAdd cases for the float bias F = zc - (rA za + rB zb):
# ORT's gcc build fuses the first product into an fma. Scales and zero points
# are searched where the other evaluations (no fma; the second product fused)
# give another F and, for some (a, b), another byte; the case holds those
# pairs. fma is emulated in double here (a product of floats is exact there;
# the one sum may round twice, which only makes the search miss a case) --
# test_ort.c then proves each case discriminates with mrtq's exact fma.
def fma32(x, y, c):
    return (np.float64(x) * np.float64(y) + np.float64(c)).astype(np.float32)


def add_out(a, b, ra, rb, f, lo, hi):
    v = fma32(a.astype(np.float32), ra, fma32(b.astype(np.float32), rb, f))
    return np.clip(np.rint(v), lo, hi)


for t in ('u8', 's8'):
    lo, hi = RANGE[t]
    ga = np.repeat(np.arange(lo, hi + 1), 256)
    gb = np.tile(np.arange(lo, hi + 1), 256)
    made = 0
    while made < 6:
        sa, sb, sc = rand_scale(-8, -1), rand_scale(-8, -1), rand_scale(-8, -1)
        za, zb, zc = [int(rand_zp(t)) for _ in range(3)]
        ra, rb = f32(sa / sc), f32(sb / sc)
        f1 = f32(f32(zc) - fma32(ra, f32(za), f32(rb * f32(zb))))
        f2 = f32(f32(zc) - fma32(rb, f32(zb), f32(ra * f32(za))))
        f0 = f32(f32(zc) - f32(f32(ra * f32(za)) + f32(rb * f32(zb))))
        if f1 == f2 or f1 == f0:
            continue
        base = add_out(ga, gb, ra, rb, f1, lo, hi)
        picks = []
        for f in (f0, f2):
            hit = np.nonzero(add_out(ga, gb, ra, rb, f, lo, hi) != base)[0]
            if len(hit):
                picks.append(int(hit[0]))
        if len(picks) < 2:
            continue
        made += 1
        case('qlinear_add_bias', 'QLinearAdd',
             [('a', t, ga[picks], False), ('a_s', 'f32', np.array(sa), True), ('a_zp', t, np.array(za), True),
              ('b', t, gb[picks], False), ('b_s', 'f32', np.array(sb), True), ('b_zp', t, np.array(zb), True),
              ('c_s', 'f32', np.array(sc), True), ('c_zp', t, np.array(zc), True)], [('c', t)],
             domain='com.microsoft')


# The lookup-table operators: every input byte, random scales and zero points.
ALL = {t: np.arange(RANGE[t][0], RANGE[t][1] + 1) for t in ('u8', 's8')}
for t in ('u8', 's8'):
    for k in range(30):
        xs, ys = rand_scale(-9, 0), rand_scale(-10, -1)
        if k % 5 == 0:
            ys = f32(1.0 / 256) if t == 'u8' else f32(1.0 / 128)  # the usual output scale of a sigmoid
        x = ALL[t].reshape(4, 64)
        ins = [('x', t, x, False), ('x_s', 'f32', np.array(xs), True), ('x_zp', t, np.array(rand_zp(t)), True),
               ('y_s', 'f32', np.array(ys), True), ('y_zp', t, np.array(rand_zp(t)), True)]
        case('qlinear_sigmoid', 'QLinearSigmoid', ins, [('y', t)], domain='com.microsoft')
        alpha = f32([0.01, 0.1, 0.2, 0.3333, -0.5, 1.5, 0.0][k % 7] if k % 3 else rng.uniform(-2, 2))
        case('qlinear_leaky_relu', 'QLinearLeakyRelu', ins, [('y', t)], attrs={'alpha': float(alpha)},
             domain='com.microsoft', cattrs={'alpha': int(np.array(alpha, np.float32).view(np.uint32))})

# QLinearAveragePool (2-D, NCHW and channels_last), both count_include_pad.
for k in range(80):
    t = 'u8' if k % 2 else 's8'
    n, c = 1 + k % 2, int(rng.randint(1, 5))
    h, w = int(rng.randint(1, 10)), int(rng.randint(1, 10))
    kh, kw = int(rng.randint(1, h + 1)), int(rng.randint(1, w + 1))
    sh, sw = int(rng.randint(1, 4)), int(rng.randint(1, 4))
    pads = [int(rng.randint(0, kh)), int(rng.randint(0, kw)), int(rng.randint(0, kh)), int(rng.randint(0, kw))]
    if k % 10 == 0:  # the whole image, no padding: ORT's integer global form
        kh, kw, pads = h, w, [0, 0, 0, 0]
    cl = k % 4 >= 2
    cip = (k // 4) % 2
    xs, ys = rand_scale(-8, 0), rand_scale(-8, 0)
    if k % 10 == 0:
        ys = f32(xs * np.float32(rng.uniform(0.3, 3)))
    shape = [n, h, w, c] if cl else [n, c, h, w]
    case('qlinear_avgpool', 'QLinearAveragePool',
         [('x', t, rand_q(t, shape), False), ('x_s', 'f32', np.array(xs), True),
          ('x_zp', t, np.array(rand_zp(t)), True), ('y_s', 'f32', np.array(ys), True),
          ('y_zp', t, np.array(rand_zp(t)), True)], [('y', t)],
         attrs={'kernel_shape': [kh, kw], 'strides': [sh, sw], 'pads': pads, 'count_include_pad': cip,
                'channels_last': int(cl)}, domain='com.microsoft',
         cattrs={'kh': kh, 'kw': kw, 'sh': sh, 'sw': sw, 'pt': pads[0], 'pl': pads[1], 'pb': pads[2], 'pr': pads[3],
                 'cip': cip, 'cl': int(cl)})

# QLinearGlobalAveragePool (NCHW and channels_last).
for k in range(20):
    t = 'u8' if k % 2 else 's8'
    n, c, h, w = 1 + k % 2, int(rng.randint(1, 6)), int(rng.randint(1, 12)), int(rng.randint(1, 12))
    cl = k % 4 >= 2
    xs = rand_scale(-8, 0)
    ys = f32(xs * np.float32(rng.uniform(0.3, 3)))
    case('qlinear_global_avgpool', 'QLinearGlobalAveragePool',
         [('x', t, rand_q(t, [n, h, w, c] if cl else [n, c, h, w]), False), ('x_s', 'f32', np.array(xs), True),
          ('x_zp', t, np.array(rand_zp(t)), True), ('y_s', 'f32', np.array(ys), True),
          ('y_zp', t, np.array(rand_zp(t)), True)], [('y', t)], attrs={'channels_last': int(cl)},
         domain='com.microsoft', cattrs={'cl': int(cl)})

# QLinearSoftmax (opset 13 semantics: one axis), the usual output scales and random ones.
for k in range(40):
    t = 'u8' if k % 2 else 's8'
    shape = [int(rng.randint(1, 5)), int(rng.randint(1, 40)), int(rng.randint(1, 4))]
    axis = [-1, 1, 2, 0][k % 4]
    xs = rand_scale(-6, 1)
    ys = [f32(1.0 / 256), f32(1.0 / 255), rand_scale(-9, -1)][k % 3]
    yzp = (-128 if k % 6 < 3 else rand_zp(t)) if t == 's8' else (0 if k % 6 < 3 else rand_zp(t))
    case('qlinear_softmax', 'QLinearSoftmax',
         [('x', t, rand_q(t, shape), False), ('x_s', 'f32', np.array(xs), True),
          ('x_zp', t, np.array(rand_zp(t)), True), ('y_s', 'f32', np.array(ys), True),
          ('y_zp', t, np.array(yzp), True)], [('y', t)], attrs={'opset': 13, 'axis': axis},
         domain='com.microsoft', cattrs={'axis': axis})


# ConvInteger / MatMulInteger (int32 outputs) and com.microsoft QLinearConcat.
for k in range(20):
    ta = 'u8' if k % 2 else 's8'
    tb = 's8' if k % 4 < 2 or ta == 's8' else 'u8'
    if ta == 's8':
        ta = 'u8'  # ORT's MatMulInteger / ConvInteger: uint8 or int8 A with ... ; u8 A everywhere here
    m, kk, n = int(rng.randint(1, 9)), int(rng.randint(1, 70)), int(rng.randint(1, 20))
    case('matmul_integer', 'MatMulInteger',
         [('a', ta, rand_q(ta, [m, kk]), False), ('b', tb, rand_q(tb, [kk, n]), True),
          ('a_zp', ta, np.array(rand_zp(ta)), True), ('b_zp', tb, np.array(rand_zp(tb)), True)], [('y', 's32')])
    c, h, w, o = int(rng.randint(1, 6)), int(rng.randint(3, 9)), int(rng.randint(3, 9)), int(rng.randint(1, 8))
    kh, kw = int(rng.randint(1, 4)), int(rng.randint(1, 4))
    pads = [int(rng.randint(0, kh)), int(rng.randint(0, kw)), int(rng.randint(0, kh)), int(rng.randint(0, kw))]
    case('conv_integer', 'ConvInteger',
         [('x', 'u8', rand_q('u8', [1, c, h, w]), False), ('w', 'u8', rand_q('u8', [o, c, kh, kw]), True),
          ('x_zp', 'u8', np.array(rand_zp('u8')), True), ('w_zp', 'u8', np.array(rand_zp('u8')), True)],
         [('y', 's32')], attrs={'kernel_shape': [kh, kw], 'pads': pads},
         cattrs={'kh': kh, 'kw': kw, 'pt': pads[0], 'pl': pads[1], 'pb': pads[2], 'pr': pads[3]})
for k in range(24):
    t = 'u8' if k % 2 else 's8'
    axis = [1, 0, 2, -1][k % 4]
    base = [2, 3, 4]
    parts = []
    ins = [('y_s', 'f32', np.array(rand_scale(-8, 0)), True), ('y_zp', t, np.array(rand_zp(t)), True)]
    for j in range(int(rng.randint(1, 4))):
        shp = list(base)
        shp[axis] = int(rng.randint(1, 5))
        same = k % 5 == 0 and j == 0
        ins += [('x%d' % j, t, rand_q(t, shp), False),
                ('s%d' % j, 'f32', np.array(ins[0][2] if same else rand_scale(-8, 0)), True),
                ('z%d' % j, t, np.array(ins[1][2] if same else rand_zp(t)), True)]
    case('qlinear_concat', 'QLinearConcat', ins, [('y', t)], attrs={'axis': axis}, domain='com.microsoft',
         cattrs={'axis': axis})


# com.microsoft QGemm with a quantized output: the scale fl(fl(fl(alpha * a_s) * b_s) / y_s).
for k in range(30):
    ta = 'u8' if k % 2 else 's8'
    tb = 's8' if k % 4 < 2 or ta == 's8' else 'u8'
    m, kk, n = int(rng.randint(1, 9)), int(rng.randint(1, 50)), int(rng.randint(1, 16))
    per_col = k % 3 == 1
    xs, ws, ys = operand_scales(n, per_col)
    alpha = f32([1.0, 0.5, 0.7, 1.3, 2.0][k % 5])
    trans_b = k % 2
    b = rand_q(tb, [kk, n])
    ins = [('a', ta, rand_q(ta, [m, kk]), False), ('a_s', 'f32', np.array(xs), True),
           ('a_zp', ta, np.array(rand_zp(ta)), True), ('b', tb, b.T.copy() if trans_b else b, True),
           ('b_s', 'f32', ws if per_col else np.array(ws[0]), True),
           ('b_zp', tb, np.zeros(n, NP[tb]) if per_col else np.array(rand_zp(tb) if tb == 'u8' else 0), True),
           ('c', 's32', rng.randint(-3000, 3000, size=n).astype(np.int32) if k % 4 else np.zeros(n, np.int32), True),
           ('y_s', 'f32', np.array(ys), True), ('y_zp', ta, np.array(rand_zp(ta)), True)]
    case('qgemm', 'QGemm', ins, [('y', ta)], attrs={'alpha': float(alpha), 'transB': trans_b}, domain='com.microsoft',
         cattrs={'alpha': int(np.array(alpha, np.float32).view(np.uint32)), 'trans_b': trans_b})

json.dump({'seed': SEED, 'onnx': onnx.__version__, 'cases': cases}, open(os.path.join(OUT, 'cases.json'), 'w'))
print('make_models: %d models in %s (seed %d, onnx %s)' % (len(cases), OUT, SEED, onnx.__version__))
