// The fifteen package as the browser worker installs it (run by `make web`):
//
//     node tools/web_pyc.mjs static/wheels/fifteen-X.Y.Z-py3-none-any.whl
//
// writes static/wheels/fifteen-X.Y.Z-pyodide.zip: the runtime package's files (fifteen/, without the
// command line fifteen/cli/ and fifteen/__main__.py, which the browser never runs; not the wheel's
// database builder dbbuild/, which needs numpy, nor its metadata) plus their bytecode
// (fifteen/__pycache__/*.cpython-3NN.pyc), compiled by the Python of the vendored Pyodide
// itself (node_modules/pyodide, the npm package static/vendor/pyodide is copied from) with
// "unchecked-hash" invalidation: the worker unpacks the zip into site-packages and imports
// without compiling ~400 KB of source (about 0.25 s in the browser).  A runtime whose Python
// differs ignores the .pyc files (another magic number) and compiles the sources, as before.
// The zip is reproducible: sorted names, fixed time stamps.

import { readFileSync, writeFileSync } from "node:fs";
import { loadPyodide } from "../node_modules/pyodide/pyodide.mjs";

const [wheel] = process.argv.slice(2);
if (!wheel || !wheel.endsWith(".whl")) {
  console.error("usage: node tools/web_pyc.mjs static/wheels/fifteen-X.Y.Z-py3-none-any.whl");
  process.exit(2);
}
const out = wheel.replace(/-py3-none-any\.whl$/, "-pyodide.zip");
const pyodide = await loadPyodide();
pyodide.FS.writeFile("/tmp/in.whl", new Uint8Array(readFileSync(wheel)));
pyodide.runPython(`
import compileall, os, py_compile, zipfile
with zipfile.ZipFile("/tmp/in.whl") as whl:
    browser = [n for n in whl.namelist() if n.startswith("fifteen/") and not n.startswith(("fifteen/cli/", "fifteen/__main__.py"))]
    whl.extractall("/tmp/pkg", browser)
ok = compileall.compile_dir("/tmp/pkg", quiet=1, invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
if not ok:
    raise SystemExit("web_pyc: the package does not compile")
names = sorted(
    os.path.relpath(os.path.join(d, f), "/tmp/pkg") for d, _, files in os.walk("/tmp/pkg") for f in files
)
with zipfile.ZipFile("/tmp/out.zip", "w", zipfile.ZIP_DEFLATED) as z:
    for name in names:
        info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
        info.compress_type = zipfile.ZIP_DEFLATED
        info.external_attr = 0o644 << 16
        with open(os.path.join("/tmp/pkg", name), "rb") as f:
            z.writestr(info, f.read())
`);
writeFileSync(out, pyodide.FS.readFile("/tmp/out.zip"));
console.log(`wrote ${out}`);
