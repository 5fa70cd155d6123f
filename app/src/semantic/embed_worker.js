// The embedding model's dedicated worker, so that no forward pass runs on
// the page's thread (issue #13, "a page that never stutters"). Compiled
// into the app (include_str! in worker.rs) and started from a blob: URL,
// so its bytes are the app's own. The page tokenizes and pools (the same
// Rust code as the CLI); this worker only runs ONNX Runtime, from the
// files the page fetched and checked:
//
//   {type: "start", script, module, wasm, model, threads}
//     script: blob: URL of onnxruntime-web's ort.wasm.min.js,
//     module: blob: URL of its Emscripten module (.mjs),
//     wasm, model: ArrayBuffers (transferred), threads: ONNX Runtime's threads
//   → {type: "started", inputs, outputs} (the graph's names)
//   {type: "run", feeds: [[name, BigInt64Array]...], dims, output}
//   → {type: "ran", data: Float32Array (transferred), dims, millis}
//   anything that fails → {type: "failed", message}
"use strict";

let session = null;

self.onmessage = async (event) => {
  const request = event.data;
  try {
    if (request.type === "start") {
      self.postMessage(await start(request));
    } else if (request.type === "run") {
      const reply = await run(request);
      self.postMessage(reply, [reply.data.buffer]);
    } else {
      throw new Error(`unknown request ${request.type}`);
    }
  } catch (e) {
    self.postMessage({ type: "failed", message: String(e?.message ?? e) });
  }
};

async function start({ script, module, wasm, model, threads }) {
  importScripts(script);
  const settings = self.ort.env.wasm;
  settings.wasmBinary = wasm;
  settings.wasmPaths = { mjs: module };
  settings.numThreads = threads;
  settings.proxy = false;
  session = await self.ort.InferenceSession.create(new Uint8Array(model));
  return { type: "started", inputs: session.inputNames, outputs: session.outputNames };
}

async function run({ feeds, dims, output }) {
  if (!session) throw new Error("the model has not started");
  const inputs = {};
  for (const [name, data] of feeds) inputs[name] = new self.ort.Tensor("int64", data, dims);
  const started = performance.now();
  const outputs = await session.run(inputs, [output]);
  const millis = performance.now() - started;
  const hidden = outputs[output];
  if (!(hidden?.data instanceof Float32Array)) {
    throw new Error(`the model gave no float32 ${output}`);
  }
  // A copy of our own, whatever memory ONNX Runtime kept it in, to transfer.
  return { type: "ran", data: hidden.data.slice(), dims: Array.from(hidden.dims), millis };
}
