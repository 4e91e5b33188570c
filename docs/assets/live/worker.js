// The live pages' Python, in a worker so the page stays responsive while the runtime loads and while Python
// thinks: loads Pyodide and the wheels from this site (the order tools/browser/bundle.py's manifest gives), then
// answers each {id, name, args} message with the result of docs_pages.live's function of that name.
const RUNTIME = new URL("../runtime/", import.meta.url);

async function load() {
  const started = performance.now();
  const manifest = await (await fetch(new URL("manifest.json", RUNTIME))).json();
  const steps = 2 + manifest.wheels.length;
  let step = 1;
  postMessage({ progress: `Loading the Python runtime (Pyodide ${manifest.pyodide}, about 6 MB the first time, then from the browser's cache): step ${step} of ${steps}` });
  const { loadPyodide } = await import(new URL("pyodide/pyodide.mjs", RUNTIME).href);
  const pyodide = await loadPyodide({ indexURL: new URL("pyodide/", RUNTIME).href });
  const sitePackages = pyodide.runPython("import site; site.getsitepackages()[0]");
  for (const wheel of manifest.wheels) {
    step += 1;
    postMessage({ progress: `Unpacking ${wheel}: step ${step} of ${steps}` });
    const data = await (await fetch(new URL(`wheels/${wheel}`, RUNTIME))).arrayBuffer();
    pyodide.unpackArchive(data, "wheel", { extractDir: sitePackages });
  }
  postMessage({ progress: `Importing canasta-ref: step ${steps} of ${steps}` });
  const live = pyodide.pyimport("docs_pages.live");
  postMessage({ ready: (performance.now() - started) / 1000 });
  return live;
}

const loaded = load();
loaded.catch((error) => postMessage({ failed: String(error) }));

self.onmessage = async (event) => {
  const { id, name, args } = event.data;
  try {
    const live = await loaded;
    postMessage({ id, result: live[name](...args) });
  } catch (error) {
    postMessage({ id, error: String(error) });
  }
};
