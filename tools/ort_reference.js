// Reference outputs from ONNX Runtime for models byoc.h's tests build (tests/models): for each MODEL_DIR
// holding model.onnx and input_K.npy, runs ONNX Runtime (CPU, all graph optimizations) and writes
// ort_output_K.npy in the order of the model's outputs. Usage: node tools/ort_reference.js MODEL_DIR...
// onnxruntime-node comes from npm (npm install onnxruntime-node --onnxruntime-node-install=skip).
'use strict';
const fs = require('fs');
const path = require('path');
const ort = require('onnxruntime-node');
const {readNpy, writeNpy} = require('./npy.js');

(async () => {
  for (const dir of process.argv.slice(2)) {
    const session = await ort.InferenceSession.create(path.join(dir, 'model.onnx'), {logSeverityLevel: 3});
    const feeds = {};
    session.inputNames.forEach((name, k) => { feeds[name] = readNpy(ort, path.join(dir, `input_${k}.npy`)); });
    const results = await session.run(feeds);
    session.outputNames.forEach((name, k) => writeNpy(path.join(dir, `ort_output_${k}.npy`), results[name]));
    console.log(`${path.basename(dir)}: ${session.outputNames.map(n => `${n} ${JSON.stringify(results[n].dims)}`).join(', ')}`);
  }
})().catch(e => { console.error(`ort_reference: ${e.message}`); process.exit(1); });
