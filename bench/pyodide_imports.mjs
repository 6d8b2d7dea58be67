// The solver's import time at the browser worker's start-up, in Pyodide under Node.js: a fresh
// runtime per sample, the package installed from the archive the page installs
// (static/wheels/fifteen-*-pyodide.zip: the sources and their bytecode, `make web`), then
// `import fifteen.api` timed (what the worker does at start-up), then each module of the package
// that it did not import (the command line's aside), each timed in turn: what importing it at
// start-up would add.
//
//   node bench/pyodide_imports.mjs [--samples 7] [--archive static/wheels/fifteen-0.1.0-pyodide.zip]
//
// Prints the median and the range of each figure in milliseconds, and the modules each import
// brought in (stdlib modules too, but those Pyodide had already loaded).
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { loadPyodide } from "pyodide";
import { root } from "./pyodide_common.mjs";

/** Modules of the package the browser never imports (the command line, the native process pool, batches). */
const NATIVE = /^fifteen\.(__main__|cli(\..*)?|parallel\.(processes|batch))$/;

function option(name, fallback) {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : fallback;
}

if (process.argv.includes("--help")) {
  console.log("node bench/pyodide_imports.mjs [--samples N] [--archive PATH]: import times of fifteen.api and its later imports in Pyodide");
  process.exit(0);
}
const samples = Number(option("--samples", "7"));
const wheels = join(root, "static", "wheels");
const archive = option("--archive", join(wheels, readdirSync(wheels).find((f) => f.endsWith("-pyodide.zip")) || "missing: make web"));
const file = readFileSync(archive);
const bytes = new Uint8Array(file.buffer, file.byteOffset, file.byteLength);

const TIMED = `
import os, sys, time
def timed(name):
    before = set(sys.modules)
    t0 = time.perf_counter()
    __import__(name)
    ms = (time.perf_counter() - t0) * 1e3
    return ms, sorted(set(sys.modules) - before)
def left_out():
    # every module of the package, listed from its files (pkgutil.walk_packages would import the subpackages)
    import fifteen
    top = os.path.dirname(fifteen.__file__)
    names = []
    for folder, dirs, files in os.walk(top):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        rel = os.path.relpath(folder, top)
        package = "fifteen" if rel == "." else "fifteen." + rel.replace(os.sep, ".")
        for f in sorted(files):
            if f.endswith(".py"):
                names.append(package if f == "__init__.py" else f"{package}.{f[:-3]}")
    return [n for n in names if n not in sys.modules]
`;

const runs = {};
const brought = {};
for (let i = 0; i < samples; i++) {
  const pyodide = await loadPyodide({ stdout: () => {}, stderr: (s) => process.stderr.write(s + "\n") });
  const sys = pyodide.pyimport("sys");
  const sitePackages = sys.path.toJs().find((p) => p.endsWith("/site-packages"));
  pyodide.unpackArchive(bytes, "zip", { extractDir: sitePackages });
  pyodide.runPython(TIMED);
  const timed = pyodide.globals.get("timed");
  const time = (name) => {
    const [ms, modules] = timed(name).toJs();
    (runs[name] ||= []).push(ms);
    brought[name] = modules;
  };
  time("fifteen.api");
  const later = pyodide.globals.get("left_out")().toJs();
  for (const name of later.filter((n) => !NATIVE.test(n))) if (!brought[name] || runs[name].length <= i) time(name);
  timed.destroy();
  sys.destroy();
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`${archive.split("/").pop()}, ${samples} fresh runtimes, node ${process.version}`);
for (const [name, xs] of Object.entries(runs)) {
  const own = brought[name].filter((m) => m.startsWith("fifteen"));
  const stdlib = brought[name].filter((m) => !m.startsWith("fifteen") && !m.startsWith("_"));
  console.log(
    `${name.padEnd(26)} median ${median(xs).toFixed(1).padStart(6)} ms (${Math.min(...xs).toFixed(1)}-${Math.max(...xs).toFixed(1)})` +
      `  ${own.length} fifteen modules; stdlib: ${stdlib.join(" ") || "-"}`,
  );
}
