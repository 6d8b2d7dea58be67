// solver/protocol.js: the message types, their builders and their documentation; that
// both sides use it (no type name written as a literal elsewhere); that the
// methods and error types match fifteen.api's (as `python -m fifteen schema` prints them).

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";

import {
  ErrorCode,
  ErrorType,
  FromWorker,
  LoadState,
  Method,
  PackPhase,
  SIGINT,
  Stage,
  ToWorker,
  bootOptions,
  isFromWorker,
  isToWorker,
  message,
  warmUpParams,
  wireError,
} from "../../static/js/solver/protocol.js";

const ROOT = new URL("../../", import.meta.url);
const read = (rel) => readFileSync(new URL(rel, ROOT), "utf8");

/** The JSON API's methods, parameters, error types and codes, from the Python side itself. */
function apiSchema() {
  const venv = fileURLToPath(new URL(".venv/bin/python", ROOT));
  const python = process.env.PYTHON || (existsSync(venv) ? venv : "python3");
  const env = { ...process.env, PYTHONPATH: fileURLToPath(new URL("py", ROOT)) };
  return JSON.parse(execFileSync(python, ["-m", "fifteen", "schema"], { env, encoding: "utf8" }));
}

describe("the enumerations", () => {
  test("frozen, and no value repeated within one", () => {
    for (const e of [ToWorker, FromWorker, Method, ErrorType, ErrorCode, Stage, LoadState, PackPhase]) {
      assert.ok(Object.isFrozen(e));
      const values = Object.values(e);
      assert.equal(new Set(values).size, values.length);
    }
  });

  test("a message type tells its direction", () => {
    const both = Object.values(ToWorker).filter((t) => Object.values(FromWorker).includes(t));
    assert.deepEqual(both, []);
  });

  test("SIGINT is the signal number Pyodide's interrupt buffer expects", () => {
    assert.equal(SIGINT, 2);
  });
});

describe("boot options (a worker's name)", () => {
  test("the JSON of {controlled} is read back; anything else means none", () => {
    assert.deepEqual(bootOptions(JSON.stringify({ controlled: true })), { controlled: true });
    assert.deepEqual(bootOptions('{"controlled": false, "other": 1}'), { controlled: false });
    for (const name of ["", "solver", "{}", '{"controlled": "yes"}', "null", "[true]", undefined]) assert.equal(bootOptions(name), null, String(name));
  });
});

describe("the builders", () => {
  test("page -> worker", () => {
    assert.deepEqual(message.init({ shape: "3x3", skip: ["wd-3x3.f15"], controlled: true }), {
      type: "init",
      shape: "3x3",
      skip: ["wd-3x3.f15"],
      controlled: true,
    });
    assert.deepEqual(message.init({ shape: "4x4" }), { type: "init", shape: "4x4", skip: [], controlled: false });
    assert.deepEqual(message.call(7, Method.PARSE, { text: "1 2 3 0" }), { type: "call", id: 7, method: "parse", params: { text: "1 2 3 0" } });
    assert.deepEqual(message.call(8, Method.INFO), { type: "call", id: 8, method: "info", params: {} });
    // a call whose method reports progress (the lab's compare) says so
    assert.deepEqual(message.call(10, Method.COMPARE, { bounds: ["md"] }, { progress: true }), {
      type: "call",
      id: 10,
      method: "compare",
      params: { bounds: ["md"] },
      progress: true,
    });
    // a solve is a call like any other: one door per request
    assert.deepEqual(message.call(9, Method.SOLVE, { text: "x", shape: "4x4", bound: "auto" }, { progress: true }), {
      type: "call",
      id: 9,
      method: "solve",
      params: { text: "x", shape: "4x4", bound: "auto" },
      progress: true,
    });
    assert.equal(message.solve, undefined);
    assert.equal(ToWorker.SOLVE, undefined);
    assert.deepEqual(message.loadPack(10, "pdb-78.f15.xz"), { type: "loadPack", id: 10, file: "pdb-78.f15.xz" });
    // a cancel names the request it stops (without an id: the one that runs)
    assert.deepEqual(message.cancel(9), { type: "cancel", id: 9 });
    assert.deepEqual(message.cancel(), { type: "cancel" });
  });

  test("worker -> page", () => {
    assert.deepEqual(message.loading(Stage.DATABASES, LoadState.PROGRESS, "wd-4x4.f15", { bytes: 10, loaded: 4 }), {
      type: "loading",
      stage: "databases",
      state: "progress",
      label: "wd-4x4.f15",
      bytes: 10,
      loaded: 4,
    });
    assert.deepEqual(message.warning("careful"), { type: "warning", message: "careful" });
    assert.deepEqual(message.ready({ info: { version: "1" }, seconds: 3 }), { type: "ready", info: { version: "1" }, interrupt: null, seconds: 3, packs: [], heap_bytes: null });
    assert.equal(message.ready({ info: {}, seconds: 0, heap_bytes: 52 * 2 ** 20 }).heap_bytes, 52 * 2 ** 20);
    assert.deepEqual(message.progress(3, { nodes: 5 }), { type: "progress", id: 3, progress: { nodes: 5 } });
    assert.deepEqual(message.result(3, { length: 4 }), { type: "result", id: 3, result: { length: 4 } });
    assert.deepEqual(message.error(3, { type: "input", message: "bad" }), { type: "error", id: 3, error: { type: "input", message: "bad" }, fatal: false });
    assert.deepEqual(message.error(null, { type: "asset", message: "damaged", file: "wd-4x4.f15" }, { fatal: true }), {
      type: "error",
      id: null,
      error: { type: "asset", message: "damaged", file: "wd-4x4.f15" },
      fatal: true,
    });
  });

  test("every builder's message is recognised on the side that receives it", () => {
    for (const m of [message.init({ shape: "4x4" }), message.call(1, Method.INFO), message.loadPack(1, "f"), message.cancel(1), message.cancel()]) {
      assert.ok(isToWorker(m) && !isFromWorker(m), m.type);
    }
    for (const m of [
      message.loading(Stage.RUNTIME, LoadState.START, "x"),
      message.warning("w"),
      message.ready({ info: {}, seconds: 0 }),
      message.progress(1, {}),
      message.result(1, {}),
      message.error(1, "e"),
    ]) {
      assert.ok(isFromWorker(m) && !isToWorker(m), m.type);
    }
    for (const m of [null, undefined, "init", {}, { type: "nope" }, { type: 1 }]) {
      assert.ok(!isToWorker(m) && !isFromWorker(m), JSON.stringify(m));
    }
  });

  test("wireError: the wire form of any error", () => {
    class Typed extends Error {
      constructor(type, text, file) {
        super(text);
        this.type = type;
        this.file = file;
      }
    }
    assert.deepEqual(wireError(new Typed("asset", "corrupt", "wd.f15")), { type: "asset", message: "corrupt", file: "wd.f15" });
    assert.deepEqual(wireError(new Error("boom")), { type: "internal", message: "boom" });
    assert.deepEqual(wireError("text"), { type: "internal", message: "text" });
    assert.deepEqual(wireError(undefined), { type: "internal", message: "Unknown error" });
    assert.deepEqual(wireError({ type: "load", message: "offline" }), { type: "load", message: "offline" });
    // The result crosses postMessage: plain data only.
    assert.deepEqual(structuredClone(wireError(new Typed("input", "x"))), { type: "input", message: "x" });
  });
});

describe("one source for the protocol", () => {
  const header = read("static/js/solver/protocol.js").split("*/")[0];

  test("every message type is documented in solver/protocol.js's header", () => {
    for (const key of [...Object.keys(ToWorker), ...Object.keys(FromWorker)]) {
      assert.match(header, new RegExp(`^ \\*   ${key}\\s`, "m"), `${key} is not documented`);
    }
  });

  // The modules of both sides: the worker's and the page's client.
  const sides = [...readdirSync(new URL("static/js/worker/", ROOT)).map((f) => `worker/${f}`), "solver/client.js", "solver/pool.js"];

  test("both sides import solver/protocol.js", () => {
    for (const f of ["worker/worker.js", "solver/client.js"]) {
      assert.match(read(`static/js/${f}`), /from "(\.\/|\.\.\/solver\/)protocol\.js"/, f);
    }
    assert.ok(sides.length >= 5, sides.join(", "));
  });

  test("no message type, stage, state or error type is written as a string literal outside solver/protocol.js", () => {
    const names = new Set([...Object.values(ToWorker), ...Object.values(FromWorker), ...Object.values(Stage), ...Object.values(LoadState), ...Object.values(ErrorType)]);
    const found = [];
    for (const f of sides) {
      const code = read(`static/js/${f}`)
        .replace(/\/\*[\s\S]*?\*\//g, "")
        .replace(/\/\/.*$/gm, "");
      for (const m of code.matchAll(/(["'`])([A-Za-z]+)\1/g)) {
        if (names.has(m[2])) found.push(`${f}: ${m[0]}`);
      }
    }
    assert.deepEqual(found, []);
  });

  test("Method lists fifteen.api's methods, ErrorType holds every error type it returns (python -m fifteen schema)", () => {
    const schema = apiSchema();
    assert.deepEqual(Object.keys(schema.methods).sort(), Object.values(Method).sort());
    assert.deepEqual(schema.error_types, ["input", "asset", "cancelled", "internal"]);
    for (const e of schema.error_types) assert.ok(Object.values(ErrorType).includes(e), `the API returns error type ${e}`);
    assert.ok("unsolvable" in schema.error_codes && "internal" in schema.error_codes, Object.keys(schema.error_codes).join(", "));
    // the codes the page tells apart are codes the API gives
    for (const code of Object.values(ErrorCode)) assert.ok(code in schema.error_codes, `ErrorCode ${code} is not one of the API's codes`);
  });
});

describe("warmUpParams", () => {
  test("a one-move position of the shape (the blank one step left of its goal square), bound auto", () => {
    assert.deepEqual(warmUpParams("4x4"), { text: "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15", shape: "4x4", bound: "auto" });
    assert.deepEqual(warmUpParams("2x2"), { text: "1 2 0 3", shape: "2x2", bound: "auto" });
    assert.equal(warmUpParams("3x4").text, "1 2 3 4 5 6 7 8 9 10 0 11");
  });
});
