// ONNX Runtime's latency for the models `make bench` compares against (the reference runtime, not part of
// byoc.h), with ORT_THREADS intra-op threads (default 1). Usage: node tools/ort_bench.js RUNS MODEL_DIR...
// Each MODEL_DIR holds model.onnx and input_K.npy; prints one JSON line per model:
// {"model": NAME, "ort_ms_median": X, "ort_ms_min": Y, "runs": N}.
// onnxruntime-node comes from npm (npm install onnxruntime-node --onnxruntime-node-install=skip).
'use strict';
const path = require('path');
const ort = require('onnxruntime-node');

const {readNpy} = require('./npy.js');

(async () => {
  const runs = Number(process.argv[2]);
  const threads = Number(process.env.ORT_THREADS || 1);
  for (const dir of process.argv.slice(3)) {
    const session = await ort.InferenceSession.create(path.join(dir, 'model.onnx'),
      {intraOpNumThreads: threads, interOpNumThreads: 1, executionMode: 'sequential', graphOptimizationLevel: 'all', logSeverityLevel: 3});
    const feeds = {};
    session.inputNames.forEach((name, k) => { feeds[name] = readNpy(ort, path.join(dir, `input_${k}.npy`)); });
    await session.run(feeds); // warm-up
    const times = [];
    for (let r = 0; r < runs; ++r) {
      const t0 = process.hrtime.bigint();
      await session.run(feeds);
      times.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
    times.sort((a, b) => a - b);
    console.log(JSON.stringify({model: path.basename(dir), ort_ms_median: times[Math.floor(times.length / 2)], ort_ms_min: times[0], runs}));
  }
})().catch(e => { console.error(`ort_bench: ${e.message}`); process.exit(1); });
