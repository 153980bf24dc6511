// .npy files <-> onnxruntime-node tensors, for the tools that run ONNX Runtime beside byocc
// (ort_bench.js, ort_reference.js). Little-endian arrays of the types ONNX Runtime and byocc share.
'use strict';
const fs = require('fs');

const byDescr = {'<f4': ['float32', Float32Array], '<f8': ['float64', Float64Array], '<i8': ['int64', BigInt64Array],
                 '<i4': ['int32', Int32Array], '<i2': ['int16', Int16Array], '|u1': ['uint8', Uint8Array],
                 '|i1': ['int8', Int8Array], '|b1': ['bool', Uint8Array]};
const byType = Object.fromEntries(Object.entries(byDescr).map(([descr, [type]]) => [type, descr]));

function readNpy(ort, file) {
  const buf = fs.readFileSync(file);
  const major = buf[6];
  const hlen = major === 1 ? buf.readUInt16LE(8) : buf.readUInt32LE(8);
  const start = major === 1 ? 10 : 12;
  const header = buf.toString('latin1', start, start + hlen);
  const descr = /'descr':\s*'([^']+)'/.exec(header)[1];
  if (!byDescr[descr]) throw new Error(`${file}: dtype ${descr} is not supported`);
  if (/'fortran_order':\s*True/.test(header)) throw new Error(`${file}: Fortran order is not supported`);
  const shape = /'shape':\s*\(([^)]*)\)/.exec(header)[1].split(',').map(s => s.trim()).filter(s => s).map(Number);
  const [type, Ctor] = byDescr[descr];
  const bytes = buf.subarray(start + hlen);
  const copy = new Uint8Array(bytes.length);
  copy.set(bytes);
  const data = new Ctor(copy.buffer, 0, copy.length / Ctor.BYTES_PER_ELEMENT);
  return new ort.Tensor(type, type === 'bool' ? Uint8Array.from(data, v => v ? 1 : 0) : data, shape);
}

function writeNpy(file, tensor) {
  const descr = byType[tensor.type];
  if (!descr) throw new Error(`${file}: tensor type ${tensor.type} has no .npy form here`);
  const dims = tensor.dims.map(String);
  const shape = dims.length === 1 ? `(${dims[0]},)` : `(${dims.join(', ')})`;
  let header = `{'descr': '${descr}', 'fortran_order': False, 'shape': ${shape}, }`;
  header += ' '.repeat(63 - ((10 + header.length) % 64)) + '\n'; // pad so the data starts 64-aligned
  const head = Buffer.alloc(10);
  Buffer.from([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0]).copy(head);
  head.writeUInt16LE(header.length, 8);
  const data = tensor.data;
  const body = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  fs.writeFileSync(file, Buffer.concat([head, Buffer.from(header, 'latin1'), body]));
}

module.exports = {readNpy, writeNpy};
