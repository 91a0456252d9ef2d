// The solver's Web Worker (a module worker). It runs the page's own wasm: the page posts, as
// its first message, the URL of its JS glue and the WebAssembly.Module it compiled, so the
// page and every worker share one download and one compile (docs/ARCHITECTURE.md, "Bird's-eye
// view"). Instantiating runs the binary's main(), which in a worker installs the solver's
// message loop as `onmessage` and answers Ready (web/src/solver/worker.rs). The page does
// not wait for Ready: requests that come while the wasm loads are held here and handed to
// that loop in order, so the first solve starts the moment the solver can run it.
let held = null; // the requests that come while the wasm loads (after the first message)
self.onmessage = async (e) => {
  if (held) {
    held.push(e);
    return;
  }
  held = [];
  try {
    const bindings = await import(e.data.glue);
    await bindings.default({ module_or_path: e.data.module });
  } catch (err) {
    self.postMessage(JSON.stringify({ Panicked: { message: `the solver could not start: ${err}` } }));
    return;
  }
  for (const m of held) self.onmessage(m);
};
