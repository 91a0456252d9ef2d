// The solver's Web Worker (a module worker). It runs the solver's own wasm (the `smd-solver`
// binary), which the page fetched and compiled once for all its workers: the page posts a
// message { glue, module } with the URL of the solver's JS glue and that
// WebAssembly.Module, so a worker costs neither a download nor a compile
// (docs/ARCHITECTURE.md, "Bird's-eye view"). Instantiating runs the binary's main(), which
// installs the solver's message loop as `onmessage` and answers Ready
// (web/src/solver/worker.rs). The page does not wait: requests (JSON text) that come before
// the module, or while it loads, are held here and handed to that loop in order, so the
// first solve starts the moment the solver can run it.
const held = []; // the requests that come before the solver listens
let loading = false;
self.onmessage = async (e) => {
  if (typeof e.data === 'string' || loading) {
    held.push(e);
    return;
  }
  loading = true;
  try {
    const bindings = await import(e.data.glue);
    await bindings.default({ module_or_path: e.data.module });
  } catch (err) {
    self.postMessage(JSON.stringify({ Panicked: { message: `the solver could not start: ${err}` } }));
    return;
  }
  for (const m of held) self.onmessage(m);
};
