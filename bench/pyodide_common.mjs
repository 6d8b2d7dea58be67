// Shared by the Pyodide benchmarks run in Node.js (pyodide_runner.mjs,
// pyodide_pool_bench.mjs): load Pyodide, write the fifteen package into its file
// system, register the 4x4 databases (and optionally the 7-8 pack) from their
// bytes through fifteen.api.load_asset, as the browser worker does.
import { readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import { loadPyodide, version as pyodideVersion } from "pyodide";

export const benchDir = dirname(fileURLToPath(import.meta.url));
export const root = resolve(benchDir, "..");
export { pyodideVersion };

/** Pyodide's home, where the package and helper modules are written (on sys.path). */
export const HOME = "/home/pyodide";

/** Copy the .py files of `src` (recursively, without __pycache__) to `dst` in Pyodide's FS. */
export function copyTree(pyodide, src, dst) {
  pyodide.FS.mkdirTree(dst);
  for (const name of readdirSync(src)) {
    const s = join(src, name);
    if (statSync(s).isDirectory()) {
      if (name !== "__pycache__") copyTree(pyodide, s, `${dst}/${name}`);
    } else if (name.endsWith(".py")) {
      pyodide.FS.writeFile(`${dst}/${name}`, readFileSync(s));
    }
  }
}

/**
 * A Pyodide with the fifteen package of `pyDir` (default py/) and the `extra`
 * modules (paths of .py files, written next to it) importable; its output goes
 * to stderr.  Returns {pyodide, api (fifteen.api), loadSeconds}.
 */
export async function startPyodide({ pyDir = join(root, "py"), extra = [] } = {}) {
  const t0 = performance.now();
  const pyodide = await loadPyodide({
    stdout: (s) => process.stderr.write(s + "\n"),
    stderr: (s) => process.stderr.write(s + "\n"),
  });
  const loadSeconds = (performance.now() - t0) / 1000;
  copyTree(pyodide, join(pyDir, "fifteen"), `${HOME}/fifteen`);
  for (const file of extra) pyodide.FS.writeFile(`${HOME}/${file.split("/").pop()}`, readFileSync(file));
  pyodide.runPython(`import sys; sys.path.insert(0, '${HOME}')`);
  const api = pyodide.pyimport("fifteen.api");
  return { pyodide, api, loadSeconds };
}

/** The assets of `dbDir`'s manifest for `shapes` (default the 4x4's) that the browser worker loads (not the packs). */
export function assetFiles(dbDir, shapes = ["4x4"]) {
  const manifest = JSON.parse(readFileSync(join(dbDir, "manifest.json"), "utf8"));
  return manifest.assets
    .filter((entry) => (entry.shapes || []).some((s) => shapes.includes(s)) && entry.browser !== false) // native-only ones are skipped, as in the browser
    .map((entry) => entry.file);
}

/** Register `bytes` (a Uint8Array or Buffer) as the asset `name`; throws on an error reply. */
export function loadAsset(api, name, bytes) {
  const view = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const reply = JSON.parse(api.load_asset(name, view));
  if (!reply.ok) throw new Error(`${name}: ${reply.error.message}`);
  return reply.result;
}

/** Register the databases of `dbDir` for `shapes` (default the 4x4's; files as in assetFiles); returns their names. */
export function loadAssets(api, dbDir, shapes = ["4x4"]) {
  const files = assetFiles(dbDir, shapes);
  for (const file of files) loadAsset(api, file, readFileSync(join(dbDir, file)));
  return files;
}

/**
 * Register a pack from its decompressed bytes (e.g. a view of a SharedArrayBuffer)
 * the way the page's worker does: copied once into a bytearray of Python's
 * (fifteen.api.new_buffer), which load_asset takes over as the table.
 */
export function loadPack(api, name, bytes) {
  const buf = api.new_buffer(bytes.byteLength);
  try {
    const view = buf.getBuffer("u8");
    try {
      view.data.set(bytes);
    } finally {
      view.release();
    }
    const reply = JSON.parse(api.load_asset(name, buf));
    if (!reply.ok) throw new Error(`${name}: ${reply.error.message}`);
    return reply.result;
  } finally {
    buf.destroy();
  }
}

/** {python, fifteen}: the versions of the runtime's Python and of the package. */
export function runtimeInfo(pyodide) {
  return JSON.parse(
    pyodide.runPython("import sys, json, fifteen; json.dumps({'python': sys.version.split()[0], 'fifteen': fifteen.__version__})"),
  );
}

/** Instances of a data/ TSV file: {id, tiles (numbers), optimal} by id (text). */
export function readInstances(file) {
  const out = new Map();
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (!line.trim() || line.startsWith("#")) continue;
    const [id, tiles, optimal] = line.split("\t");
    out.set(id, { id, tiles: tiles.trim().split(/\s+/).map(Number), optimal: Number(optimal) });
  }
  return out;
}
