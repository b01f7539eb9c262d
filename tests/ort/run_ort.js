// Runs the models of tests/ort/make_models.py on ONNX Runtime (onnxruntime-node,
// CPU execution provider, one intra-op and one inter-op thread) and writes
// one text file for tests/test_ort.c:
//   case ID OP
//   attr NAME INT                        (float attributes as their bits)
//   in NAME TYPE NDIM D... : V...        (every node input, initializers too)
//   out NAME TYPE NDIM D... : V...       (what ONNX Runtime returned)
//   end
// f32 values are written as their IEEE-754 bit patterns (uint32).
// Usage: node run_ort.js CASES_DIR OUT_FILE   (NODE_PATH finds onnxruntime-node)
'use strict';
const fs = require('fs');
const path = require('path');
const ort = require('onnxruntime-node');

const TYPED = {u8: Uint8Array, s8: Int8Array, s32: Int32Array, u16: Uint16Array, s16: Int16Array};
const ORT_TYPE = {u8: 'uint8', s8: 'int8', s32: 'int32', u16: 'uint16', s16: 'int16', f32: 'float32'};

function toTensor(t) {
  let data;
  if (t.type === 'f32') data = new Float32Array(Uint32Array.from(t.data).buffer);
  else data = TYPED[t.type].from(t.data);
  return new ort.Tensor(ORT_TYPE[t.type], data, t.dims);
}

function line(kind, name, type, dims, values) {
  return `${kind} ${name} ${type} ${dims.length} ${dims.join(' ')} : ${values.join(' ')}\n`;
}

async function main() {
  const dir = process.argv[2], outPath = process.argv[3];
  const spec = JSON.parse(fs.readFileSync(path.join(dir, 'cases.json'), 'utf8'));
  const opts = {intraOpNumThreads: 1, interOpNumThreads: 1, executionMode: 'sequential'};
  const chunks = [`# onnxruntime-node ${require('onnxruntime-node/package.json').version}, ` +
                  `seed ${spec.seed}, onnx ${spec.onnx}\n`];
  for (const c of spec.cases) {
    const session = await ort.InferenceSession.create(path.join(dir, c.model), opts);
    const feeds = {};
    for (const t of c.inputs) if (c.feeds.includes(t.name)) feeds[t.name] = toTensor(t);
    const res = await session.run(feeds);
    let s = `case ${c.id} ${c.op}\n`;
    for (const [k, v] of Object.entries(c.attrs)) s += `attr ${k} ${v}\n`;
    for (const t of c.inputs) s += line('in', t.name, t.type, t.dims, t.data);
    for (const o of c.outputs) {
      const r = res[o.name];
      const vals = o.type === 'f32' ? Array.from(new Uint32Array(r.data.buffer, r.data.byteOffset, r.data.length))
                                    : Array.from(r.data);
      s += line('out', o.name, o.type, r.dims, vals);
    }
    chunks.push(s + 'end\n');
    if (session.release) await session.release();
  }
  fs.writeFileSync(outPath, chunks.join(''));
  console.log(`run_ort: ${spec.cases.length} models run on onnxruntime-node ` +
              `${require('onnxruntime-node/package.json').version}`);
}

main().catch((e) => { console.error(e); process.exit(1); });
