// Reference outputs from ONNX Runtime for models byoc.h's tests build (tests/models): for each MODEL_DIR
// holding model.onnx and input_K.npy, runs ONNX Runtime (CPU, all graph optimizations) and writes
// ort_output_K.npy in the order of the model's outputs. Usage: node tools/ort_reference.js MODEL_DIR...
// onnxruntime-node comes from npm (npm install onnxruntime-node --onnxruntime-node-install=skip).
'use strict';
const fs = require('fs');
const path = require('path');
const ort = require('onnxruntime-node');
const {readNpy, writeNpy} = require('./npy.js');

// session.x64quantprecision: ONNX Runtime's 8-bit kernels (QLinearConv, MatMulInteger: the fused QDQ groups of a
// quantized model) multiply u8 x s8 with pmaddubsw on an x86 CPU without a byte dot product (VNNI), whose int16
// sums of two products saturate (its quantization guide's "saturation issue" of AVX2 and AVX-512 without VNNI);
// this option takes the exact path there, and changes nothing on other CPUs.
const options = {logSeverityLevel: 3, extra: {session: {x64quantprecision: '1'}}};

(async () => {
  for (const dir of process.argv.slice(2)) {
    const session = await ort.InferenceSession.create(path.join(dir, 'model.onnx'), options);
    const feeds = {};
    session.inputNames.forEach((name, k) => { feeds[name] = readNpy(ort, path.join(dir, `input_${k}.npy`)); });
    const results = await session.run(feeds);
    session.outputNames.forEach((name, k) => writeNpy(path.join(dir, `ort_output_${k}.npy`), results[name]));
    console.log(`${path.basename(dir)}: ${session.outputNames.map(n => `${n} ${JSON.stringify(results[n].dims)}`).join(', ')}`);
  }
})().catch(e => { console.error(`ort_reference: ${e.message}`); process.exit(1); });
