// The solver's Web Worker (a module worker). It runs the page's own wasm: the page posts, as
// its first message, the URL of its JS glue and the WebAssembly.Module it compiled, so the
// page and every worker share one download and one compile (docs/ARCHITECTURE.md, "The
// page"). Instantiating runs the binary's main(), which in a worker installs the solver's
// message loop and answers Ready (web/src/solver/worker.rs); messages the page sends before
// that wait in the page's queue.
self.addEventListener('message', async (e) => {
  const { glue, module } = e.data;
  try {
    const bindings = await import(glue);
    await bindings.default({ module_or_path: module });
  } catch (err) {
    self.postMessage(JSON.stringify({ Panicked: { message: `the solver could not start: ${err}` } }));
  }
}, { once: true });
